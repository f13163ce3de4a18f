"""How Cyngesheall's moves and positions are written (docs/CYNGESHEALL.md, "Notation").

A move is ``from-to`` (``B6-B2``); a move that captures lists the squares it took
after ``x``, north, west, east, south of the landing square (``C7-C3xC2/D3``).
Reading is forgiving: any case, ``B6 B2`` or ``B6B2``, spaces anywhere, a capture
list in any order. A position is its seven rows, top to bottom, a letter a square
(``K``/``C``/``S`` dark king, commander and stone, lower case light's, ``.`` empty),
then the side to move and the plies since the last capture::

    ...sssk/....scs/.....ss/S.....s/SS...../SCS..../KSSS... d 0

Pure Python, standard library only.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from game.grid import (
    NAMES,
    NUM_SQUARES,
    SIZE,
    SQUARES,
    Square,
    parse_square,
)
from game.surface import (
    InvalidMoveError,
    move_splitter,
)

__all__ = [
    "MOVES",
    "START_TEXT",
    "Move",
    "Piece",
    "PositionText",
    "format_move",
    "parse_move",
    "read_move",
    "read_position_text",
    "split_moves",
    "write_position_text",
]


class Piece(StrEnum):
    """A kind of piece: each side has a king, a commander and eight stones."""

    KING = "king"
    COMMANDER = "commander"
    STONE = "stone"


class Move(NamedTuple):
    """A piece's move from ``origin`` to ``target``; prints as ``B6-B2``. Every move is
    interned (``MOVES[origin][target]``), so moves compare by identity in hot loops."""

    origin: Square
    target: Square

    def __str__(self) -> str:
        return f"{NAMES[self.origin]}-{NAMES[self.target]}"

    @property
    def is_pass(self) -> bool:
        """Never: a side with no move has lost, so nobody passes (the pages ask every
        kind's moves this)."""
        return False


MOVES = tuple(tuple(Move(a, b) for b in SQUARES) for a in SQUARES)


def format_move(move: Move) -> str:
    """A move as the record writes it, without its captures: ``B6-B2``."""
    return f"{NAMES[move.origin]}-{NAMES[move.target]}"


_SQUARE = r"[a-z]\s*\d+"
_MOVE_RE = re.compile(
    rf"\s*({_SQUARE})\s*-?\s*({_SQUARE})\s*(?:[x×]\s*({_SQUARE}(?:\s*[/,\s]\s*{_SQUARE})*))?\s*",
    re.IGNORECASE,
)
_SQUARES_RE = re.compile(_SQUARE, re.IGNORECASE)
_HINT = "write a move from one square to another, like B6-B2"
# Longer text is no move: it is refused before any pattern reads it.
_LONGEST = 64


def _square(text: str) -> Square:
    return parse_square(re.sub(r"\s+", "", text))


def read_move(text: str) -> tuple[Move, frozenset[Square] | None]:
    """Read a move and the captures it names, if it names any (``C7-C3xC2/D3``).

    Raises ``InvalidMoveError`` for text that is not a move, or names a square off
    the board or a capture twice.
    """
    if not isinstance(text, str) or len(text) > _LONGEST:
        raise InvalidMoveError(f"that is not a move: {_HINT}")
    found = _MOVE_RE.fullmatch(text)
    if found is None:
        raise InvalidMoveError(f"{text.strip()[:20]!r} is not a move: {_HINT}")
    move = MOVES[_square(found[1])][_square(found[2])]
    if found[3] is None:
        return move, None
    named = [_square(part) for part in _SQUARES_RE.findall(found[3])]
    captures = frozenset(named)
    if len(captures) != len(named):
        raise InvalidMoveError(f"{text.strip()[:20]!r} names a capture twice")
    return move, captures


def parse_move(text: str) -> Move:
    """The move that ``text`` writes, without the captures it may name."""
    return read_move(text)[0]


# One move as a record writes it: from, to, and what it captured. What follows a square
# must not run on into a word.
_RECORD_MOVE = re.compile(
    rf"{_SQUARE}\s*-?\s*{_SQUARE}(?:\s*[x×]\s*{_SQUARE}(?:\s*/\s*{_SQUARE})*)?(?![a-z0-9])",
    re.IGNORECASE,
)
split_moves = move_splitter(_RECORD_MOVE, read_move)


# --- Position text ---------------------------------------------------------------------

START_TEXT = "...sssk/....scs/.....ss/S.....s/SS...../SCS..../KSSS... d 0"
SQUARE_CHARS = ".KCSkcs"


class PositionText(NamedTuple):
    """Position text as read: the 49 squares' characters (A1 to G7), the side to move
    (``d`` or ``l``), the plies since the last capture, and the first thing wrong with
    the text ("" when it is well formed)."""

    board: str
    side: str
    quiet: int
    error: str


def read_position_text(text: str) -> PositionText:
    """Read position text, saying what is wrong with it if anything is."""
    if not isinstance(text, str) or len(text) > 200:
        return PositionText("", "", 0, "position text is seven rows, a side and a count")
    parts = text.split()
    if len(parts) != 3:
        return PositionText(
            "", "", 0, "position text is the rows, the side to move and the plies since a capture"
        )
    rows_text, side, quiet = parts
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        return PositionText("", "", 0, f"the board needs {SIZE} rows separated by /")
    for number, row in enumerate(rows, start=1):
        if len(row) != SIZE:
            return PositionText("", "", 0, f"row {number} needs {SIZE} squares, not {len(row)}")
        wrong = next((char for char in row if char not in SQUARE_CHARS), None)
        if wrong is not None:
            return PositionText(
                "", "", 0, f"row {number}: {wrong!r} is not a piece (use K C S k c s or .)"
            )
    if side not in ("d", "l"):
        return PositionText("", "", 0, f"the side to move is d or l, not {side[:5]!r}")
    if not quiet.isdigit() or len(quiet) > 3:
        return PositionText("", "", 0, f"the plies since a capture is a count, not {quiet[:5]!r}")
    return PositionText("".join(rows), side, int(quiet), "")


def write_position_text(board: str, side: str, quiet: int) -> str:
    """Position text of a board's 49 characters, the side to move and the quiet plies."""
    rows = "/".join(board[i : i + SIZE] for i in range(0, NUM_SQUARES, SIZE))
    return f"{rows} {side} {quiet}"
