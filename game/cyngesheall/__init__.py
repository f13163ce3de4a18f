"""Cyngesheall, John Beers's tafl game on the Mǽrstánas board: its engine, notation,
computer players and lessons, standard library only (no Django). The site's side of
the game (its drawing and pictures) is ``game.cyngesheall.site``.
"""

from game.cyngesheall.engine import GOALS, Position
from game.cyngesheall.notation import (
    MOVES,
    START_TEXT,
    Move,
    Piece,
    format_move,
    parse_move,
    read_move,
    split_moves,
)
from game.cyngesheall.rules import ENDS, QUIET_LIMIT, Rules, Score
from game.grid import (
    Square,
    parse_square,
)
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
    "ENDS",
    "GOALS",
    "MOVES",
    "QUIET_LIMIT",
    "START_TEXT",
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "MoveError",
    "Outcome",
    "Piece",
    "Played",
    "Position",
    "Rules",
    "Score",
    "Square",
    "format_move",
    "parse_move",
    "parse_square",
    "read_move",
    "split_moves",
]
