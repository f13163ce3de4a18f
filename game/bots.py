"""The Mǽrstánas computer players under the name docs/DESIGN.md gives them:
``game.bots``. They live in ``game.maerstanas.bots``; the site reaches them, and
any other game's, through the registry (``game.registry``)."""

from game.maerstanas.bots import (
    LEVEL_IDS,
    LEVELS,
    STRONGEST,
    Analysis,
    Level,
    analyse,
    choose_move,
    level,
)

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
