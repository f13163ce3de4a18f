"""How Parking Lot's turns and positions are written (docs/PARKING-LOT.md, "Notation").

A turn is the placement's anchor, then, if a piece drove, its ``from-to`` anchors:
``E4`` or ``E4 B2-B6``. Reading is forgiving: any case, spaces around and between
squares (never inside one), one comma or semicolon before the drive, the dash
optional (``e4``, `` E4  b2 - b6 ``, ``E4, B2-B6``, ``E4B2B6``). A position is its
eight rows, top to bottom, ``B`` a blue square, ``R`` a red one, ``.`` an empty one,
then the side to move, ``b`` or ``r``::

    ........../........ b

Squares are numbered ``column * 8 + row`` (``A1`` 0, ``A2`` 1, ``B1`` 8), so that the
order of the numbers is the order of the names, the order a sorted record lists
turns in. Pure Python, standard library only.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from game.surface import InvalidMoveError, move_splitter

__all__ = [
    "COLUMNS",
    "NAMES",
    "SIZE",
    "Move",
    "cell_of",
    "format_move",
    "parse_move",
    "parse_square",
    "read_move",
    "split_moves",
    "square_number",
]

SIZE = 8
COLUMNS = "ABCDEFGH"
# The name of each square number: column * 8 + row, both from 0.
NAMES = tuple(f"{COLUMNS[square // SIZE]}{square % SIZE + 1}" for square in range(SIZE * SIZE))
_NUMBERS = {name: square for square, name in enumerate(NAMES)}


def square_number(column: int, row: int) -> int:
    """The number of the square in ``column`` and ``row`` (both from 0, row 0 the top)."""
    return column * SIZE + row


def cell_of(square: int) -> int:
    """The board's cell (reading order, as ``game.boards`` numbers them) of a square."""
    return (square % SIZE) * SIZE + square // SIZE


class Move(NamedTuple):
    """A turn: the anchor a piece is placed on, and the anchors a piece drove from and
    to (both None when no piece drove). Prints as the record writes it: ``E4 B2-B6``."""

    place: int
    origin: int | None = None
    target: int | None = None

    def __str__(self) -> str:
        if self.origin is None:
            return NAMES[self.place]
        return f"{NAMES[self.place]} {NAMES[self.origin]}-{NAMES[self.target]}"

    @property
    def drives(self) -> bool:
        """True when a piece drives after the placement."""
        return self.origin is not None

    @property
    def is_pass(self) -> bool:
        """Never: every turn places a piece (the pages ask every kind's moves this)."""
        return False


def format_move(move: Move) -> str:
    """A turn as the record writes it: ``E4`` or ``E4 B2-B6``."""
    return str(move)


def parse_square(text: str) -> int:
    """The number of the square ``text`` names (``E4``, any case, spaces around).

    Raises ``InvalidMoveError`` for text that names no square of the 8×8 board."""
    name = text.strip().upper() if isinstance(text, str) else ""
    if name not in _NUMBERS:
        raise InvalidMoveError(f"{str(text).strip()[:10]!r} is not a square: squares run A1 to H8")
    return _NUMBERS[name]


_SQUARE = r"[a-z]\d+"
_MOVE_RE = re.compile(
    rf"\s*({_SQUARE})(?:\s*[,;]?\s*({_SQUARE})\s*-?\s*({_SQUARE}))?\s*", re.IGNORECASE
)
_HINT = "write a placement, then any drive, like E4 or E4 B2-B6"
# Longer text is no turn: it is refused before any pattern reads it.
_LONGEST = 64


def read_move(text: str) -> Move:
    """The turn ``text`` writes, read forgivingly (``e4``, `` E4  b2 - b6 ``,
    ``E4, B2-B6``, ``E4B2B6``).

    Raises ``InvalidMoveError`` for text that is not a turn (``E 4``, ``E4 B2``) or
    names a square off the board (``I1``, ``A9``).
    """
    if not isinstance(text, str) or len(text) > _LONGEST:
        raise InvalidMoveError(f"that is not a turn: {_HINT}")
    found = _MOVE_RE.fullmatch(text)
    if found is None:
        raise InvalidMoveError(f"{text.strip()[:20]!r} is not a turn: {_HINT}")
    place = parse_square(found[1])
    if found[2] is None:
        return Move(place)
    return Move(place, parse_square(found[2]), parse_square(found[3]))


def parse_move(text: str) -> Move:
    """The turn ``text`` writes (``read_move``)."""
    return read_move(text)


# One turn as a record writes it. In a record the drive's dash is needed: ``D4 E4``
# is two placements, not a placement and half a drive.
_RECORD_MOVE = re.compile(
    rf"{_SQUARE}(?:\s*[,;]?\s*{_SQUARE}\s*-\s*{_SQUARE})?(?![a-z0-9])", re.IGNORECASE
)
split_moves = move_splitter(_RECORD_MOVE, read_move)
