"""Mǽrstánas written down: its moves (``E4``, ``T E4xE3/D4``, ``W E4``, ``Pass``), the
moves of a record, and the position text (``docs/RULES.md``, "Notation" and
"Position text"). The one place that reads and writes them; the engine plays
what it reads, the site's records, editor and pages ask it.

Pure Python, standard library only. Every move is interned: ``move_of`` and the
tables below hand out the same ``Move`` each time, so the engine's hot loops
never build one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from game.grid import (
    NAMES,
    NUM_SQUARES,
    SIZE,
    SQUARE_BY_NAME,
    SQUARES,
    Square,
    to_square,
)
from game.surface import (
    InvalidMoveError,
    move_splitter,
)

__all__ = [
    "EMPTY_TEXT",
    "PASS",
    "Move",
    "PositionText",
    "Stone",
    "format_move",
    "move_of",
    "parse_move",
    "read_position_text",
    "split_moves",
]


class Stone(StrEnum):
    """The kind of stone a move puts on the board."""

    STONE = "stone"
    THUNDER = "thunder"
    WODEN = "woden"


_STONE_PREFIX = {Stone.STONE: "", Stone.THUNDER: "T ", Stone.WODEN: "W "}


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a stone of some kind on a square, or a pass (``stone`` and ``square`` None).

    ``str(move)`` is the notation (``E4``, ``T E4``, ``W E4``, ``Pass``). Raises
    ``InvalidMoveError`` for a square outside 0..48 or half a pass.
    """

    stone: Stone | None
    square: int | None

    def __post_init__(self) -> None:
        if (self.stone is None) != (self.square is None):
            raise InvalidMoveError("a pass has neither stone nor square; a placement has both")
        if self.stone is not None and (
            not isinstance(self.square, int) or not 0 <= self.square < NUM_SQUARES
        ):
            raise InvalidMoveError(f"{self.square!r} is not a square: squares run 0 to 48")

    @property
    def is_pass(self) -> bool:
        """True for the pass."""
        return self.stone is None

    def __str__(self) -> str:
        return format_move(self)

    def __repr__(self) -> str:
        return f"Move({format_move(self)!r})"


PASS = Move(None, None)
STONE_MOVES = tuple(Move(Stone.STONE, sq) for sq in SQUARES)
THUNDER_MOVES = tuple(Move(Stone.THUNDER, sq) for sq in SQUARES)
WODEN_MOVES = tuple(Move(Stone.WODEN, sq) for sq in SQUARES)
MOVES_OF = {Stone.STONE: STONE_MOVES, Stone.THUNDER: THUNDER_MOVES, Stone.WODEN: WODEN_MOVES}


def format_move(move: Move) -> str:
    """The notation of a move: ``E4``, ``T E4``, ``W E4`` or ``Pass``."""
    if move.stone is None:
        return "Pass"
    return _STONE_PREFIX[move.stone] + NAMES[move.square]


def move_of(stone: Stone | str, square: str | int) -> Move:
    """The (interned) move putting ``stone`` on ``square``; no text to parse.

    Raises ``InvalidMoveError`` for a square off the board and ``ValueError`` for an
    unknown stone kind.
    """
    return MOVES_OF[Stone(stone)][to_square(square)]


_MOVE_BY_TEXT = {
    format_move(move): move for move in (PASS, *STONE_MOVES, *THUNDER_MOVES, *WODEN_MOVES)
}

# --- Reading a move ------------------------------------------------------------------

_SQUARE_RE = r"([a-z])\s*(\d+)"
_MOVE_RE = re.compile(
    rf"(?:(?P<kind>[tw])\s*)?{_SQUARE_RE}(?:\s*x\s*(?P<removed>.*))?",
    re.IGNORECASE,
)
_REMOVED_RE = re.compile(rf"{_SQUARE_RE}(?:\s*/\s*{_SQUARE_RE})*", re.IGNORECASE)
_HINT = "write a square like E4, or T E4, W E4, Pass"
# No move is longer than a thunder-stone clearing four squares; longer text is
# refused before any pattern runs over it.
_LONGEST = 64


def _square_of(column: str, row: str, text: str) -> Square:
    square = SQUARE_BY_NAME.get(f"{column.upper()}{row}")
    if square is None:
        raise InvalidMoveError(f"{text!r} is not a move: squares run A1 to G7")
    return square


