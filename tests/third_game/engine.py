"""The rules of Three in a row (``RULES.md`` beside this module).

Pure Python, standard library only, like every game's engine. The board is a 5×4
``SquareBoard``: five columns A to E, four rows, ``A1`` top left. Dark and light
take turns to place a stone on an empty square, dark first; three of one colour in
a line, along a row, a column or a diagonal, win; a full board without one is a
draw. A position is written as its four rows, top to bottom, ``S`` for a dark
stone, ``s`` for a light one, ``.`` for an empty square, then the side to move::

    ...../..S../.s.../..... d
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.boards import SquareBoard
from game.options import Choice, OnOff, Options
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Outcome,
    PositionBase,
    move_splitter,
)

__all__ = [
    "BOARD",
    "ENDS",
    "LINES",
    "SIDE_NAMES",
    "Move",
    "Position",
    "Rules",
    "Score",
    "split_moves",
]

BOARD = SquareBoard(5, 4)
# Dark moves first; a full board without a line is a draw.
SIDE_NAMES = Sides(first="Dark", second="Light", no_winner="draw")
# Every three squares in a line: east, south, south-east and south-west from each.
LINES = tuple(
    (cell, second, third)
    for cell in BOARD.cells
    for direction in ("east", "south", "south-east", "south-west")
    for second in [BOARD.step(cell, BOARD.direction(direction))]
    if second is not None
    for third in [BOARD.step(second, BOARD.direction(direction))]
    if third is not None
)
END_LINE = "three-in-a-row"
END_FULL = "full-board"
ENDS = {END_LINE: "Three in a row", END_FULL: "Full board"}
# A stone of each side in the position text, and the side to move.
STONES = ("S", "s")
SIDES = ("d", "l")


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game of Three in a row: none."""

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = ()

    @property
    def summary(self) -> str:
        """The rules in a few words."""
        return "Standard rules"


class Score(NamedTuple):
    """Each side's stones on the board; ``str(score)`` is ``Dark: 3, Light: 2``."""

    dark: int
    light: int

    def __str__(self) -> str:
        return f"Dark: {self.dark}, Light: {self.light}"


class Move(NamedTuple):
    """A stone placed on ``square``; prints as ``C2``. Moves are interned (``MOVES``)."""

    square: int

    def __str__(self) -> str:
        return BOARD.name(self.square)

    @property
    def is_pass(self) -> bool:
        """Never: a side always has a square while the game goes on."""
        return False


MOVES = tuple(Move(cell) for cell in BOARD.cells)


def parse_move(text: str) -> Move:
    """The move written ``text`` (``C2``, any case). Raises ``InvalidMoveError`` for
    text that names no square of the board."""
    return MOVES[BOARD.parse(text)]


def _read_move(text: str) -> Move:
    return parse_move(text)


split_moves = move_splitter(re.compile(r"[a-z]\s*\d+(?![a-z0-9])", re.IGNORECASE), _read_move)


class Position(PositionBase):
    """A position: the stones on the board and the side to move, immutable; ``play``
    returns the next one."""

    __slots__ = ("_cells", "_last", "_outcome", "_parent", "_ply", "_rules", "_turn")

    def __init__(
        self,
        cells: str,
        turn: int,
        rules: Rules | None = None,
        ply: int = 0,
        parent: Position | None = None,
        last: Move | None = None,
    ) -> None:
        self._cells = cells
        self._turn = turn
        self._rules = rules if rules is not None else Rules()
        self._ply = ply
        self._parent = parent
        self._last = last
        self._outcome = _outcome(cells, turn)

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The empty board, dark to move."""
        return cls("." * len(BOARD), 0, rules)

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """The position ``text`` writes. Raises ``InvalidPositionError`` for text that
        is not four rows of five squares and a side, or a position no game reaches."""
        rows, _, side = text.strip().partition(" ")
        cells = rows.replace("/", "")
        shape = [len(row) for row in rows.split("/")]
        if shape != [BOARD.width] * BOARD.height or set(cells) - {".", *STONES}:
            raise InvalidPositionError(
                f"{text[:40]!r} is not a position: four rows of five of . S s, then d or l"
            )
        if side.strip() not in SIDES:
            raise InvalidPositionError(f"{side.strip()[:10]!r} is not a side to move: d or l")
        turn = SIDES.index(side.strip())
        dark, light = cells.count("S"), cells.count("s")
        if dark - light != turn:
            raise InvalidPositionError(
                f"{dark} dark and {light} light stones: dark moves first, so it is "
                f"{'light' if dark > light else 'dark'}'s turn, or the count is wrong"
            )
        if _has_line(cells, STONES[turn]):
            # Only a move makes a line, and the side that made it is not to move.
            raise InvalidPositionError(f"{COLORS[turn].value} has three in a row and is to move")
        return cls(cells, turn, rules)

    def to_text(self) -> str:
        """The position as one line of text (``from_text`` reads it back)."""
        width = BOARD.width
        rows = [self._cells[at : at + width] for at in range(0, len(self._cells), width)]
        return f"{'/'.join(rows)} {SIDES[self._turn]}"

    def _key(self) -> tuple[str, int]:
        return self._cells, self._turn

    @property
    def is_over(self) -> bool:
        """True once a side has three in a row or the board is full."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the rules ended the game, or None while it goes on."""
        return self._outcome

    def score(self) -> Score:
        """Each side's stones on the board."""
        return Score(self._cells.count("S"), self._cells.count("s"))

    def stone_at(self, cell: int) -> Color | None:
        """The side whose stone is on ``cell``, or None for an empty square."""
        found = self._cells[cell]
        return COLORS[STONES.index(found)] if found in STONES else None

    def legal_moves(self) -> list[Move]:
        """The empty squares' moves, in reading order; none once the game is over."""
        if self.is_over:
            return []
        return [MOVES[cell] for cell, on in enumerate(self._cells) if on == "."]

    def why_illegal(self, move: Move | str) -> str | None:
        """Why ``move`` may not be played now, or None if it may. Raises
        ``InvalidMoveError`` for text that is no move."""
        move = parse_move(move) if isinstance(move, str) else move
        if self.is_over:
            return "the game is over"
        if self._cells[move.square] != ".":
            return f"{move} is taken"
        return None

    def play(self, move: Move | str) -> Position:
        """The position after ``move``. Raises ``InvalidMoveError`` for text that is no
        move and ``IllegalMoveError`` for one the rules refuse."""
        if not isinstance(move, Move | str):
            raise InvalidMoveError(f"{move!r} is not a move")
        parsed = parse_move(move) if isinstance(move, str) else move
        reason = self.why_illegal(parsed)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {str(move)!r}: {reason}")
        cell = parsed.square
        cells = self._cells[:cell] + STONES[self._turn] + self._cells[cell + 1 :]
        return Position(cells, 1 - self._turn, self._rules, self._ply + 1, self, MOVES[cell])


def _has_line(cells: str, stone: str) -> bool:
    return any(cells[a] == cells[b] == cells[c] == stone for a, b, c in LINES)


def _outcome(cells: str, turn: int) -> Outcome | None:
    """The side that just moved wins with a line; a full board without one is a draw."""
    mover = 1 - turn
    if _has_line(cells, STONES[mover]):
        return Outcome(COLORS[mover].value, END_LINE)
    if "." not in cells:
        return Outcome("draw", END_FULL)
    return None
