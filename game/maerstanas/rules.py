"""The options of a game of Mǽrstánas, its score and how its rules end it.

Pure Python, standard library only (``game.options`` is the codec the options
inherit: forms, queries, JSON, record tags and keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.boards import SquareBoard
from game.options import Choice, OnOff, Options
from game.sides import Sides

__all__ = ["BOARD", "END_NO_MOVES", "ENDS", "SCORINGS", "Rules", "Score"]

# The board as pages and pictures lay it out: 7×7, A1 top left. The wraparound
# option joins its edges; the engine's tables (game.grid) are built for both.
BOARD = SquareBoard(7, 7)
# Dark moves first; a game nobody won is a tie.
SIDES = Sides(first="Dark", second="Light", no_winner="tie")

SCORINGS = ("standard", "simple")

# How a game of Mǽrstánas ends by its rules (``Outcome.reason``), and in words.
END_NO_MOVES = "no-moves"
ENDS = {END_NO_MOVES: "Neither side can move"}


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game (RULES.md, "Options of a game"); ``game.options`` reads
    and writes them for forms, queries, JSON, record tags and keys.

    Raises ``ValueError`` when ``scoring`` is not ``"standard"`` or ``"simple"``, or
    when an on/off option is not a bool.
    """

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = (
        OnOff("special_stones", "Special stones", "SpecialStones", True, "S"),
        # The letters: both scorings begin with s, so simple is "p" for plain.
        Choice(
            "scoring",
            "Scoring",
            "Scoring",
            "standard",
            (("standard", "Standard"), ("simple", "Simple")),
            ("s", "p"),
        ),
        OnOff("wraparound", "Wraparound board", "Wraparound", False, "W"),
    )

    special_stones: bool = True
    scoring: str = "standard"
    wraparound: bool = False

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be 'standard' or 'simple', not {self.scoring!r}")
        for name in ("special_stones", "wraparound"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")

    @property
    def summary(self) -> str:
        """The rules in a few words: "Special stones on · Standard scoring · Wraparound"."""
        parts = [f"Special stones {'on' if self.special_stones else 'off'}"]
        parts.append(f"{self.scoring.capitalize()} scoring")
        if self.wraparound:
            parts.append("Wraparound")
        return " · ".join(parts)


class Score(NamedTuple):
    """Points of each side; ``str(score)`` is the rules' score line ``Dark: 42, Light: 39``."""

    dark: int
    light: int

    def __str__(self) -> str:
        return f"Dark: {self.dark}, Light: {self.light}"
