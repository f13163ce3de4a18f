"""A game's time as its page shows it: each side's clock, or the time left to move."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from game import clocks
from game.models import Game


def _clock_text(ms: int) -> str:
    """Time left as a clock shows it: "4:59", "0:09.5" under ten seconds, "1:02:00"."""
    if ms < clocks.WARNING_SECONDS * 1000:
        return f"0:{ms / 1000:04.1f}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def _left_text(left: timedelta) -> str:
    """Time left in words, in its two largest units: "1 day 23 hours", "5 hours 12
    minutes", "12 minutes", "less than a minute"."""
    seconds = int(left.total_seconds())
    counts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count, seconds = divmod(seconds, size)
        counts.append((unit, count))
    first = next((index for index, (_, count) in enumerate(counts) if count), None)
    if first is None:
        return "less than a minute"
    shown = [(unit, count) for unit, count in counts[first : first + 2] if count]
    return " ".join(f"{count} {unit}{'s' if count != 1 else ''}" for unit, count in shown)


def time_shown(game: Game, now: datetime) -> dict[str, Any] | None:
    """The time of a game as its page shows it at ``now``: for a live game each side's
    clock (milliseconds and text, whether it runs, whether it is low); for a game with
    a deadline, the side that must move by it and the time left in words."""
    if game.speed == Game.Speed.UNLIMITED:
        return None
    shown: dict[str, Any] = {"speed": game.speed}
    view = clocks.view(game, now)
    if view is not None:
        shown["running"] = view["running"] or ""
        shown["sides"] = [
            {
                "color": color,
                "ms": view[color],
                "text": _clock_text(view[color]),
                "running": view["running"] == color,
                "low": view[color] < clocks.WARNING_SECONDS * 1000,
            }
            for color in ("dark", "light")
        ]
        shown["increment"] = game.clock_increment
    if game.deadline is not None and game.turn and not game.is_over:
        left = max(game.deadline - now, timedelta(0))
        shown["deadline"] = game.deadline
        shown["left_ms"] = int(left / timedelta(milliseconds=1))
        shown["left_text"] = _left_text(left)
        shown["left_seconds"] = -(-shown["left_ms"] // 1000)
        shown["turn"] = game.turn
        shown["first_move"] = game.speed == Game.Speed.LIVE and not clocks.has_moved(
            game, game.turn
        )
    shown["terms"] = clocks.describe(
        game.speed, game.clock_initial, game.clock_increment, game.days
    )
    return shown
