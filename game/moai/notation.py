"""How Moai's moves and positions are written (docs/MOAI.md, "Notation"), on either
of its boards.

A placement is its square (``D4``). A turn is the counter's square, ``:``, then the
Moai's move ``from-to``: ``D8:D4-D6``; a bent move names its landing square
(``D1:D4-C2``). Reading is forgiving: any case, spaces around and between the
squares, and any of ``:``, ``-``, ``,``, ``/``, spaces or nothing between them
(``d8 d4 d6``, ``D8D4D6``). In a whole record, where spaces and commas separate the
moves, a turn's squares are joined by ``:``, ``-``, ``/`` or nothing.

A position is its rows, top to bottom, separated by ``/`` (the square board writes
``#`` for each missing corner; the hex board writes only a row's cells), ``.`` an
empty square, ``o`` a counter, ``W`` and ``B`` the Moai; then a space and the side
to move, ``w`` or ``b``.

Pure Python, standard library only.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from game.boards import HexBoard, SquareBoard
from game.boards.base import Board
from game.surface import InvalidMoveError, move_splitter

__all__ = [
    "BOARDS",
    "HEX",
    "SIDE_CHARS",
    "SQUARE",
    "Geometry",
    "Move",
    "PositionText",
    "format_move",
    "parse_move",
    "split_moves",
    "split_record",
]

# The side to move in position text, white then black; the Moai, white then black.
SIDE_CHARS = ("w", "b")
MOAI_CHARS = ("W", "B")
COUNTER_CHAR = "o"
EMPTY_CHAR = "."
HOLE_CHAR = "#"


class Move(NamedTuple):
    """A placement of the mover's Moai on ``target`` (``origin`` and ``counter`` None),
    or a turn: a counter on ``counter``, then the Moai on ``origin`` moved to
    ``target``. ``text`` is the record's (``D4``, ``D8:D4-D6``), which names the cells
    of its board; a board's moves are interned (``Geometry.move``), so they compare by
    identity in hot loops."""

    text: str
    target: int
    origin: int | None = None
    counter: int | None = None

    def __str__(self) -> str:
        return self.text

    @property
    def is_placement(self) -> bool:
        """True for one of the two opening placements."""
        return self.origin is None

    @property
    def is_pass(self) -> bool:
        """Never: a player always moves until he has lost (the pages ask every kind's
        moves this)."""
        return False


def format_move(move: Move) -> str:
    """A move as the record writes it: ``D4`` or ``D8:D4-D6``."""
    return move.text


_HINT = "write a placement as its square, like D4, or a turn as counter:from-to, like D8:D4-D6"
_SQUARE = r"[A-Za-z]\s*[0-9]{1,2}"
_JOIN = r"\s*[:\-,/]?\s*"
_MOVE_RE = re.compile(rf"\s*({_SQUARE})(?:{_JOIN}({_SQUARE}){_JOIN}({_SQUARE}))?\s*")
# In a record a space or a comma ends a move: a turn's squares are joined by ``:``,
# ``-``, ``/`` (spaces around them allowed) or nothing.
_RECORD_JOIN = r"(?:\s*[:\-/]\s*)?"
_RECORD_MOVE = re.compile(
    rf"[A-Za-z][0-9]{{1,2}}(?:{_RECORD_JOIN}[A-Za-z][0-9]{{1,2}}{_RECORD_JOIN}"
    rf"[A-Za-z][0-9]{{1,2}})?(?![A-Za-z0-9])"
)
_LONGEST = 40


class PositionText(NamedTuple):
    """Position text as read: each cell's character in reading order, the side to
    move (``w`` or ``b``), and the first thing wrong with the text ("" when well
    formed)."""

    cells: str
    side: str
    error: str


class Geometry:
    """One of Moai's boards with all a turn needs, built once: each cell's rays in
    every direction (nearest cell first) and as bitmasks, the opposite of each
    direction, the directions a bent move may turn to from each (none for a
    diagonal of the square board), and the interned moves and their texts."""

    def __init__(self, name: str, board: Board) -> None:
        self.name = name
        self.board = board
        self.size = len(board)
        self.names = board.names
        self.full = (1 << self.size) - 1
        directions = board.directions
        steps = [step for _, step in directions]
        count = len(directions)
        self.opposite = tuple(steps.index((-dc, -dr)) for dc, dr in steps)
        if board.shape == "hex":
            # Turned 60°: the directions beside it, clockwise order.
            self.turns = tuple(((d - 1) % count, (d + 1) % count) for d in range(count))
        else:
            # Turned 45° from an orthogonal line: the diagonals that keep its step.
            turns = []
            for dc, dr in steps:
                if dc and dr:
                    turns.append(())
                    continue
                turns.append(
                    tuple(
                        e
                        for e, (ec, er) in enumerate(steps)
                        if ec and er and (ec == dc if dc else er == dr)
                    )
                )
            self.turns = tuple(turns)
        self.rays = tuple(
            tuple(tuple(board.ray(cell, d)) for d in range(count)) for cell in board.cells
        )
        self.ray_masks = tuple(
            tuple(sum(1 << c for c in ray) for ray in rays) for rays in self.rays
        )
        self.steps = tuple(tuple(board.step(cell, d) for d in range(count)) for cell in board.cells)
        # Which ray of a cell another cell lies on, if any.
        self.line_of = tuple(
            {other: d for d, ray in enumerate(rays) for other in ray} for rays in self.rays
        )
        # Every cell in line with a cell: the union of its rays.
        self.lines = tuple(sum(masks) for masks in self.ray_masks)
        self.placements = tuple(Move(name, cell) for cell, name in enumerate(self.names))
        self._turns: dict[tuple[int, int, int], Move] = {}
        self._by_row = self._rows()
        # Every (letter, row) place of the board's square grid, None where no cell is:
        # the hexagon's corners of its rhombus of letters and rows too. The small
        # boards lay a board out so, in reading order.
        self.grid = tuple(
            tuple(board.index.get((column, row)) for column in range(board.width))
            for row in range(board.height)
        )

    def _rows(self) -> tuple[tuple[int | None, ...], ...]:
        """The cells of each row as position text writes them, None for a hole."""
        board = self.board
        rows = []
        for row in range(board.height):
            cells = []
            for column in range(board.width):
                cell = board.index.get((column, row))
                if cell is not None:
                    cells.append(cell)
                elif board.shape == "square":
                    cells.append(None)
            rows.append(tuple(cells))
        return tuple(rows)

    def move(self, counter: int, origin: int, target: int) -> Move:
        """The interned turn: a counter on ``counter``, the Moai on ``origin`` to ``target``."""
        key = (counter, origin, target)
        found = self._turns.get(key)
        if found is None:
            names = self.names
            text = f"{names[counter]}:{names[origin]}-{names[target]}"
            found = Move(text, target, origin, counter)
            self._turns[key] = found
        return found

    def interned(self, move: Move) -> bool:
        """True if ``move`` is this board's own (made by ``move`` or a placement of
        it), not one of another board's."""
        if move.origin is None:
            return move.target < self.size and self.placements[move.target] is move
        return self._turns.get((move.counter, move.origin, move.target)) is move

    def parse_square(self, text: str) -> int:
        """The cell ``text`` names (``D4``, ``k1``, any case).

        Raises ``InvalidMoveError`` for a name that is no cell of this board.
        """
        return self.board.parse(text)

    def parse_move(self, text: str) -> Move:
        """The move ``text`` writes: ``D4`` a placement, ``D8:D4-D6`` (or ``d8 d4 d6``,
        ``D8D4D6``, ``D8,D4/D6``) a turn.

        Raises ``InvalidMoveError`` for text that is not a move or names a cell off
        the board.
        """
        if not isinstance(text, str) or len(text) > _LONGEST:
            raise InvalidMoveError(f"that is not a move: {_HINT}")
        found = _MOVE_RE.fullmatch(text)
        if found is None:
            raise InvalidMoveError(f"{text.strip()[:20]!r} is not a move: {_HINT}")
        first = self.parse_square(found[1])
        if found[2] is None:
            return self.placements[first]
        return self.move(first, self.parse_square(found[2]), self.parse_square(found[3]))

    def split_moves(self, text: str) -> list[str]:
        """The moves written in a record's text, in order (numbered or not, separated
        by spaces, commas, semicolons or lines).

        Raises ``InvalidMoveError`` at the first word that is not a move of this board.
        """
        return list(move_splitter(_RECORD_MOVE, self.parse_move)(text))

    # Position text -----------------------------------------------------------------

    @property
    def start_text(self) -> str:
        """The empty board, white to move."""
        return self.write(["."] * self.size, "w")

    def write(self, chars: list[str], side: str) -> str:
        """Position text of each cell's character (reading order) and the side to move."""
        rows = (
            "".join(HOLE_CHAR if cell is None else chars[cell] for cell in row)
            for row in self._by_row
        )
        return f"{'/'.join(rows)} {side}"

    def read(self, text: str) -> PositionText:
        """Read position text, saying what is wrong with it if anything is."""
        if not isinstance(text, str) or len(text) > 400:
            return PositionText("", "", "position text is the rows and the side to move")
        parts = text.split()
        if len(parts) != 2:
            return PositionText("", "", "position text is the rows, a space and the side to move")
        rows_text, side = parts
        rows = rows_text.split("/")
        if len(rows) != len(self._by_row):
            return PositionText("", "", f"the board needs {len(self._by_row)} rows separated by /")
        chars = ["."] * self.size
        allowed = (EMPTY_CHAR, COUNTER_CHAR, *MOAI_CHARS)
        for number, (row, cells) in enumerate(zip(rows, self._by_row, strict=True), start=1):
            if len(row) != len(cells):
                return PositionText(
                    "", "", f"row {number} needs {len(cells)} squares, not {len(row)}"
                )
            for char, cell in zip(row, cells, strict=True):
                if cell is None:
                    if char != HOLE_CHAR:
                        return PositionText(
                            "", "", f"row {number}: a missing corner is written #, not {char!r}"
                        )
                    continue
                if char not in allowed:
                    return PositionText(
                        "", "", f"row {number}: {char!r} is not a piece (use ., o, W or B)"
                    )
                chars[cell] = char
        if side not in SIDE_CHARS:
            return PositionText("", "", f"the side to move is w or b, not {side[:5]!r}")
        return PositionText("".join(chars), side, "")


