"""The Mǽrstánas engine under the name docs/DESIGN.md gives it: ``game.engine``.

Programs and tests outside the project import these names from here; the rules
themselves live in ``game.maerstanas`` (the engine and its notation) on the board of
``game.grid``. Standard library only, no Django.
"""

from game.grid import (
    COLUMNS,
    NUM_SQUARES,
    SIZE,
    SQUARES,
    Square,
    parse_square,
)
from game.maerstanas.engine import SCORINGS, Position, Rules, Score
from game.maerstanas.notation import PASS, Move, Stone, format_move, move_of, parse_move
from game.surface import (
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    MoveError,
    Outcome,
    Played,
)

__all__ = [
    "COLUMNS",
    "NUM_SQUARES",
    "PASS",
    "SCORINGS",
    "SIZE",
    "SQUARES",
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
    "Square",
    "Stone",
    "format_move",
    "move_of",
    "parse_move",
    "parse_square",
]