def read_move(text: str) -> tuple[Move, frozenset[Square] | None]:
    """Read move text; also return the removal list of a thunder move when one is given
    (the engine checks it against what the stone clears).

    Raises ``InvalidMoveError`` for text that is not a move.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a move: {_HINT}")
    move = _MOVE_BY_TEXT.get(text)  # text as the engine writes it: no pattern needed
    if move is not None:
        return move, None
    stripped = text.strip()
    if stripped.lower() == "pass":
        return PASS, None
    if len(stripped) > _LONGEST:
        raise InvalidMoveError(f"{stripped[:20] + '…'!r} is not a move: {_HINT}")
    match = _MOVE_RE.fullmatch(stripped)
    if match is None:
        raise InvalidMoveError(f"{text!r} is not a move: {_HINT}")
    kind = {None: Stone.STONE, "t": Stone.THUNDER, "w": Stone.WODEN}[
        match["kind"] and match["kind"].lower()
    ]
    square = _square_of(match[2], match[3], text)
    removed_text = match["removed"]
    if removed_text is None:
        return MOVES_OF[kind][square], None
    if kind is not Stone.THUNDER:
        raise InvalidMoveError(f"{text!r} is not a move: only a thunder-stone removes stones")
    if _REMOVED_RE.fullmatch(removed_text) is None:
        raise InvalidMoveError(
            f"{text!r} is not a move: write the removed stones as squares separated by /"
        )
    names = re.findall(_SQUARE_RE, removed_text, re.IGNORECASE)
    removed = [_square_of(column, row, text) for column, row in names]
    if len(set(removed)) != len(removed):
        raise InvalidMoveError(f"{text!r} is not a move: a removed square is listed twice")
    return THUNDER_MOVES[square], frozenset(removed)


def parse_move(text: str) -> Move:
    """Read a move in the rules' notation: ``E4``, ``T E4``, ``T E4xE3/D4``, ``W E4``, ``Pass``.

    Forgiving: any case, extra spaces, and a thunder move with or without its removal
    list (the list is checked against the position when the move is played).
    Raises ``InvalidMoveError`` for text that is not a move.
    """
    return read_move(text)[0]


# --- The moves of a record --------------------------------------------------------------

# One move as a record writes it: a pass, or an optional stone letter, a square and,
# for a thunder move, its removals. What follows a square must not run on into a word.
_RECORD_MOVE = re.compile(
    r"(?:pass|(?:[tw]\s*)?[a-g]\s*\d+(?:\s*x\s*[a-g]\s*\d+(?:\s*/\s*[a-g]\s*\d+)*)?)(?![a-z0-9])",
    re.IGNORECASE,
)
split_moves = move_splitter(_RECORD_MOVE, read_move)


# --- Position text ---------------------------------------------------------------------

EMPTY_TEXT = "......./......./......./......./......./......./....... d TWtw"
# The characters of a board's squares: empty, then dark's and light's stones.
SQUARE_CHARS = ".STWstw"
# The special stones in hand, in the order they are written.
HAND_LETTERS = "TWtw"


class PositionText(NamedTuple):
    """Position text read leniently, as far as it goes: every square's character when
    the board can be read, and the first thing wrong with the text, if any."""

    board: str  # 49 characters of SQUARE_CHARS, A1 to G7; "" if the board is unreadable
    side: str  # "d" or "l"; "" if unreadable
    hand: str  # the letters of HAND_LETTERS held, in their order
    error: str  # "" when the text is well formed

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple(self.board[i : i + SIZE] for i in range(0, len(self.board), SIZE))


def read_position_text(text: str) -> PositionText:
    """Read position text (``docs/RULES.md``, "Position text") without refusing it:
    what could be read, and why the rest could not. Whether the position is one
    the rules can reach is the engine's to say (``Position.from_text``)."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 3:
        return PositionText(
            "",
            "",
            "",
            f"{text!r} is not position text: expected the board, the side to move "
            "and the special stones in hand, separated by spaces",
        )
    board_text, side, hand_text = parts
    rows = board_text.split("/")
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        return PositionText(
            "",
            "",
            "",
            f"{board_text!r} is not a board: expected seven rows of seven squares separated by /",
        )
    board = "".join(rows)
    for index, char in enumerate(board):
        if char not in SQUARE_CHARS:
            error = f"{char!r} on {NAMES[index]} is not a square: use . S T W s t w"
            return PositionText("", "", "", error)
    if side not in ("d", "l"):
        error = f"{side!r} is not a side to move: use d or l"
        return PositionText(board, "", "", error)
    held = "" if hand_text == "-" else hand_text
    if any(c not in HAND_LETTERS for c in held) or len(set(held)) != len(held):
        error = f"{hand_text!r} is not a list of special stones in hand: use T W t w or -"
        return PositionText(board, side, "", error)
    hand = "".join(letter for letter in HAND_LETTERS if letter in held)
    return PositionText(board, side, hand, "")


def write_position_text(board: str, side: str, hand: str) -> str:
    """Position text of a board's 49 characters, the side to move and the hand."""
    rows = "/".join(board[i : i + SIZE] for i in range(0, NUM_SQUARES, SIZE))
    held = "".join(letter for letter in HAND_LETTERS if letter in hand) or "-"
    return f"{rows} {side} {held}"
