"""Games for tests, made as the site makes them, and the browsers that hold their seats.

Two ways in: through ``game.play``, as the views and the API do (``hotseat``,
``friends``: quick, a game and its seats' tokens), or through the home page's form, as
a browser does (``created``, ``post_move``). A test that is about the form or the move
view itself posts its own requests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.test import Client

from game import play
from game.engine import Rules
from game.models import Game
from game.tokens import hash_token, new_seat_token

HTMX = {"HX-Request": "true"}  # the header htmx sends with each of its requests
OPENING = ["D4", "E4", "C3", "E5"]  # four moves of Mǽrstánas, no capture, dark to move


def hotseat(moves: Iterable[str] = (), rules: Rules | None = None) -> tuple[Game, dict[str, str]]:
    """A hot-seat game with ``moves`` played, read back from the database, and the
    tokens of both its seats (the creator holds both)."""
    game, tokens = play.create_game("hotseat", rules or Rules())
    for move in moves:
        play.make_move(game.public_id, tokens, move)
    game.refresh_from_db()
    return game, tokens


def friends(rules: Rules | None = None) -> tuple[Game, dict[str, str], dict[str, str]]:
    """A friend game under way: the creator's tokens (dark), the friend's (light)."""
    game, dark = play.create_game("friend", rules or Rules(), "dark")
    game, _, light = play.join(game.public_id, play.invite_code(game))
    return game, dark, {"light": light}


def match(users=(None, None), rules: Rules | None = None, **terms) -> tuple[Game, dict[str, str]]:
    """A game between two people that has started, as the lobby makes one: each side
    holds a fresh seat token and the account in ``users`` (None: a guest); ``terms``
    are ``play.create_match``'s (speed, clock, rated). The game, and the tokens by colour."""
    tokens = {"dark": new_seat_token(), "light": new_seat_token()}
    people = {
        color: play.Person(hash_token(token), user)
        for (color, token), user in zip(tokens.items(), users, strict=True)
    }
    return play.create_match(rules or Rules(), people, **terms), tokens


def seated_client(game: Game, tokens: dict[str, str], **options: object) -> Client:
    """A browser holding ``tokens`` for ``game`` in its session (``options``: the
    ``Client``'s own, such as ``enforce_csrf_checks``)."""
    client = Client(**options)
    session = client.session
    session["seats"] = {game.public_id: tokens}
    session.save()
    client.cookies["sessionid"] = session.session_key
    return client


def take_seats(client: Client, game: Game, tokens: dict[str, str]) -> Client:
    """``client`` takes the seats of ``tokens`` through their private links, as a
    second device would; the client."""
    for color, token in tokens.items():
        answer = client.post(f"/g/{game.public_id}/seat/{color}/{token}/")
        assert answer.status_code == 303, answer.content
    return client


def created(client: Client, **fields: str) -> Game:
    """A game made by posting the home page's form with ``fields``; the answer sends
    the creator to the game's page, and ``client`` holds the creator's seats."""
    response = client.post("/", fields)
    assert response.status_code == 303, response.content
    public_id = response["Location"].strip("/").rsplit("/", 1)[-1]
    assert response["Location"] == f"/g/{public_id}/"
    return Game.objects.get(public_id=public_id)


def post_move(
    client: Client,
    game: Game,
    move: str,
    htmx: bool = False,
    ply: int | None = None,
    **extra: str,
):
    """Post ``move`` to the game's move view at the game's current ply (or ``ply``),
    as htmx or as a plain form; the response."""
    game.refresh_from_db()
    data = {"move": move, "ply": game.ply if ply is None else ply} | extra
    return client.post(f"/g/{game.public_id}/move", data, headers=HTMX if htmx else {})


def played(client: Client, moves: Iterable[str], **fields: str) -> Game:
    """A game made through the home page's form with ``fields``, its ``moves`` posted
    one by one to the move view as a plain form, read back from the database."""
    game = created(client, **fields)
    for move in moves:
        assert post_move(client, game, move).status_code == 303, move
    game.refresh_from_db()
    return game


def page(client: Client, game: Game, query: str = "") -> str:
    """The game's page as ``client`` sees it (``query`` such as ``?from=B6``)."""
    response = client.get(f"/g/{game.public_id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def square(text: str, name: str) -> str:
    """The markup of one square of a page's board."""
    found = re.search(rf'<div class="sq[^"]*" data-square="{name}".*?</div>', text, re.S)
    assert found, name
    return found[0]


def from_position(client: Client, start: Any) -> Game:
    """A hot-seat game of any kind set up from the position ``start`` (its rules are
    the game's), both seats held by ``client``."""
    game, tokens = play.create_game("hotseat", start.rules, start=start)
    for color, token in tokens.items():
        assert client.post(f"/g/{game.public_id}/seat/{color}/{token}/").status_code == 303
    return game
