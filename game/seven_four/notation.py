"""How 7-4-1776's moves and positions are written (docs/SEVEN-FOUR.md, "Notation").

A drop is its square (``E5``); a slide is ``from-to`` (``B2-E5``), without the
squares it fills, which the slide decides. Reading is forgiving: any case, spaces
before, after and between the squares, and the dash between them optional
(``b2-e5``, `` B2 - E5 ``, ``B2 E5``, ``B2E5``), but never a space inside a square
(``E 5``), two dashes, or a comma. Rows are written 1 to 10 without a leading zero.

A position is its ten rows, top to bottom, separated by ``/``, each ten characters
(``B`` a blue stone, ``R`` a red one, ``.`` an empty square), then a space and the
side to move, ``b`` or ``r``: after the drop ``C3``, the first row of the text is
``..........`` and its third ``..B.......``, and it ends `` r``.

Pure Python, standard library only.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from game.boards import SquareBoard
from game.surface import (
    InvalidMoveError,
    move_splitter,
)

__all__ = [
    "BOARD",
    "DROPS",
    "NAMES",
    "SIDE_CHARS",
    "SIZE",
    "SLIDES",
    "START_TEXT",
    "STONE_CHARS",
    "Move",
    "PositionText",
    "format_move",
    "parse_move",
    "parse_square",
    "read_position_text",
    "split_moves",
    "write_position_text",
]

# The board as the rule book lays it out: columns A to J, rows 1 to 10, A1 top left;
# square ``row * 10 + column``, as the bitboards number their bits.
SIZE = 10
BOARD = SquareBoard(SIZE, SIZE)
NAMES = BOARD.names
COLUMNS = BOARD.columns


class Move(NamedTuple):
    """A turn: a drop on ``target`` (``origin`` None), or a slide of the stone on
    ``origin`` to ``target``. Prints as the record writes it, ``E5`` or ``B2-E5``.
    Every move is interned (``DROPS[target]``, ``SLIDES[origin][target]``), so moves
    compare by identity in hot loops."""

    target: int
    origin: int | None = None

    def __str__(self) -> str:
        if self.origin is None:
            return NAMES[self.target]
        return f"{NAMES[self.origin]}-{NAMES[self.target]}"

    @property
    def is_slide(self) -> bool:
        """True for a slide, False for a drop."""
        return self.origin is not None

    @property
    def is_pass(self) -> bool:
        """Never: a player always has a move until the board is full (the pages ask
        every kind's moves this)."""
        return False


DROPS = tuple(Move(square) for square in BOARD.cells)
SLIDES = tuple(tuple(Move(target, origin) for target in BOARD.cells) for origin in BOARD.cells)
# Each move's place in the legal list: the record's texts in ``sorted()`` order, as the
# rule book lists them (``A10`` before ``A2``).
ORDER = {
    move: rank
    for rank, move in enumerate(
        sorted([*DROPS, *(move for row in SLIDES for move in row)], key=str)
    )
}


def format_move(move: Move) -> str:
    """A move as the record writes it: ``E5`` or ``B2-E5``."""
    return str(move)


_HINT = "write a drop as its square, like E5, or a slide as from-to, like B2-E5"
# A square as written: a letter and its row's digits together.
_SQUARE = r"[A-Za-z][0-9]+"
_MOVE_RE = re.compile(rf"\s*({_SQUARE})\s*(?:-?\s*({_SQUARE})\s*)?")
# Longer text is no move: it is refused before any pattern reads it.
_LONGEST = 40


def parse_square(text: str) -> int:
    """The square a letter and a row write (``E5``, ``j10``, any case).

    Raises ``InvalidMoveError`` for a column past J, a row outside 1 to 10, or a row
    written with a leading zero.
    """
    letter, row = text[:1].upper(), text[1:]
    if not letter or letter not in COLUMNS:
        raise InvalidMoveError(f"{text!r} is not a square: columns run A to J")
    if row.startswith("0") and row != "0":
        raise InvalidMoveError(f"{text!r} is not a square: rows are written without a leading 0")
    if not row.isdigit() or not 1 <= int(row) <= SIZE:
        raise InvalidMoveError(f"{text!r} is not a square: rows run 1 to 10")
    return (int(row) - 1) * SIZE + COLUMNS.index(letter)


def parse_move(text: str) -> Move:
    """The move ``text`` writes: ``E5`` a drop, ``B2-E5`` (or ``b2 e5``, ``B2E5``) a slide.

    Raises ``InvalidMoveError`` for text that is not a move or names a square off the
    board.
    """
    if not isinstance(text, str) or len(text) > _LONGEST:
        raise InvalidMoveError(f"that is not a move: {_HINT}")
    found = _MOVE_RE.fullmatch(text)
    if found is None:
        raise InvalidMoveError(f"{text.strip()[:20]!r} is not a move: {_HINT}")
    target = parse_square(found[2] or found[1])
    if found[2] is None:
        return DROPS[target]
    return SLIDES[parse_square(found[1])][target]


def _read_move(text: str) -> Move:
    return parse_move(text)


# One move as a record writes it: a square, or two joined by a dash (spaces around it)
# or by nothing; what follows must not run on into a word. Two squares apart with
# nothing between are two drops.
_RECORD_MOVE = re.compile(rf"{_SQUARE}(?:\s*-\s*{_SQUARE}|{_SQUARE})?(?![A-Za-z0-9])")
split_moves = move_splitter(_RECORD_MOVE, _read_move)


# --- Position text ---------------------------------------------------------------------

START_TEXT = "/".join(["." * SIZE] * SIZE) + " b"
# A stone of each side in the position text, and the side to move: blue then red.
STONE_CHARS = ("B", "R")
SIDE_CHARS = ("b", "r")


class PositionText(NamedTuple):
    """Position text as read: the 100 squares' characters (A1 to J10), the side to
    move (``b`` or ``r``), and the first thing wrong with the text ("" when it is
    well formed)."""

    board: str
    side: str
    error: str


def read_position_text(text: str) -> PositionText:
    """Read position text, saying what is wrong with it if anything is."""
    if not isinstance(text, str) or len(text) > 200:
        return PositionText("", "", "position text is ten rows and the side to move")
    parts = text.split()
    if len(parts) != 2:
        return PositionText("", "", "position text is the rows, a space and the side to move")
    rows_text, side = parts
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        return PositionText("", "", f"the board needs {SIZE} rows separated by /")
    for number, row in enumerate(rows, start=1):
        if len(row) != SIZE:
            return PositionText("", "", f"row {number} needs {SIZE} squares, not {len(row)}")
        wrong = next((char for char in row if char not in "BR."), None)
        if wrong is not None:
            return PositionText("", "", f"row {number}: {wrong!r} is not a stone (use B, R or .)")
    if side not in SIDE_CHARS:
        return PositionText("", "", f"the side to move is b or r, not {side[:5]!r}")
    return PositionText("".join(rows), side, "")


def write_position_text(board: str, side: str) -> str:
    """Position text of a board's 100 characters and the side to move."""
    rows = "/".join(board[at : at + SIZE] for at in range(0, SIZE * SIZE, SIZE))
    return f"{rows} {side}"
