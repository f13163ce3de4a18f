"""The Land Grab lessons of ``/learn/``: each a real board with a task that the engine
checks, as the other games' lessons are (``game.teaching``).

Engine only, no Django: a lesson is a position and a test of one move. The page draws
the position with the game's own drawing, the player drops a stone or picks a stone
and its target, and ``attempt`` says whether the move does what the task asks, or
why not.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.land_grab.engine import Position, Rules
from game.land_grab.notation import START_TEXT, Move, parse_move
from game.surface import Color
from game.teaching import Attempt, BaseLesson
from game.teaching import attempt as try_on_board

__all__ = ["LESSONS", "Attempt", "Lesson", "attempt"]


@dataclass(frozen=True, slots=True)
class Lesson(BaseLesson):
    """A Land Grab lesson (``game.teaching.BaseLesson``)."""

    stone: str = ""  # the stone picked when the lesson opens (the page's choice)
    hinges: bool = False  # the claims are outlined when the lesson opens
    rules: Rules = Rules()

    @property
    def position(self) -> Position:
        return Position.from_text(self.start, self.rules)

    def attempt(self, text: str) -> Attempt:
        """Try the move written ``text`` on this lesson's board (``attempt``)."""
        return attempt(self, text)


def attempt(lesson: Lesson, text: str) -> Attempt:
    """Try the move written ``text`` on ``lesson``'s board (``game.teaching.attempt``):
    a pass is played by itself, as a game plays it, but no lesson's board needs one."""
    return try_on_board(lesson, text, parse_move, lambda position: position)


# The checks ------------------------------------------------------------------------------


def _drops(before: Position, after: Position, move: Move) -> str | None:
    return None


def _joins_the_claim(before: Position, after: Position, move: Move) -> str | None:
    if after.score().black > before.score().black:
        return None
    if move.origin is not None and before.tile_at(move.target) is Color.DARK:
        return (
            f"That shifted your stone to {after.record[-1].split('-')[1]} inside your own "
            "claim: no tile turned over. Find the white tile your stone can reach"
        )
    return "Your largest claim is no larger. Which white tile lies inside it?"


def _takes_the_last_stone(before: Position, after: Position, move: Move) -> str | None:
    if after.outcome() == ("black", "all-captured"):
        return None
    return (
        "White's stone is still on the board. Stop your stone on the tile just before "
        "it, in a straight line (a diagonal counts), and it is taken"
    )


_HALVES = "bBbbbbbb/bbwbbbbb/bbbbbbbb/bbbbbbbb/wwwwwwwW/wwwwwwww/wwwwwwww/wwwwwwww b 10 0 -"
_OPEN = "Bwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwwb/wwwwwwbW b 20 0 -"

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="land-grab-drops",
        title="Land Grab: tiles and drops",
        text=(
            "Land Grab is played on eight by eight tiles, each black on one side and white "
            "on the other. They start as a checkerboard, with A1, the top-left corner, "
            "black. Black plays first.",
            "Each player has two stones. In the first four turns, black, white, black, "
            "white, each drops a stone on an empty tile of their own colour.",
        ),
        task="Drop your first stone on a black tile.",
        start=START_TEXT,
        check=_drops,
        praise="A stone always stands on a tile of its own colour: now white drops one.",
    ),
    Lesson(
        slug="land-grab-claims",
        title="Land Grab: flipping tiles and claims",
        text=(
            "After the drops, a stone moves in a straight line, along a row, a column or "
            "a diagonal, over any tiles but never over a stone, to an empty tile of the "
            "other colour, which turns over to yours. That is a flip.",
            "Tiles of one colour joined along their sides form a claim. A flip may not "
            "land in an enemy claim that holds an enemy stone. A stone may also shift "
            "within its own claim, step by step along its tiles; nothing turns over.",
            "At the end the largest claims are compared, then the next largest, and so "
            "on: the first difference decides.",
        ),
        task="Make your largest claim larger with one flip.",
        start=_HALVES,
        stone="B1",
        hinges=True,
        check=_joins_the_claim,
        praise="C2 turned black and joined your claim: 32 tiles now, against white's 32.",
    ),
    Lesson(
        slug="land-grab-capture",
        title="Land Grab: capture by approach",
        text=(
            "A flip that stops just before an enemy stone, in the direction it moved, "
            "captures that stone: it leaves the board. Claims do not protect it, and a "
            "diagonal approach captures too.",
            "Capture both enemy stones and you win at once, whatever the claims.",
        ),
        task="Capture white's last stone.",
        start=_OPEN,
        stone="A1",
        check=_takes_the_last_stone,
        praise="A1-G7 stopped next to H8 and took it: white has no stone left, you win.",
    ),
)
