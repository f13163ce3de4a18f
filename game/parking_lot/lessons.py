"""The Parking Lot lessons of ``/learn/``: each a real board with a task that the
engine checks, as the other games' are (``game.teaching``).

Engine only, no Django: a lesson is a position and a test of one turn. The page
draws the position with the game's own drawing; the player places a piece, perhaps
drives one, and ``attempt`` says whether the turn does what the task asks, or why
not.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.parking_lot.engine import Position, Rules, groups
from game.parking_lot.notation import Move, parse_square, read_move
from game.surface import Color
from game.teaching import Attempt, BaseLesson
from game.teaching import attempt as try_on_board

__all__ = ["LESSONS", "Attempt", "Lesson", "attempt"]


@dataclass(frozen=True, slots=True)
class Lesson(BaseLesson):
    """A Parking Lot lesson (``game.teaching.BaseLesson``)."""

    stone: str = ""  # the page's choice when the lesson opens: nothing chosen
    hinges: bool = False  # Mǽrstánas's marks: none here
    rules: Rules = Rules()

    @property
    def position(self) -> Position:
        return Position.from_text(self.start, self.rules)

    def attempt(self, text: str) -> Attempt:
        """Try the turn written ``text`` on this lesson's board (``attempt``)."""
        return attempt(self, text)


def attempt(lesson: Lesson, text: str) -> Attempt:
    """Try the turn written ``text`` on ``lesson``'s board (``game.teaching.attempt``):
    nothing in Parking Lot follows a turn by itself."""
    return try_on_board(lesson, text, read_move, lambda position: position)


def _rows(*rows: str, side: str) -> str:
    return "/".join(rows) + f" {side}"


# The checks ------------------------------------------------------------------------------


def _group_of(position: Position, name: str) -> int:
    """The squares of the blue group covering ``name`` (0 when no blue piece does)."""
    bit = 1 << parse_square(name)
    return next((found for found in groups(position.squares(Color.DARK)) if found & bit), 0)


def _joins_d4(before: Position, after: Position, move: Move) -> str | None:
    if _group_of(after, "D4").bit_count() >= 4:
        return None
    return (
        "The piece on D4 is still alone. Blue's pieces stand upright: put the new one "
        "so that one of its squares shares a side with D4 or D5"
    )


def _drives_home(before: Position, after: Position, move: Move) -> str | None:
    home = _group_of(after, "E3")
    if move.origin == parse_square("A7") and home >> move.target & 1:
        return None
    if move.origin is None:
        return (
            "That placed a piece but drove none. After placing, pick your piece on A7 "
            "and drive it up, then across, until it touches your group"
        )
    if move.origin != parse_square("A7"):
        return "That drove another piece: the stray one is on A7"
    return "The piece on A7 stopped short of your group: drive it until it touches it"


def _wins_last_turn(before: Position, after: Position, move: Move) -> str | None:
    outcome = after.outcome()
    if outcome is not None and outcome.winner is Color.LIGHT:
        return None
    if outcome is not None and outcome.winner is None:
        return "A draw: your largest group ties blue's. Join your four and your three"
    return (
        "Blue's five is larger than your largest group. One piece on the gap between "
        "your four and your three joins them into eight"
    )


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        slug="parking-lot-placing",
        title="Parking Lot: placing",
        text=(
            "Parking Lot is played on an 8×8 board by blue and red, eight pieces each. A "
            "piece covers two squares: blue's always stand upright, red's always lie "
            "flat. Blue moves first; the board starts empty.",
            "Every turn begins by placing a piece from your hand on two empty squares. "
            "Pieces of one colour that share a side form a group; at the end, the "
            "larger group wins.",
            "To place, pick the square for the top of your piece (the left end, for "
            "red): the squares where it fits are links, the others say why not.",
        ),
        task="Place a blue piece that touches your piece on D4.",
        start=_rows(
            ".B......",
            ".B......",
            "........",
            "...B....",
            "...BRR..",
            "........",
            "........",
            "......RR",
            side="b",
        ),
        check=_joins_d4,
        praise="Two pieces side by side make a group of two.",
    ),
    Lesson(
        slug="parking-lot-driving",
        title="Parking Lot: driving",
        text=(
            "After placing, you may drive one of your pieces that was already on the "
            "board: it slides any number of empty squares along a row or a column, may "
            "turn once by a right angle, and slides on. It never jumps, and it keeps "
            "its orientation.",
            "A piece that touches another of its colour is parked: it cannot drive. So "
            "a stray piece should come home before it is hemmed in.",
            "Place first, then pick the piece to drive: the places it can reach light "
            "up. Or end the turn without a drive.",
        ),
        task="Place a piece, then drive your piece on A7 to join your group on column E.",
        start=_rows(
            "......RR",
            "RR......",
            "....B...",
            "....B...",
            "....B...",
            "....B...",
            "B...B.RR",
            "B.RRB...",
            side="b",
        ),
        check=_drives_home,
        praise="Up the edge, then across: the stray piece joined the group.",
    ),
    Lesson(
        slug="parking-lot-the-end",
        title="Parking Lot: the last piece",
        text=(
            "The game ends when the sixteenth piece, red's last, goes down: that turn "
            "has no drive. Each side's largest group is counted in pieces; the larger "
            "wins. If they are equal, the next largest decide, and so on; all equal is "
            "a draw.",
            "So a single piece that joins two groups can turn the game: keep a gap "
            "between your groups that only you can fill.",
        ),
        task="Red's last piece: win the game.",
        start=_rows(
            "BBBBB...",
            "BBBBB...",
            "........",
            "RRRR..RR",
            "RRRR..RR",
            "......RR",
            ".....BBB",
            ".....BBB",
            side="r",
        ),
        check=_wins_last_turn,
        praise="Four, one and three: a group of eight beats blue's five.",
    ),
)
