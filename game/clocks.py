"""Time: Fischer clocks for live games, days per move for correspondence games.

The server is the only authority on time. A move's time is when the server received
it, under the game's row lock (``play``); each side's time left is kept with the game
as it stood when the side to move got the turn (``Game.turn_started``), so the time
left now is that less what has passed since, and nothing ticks in the database.

- Live (``Game.Speed.LIVE``): each side starts with ``clock_initial`` seconds and
  gains ``clock_increment`` after each of its moves. A side's clock runs from its
  first move on: before it, the side has ``FIRST_MOVE_SECONDS`` to make it, or the
  game is aborted (nobody wins, it is not rated), as on lichess.
- Correspondence: ``days`` for each move; a side that lets them pass loses.

``Game.deadline`` is when the side to move runs out. The game ends there
(``expired``) whichever comes first: anyone asking about the game, or the task set
for the deadline (``game.timekeeper``). Every function takes ``now``, so tests run
them on a clock of their own.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from game.models import Game
from game.surface import (
    Color,
    Outcome,
)

# A side of a live game must make its first move this soon after getting the turn.
FIRST_MOVE_SECONDS = 30
# Below this much time left the page warns the player.
WARNING_SECONDS = 10

# The choices a challenge offers (``lobby``): initial minutes, increments, days.
MINUTES = ("0.25", "0.5", "1", "2", "3", "5", "10", "15", "30", "60")
MAX_INCREMENT = 60
DAYS = (1, 2, 3, 5, 7, 14)

FIELDS = ("dark_ms", "light_ms", "turn_started", "deadline")


def now() -> datetime:
    """The server's time: the one clock every game is timed by (tests set their own)."""
    return timezone.now()


def has_moved(game: Game, color: str) -> bool:
    """Whether ``color`` has made a move in ``game``. Games with a clock start from the
    empty board with no move nobody chooses among the first two, so the first mover
    moved at ply 0 and the other at ply 1."""
    return game.ply >= 2 or (game.ply == 1 and game.turn != color)


def set_up(game: Game, speed: str, initial: int = 0, increment: int = 0, days: int = 0) -> None:
    """Give an unsaved game its time control: ``initial`` and ``increment`` seconds for
    a live game, ``days`` per move for a correspondence game."""
    game.speed = speed
    game.clock_initial = initial if speed == Game.Speed.LIVE else 0
    game.clock_increment = increment if speed == Game.Speed.LIVE else 0
    game.days = days if speed == Game.Speed.CORRESPONDENCE else 0
    if speed == Game.Speed.LIVE:
        game.dark_ms = game.light_ms = initial * 1000


def _stored_ms(game: Game, color: str) -> int:
    return (game.dark_ms if color == Color.DARK else game.light_ms) or 0


def left_ms(game: Game, color: str, now: datetime) -> int:
    """``color``'s time left at ``now`` in a live game, in milliseconds (never below 0)."""
    stored = _stored_ms(game, color)
    if running(game) == color and game.turn_started is not None:
        stored -= _elapsed_ms(game.turn_started, now)
    return max(0, stored)


def running(game: Game) -> str | None:
    """The side whose live clock runs: the side to move, once it has made a move."""
    if game.speed != Game.Speed.LIVE or game.is_over or game.status != Game.Status.ACTIVE:
        return None
    return game.turn if game.turn and has_moved(game, game.turn) else None


def _elapsed_ms(since: datetime, now: datetime) -> int:
    return max(0, int((now - since) / timedelta(milliseconds=1)))


def charge(game: Game, now: datetime) -> list[str]:
    """Charge the side to move for the move it makes at ``now``, before the move is
    cached: the time since its turn began is taken off and its increment added, once
    its clock runs (a side's first move is free). The fields changed."""
    mover = running(game)
    if mover is None or game.turn_started is None:
        return []
    left = _stored_ms(game, mover) - _elapsed_ms(game.turn_started, now)
    setattr(game, f"{mover}_ms", max(0, left) + game.clock_increment * 1000)
    return [f"{mover}_ms"]


def turn_begins(game: Game, now: datetime) -> list[str]:
    """The side to move (after a move, a takeback) starts its turn at ``now``."""
    if game.speed == Game.Speed.UNLIMITED:
        return []
    game.turn_started = now
    game.deadline = _deadline(game)
    return list(FIELDS)


def _deadline(game: Game) -> datetime | None:
    """When the side to move runs out, from the start of its turn."""
    if game.turn_started is None or not game.turn or game.is_over:
        return None
    if game.speed == Game.Speed.CORRESPONDENCE:
        return game.turn_started + timedelta(days=game.days)
    if game.speed != Game.Speed.LIVE:
        return None
    if not has_moved(game, game.turn):
        return game.turn_started + timedelta(seconds=FIRST_MOVE_SECONDS)
    return game.turn_started + timedelta(milliseconds=_stored_ms(game, game.turn))


def expired(game: Game, now: datetime) -> Outcome | None:
    """How the game ends if the side to move has run out at ``now``: a timeout (the
    other side wins), or an abort when it was a live game's first move; None while
    there is time left or the game has ended already."""
    if game.is_over or game.status != Game.Status.ACTIVE or game.deadline is None:
        return None
    if now < game.deadline:
        return None
    if game.speed == Game.Speed.LIVE and not has_moved(game, game.turn):
        return Outcome("", Game.Status.ABORTED)
    return Outcome(Color(game.turn).opponent.value, Game.Status.TIMEOUT)


def stopped(game: Game, now: datetime) -> list[str]:
    """Stop the clocks of a game ending at ``now``, before its status says so: each
    side keeps the time it had left then. The fields changed."""
    if game.speed == Game.Speed.UNLIMITED:
        return []
    if game.speed == Game.Speed.LIVE:
        game.dark_ms = left_ms(game, Color.DARK.value, now)
        game.light_ms = left_ms(game, Color.LIGHT.value, now)
    game.deadline = None
    return list(FIELDS)


def view(game: Game, now: datetime) -> dict[str, Any] | None:
    """The clock as the API and pages show it: each side's time left in milliseconds,
    the increment in seconds and the side whose clock runs; None without a clock."""
    if game.speed != Game.Speed.LIVE:
        return None
    return {
        "dark": left_ms(game, Color.DARK.value, now),
        "light": left_ms(game, Color.LIGHT.value, now),
        "increment": game.clock_increment,
        "running": running(game),
    }


def describe(speed: str, initial: int = 0, increment: int = 0, days: int = 0) -> str:
    """A time control in words: "1+0", "5+3", "3 days a move", "unlimited"."""
    if speed == Game.Speed.LIVE:
        minutes = initial / 60
        shown = {15: "¼", 30: "½"}.get(initial, f"{minutes:g}")
        return f"{shown}+{increment}"
    if speed == Game.Speed.CORRESPONDENCE:
        return f"{days} day{'s' if days != 1 else ''} a move"
    return "unlimited"
