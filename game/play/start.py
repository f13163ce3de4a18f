"""Starting a game: a new one (``create_game``), a match agreed on in the lobby, an
imported record to replay, and a finished game's rematch."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from game import clocks
from game.kinds import GamePosition
from game.models import Game, Seat
from game.options import Options
from game.play.base import Tokens, computer_replies, locked, log_moves, seated_colors, timed
from game.play.end import finish
from game.play.seating import join
from game.refusals import AlreadySeated, GameFinished, NotSeated, PlayError
from game.registry import kind_of
from game.surface import (
    Color,
    Outcome,
    seat_outcome,
)
from game.tokens import new_seat_token


def create_game(
    mode: str,
    rules: Options,
    creator: str = "dark",
    rematch_of: Game | None = None,
    level: str = "",
    start: GamePosition | None = None,
    moves: Sequence[str] = (),
    user: Any = None,
    rated: bool = False,
    clock: Game | None = None,
) -> tuple[Game, dict[str, str]]:
    """Start a game of the kind whose options ``rules`` are; return it and the seat
    tokens of its creator, by colour. ``user`` is the creator's account, if they are
    logged in: their seats are its. A ``rated`` game is a friend game between two
    accounts (``join``), which changes their ratings when it ends.

    A hot-seat game gives the creator both seats; a friend game one seat (``creator``
    is ``dark``, ``light`` or ``random``) and leaves the other for the invite; a game
    against the computer one seat, and the other to ``level`` (a level id of the
    kind's players), which thinks at once if it has the first move.

    A game may start from a set-up position, ``start``, and with ``moves`` already
    played from it (a game continued from a replay, an imported record or a board
    set up by hand); they are logged as its first moves.
    """
    if mode not in (Game.Mode.HOTSEAT, Game.Mode.FRIEND, Game.Mode.COMPUTER):
        raise PlayError(
            f"{mode!r} is not a kind of game: choose hot-seat, play a friend or the computer"
        )
    if creator == "random":
        creator = random.SystemRandom().choice([c.value for c in Color])
    if creator not in Color.__members__.values():
        raise PlayError(f"{creator!r} is not a colour: choose dark, light or random")
    players = kind_of(rules).players
    if mode == Game.Mode.COMPUTER and level not in players.level_ids:
        raise PlayError(f"{level!r} is not a level: choose one of {', '.join(players.level_ids)}")
    if rated and (mode != Game.Mode.FRIEND or user is None or start is not None or moves):
        raise PlayError("a rated game is a friend game from the empty board, started logged in")
    game, position = new_game(mode, rules, start, moves)
    if position.is_over:
        raise GameFinished("the game is over in that position: there is nothing to play")
    game.rated = rated
    if clock is not None and mode == Game.Mode.FRIEND:
        # A rematch keeps its game's time control; its clocks start as the friend joins.
        clocks.set_up(game, clock.speed, clock.clock_initial, clock.clock_increment, clock.days)
    colors = [c.value for c in Color] if mode == Game.Mode.HOTSEAT else [creator]
    tokens = {color: new_seat_token() for color in colors}
    game.rematch_of = rematch_of
    game.status = Game.Status.ACTIVE if mode != Game.Mode.FRIEND else Game.Status.WAITING
    with transaction.atomic():
        game.save()
        seats = [Seat.person(game, color, token, user) for color, token in tokens.items()]
        if mode == Game.Mode.COMPUTER:
            seats.append(Seat.computer(game, Color(creator).opponent, level))
        game.took_seats(Seat.objects.bulk_create(seats), new=True)
        log_moves(game, position.history)
        computer_replies(game)
    return game, tokens


@dataclass(frozen=True)
class Person:
    """One side of a game two people agreed on (``lobby``): the hash of the seat token
    its browser or program holds, and its account or guest name."""

    token_hash: str
    user: Any = None
    guest_name: str = ""


def create_match(
    rules: Options,
    people: Mapping[str, Person],
    rated: bool = False,
    speed: str = Game.Speed.UNLIMITED,
    initial: int = 0,
    increment: int = 0,
    days: int = 0,
) -> Game:
    """Start a game between two people, by colour, from the empty board: a challenge
    accepted in the lobby. It starts at once, its time control's clock with it; a
    ``rated`` game is between two accounts."""
    if set(people) != {color.value for color in Color}:
        raise ValueError("a match has a person for each side")
    if rated and any(person.user is None for person in people.values()):
        raise PlayError("a rated game is between two accounts: log in or sign up to play one")
    accounts = [person.user.pk for person in people.values() if person.user is not None]
    if len(set(accounts)) < len(accounts):
        raise AlreadySeated("one account cannot play both sides of a game")
    game, _ = new_game(Game.Mode.FRIEND, rules, None, ())
    game.rated = rated
    game.status = Game.Status.ACTIVE
    clocks.set_up(game, speed, initial, increment, days)
    clocks.turn_begins(game, clocks.now())
    with transaction.atomic():
        game.save()
        seats = [
            Seat(
                game=game,
                color=color,
                token_hash=person.token_hash,
                user=person.user,
                guest_name=person.guest_name,
            )
            for color, person in people.items()
        ]
        game.took_seats(Seat.objects.bulk_create(seats), new=True)
        timed(game)
    return game


def import_game(
    rules: Options,
    start: GamePosition,
    moves: Sequence[str],
    result: str = "",
    end: str = "",  # pragma: no mutate (only the ends outside the rules are read)
    tags: Mapping[str, str] | None = None,
) -> Game:
    """Save a record read by ``game.records`` as a game to replay: nobody holds its
    seats; it is continued as a new game (``create_game``) from any of its moves."""
    game, position = new_game(Game.Mode.IMPORTED, rules, start, moves)
    game.tags = dict(tags or {})
    game.took_seats((), new=True)  # nobody holds an imported game's seats
    with transaction.atomic():
        outcome = seat_outcome(position.outcome())
        if outcome is None and end in Game.OTHER_ENDS:
            outcome = Outcome(result, end)
        if outcome is not None:
            finish(game, outcome)
        game.save()
        log_moves(game, position.history)
    return game


def new_game(
    mode: str, rules: Options, start: GamePosition | None, moves: Sequence[str]
) -> tuple[Game, GamePosition]:
    """An unsaved game of ``mode`` from ``start`` (the empty board by default) with
    ``moves`` played and the moves nobody chooses after them; and its position."""
    kind = kind_of(rules)
    first = start if start is not None else kind.start(rules)
    if first.rules != rules:
        raise ValueError("the start position is for other rules than the game's")
    position = kind.settle(kind.replay(first, moves))
    game = Game(
        kind=kind.name,
        mode=mode,
        options=rules.to_mapping(),
        start_text="" if kind.is_start(first) else first.to_text(),
    )
    game.cache_position(position, position.record)
    return game, position


def rematch_of(game: Game) -> Game | None:
    """The rematch started from a finished game, if any."""
    return Game.objects.filter(rematch_of=game).first() if game.is_over else None


def rematch(public_id: str, tokens: Tokens) -> tuple[Game, dict[str, str]]:
    """The finished game's rematch: same options, colours swapped; return it and new tokens.

    The first player to ask creates it; the other player then joins it (``join`` with
    their tokens of this game) or, asking again, is seated in it.
    """
    with transaction.atomic():
        game = locked(public_id)
        if not game.is_over:
            raise PlayError("a rematch can start once this game is over")
        seated = seated_colors(game, tokens)
        if not seated:
            raise NotSeated("only the players of this game can start a rematch")
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            # Colours swap: whoever played ``color`` here plays its opponent there.
            mine = {Color(color).opponent.value for color in seated}
            if existing.free_seat() in mine:
                _, color, token = join(existing.public_id, previous=tokens)
                return existing, {color: token}
            return existing, {}
        if game.mode == Game.Mode.HOTSEAT:
            new, new_tokens = create_game(game.mode, game.rules, rematch_of=game)
        else:
            # One browser may hold both seats of a friend game (a seat link opened
            # beside its own): it starts the rematch as the first of them.
            color = min(seated)
            new, new_tokens = create_game(
                game.mode,
                game.rules,
                creator=Color(color).opponent.value,
                rematch_of=game,
                level=game.level_of(Color(color).opponent),
                clock=game,
            )
        game.save_change()
    return new, new_tokens
