"""The 7-4-1776 lessons of ``/learn/``: each a real board with a task that the engine
checks, as the other games' lessons are (``game.teaching``).

Engine only, no Django: a lesson is a position and a test of one move. The page draws
the position with the game's own drawing, the player drops a stone or picks a lone
stone and its landing square, and ``attempt`` says whether the move does what the task
asks, or why not.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.seven_four.engine import FULL, Position, Rules
from game.seven_four.notation import Move, parse_move
from game.surface import Color
from game.teaching import Attempt, BaseLesson
from game.teaching import attempt as try_on_board

__all__ = ["LESSONS", "Attempt", "Lesson", "attempt"]


@dataclass(frozen=True, slots=True)
class Lesson(BaseLesson):
    """A 7-4-1776 lesson (``game.teaching.BaseLesson``)."""

    stone: str = ""  # the stone picked when the lesson opens (the page's choice)
    hinges: bool = False  # no hinges on this board
    rules: Rules = Rules()

    @property
    def position(self) -> Position:
        return Position.from_text(self.start, self.rules)

    def attempt(self, text: str) -> Attempt:
        """Try the move written ``text`` on this lesson's board (``attempt``)."""
        return attempt(self, text)


def attempt(lesson: Lesson, text: str) -> Attempt:
    """Try the move written ``text`` on ``lesson``'s board (``game.teaching.attempt``):
    nothing in 7-4-1776 follows a move by itself."""
    return try_on_board(lesson, text, parse_move, lambda position: position)


def _empty(position: Position) -> int:
    blue, red = position.stones
    return (FULL & ~(blue | red)).bit_count()


# The checks ------------------------------------------------------------------------------


def _slides(before: Position, after: Position, move: Move) -> str | None:
    if move.is_slide:
        return None
    return (
        f"That dropped a stone on {move}. To slide, pick one of your lone stones first "
        "(B2 or F6): the squares where it may land light up"
    )


def _fills_the_board(before: Position, after: Position, move: Move) -> str | None:
    if after.winner is Color.DARK:
        return None
    return (
        "Two squares were empty, so a drop leaves red the last one, and red fills it and "
        "wins. A slide fills every empty square around where it stops: slide A1 or C1 "
        "next to the other"
    )


def _keeps_the_count_even(before: Position, after: Position, move: Move) -> str | None:
    left = _empty(after)
    if left % 2 == 0:
        return None
    return (
        f"That leaves red {left} empty squares, an odd number: if nobody slid again, red "
        "would fill the last one. Find a slide that fills two squares, so that red is "
        "left an even number"
    )


_RED_ROWS = "/".join(["RRRRRRRRRR"] * 6)

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="seven-four-moves",
        title="7-4-1776: dropping and sliding",
        text=(
            "7-4-1776 is played on a board of ten by ten squares, which starts empty. Blue "
            "moves first. On your turn you either drop a stone of your colour on any empty "
            "square, or slide one of your stones.",
            "Only a lone stone slides: one that no stone of its own colour touches, along a "
            "side or at a corner. It slides like a chess queen, along a row, a column or a "
            "diagonal, over empty squares only, and it must stop next to another lone stone "
            "of yours. Then every empty square around the square where it stopped fills "
            "with stones of your colour.",
            "To slide, pick the stone: the squares where it may land light up, and the "
            "others say why it cannot stop there. Then pick its square.",
        ),
        task="Slide one of your lone stones, and watch the squares around it fill.",
        start=(
            "........../.B......../.......R../........../........../.....B..../"
            "........../..R......./........../.......... b"
        ),
        check=_slides,
        praise="A slide puts down several stones in one turn: up to nine at once.",
    ),
    Lesson(
        slug="seven-four-the-end",
        title="7-4-1776: the end",
        text=(
            "Stones never leave the board, so it fills up. The player who faces a full "
            "board cannot move, and loses: whoever fills the last square wins.",
            "A drop fills one square. A slide fills every empty square around its landing "
            "square, the one it just left too when it is next to it.",
        ),
        task="Win the game in one move.",
        start="B.BRRRRRRR/R.RRRRRRRR/" + "/".join(["RRRRRRRRRR"] * 8) + " b",
        check=_fills_the_board,
        praise="Your slide filled both empty squares: red faces a full board and loses.",
    ),
    Lesson(
        slug="seven-four-parity",
        title="7-4-1776: counting the empty squares",
        text=(
            "If nobody slid again, the game would be decided by counting: with an odd "
            "number of empty squares on your turn, you would fill the last one. So leave "
            "your opponent an even number.",
            "A drop fills one square; a slide that fills two, four or six squares changes "
            "who fills the last one. That is what slides are for, and why a player ahead "
            "on the count keeps the other from sliding.",
        ),
        task="Six squares are empty, and it is your turn. Leave red an even number.",
        start="B.BRRRRRRR/R.RRRRRRRR/" + _RED_ROWS + "/RRRRRRRR../RRRRRRRR.. b",
        check=_keeps_the_count_even,
        praise="Your slide filled two squares and left red four: now red is the one behind.",
    ),
)
