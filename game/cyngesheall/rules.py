"""The options of a game of Cyngesheall, its count of pieces and how its rules end it.

Pure Python, standard library only. Cyngesheall has no options yet: ``Rules`` is the
empty options class, so forms, queries, JSON and record tags read and write it as
they do Mǽrstánas's (``game.options``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.boards import SquareBoard
from game.options import Choice, OnOff, Options
from game.sides import Sides

__all__ = [
    "BOARD",
    "END_KING_CAPTURED",
    "END_KING_HOME",
    "END_NO_MOVES",
    "END_REPETITION",
    "END_SIXTY_PLIES",
    "ENDS",
    "QUIET_LIMIT",
    "Rules",
    "Score",
]

# The board as pages and pictures lay it out: Mǽrstánas's 7×7, A1 top left.
BOARD = SquareBoard(7, 7)
# Dark moves first; a game nobody won is a draw.
SIDES = Sides(first="Dark", second="Light", no_winner="draw")

# How a game of Cyngesheall ends by its rules (``Outcome.reason``), in the order the
# engine asks after each move (docs/CYNGESHEALL.md, "End"), and in words.
END_KING_CAPTURED = "king-captured"
END_KING_HOME = "king-home"
END_REPETITION = "repetition"
END_SIXTY_PLIES = "sixty-plies"
END_NO_MOVES = "no-moves"
ENDS = {
    END_KING_CAPTURED: "King captured",
    END_KING_HOME: "King home",
    END_REPETITION: "Threefold repetition",
    END_SIXTY_PLIES: "60 plies without capture",
    END_NO_MOVES: "No legal move",
}
# Plies in a row without a capture that draw the game.
QUIET_LIMIT = 60


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game of Cyngesheall: none, so every game is played alike."""

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = ()

    @property
    def summary(self) -> str:
        """The rules in a few words."""
        return "Standard rules"


class Score(NamedTuple):
    """Each side's pieces on the board; ``str(score)`` is ``Dark: 10, Light: 9``."""

    dark: int
    light: int

    def __str__(self) -> str:
        return f"Dark: {self.dark}, Light: {self.light}"
