"""Mǽrstánas, John Beers's game of stones and hinges: its engine, notation, computer
players and lessons, standard library only (no Django). The site's side of the game
(its drawing, pictures and editor) is ``game.maerstanas.site``.

``from game.maerstanas import Position`` gives the engine as ``game.engine`` does.
"""

from game.grid import (
    SQUARES,
    Square,
    parse_square,
)
from game.maerstanas.engine import END_NO_MOVES, ENDS, SCORINGS, Position, Rules, Score
from game.maerstanas.notation import (
    EMPTY_TEXT,
    PASS,
    Move,
    Stone,
    format_move,
    move_of,
    parse_move,
    split_moves,
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
    "EMPTY_TEXT",
    "END_NO_MOVES",
    "ENDS",
    "PASS",
    "SCORINGS",
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
    "split_moves",
]
