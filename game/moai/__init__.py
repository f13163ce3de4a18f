"""Moai, a game from a 2014 blog post: a counter and a Moai's move each turn, on an
8×8 board without its corners or a 91-cell hexagon. Its engine, notation and
computer players, standard library only (no Django).
"""

from game.moai.engine import (
    END_MOAI_STUCK,
    ENDS,
    SIDES,
    WORDS,
    Outcome,
    Position,
    Rules,
    Score,
)
from game.moai.notation import (
    BOARDS,
    HEX,
    SQUARE,
    Geometry,
    Move,
    format_move,
    parse_move,
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
    "BOARDS",
    "END_MOAI_STUCK",
    "ENDS",
    "HEX",
    "SIDES",
    "SQUARE",
    "WORDS",
    "Color",
    "Geometry",
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
    "split_moves",
]
