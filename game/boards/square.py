"""Square boards of any width and height: Mǽrstánas's 7×7 (flat, or wrapping round
as a torus), 7-4-1776's 10×10, the 8×8 boards of Parking Lot and Land Grab, and
Moai's 8×8 with its four corners cut away."""

from __future__ import annotations

from collections.abc import Iterable

from game.boards.base import LETTERS, Board, Direction

__all__ = ["DIAGONAL", "EIGHT", "ORTHOGONAL", "SquareBoard"]

# North is toward row 1, the top. The four sides in the order Mǽrstánas's rules
# count a stone's neighbours, then the four corners.
DIRECTIONS: tuple[Direction, ...] = (
    ("north", (0, -1)),
    ("west", (-1, 0)),
    ("east", (1, 0)),
    ("south", (0, 1)),
    ("north-west", (-1, -1)),
    ("north-east", (1, -1)),
    ("south-west", (-1, 1)),
    ("south-east", (1, 1)),
)
ORTHOGONAL = range(4)
DIAGONAL = range(4, 8)
EIGHT = range(8)


class SquareBoard(Board):
    """A ``width`` × ``height`` board of squares, ``A1`` top left; ``wraparound``: a step
    off one edge comes back on at the other (a torus); ``holes``: the names of squares
    cut away (``SquareBoard(8, 8, holes=("A1", "H1", "A8", "H8"))``).

    Raises ``ValueError`` for a size out of range or a hole that is not a square."""

    shape = "square"
    directions = DIRECTIONS

    def __init__(
        self, width: int, height: int, *, wraparound: bool = False, holes: Iterable[str] = ()
    ) -> None:
        self.wraparound = wraparound
        self.holes = tuple(holes)
        cut = set()
        for hole in self.holes:
            column, row = LETTERS.find(hole[:1].upper()), int(hole[1:] or 0) - 1
            if not (0 <= column < width and 0 <= row < height):
                raise ValueError(f"{hole!r} is not a square of a {width}×{height} board")
            cut.add((column, row))
        super().__init__(width, height, lambda c, r: (c, r) not in cut)

    def _wrap(self, column: int, row: int) -> tuple[int, int]:
        if self.wraparound:
            return column % self.width, row % self.height
        return column, row

    def missing(self, name: str) -> str:
        if name in self.holes:
            return f"{', '.join(self.holes)} are cut away from the board"
        return f"squares run {self.span}"

    def __repr__(self) -> str:
        extra = ", wraparound=True" if self.wraparound else ""
        extra += f", holes={self.holes!r}" if self.holes else ""
        return f"SquareBoard({self.width}, {self.height}{extra})"
