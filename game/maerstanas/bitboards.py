"""Mǽrstánas on bitboards: where a plain stone may go, the points a side's stones
score, and the special stones in hand. The engine's hot loops, and the search's
playouts (``bots.search``), run on these.

Pure Python, standard library only. A side's stones are one ``int``, bit
``row * 7 + column`` a square (``game.grid``).
"""

from __future__ import annotations

from collections.abc import Callable

from game.grid import (
    COL_A,
    COL_G,
    FLAT,
    FULL,
    NOT_A,
    NOT_G,
    ROW_1,
    ROW_7,
    SIZE,
    TORUS,
    WRAP_SHIFT,
    Grid,
)
from game.maerstanas.rules import Rules


def _open_squares_flat(occupied: int) -> int:
    """Empty squares where a normal stone may go on the flat board.

    A side is hinged when the neighbour across it is occupied or it is an edge; a
    square is closed when all four of its sides are hinged, or when a neighbouring
    stone already has three hinges and would get a fourth.
    """
    north = ((occupied << SIZE) & FULL) | ROW_1
    south = (occupied >> SIZE) | ROW_7
    west = ((occupied << 1) & NOT_A) | COL_A
    east = ((occupied >> 1) & NOT_G) | COL_G
    north_south = north & south
    west_east = west & east
    full = (north_south & (west | east)) | (west_east & (north | south))
    saturated = occupied & full
    closed = occupied | (north_south & west_east)
    if saturated:
        closed |= (
            ((saturated << SIZE) & FULL)
            | (saturated >> SIZE)
            | ((saturated << 1) & NOT_A)
            | ((saturated >> 1) & NOT_G)
        )
    return FULL & ~closed


def _open_squares_wrap(occupied: int) -> int:
    """Empty squares where a normal stone may go on the wraparound (torus) board."""
    north = ((occupied << SIZE) | (occupied >> WRAP_SHIFT)) & FULL
    south = (occupied >> SIZE) | ((occupied & ROW_1) << WRAP_SHIFT)
    west = ((occupied << 1) & NOT_A) | ((occupied >> (SIZE - 1)) & COL_A)
    east = ((occupied >> 1) & NOT_G) | ((occupied << (SIZE - 1)) & COL_G)
    north_south = north & south
    west_east = west & east
    full = (north_south & (west | east)) | (west_east & (north | south))
    saturated = occupied & full
    closed = occupied | (north_south & west_east)
    if saturated:
        closed |= (
            ((saturated << SIZE) | (saturated >> WRAP_SHIFT)) & FULL
            | (saturated >> SIZE)
            | ((saturated & ROW_1) << WRAP_SHIFT)
            | ((saturated << 1) & NOT_A)
            | ((saturated >> (SIZE - 1)) & COL_A)
            | ((saturated >> 1) & NOT_G)
            | ((saturated << (SIZE - 1)) & COL_G)
        )
    return FULL & ~closed


class Geometry:
    """A shape of the board (``game.grid``'s tables) with the squares a stone may take."""

    __slots__ = ("edge_sides", "neighbour_masks", "neighbours", "open_squares", "wraparound")

    def __init__(self, grid: Grid, open_squares: Callable[[int], int]) -> None:
        self.wraparound = grid.wraparound
        self.neighbours = grid.neighbours
        self.neighbour_masks = grid.neighbour_masks
        self.edge_sides = grid.edge_sides
        self.open_squares = open_squares


FLAT_GEOMETRY = Geometry(FLAT, _open_squares_flat)
WRAP_GEOMETRY = Geometry(TORUS, _open_squares_wrap)


def points(stones: int, rules: Rules) -> int:
    """Friendly hinges of one side's stones: adjacent pairs once each, plus scoring edges."""
    found = (stones & (stones >> 1) & NOT_G).bit_count() + (stones & (stones >> SIZE)).bit_count()
    if rules.wraparound:
        found += (stones & (stones >> (SIZE - 1)) & COL_A).bit_count()
        found += (stones & (stones >> WRAP_SHIFT)).bit_count()
    elif rules.scoring == "standard":
        found += (
            (stones & ROW_1).bit_count()
            + (stones & ROW_7).bit_count()
            + (stones & COL_A).bit_count()
            + (stones & COL_G).bit_count()
        )
    return found


# Special stones in hand, one bit each: dark T, dark W, light T, light W.
THUNDER_BIT = (1, 4)
WODEN_BIT = (2, 8)
HAND_BITS = (1, 2, 4, 8)  # in the order of HAND_LETTERS: T W t w
ALL_SPECIALS = 15
