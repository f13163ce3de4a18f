"""The Moai computer players: a ladder of levels, weakest first (``levels``), the
search they use (``search``) and what it knows of the game (``policy``), the
analysis of a position (``analysis``) and the arena's reference players
(``reference``). Engine only, no Django."""

from game.moai.bots.analysis import Analysis, analyse
from game.moai.bots.levels import LEVEL_IDS, LEVELS, STRONGEST, Level, choose_move, level

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
