"""The Cyngesheall computer players: a ladder of levels, weakest first (``levels``),
the search they use (``search``), the analysis of a position (``analysis``) and the
arena's reference players (``reference``). Engine only, no Django."""

from game.cyngesheall.bots.analysis import Analysis, analyse
from game.cyngesheall.bots.levels import LEVEL_IDS, LEVELS, STRONGEST, Level, choose_move, level

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
