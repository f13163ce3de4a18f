"""The 7×7 board that John Beers's games share: squares, names and bitboard masks.

Pure Python, standard library only. A square is an ``int`` 0..48, row-major from
``A1`` (bit ``row * 7 + column`` of a bitboard), that prints as its name. The
neighbour tables of the flat board and of the wraparound one (a torus) are built
once, here; so are the masks of its edges. Mǽrstánas's and Cyngesheall's engines
build their rules on these; what every engine says alike, whatever its board, is in
``game.surface``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from game.surface import InvalidMoveError

__all__ = [
    "COLUMNS",
    "NUM_SQUARES",
    "SIZE",
    "SQUARES",
    "Grid",
    "Square",
    "lister",
    "parse_square",
    "square_list",
    "to_square",
]

SIZE = 7
NUM_SQUARES = SIZE * SIZE
COLUMNS = "ABCDEFG"


# --- Squares -----------------------------------------------------------------------


class Square(int):
    """A square of the board: an ``int`` 0..48 (row-major from A1) that prints as ``E4``.

    Use ``parse_square("E4")`` or ``SQUARES[index]``; both return interned squares.
    """

    __slots__ = ()

    @property
    def column(self) -> int:
        """0 for column A … 6 for column G."""
        return self % SIZE

    @property
    def row(self) -> int:
        """0 for row 1 … 6 for row 7."""
        return self // SIZE

    def __str__(self) -> str:
        return NAMES[self]

    def __format__(self, spec: str) -> str:
        return format(NAMES[self], spec)

    def __repr__(self) -> str:
        return f"Square({NAMES[self]!r})"


NAMES = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(NUM_SQUARES))
SQUARES = tuple(Square(i) for i in range(NUM_SQUARES))
SQUARE_BY_NAME = {name: SQUARES[i] for i, name in enumerate(NAMES)}


def parse_square(text: str) -> Square:
    """Read a square name such as ``E4`` (any case, spaces around ignored).

    Raises ``InvalidMoveError`` when the text is not a square of the board.
    """
    name = text.strip().upper() if isinstance(text, str) else ""
    square = SQUARE_BY_NAME.get(name)
    if square is None:
        raise InvalidMoveError(f"{text!r} is not a square: squares run A1 to G7")
    return square


def to_square(square: str | int) -> Square:
    """The square named or numbered ``square``.

    Raises ``InvalidMoveError`` for one that is not on the board.
    """
    if isinstance(square, str):
        return parse_square(square)
    if isinstance(square, int) and not isinstance(square, bool) and 0 <= square < NUM_SQUARES:
        return SQUARES[square]
    raise InvalidMoveError(f"{square!r} is not a square: squares run A1 to G7")


def square_list(squares: Iterable[int]) -> str:
    """Squares as a record writes them, ``E3/D4``; ``nothing`` for none."""
    return "/".join(NAMES[sq] for sq in squares) or "nothing"


# --- Bitboards ---------------------------------------------------------------------

FULL = (1 << NUM_SQUARES) - 1
ROW_1 = (1 << SIZE) - 1
ROW_7 = ROW_1 << (SIZE * (SIZE - 1))
COL_A = sum(1 << (r * SIZE) for r in range(SIZE))
COL_G = COL_A << (SIZE - 1)
NOT_A = FULL ^ COL_A
NOT_G = FULL ^ COL_G
WRAP_SHIFT = SIZE * (SIZE - 1)  # 42: from row 1 to row 7

# The four directions in the rules' order: north, west, east, south; with row 1 at
# the top of the board, north is the row before.
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
SIDES = "nwes"


def _neighbours(square: int, wraparound: bool) -> tuple[Square, ...]:
    """Neighbours in the rules' order: north, west, east, south (off-board ones left out)."""
    row, col = divmod(square, SIZE)
    found = []
    for dr, dc in STEPS:
        r, c = row + dr, col + dc
        if wraparound:
            r, c = r % SIZE, c % SIZE
        elif not (0 <= r < SIZE and 0 <= c < SIZE):
            continue
        found.append(SQUARES[r * SIZE + c])
    return tuple(found)


class Grid:
    """The neighbour tables of one shape of the board, flat or wraparound, built once."""

    __slots__ = ("edge_sides", "neighbour_masks", "neighbours", "wraparound")

    def __init__(self, wraparound: bool) -> None:
        self.wraparound = wraparound
        self.neighbours = tuple(_neighbours(sq, wraparound) for sq in range(NUM_SQUARES))
        self.neighbour_masks = tuple(sum(1 << n for n in near) for near in self.neighbours)
        # A side on the board's edge: a corner has two such sides, the torus none.
        self.edge_sides = tuple(4 - len(near) for near in self.neighbours)

    def __repr__(self) -> str:
        return "TORUS" if self.wraparound else "FLAT"


FLAT = Grid(wraparound=False)
TORUS = Grid(wraparound=True)

T = TypeVar("T")


def lister(items: Sequence[T]) -> Callable[[int], list[T]]:
    """A function listing ``items[square]`` for the set bits of a mask, in square order,
    seven squares (a row) at a time: the hot loops list moves this way."""
    r0, r1, r2, r3, r4, r5, r6 = (
        tuple(
            tuple(items[row * SIZE + c] for c in range(SIZE) if bits >> c & 1)
            for bits in range(1 << SIZE)
        )
        for row in range(SIZE)
    )

    def list_items(mask: int) -> list[T]:
        return [
            *r0[mask & 127],
            *r1[mask >> 7 & 127],
            *r2[mask >> 14 & 127],
            *r3[mask >> 21 & 127],
            *r4[mask >> 28 & 127],
            *r5[mask >> 35 & 127],
            *r6[mask >> 42],
        ]

    return list_items
