"""How Land Grab's moves and positions are written (docs/LAND-GRAB.md, "Notation").

A drop is its square (``D4``); a flip move or a shift is ``from-to`` (``D4-D2``: the
target tile's face tells which); a capture adds ``x`` and the square of the stone it
takes (``A1-C3xD4``); a pass is ``Pass``. Reading is forgiving: any case, spaces
around the parts of a move but never inside a square (``D 4``), a space or nothing
for the dash (``d4 d2``, ``D4D2``), and a capture with or without its ``x`` square.
Whether the capture square is the right one is the position's to say.

A position is its eight rows, top to bottom, separated by ``/``, each eight
characters: ``b`` an empty black tile, ``w`` an empty white one, ``B`` a black tile
with black's stone on it, ``W`` a white tile with white's (a stone always stands on
a tile of its own colour). Then, after spaces: the side to move (``b`` or ``w``),
the plies played, the plies since the last flip, and ``f`` when the turn just played
was flipless or ``-`` when it was not. The start is
``bwbwbwbw/wbwbwbwb/…/wbwbwbwb b 0 0 -``.

Pure Python, standard library only.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from game.boards import SquareBoard
from game.surface import InvalidMoveError, move_splitter

__all__ = [
    "BOARD",
    "DROPS",
    "NAMES",
    "PASS",
    "SIDE_CHARS",
    "SIZE",
    "START_TEXT",
    "STEPS",
    "Move",
    "PositionText",
    "format_move",
    "parse_move",
    "parse_square",
    "read_position_text",
    "split_moves",
    "write_position_text",
]

# Columns A to H left to right, rows 1 to 8 top to bottom; square ``row * 8 + column``,
# as the bitboards number their bits.
SIZE = 8
BOARD = SquareBoard(SIZE, SIZE)
NAMES = BOARD.names
COLUMNS = BOARD.columns


class Move(NamedTuple):
    """A turn: a drop on ``target`` (``origin`` None), a flip move or shift of the
    stone on ``origin`` to ``target``, taking the stone on ``capture`` when it
    captures, or a pass (``target`` None). Prints as the record writes it."""

    target: int | None
    origin: int | None = None
    capture: int | None = None

    def __str__(self) -> str:
        if self.target is None:
            return "Pass"
        if self.origin is None:
            return NAMES[self.target]
        text = f"{NAMES[self.origin]}-{NAMES[self.target]}"
        return text if self.capture is None else f"{text}x{NAMES[self.capture]}"

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.target is None

    @property
    def is_drop(self) -> bool:
        """True for one of the four drops that start a game."""
        return self.target is not None and self.origin is None


PASS = Move(None)
DROPS = tuple(Move(square) for square in BOARD.cells)
# Every stone move without a capture, interned: ``STEPS[origin][target]``.
STEPS = tuple(tuple(Move(target, origin) for target in BOARD.cells) for origin in BOARD.cells)


def format_move(move: Move) -> str:
    """A move as the record writes it: ``D4``, ``D4-D2``, ``A1-C3xD4`` or ``Pass``."""
    return str(move)


_HINT = "write a drop as its square (D4), a move as from-to (D4-D2, A1-C3xD4), or Pass"
_SQUARE = r"[A-Za-z][0-9]+"
_MOVE_RE = re.compile(
    rf"\s*(?:(?P<pass>[Pp][Aa][Ss][Ss])|(?P<a>{_SQUARE})"
    rf"(?:\s*-?\s*(?P<b>{_SQUARE})(?:\s*[xX]\s*(?P<c>{_SQUARE}))?)?)\s*"
)
_LONGEST = 40


def parse_square(text: str) -> int:
    """The square a letter and a row write (``D4``, ``h8``, any case).

    Raises ``InvalidMoveError`` for a column past H or a row outside 1 to 8.
    """
    letter, row = text[:1].upper(), text[1:]
    if not letter or letter not in COLUMNS:
        raise InvalidMoveError(f"{text!r} is not a square: columns run A to H")
    if not row.isdigit() or len(row) != 1 or not 1 <= int(row) <= SIZE:
        raise InvalidMoveError(f"{text!r} is not a square: rows run 1 to 8")
    return (int(row) - 1) * SIZE + COLUMNS.index(letter)


def parse_move(text: str) -> Move:
    """The move ``text`` writes: ``D4`` a drop, ``D4-D2`` (``d4 d2``, ``D4D2``) a move,
    ``A1-C3xD4`` a capture (the ``x`` square as written, for the position to check),
    ``Pass`` a pass.

    Raises ``InvalidMoveError`` for text that is not a move or names a square off the
    board.
    """
    if not isinstance(text, str) or len(text) > _LONGEST:
        raise InvalidMoveError(f"that is not a move: {_HINT}")
    found = _MOVE_RE.fullmatch(text)
    if found is None:
        raise InvalidMoveError(f"{text.strip()[:20]!r} is not a move: {_HINT}")
    if found["pass"]:
        return PASS
    first = parse_square(found["a"])
    if found["b"] is None:
        return DROPS[first]
    target = parse_square(found["b"])
    if found["c"] is None:
        return STEPS[first][target]
    return Move(target, first, parse_square(found["c"]))


# One move as a record writes it; what follows must not run on into a word.
_RECORD_MOVE = re.compile(
    rf"(?:[Pp][Aa][Ss][Ss]|{_SQUARE}(?:\s*-\s*{_SQUARE}|{_SQUARE})?(?:\s*[xX]\s*{_SQUARE})?)"
    r"(?![A-Za-z0-9])"
)
split_moves = move_splitter(_RECORD_MOVE, parse_move)


# --- Position text ---------------------------------------------------------------------

# A side's letter in the position text, black then white.
SIDE_CHARS = ("b", "w")
START_TEXT = (
    "/".join(
        "".join("b" if (column + row) % 2 == 0 else "w" for column in range(SIZE))
        for row in range(SIZE)
    )
    + " b 0 0 -"
)


class PositionText(NamedTuple):
    """Position text as read: the 64 squares' characters (A1 to H8), the side to move,
    the ply, the quiet plies, whether the last turn was flipless, and the first thing
    wrong with the text ("" when it is well formed)."""

    board: str
    side: str
    ply: int
    quiet: int
    flipless: bool
    error: str


def _wrong(error: str) -> PositionText:
    return PositionText("", "", 0, 0, False, error)


def read_position_text(text: str) -> PositionText:
    """Read position text, saying what is wrong with it if anything is."""
    if not isinstance(text, str) or len(text) > 200:
        return _wrong("position text is eight rows, the side to move, two counts and a flag")
    parts = text.split()
    if len(parts) != 5:
        return _wrong(
            "position text is the rows, the side to move (b or w), the ply, the plies "
            "since the last flip and f or - for a flipless last turn"
        )
    rows_text, side, ply, quiet, flag = parts
    rows = rows_text.split("/")
    if len(rows) != SIZE:
        return _wrong(f"the board needs {SIZE} rows separated by /")
    for number, row in enumerate(rows, start=1):
        if len(row) != SIZE:
            return _wrong(f"row {number} needs {SIZE} squares, not {len(row)}")
        wrong = next((char for char in row if char not in "bwBW"), None)
        if wrong is not None:
            return _wrong(f"row {number}: {wrong!r} is not a tile (use b, w, B or W)")
    if side not in SIDE_CHARS:
        return _wrong(f"the side to move is b or w, not {side[:5]!r}")
    if not ply.isdigit() or not quiet.isdigit():
        return _wrong("the ply and the plies since the last flip are whole numbers")
    if flag not in ("f", "-"):
        return _wrong(f"the last field is f (a flipless last turn) or -, not {flag[:5]!r}")
    return PositionText("".join(rows), side, int(ply), int(quiet), flag == "f", "")


def write_position_text(board: str, side: str, ply: int, quiet: int, flipless: bool) -> str:
    """Position text of a board's 64 characters and the counts."""
    rows = "/".join(board[at : at + SIZE] for at in range(0, SIZE * SIZE, SIZE))
    return f"{rows} {side} {ply} {quiet} {'f' if flipless else '-'}"
