"""7-4-1776, a game from a 2014 blog post on a 10×10 board: its engine, notation,
computer players and lessons, standard library only (no Django). The site's side of
the game (its drawing and pictures) is ``game.seven_four.site``.
"""

from game.seven_four.engine import (
    END_BOARD_FULL,
    ENDS,
    SIDES,
    Outcome,
    Position,
    Rules,
    Score,
)
from game.seven_four.notation import (
    BOARD,
    DROPS,
    SLIDES,
    START_TEXT,
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
    "END_BOARD_FULL",
    "ENDS",
    "SIDES",
    "SLIDES",
    "START_TEXT",
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
