"""What every board has alike: cells numbered in reading order, named by column
letter and row number, and walked by directions that each board names."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from game.surface import (
    InvalidMoveError,
)

__all__ = ["Board", "Direction"]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NAME = re.compile(r"\s*([A-Za-z])\s*(\d{1,2})\s*")

# A direction: its name ("north", "south-east") and its step in (column, row).
Direction = tuple[str, tuple[int, int]]


class Board:
    """Cells at (column, row) positions, 0-based, that ``exists`` says are on the board,
    numbered in reading order; ``directions`` in the order the rules list them.

    A subclass says which positions exist, which directions there are, whether a
    step off one edge comes back on at the other, and where a page draws a cell."""

    shape = ""  # the page's name for the layout: "square" or "hex"
    directions: tuple[Direction, ...] = ()

    def __init__(self, width: int, height: int, exists: Callable[[int, int], bool]) -> None:
        if not (1 <= width <= len(LETTERS) and 1 <= height <= 99):
            raise ValueError(f"a board is 1 to {len(LETTERS)} columns wide and 1 to 99 rows high")
        self.width = width
        self.height = height
        self.columns = LETTERS[:width]
        self.rows = tuple(str(row) for row in range(1, height + 1))
        self.positions = tuple(
            (column, row) for row in range(height) for column in range(width) if exists(column, row)
        )
        self.index = {position: cell for cell, position in enumerate(self.positions)}
        self.names = tuple(f"{LETTERS[c]}{r + 1}" for c, r in self.positions)
        self._by_name = {name: cell for cell, name in enumerate(self.names)}
        # Where each direction leads from each cell: a table, as the engines walk boards
        # in their hot loops.
        self._steps = tuple(
            tuple(self._step(cell, step) for cell in self.cells) for _, step in self.directions
        )

    @property
    def cells(self) -> range:
        """Every cell of the board, in reading order."""
        return range(len(self.positions))

    def __len__(self) -> int:
        return len(self.positions)

    def _wrap(self, column: int, row: int) -> tuple[int, int]:
        return column, row

    def _step(self, cell: int, step: tuple[int, int]) -> int | None:
        column, row = self.positions[cell]
        return self.index.get(self._wrap(column + step[0], row + step[1]))

    def direction(self, name: str) -> int:
        """The number of the direction called ``name`` (``"east"``).

        Raises ``KeyError`` for a direction this board does not have."""
        for number, (called, _) in enumerate(self.directions):
            if called == name:
                return number
        raise KeyError(name)

    def step(self, cell: int, direction: int) -> int | None:
        """The cell one step from ``cell`` in ``direction``, or None off the board (or
        onto a cell cut away)."""
        return self._steps[direction][cell]

    def neighbours(self, cell: int, directions: Iterable[int] | None = None) -> tuple[int, ...]:
        """The cells next to ``cell`` in ``directions`` (all the board's by default), in
        their order, those off the board left out."""
        wanted = range(len(self.directions)) if directions is None else directions
        found = (self._steps[direction][cell] for direction in wanted)
        return tuple(near for near in found if near is not None)

    def ray(self, cell: int, direction: int) -> Iterator[int]:
        """The cells from ``cell`` (not included) along ``direction`` to the board's edge,
        nearest first. On a board that wraps round, once round at most."""
        seen = cell
        at = self._steps[direction][cell]
        while at is not None and at != seen:
            yield at
            at = self._steps[direction][at]

    def name(self, cell: int) -> str:
        """The cell's name: ``A1`` top left."""
        return self.names[cell]

    @property
    def span(self) -> str:
        """The cells' names from first to last, for messages: "A1 to G7"."""
        return f"{self.names[0]} to {self.names[-1]}"

    def parse(self, text: str) -> int:
        """The cell named ``text`` (any case, spaces around ignored).

        Raises ``InvalidMoveError`` when it names no cell of this board, saying which
        cells there are."""
        found = _NAME.fullmatch(text) if isinstance(text, str) else None
        name = f"{found[1].upper()}{int(found[2])}" if found else ""
        cell = self._by_name.get(name)
        if cell is None:
            raise InvalidMoveError(f"{text!r} is not a square: {self.missing(name)}")
        return cell

    def missing(self, name: str) -> str:
        """Why a name is no cell, in words the player reads."""
        return f"squares run {self.span}"

    def place(self, cell: int) -> tuple[int, int]:
        """Where a page draws ``cell``: its grid row and column, from 1."""
        column, row = self.positions[cell]
        return row + 1, column + 1

    @property
    def grid_columns(self) -> int:
        """How many grid columns a page lays the board out in."""
        return self.width
