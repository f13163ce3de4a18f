"""What every kind's game page draws alike: the list of moves, and the ends outside
the rules in words. The moves are the record's text, whatever the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from game.fragments import Fragments, drawn_by
from game.grid import Color, Outcome
from game.review import Judgement

__all__ = ["MoveItem", "ended_outside_rules", "move_list"]


# The move list ------------------------------------------------------------------------------


@drawn_by("game/_move.html", "move")
class MoveItem(NamedTuple):
    """One move of the list (a named tuple: a game's every move is made for each page).

    Each links to the game's moment after it (``?ply=``, relative to the page, so an
    item looks the same in every game that has it, and is drawn once).
    """

    ply: int
    color: str
    text: str  # the record's notation: a thunder move with its removals
    is_pass: bool
    current: bool  # the moment shown while looking back
    judged: Judgement | None = None  # the review's mark, once the game is analysed


def move_list(
    position: Any, current: int | None = None, marks: Mapping[int, Judgement] | None = None
) -> Fragments:
    """The moves that led to ``position``, numbered from the ply its history starts at;
    ``current`` marks the moment looked back at, if any, and ``marks`` the moves the
    review judged (``game.review``), by ply.

    The newest is marked by the list's style while the game goes on, not here: each
    item then looks the same in every game that has it, and is drawn once.
    """
    history = position.history
    first = position.ply - len(history) + 1
    return Fragments(
        MoveItem(
            ply=ply,
            color=played.color.value,
            text=played.text,
            is_pass=played.move.is_pass,
            current=ply == current,
            judged=marks.get(ply) if marks else None,
        )
        for ply, played in enumerate(history, start=first)
    )


def ended_outside_rules(outcome: Outcome) -> str:
    """Why a game ended when no rule ended it, in words ("Light resigned"); "" when a
    rule did (each kind says those its own way)."""
    if outcome.reason == "resigned":
        return f"{Color(outcome.result).opponent.value.capitalize()} resigned"
    if outcome.reason == "timeout":
        return f"{Color(outcome.result).opponent.value.capitalize()} ran out of time"
    if outcome.reason == "aborted":
        return "Aborted before both sides moved"
    return ""
