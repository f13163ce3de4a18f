"""The Moai lessons of ``/learn/``: each a real board with a task that the engine
checks, as the other games' lessons are (``game.teaching``).

Engine only, no Django: a lesson is a position and a test of one move. The page draws
the position with the game's own drawing, the player picks a square for the counter
and then where a Moai goes, and ``attempt`` says whether the move does what the task
asks, or why not.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.moai.engine import Position, Rules
from game.moai.notation import Move
from game.surface import Color
from game.teaching import Attempt, BaseLesson
from game.teaching import attempt as try_on_board

__all__ = ["LESSONS", "Attempt", "Lesson", "attempt"]


@dataclass(frozen=True, slots=True)
class Lesson(BaseLesson):
    """A Moai lesson (``game.teaching.BaseLesson``)."""

    stone: str = ""  # the counter's square picked when the lesson opens (the page's choice)
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
    nothing in Moai follows a move by itself."""
    return try_on_board(lesson, text, lesson.rules.geometry.parse_move, lambda position: position)


# The checks ------------------------------------------------------------------------------


def _moves_own_moai(before: Position, after: Position, move: Move) -> str | None:
    if move.origin == before.moai[0]:
        return None
    return (
        "That moved the black Moai, which is allowed, but the task is to move your own, "
        "the white one on D4: put a counter in line with it, then move it"
    )


def _bends_to_c2(before: Position, after: Position, move: Move) -> str | None:
    if after.moai[0] == before.geometry.parse_square("C2"):
        return None
    return (
        "Your Moai did not reach C2. No straight line joins D4 and C2: put the counter on "
        "column D above the Moai (D1 or D2), then run one step up to D3 and turn "
        "diagonally to C2"
    )


def _traps(before: Position, after: Position, move: Move) -> str | None:
    if after.winner is Color.DARK:
        return None
    return (
        "The black Moai on H7 can still move. Only one square next to it is empty, G7: "
        "a counter there leaves it nowhere to go"
    )


_EXAMPLE = "#......#/......../......../...W..../......../......../......B./#......# w"

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="moai-turn",
        title="Moai: a counter, then a Moai",
        text=(
            "Moai starts with the two placements: white puts the white Moai on any square, "
            "then black puts the black one on any other. After that every turn has two "
            "parts, and both must be done.",
            "First put a counter, which never moves again, on an empty square in line with "
            "a Moai: on its row, its column or a diagonal, at any distance. Then move that "
            "Moai along the line, away from the counter (a push) or toward it, stopping "
            "short of it (a pull), one square or more, over empty squares only.",
            "To play, pick the counter's square: the squares where a Moai may then go "
            "light up. Then pick one of them.",
        ),
        task="Put a counter in line with your Moai on D4, and move it.",
        start=_EXAMPLE,
        check=_moves_own_moai,
        praise="That is a whole turn: the counter stays where you put it for good.",
    ),
    Lesson(
        slug="moai-bent",
        title="Moai: the bent move",
        text=(
            "When the counter is on the Moai's row or column, the Moai may also make a "
            "bent move: a run of one square or more straight toward or away from the "
            "counter, then one step turned diagonally forward, left or right.",
            "With the counter on D1 and the Moai on D4, the Moai may go D3 then C2, or "
            "D5 then E6, or D5, D6 and then E7. A counter on a diagonal allows straight "
            "moves only.",
        ),
        task="Move your Moai from D4 to C2 in one turn.",
        start=_EXAMPLE,
        check=_bends_to_c2,
        praise="A bent move reaches squares no straight line does.",
    ),
    Lesson(
        slug="moai-trap",
        title="Moai: trapping the other Moai",
        text=(
            "Before each turn, if the player to move has no turn that moves his own Moai, "
            "he loses, even if he could still move the other one. So the game is about "
            "room: keep squares free around your Moai, and fill those around your "
            "opponent's.",
            "You may move either Moai: pulling the enemy Moai into a corner is as good as "
            "putting counters round it.",
        ),
        task="Win the game in one turn: leave the black Moai no move.",
        start="#......#/o......./......../......W./......../......oo/.......B/#.....o# w",
        check=_traps,
        praise="Black's Moai is stuck: black cannot move it on his turn, and loses.",
    ),
)
