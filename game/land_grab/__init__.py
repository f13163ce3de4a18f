"""Land Grab, a game from a 2014 blog post on an 8×8 board of two-faced tiles: its
engine, notation, computer players and lessons, standard library only (no Django).
"""

from game.land_grab.engine import (
    END_ALL_CAPTURED,
    END_NO_FLIPS,
    END_PLY_LIMIT,
    END_QUIET_PLIES,
    END_REPETITION,
    ENDS,
    SIDES,
    Outcome,
    Position,
    Rules,
    Score,
)
from game.land_grab.notation import (
    BOARD,
    DROPS,
    PASS,
    START_TEXT,
    STEPS,
    Move,
    format_move,
    parse_move,
    parse_square,
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
    "BOARD",
    "DROPS",
    "END_ALL_CAPTURED",
    "END_NO_FLIPS",
    "END_PLY_LIMIT",
    "END_QUIET_PLIES",
    "END_REPETITION",
    "ENDS",
    "PASS",
    "SIDES",
    "START_TEXT",
    "STEPS",
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
    "split_moves",
]
