"""The Parking Lot computer players: a ladder of levels, weakest first (``levels``),
the search they use (``search``) and what it knows of the game (``policy``), and the
analysis of a position (``analysis``). Engine only, no Django."""

from game.parking_lot.bots.analysis import Analysis, analyse
from game.parking_lot.bots.levels import LEVEL_IDS, LEVELS, STRONGEST, Level, choose_move, level

__all__ = [
    "LEVELS",
    "LEVEL_IDS",
    "STRONGEST",
    "Analysis",
    "Level",
    "analyse",
    "choose_move",
    "level",
]