_ANY_CELL = re.compile(r"[A-Ka-k](?:[1-9]|1[01])")


def _read_any_move(text: str) -> None:
    """Check that ``text``'s squares could be cells of one of the boards (columns A to
    K, rows 1 to 11); the board of the game checks them again when they are played.

    Raises ``InvalidMoveError`` for a square of neither board.
    """
    for square in re.findall(r"[A-Za-z]\s*[0-9]+", text):
        if not _ANY_CELL.fullmatch(square.replace(" ", "")):
            raise InvalidMoveError(f"{square!r} is not a square of either board")


def split_record(text: str) -> list[str]:
    """The moves a record's text writes, in order, before its board is known (a
    record's header names it): squares of either board.

    Raises ``InvalidMoveError`` at the first word that is not a move.
    """
    return list(move_splitter(_RECORD_MOVE, _read_any_move)(text))


SQUARE = Geometry("square", SquareBoard(8, 8, holes=("A1", "H1", "A8", "H8")))
HEX = Geometry("hex", HexBoard(6))
BOARDS = {"square": SQUARE, "hex": HEX}


def parse_move(text: str, rules: Any = None) -> Move:
    """The move ``text`` writes on the board of ``rules`` (the square board by default).

    Raises ``InvalidMoveError`` for text that is not a move of that board.
    """
    return (rules.geometry if rules is not None else SQUARE).parse_move(text)


def split_moves(text: str, rules: Any = None) -> list[str]:
    """The moves a record's text writes, in order, on the board of ``rules``.

    Raises ``InvalidMoveError`` at the first word that is not a move.
    """
    return (rules.geometry if rules is not None else SQUARE).split_moves(text)
