"""The marks players and outside tests read, checked in the rendered page itself.

A view's context can be right while its template drops or swaps what it shows; these
tests parse the HTML a browser gets: whose turn, the scores, the last move and the
squares a thunder-stone cleared, the hidden ``ply`` that stops a second submit, and
the CSRF token htmx sends.
"""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from game import play
from game.engine import Position, Rules
from game.models import Game, Move
from tests.support.games import HTMX, hotseat, seated_client

pytestmark = pytest.mark.django_db


def page_of(client: Client, game: Game, **headers: str) -> BeautifulSoup:
    response = client.get(f"/g/{game.public_id}/", headers=headers)
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def squares_with(page: BeautifulSoup, css_class: str) -> list[str]:
    return [tag["data-square"] for tag in page.select(f"[data-square].{css_class}")]


# Whose turn and the scores ----------------------------------------------------------------


def test_the_status_bar_shows_each_sides_own_score():
    # Dark holds a corner (two edge hinges) and an edge stone beside it: 2 + 1 + 1 = 4.
    # Light's lone centre stone scores nothing.
    moves = ["A1", "D4", "B1"]
    game, tokens = hotseat(moves)
    score = Position.replay(Rules(), moves).score()
    assert score.dark != score.light
    page = page_of(seated_client(game, tokens), game)
    assert page.select_one('[data-score="dark"]').get_text(strip=True) == str(score.dark)
    assert page.select_one('[data-score="light"]').get_text(strip=True) == str(score.light)


@pytest.mark.parametrize("moves, turn", [([], "dark"), (["D4"], "light"), (["D4", "E4"], "dark")])
def test_the_page_says_whose_turn_it_is(moves, turn):
    game, tokens = hotseat(moves)
    for client in (seated_client(game, tokens), Client()):  # a player and a watcher
        page = page_of(client, game)
        (mark,) = page.select("[data-turn]")
        assert mark["data-turn"] == turn
        assert not page.select("[data-result]")


def test_a_finished_page_shows_the_result_why_and_no_turn():
    game, tokens = hotseat(["D4"])
    play.resign(game.public_id, tokens)  # light, to move, resigns
    page = page_of(Client(), game)
    result = page.select_one("[data-result]")
    assert result["data-result"] == "dark"
    assert "Light resigned" in result.get_text()
    assert "Light resigned" in page.select_one("[data-score-line]").get_text()
    assert not page.select("[data-turn]")


def test_a_game_played_out_says_neither_side_can_move():
    rules = Rules(special_stones=False)
    position = Position.start(rules)
    while not position.is_over:
        position = position.play(position.legal_moves()[0])
    game, tokens = hotseat(list(position.record), rules)
    page = page_of(seated_client(game, tokens), game)
    assert page.select_one("[data-result]")["data-result"] == position.result
    line = page.select_one("[data-score-line]").get_text()
    assert "Neither side can move" in line and str(position.score()) in line


# The last move and the squares it cleared -----------------------------------------------


def test_only_the_last_moves_square_is_marked():
    game, tokens = hotseat(["D4", "E4", "A1"])
    for headers in ({}, HTMX):
        page = page_of(seated_client(game, tokens), game, **headers)
        assert squares_with(page, "sq--last") == ["A1"]
        assert squares_with(page, "sq--cleared") == []


def test_a_thunder_move_marks_its_square_and_the_squares_it_cleared():
    game, tokens = hotseat(["D4", "E5", "T E4"])
    page = page_of(Client(), game)
    assert squares_with(page, "sq--last") == ["E4"]
    assert sorted(squares_with(page, "sq--cleared")) == ["D4", "E5"]
    # The next move takes the marks away from them.
    play.make_move(game.public_id, tokens, "A1")
    page = page_of(Client(), game)
    assert squares_with(page, "sq--last") == ["A1"]
    assert squares_with(page, "sq--cleared") == []


def test_a_new_game_marks_no_square():
    game, tokens = hotseat([])
    page = page_of(seated_client(game, tokens), game)
    assert squares_with(page, "sq--last") == squares_with(page, "sq--cleared") == []


# The board's form: the ply it was drawn at and the CSRF token ----------------------------


def board_form_fields(page: BeautifulSoup) -> dict[str, str]:
    """The hidden fields the board's form sends with the square's button."""
    form = page.select_one("form#board")
    assert form is not None and form["method"] == "post"
    return {field["name"]: field["value"] for field in form.select("input[type=hidden]")}


def test_the_board_form_carries_the_ply_it_was_drawn_at():
    game, tokens = hotseat(["D4", "E4"])
    fields = board_form_fields(page_of(seated_client(game, tokens), game))
    assert fields["ply"] == "2"


def test_submitting_a_stale_page_twice_without_javascript_plays_once():
    game, tokens = hotseat(["D4"])
    client = seated_client(game, tokens, enforce_csrf_checks=True)
    page = page_of(client, game)
    fields = board_form_fields(page)
    action = page.select_one("form#board")["action"]
    first = client.post(action, fields | {"move": "A1"})
    second = client.post(action, fields | {"move": "G7"})  # the same page, submitted again
    assert first.status_code == second.status_code == 303
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["D4", "A1"]
    assert "board changed" in client.get(second["Location"]).content.decode()


def test_htmx_sends_the_pages_csrf_token_and_it_is_accepted():
    game, tokens = hotseat([])
    client = seated_client(game, tokens, enforce_csrf_checks=True)
    page = page_of(client, game)
    headers = json.loads(page.body["hx-headers"])
    token = headers["X-CSRFToken"]
    response = client.post(
        f"/g/{game.public_id}/move",
        {"move": "D4", "ply": "0"},
        headers=HTMX | {"X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert game.logged_record() == ["D4"]
