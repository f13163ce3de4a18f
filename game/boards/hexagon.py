"""The hexagon of cells Moai's second board is: 91 cells, six on a side, in eleven
rows (6, 7, …, 11, …, 7, 6 cells) numbered from the top. Letters name the slanting
columns that run from upper left to lower right: row 1 holds ``F1``–``K1``, row 6
``A6``–``K6``, row 11 ``A11``–``F11``; ``F6`` is the centre."""

from __future__ import annotations

from game.boards.base import Board, Direction

__all__ = ["HexBoard"]

# Clockwise from east, in (letter, row) steps.
DIRECTIONS: tuple[Direction, ...] = (
    ("east", (1, 0)),  # next letter, same row: F6 → G6
    ("south-east", (0, 1)),  # same letter, next row: F7
    ("south-west", (-1, 1)),  # letter before, next row: E7
    ("west", (-1, 0)),  # E6
    ("north-west", (0, -1)),  # same letter, row above: F5
    ("north-east", (1, -1)),  # next letter, row above: G5
)


class HexBoard(Board):
    """A hexagon with ``side`` cells on each side (``HexBoard(6)``: 91 cells). A cell
    exists when its letter's number (A = 1) plus its row is ``side + 1`` to
    ``3 × side - 1`` (7 to 17 for six a side).

    Raises ``ValueError`` for a side under 2 or too wide to letter."""

    shape = "hex"
    directions = DIRECTIONS

    def __init__(self, side: int) -> None:
        if side < 2:
            raise ValueError("a hexagon has at least two cells a side")
        self.side = side
        across = 2 * side - 1
        # 0-based letter and row: their numbers' sum, less 2, from side - 1 to 3 side - 3.
        super().__init__(across, across, lambda c, r: side - 1 <= c + r <= 3 * side - 3)

    def place(self, cell: int) -> tuple[int, int]:
        """Where a page draws ``cell``: its row, and its column in half cells (a row is
        shifted half a cell from the next), both from 1."""
        column, row = self.positions[cell]
        # Down a slanting column is half a cell to the right; the widest row starts at 1.
        return row + 1, 2 * column + row - (self.side - 1) + 1

    @property
    def grid_columns(self) -> int:
        """Half-cell columns: the widest row's cells each span two."""
        return 2 * self.width

    def missing(self, name: str) -> str:
        first, last = (self.names[0], self.names[self.side - 1])
        return f"the cells run from {first}–{last} in row 1 to row {self.height}"

    def __repr__(self) -> str:
        return f"HexBoard({self.side})"
