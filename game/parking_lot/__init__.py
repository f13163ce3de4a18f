"""Parking Lot, from a 2014 blog post: place two-square pieces on an 8×8 board and
drive them; the largest block of a colour wins. Its engine, notation and computer
players, standard library only (no Django); the site's side is
``game.parking_lot.site``.
"""

from game.parking_lot.engine import (
    ENDS,
    PIECES,
    Outcome,
    Position,
    Rules,
    Score,
)
from game.parking_lot.notation import (
    NAMES,
    Move,
    format_move,
    parse_move,
    parse_square,
    read_move,
    split_moves,
)
from game.surface import (
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    MoveError,
    Played,
)

__all__ = [
    "ENDS",
    "NAMES",
    "PIECES",
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "MoveError",
    "Outcome",
    "Played",
    "Position",
    "Rules",
    "Score",
    "format_move",
    "parse_move",
    "parse_square",
    "read_move",
    "split_moves",
]
