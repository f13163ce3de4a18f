"""What every game's drawing of its board shares (``game.<name>.drawing``): the number
at the start of each row of a square board, drawn by its own small template."""

from __future__ import annotations

from typing import NamedTuple

from game.boards.base import Board
from game.fragments import drawn_by

__all__ = ["RowNumber", "row_numbers"]


@drawn_by("game/_row_number.html", "row")
class RowNumber(NamedTuple):
    """The number at the start of a row of the board."""

    number: int


def row_numbers(board: Board) -> tuple[RowNumber, ...]:
    """The numbers of ``board``'s rows, top to bottom: made once per board."""
    return tuple(RowNumber(int(row)) for row in board.rows)
