"""What every kind's game page draws alike: the list of moves, the status bar, and
the ends outside the rules in words. The moves are the record's text and the
status's count is the position's ``score()``, whatever the game; why a game ended
by its rules is the kind's to say (``Drawing.why``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from game.fragments import Fragments, drawn_by
from game.review import Judgement
from game.sides import DARK_AND_LIGHT, Sides
from game.surface import (
    Color,
    Outcome,
)

__all__ = ["MoveItem", "Status", "describe", "ended_outside_rules", "move_list"]


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
    who: str = "Dark"  # the side that played it, as the kind calls it


def move_list(
    position: Any,
    current: int | None = None,
    marks: Mapping[int, Judgement] | None = None,
    sides: Sides = DARK_AND_LIGHT,
) -> Fragments:
    """The moves that led to ``position``, numbered from the ply its history starts at;
    ``current`` marks the moment looked back at, if any, ``marks`` the moves the
    review judged (``game.review``), by ply, and ``sides`` name who played each.

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
            who=sides.name(played.color),
        )
        for ply, played in enumerate(history, start=first)
    )


def ended_outside_rules(outcome: Outcome, sides: Sides = DARK_AND_LIGHT) -> str:
    """Why a game ended when no rule ended it, in words, naming the sides as ``sides``
    do ("Light resigned"); "" when a rule did (each kind says those its own way)."""
    if outcome.reason == "resigned":
        return f"{sides.name(Color(outcome.result).opponent)} resigned"
    if outcome.reason == "timeout":
        return f"{sides.name(Color(outcome.result).opponent)} ran out of time"
    if outcome.reason == "aborted":
        return "Aborted before both sides moved"
    return ""


# The status bar -------------------------------------------------------------------------------


@drawn_by("game/_status.html", "status")
@dataclass(frozen=True, slots=True)
class Status:
    """The status bar: each side's count (Mǽrstánas's points, Cyngesheall's pieces),
    whose turn, the result."""

    score: Any  # the position's ``score()``: a (dark, light) pair that prints its line
    turn: str  # the side to move; "" once the game is over
    outcome: Outcome | None
    headline: str
    your_color: str  # the viewer's side when they hold exactly one seat, else ""
    why: str = ""  # why the game ended, in the kind's words ("Light resigned")
    dark_hand: str = ""  # a line under each side's name: what it holds, or has left
    light_hand: str = ""
    sides: Sides = DARK_AND_LIGHT  # what the kind calls its sides and a game nobody won

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def result(self) -> str:
        return self.outcome.result if self.outcome else ""

    @property
    def score_line(self) -> str:
        return str(self.score)

    @property
    def result_text(self) -> str:
        """ "Dark wins", "Light wins", "Tie" or "Draw"; "" while the game goes on."""
        if self.outcome is None:
            return ""
        result = self.outcome.result
        if not result:
            return "Nobody wins"
        return self.sides.result_text(result)

    @property
    def turn_name(self) -> str:
        """The side to move as the kind calls it ("Dark", "Blue"); "" once over."""
        return self.sides.name(self.turn) if self.turn else ""

    @property
    def begins(self) -> str:
        """The side that makes the first move of a game with none yet ("dark")."""
        return self.sides.word(self.turn or Color.DARK)


def describe(
    position: Any,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool,
    why: Callable[..., str],
    going_on: bool = True,
    sides: Sides = DARK_AND_LIGHT,
    **hands: str,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours; ``why``
    is the kind's words for an end (given ``sides``), ``sides`` what it calls its sides,
    ``hands`` the lines under the sides' names.

    ``outcome`` says how the game ended, if it has: a game can end (by resignation)
    in a position where moves are still legal. A game ``waiting`` for its second
    player has not started. A moment of a game no longer ``going_on`` (looked back
    at once it ended) is nobody's turn: it says whose move it was, never "Your turn".
    """
    turn = "" if outcome else position.turn.value
    said = why(outcome, sides) if outcome is not None else ""
    if outcome is not None:
        headline = f"{said}: {sides.verdict(outcome.result)}" if outcome.result else said
    elif waiting:
        headline = "Waiting for your friend to join" if seated else "Waiting for a second player"
    elif going_on and turn in seated and len(seated) == 1:
        headline = "Your turn"
    else:
        headline = f"{sides.name(turn)} to move"
    return Status(
        score=position.score(),
        turn=turn,
        outcome=outcome,
        headline=headline,
        your_color=next(iter(seated)) if len(seated) == 1 else "",
        why=said,
        sides=sides,
        **hands,
    )
