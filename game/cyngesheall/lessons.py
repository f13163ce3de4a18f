"""The Cyngesheall lessons of ``/learn/``: each a real board with a task that the
engine checks, as Mǽrstánas's are (``game.maerstanas.lessons``).

Engine only, no Django: a lesson is a position and a test of one move. The page draws
the position with the game's own drawing, the player picks a piece and its square,
and ``attempt`` says whether the move does what the task asks, or why not.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.cyngesheall.engine import Position
from game.cyngesheall.notation import START_TEXT, Move, parse_move
from game.cyngesheall.rules import (
    END_KING_CAPTURED,
    END_KING_HOME,
    END_SIXTY_PLIES,
    Rules,
)
from game.grid import (
    parse_square,
)
from game.teaching import Attempt, BaseLesson
from game.teaching import attempt as try_on_board

__all__ = ["LESSONS", "Attempt", "Lesson", "attempt"]


@dataclass(frozen=True, slots=True)
class Lesson(BaseLesson):
    """A Cyngesheall lesson (``game.teaching.BaseLesson``)."""

    stone: str = ""  # the piece picked when the lesson opens (the page's choice)
    hinges: bool = False  # a tafl board draws no hinges
    rules: Rules = Rules()

    @property
    def position(self) -> Position:
        return Position.from_text(self.start, self.rules)

    def attempt(self, text: str) -> Attempt:
        """Try the move written ``text`` on this lesson's board (``attempt``)."""
        return attempt(self, text)


def attempt(lesson: Lesson, text: str) -> Attempt:
    """Try the move written ``text`` on ``lesson``'s board (``game.teaching.attempt``):
    nothing in Cyngesheall follows a move by itself."""
    return try_on_board(lesson, text, parse_move, lambda position: position)


# The checks ------------------------------------------------------------------------------


def _commander_to_e3(before: Position, after: Position, move: Move) -> str | None:
    if move.target == parse_square("E3") and move.origin == parse_square("B6"):
        return None
    piece = before.piece_at(move.origin)
    name = piece[1].value if piece else "piece"
    return (
        f"That moved your {name} from {move.origin} to {move.target}. Pick the commander "
        "(ᚦ, on B6) and send it along the diagonal up and to the right"
    )


def _captures_d4(before: Position, after: Position, move: Move) -> str | None:
    if parse_square("D4") in after.last_captured:
        return None
    return (
        "The light stone on D4 is still there. It needs a dark piece on each side of it "
        "in a line: D5 is one side; which square is the other, and which piece can reach it?"
    )


def _takes_the_king(before: Position, after: Position, move: Move) -> str | None:
    outcome = after.outcome()
    if outcome is not None and outcome.reason == END_KING_CAPTURED:
        return None
    return (
        "Light's king on E4 still stands. Your stone on E5 is below it: "
        "put a piece on the square above it, E3. Only the commander moves diagonally"
    )


def _king_home(before: Position, after: Position, move: Move) -> str | None:
    outcome = after.outcome()
    if outcome is not None and outcome.reason == END_KING_HOME:
        return None
    if after.last_captured:
        return "A capture is nice, but a king on G1 wins at once: move your king there"
    return "Your king on G4 can slide up its column to G1, light's corner: that wins at once"


def _sixty_plies(before: Position, after: Position, move: Move) -> str | None:
    outcome = after.outcome()
    if outcome is not None and outcome.reason == END_SIXTY_PLIES:
        return None
    if after.last_captured:
        return (
            "That capture starts the count of quiet plies again, and light's king walks "
            "down to A7 next move. Any move that captures nothing would have drawn"
        )
    return "That did not draw the game"  # pragma: no cover (every quiet move draws here)


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="cyngesheall-moving",
        title="Cyngesheall: moving",
        text=(
            "Cyngesheall is played on the same board as Mǽrstánas, with ten pieces a side "
            "that start in opposite corners: a king (marked ᚩ), a commander (marked ᚦ) "
            "and eight stones. Dark moves first.",
            "A piece slides any number of empty squares in a straight line, and stops on "
            "an empty square: it never jumps. The king and the stones move along rows and "
            "columns, like a rook in chess; the commander also moves diagonally.",
            "To move, pick a piece: the squares it can reach light up, and the others say "
            "why it cannot go there. Then pick its square.",
        ),
        task="Move your commander (ᚦ, on B6) diagonally to E3.",
        start=START_TEXT,
        check=_commander_to_e3,
        praise="The commander crossed the board in one move: it is your longest-reaching piece.",
    ),
    Lesson(
        slug="cyngesheall-capture",
        title="Cyngesheall: capturing",
        text=(
            "An enemy piece is captured when your move traps it between the piece you "
            "moved and another of yours, in a row or a column. Several pieces can go at "
            "once, one on each side of the square you moved to.",
            "Only the piece that moves captures: you may move between two enemies and stay "
            "there safely. Diagonal neighbours are never captured, the board's edge never "
            "helps, so a piece in a corner can never be taken.",
        ),
        task="Capture the light stone on D4.",
        start="......k/......./......S/...s.../...S.../......./K...... d 0",
        check=_captures_d4,
        praise="G3 to D3 trapped the stone between D3 and D5: captured.",
    ),
    Lesson(
        slug="cyngesheall-take-the-king",
        title="Cyngesheall: capture the king",
        text=(
            "The first way to win: capture the enemy king. It is taken like any piece, "
            "trapped between two of yours in a row or a column, and the game ends at once.",
            "Kings and commanders capture like stones, as the piece that moves or as the "
            "piece on the far side.",
        ),
        task="Capture light's king (ᚩ, on E4).",
        start="..C..../......./......./....k../....S../......./K...... d 0",
        check=_takes_the_king,
        praise="The commander came down the diagonal to E3, and the king was trapped: you win.",
    ),
    Lesson(
        slug="cyngesheall-king-home",
        title="Cyngesheall: the king goes home",
        text=(
            "The second way to win: bring your king to the corner where the enemy king "
            "started. Dark's king races for G1, light's for A7; the corners are tinted "
            "in the colour of the king that aims for them.",
            "If one move both captures the enemy king and brings your king home, it is "
            "the capture that is counted: either way, you win.",
        ),
        task="Win the game in one move.",
        start="k...s../......./......./...s..K/...S.../......./....... d 0",
        check=_king_home,
        praise="Your king reached G1: the game is yours.",
    ),
    Lesson(
        slug="cyngesheall-draws",
        title="Cyngesheall: the draw rules",
        text=(
            "A game that cannot be won ends in a draw: after 60 plies in a row without a "
            "capture, or when the same position stands for the third time with the same "
            "side to move. A side with no legal move loses.",
            "So the count of quiet plies matters: a capture starts it again. Here 59 plies "
            "have passed without one.",
        ),
        task="Light's king on A4 threatens to reach A7 next move. Save the game.",
        start=".....S./......./...Ss../k....../......./......./......K d 59",
        check=_sixty_plies,
        praise="The 60th quiet ply: the game is drawn before light's king can go home.",
    ),
)
