"""A saved game's sides and result in its kind's words: what the kind calls its sides,
the names an imported record gives its players, and the result, stored alike for every
kind (a seat's colour, or ``NO_WINNER``) and said as the kind says it.

``Game`` takes these from ``SidesAndResult``; they ask nothing of the database.
"""

from __future__ import annotations

from typing import Any

from game.sides import NO_WINNER, Sides
from game.surface import (
    Color,
)


class SidesAndResult:
    """The sides and result of a ``Game`` in its kind's words."""

    # ``Game``'s fields and properties these read and write.
    game_kind: Any
    tags: Any
    result: str

    @property
    def sides(self) -> Sides:
        """What this game's kind calls its sides and a game nobody won."""
        return self.game_kind.sides

    @property
    def imported_players(self) -> tuple[Any, Any]:
        """The names an imported record gives its players, first side's first: the
        tags named by the sides as the kind names them (``[Dark "Ann"]``)."""
        return (self.tags.get(self.sides.first), self.tags.get(self.sides.second))

    @property
    def result_word(self) -> str:
        """The result as the kind says it: ``"dark"``, ``"light"``, its word for a game
        nobody won (``"tie"``, ``"draw"``), or "" while the game goes on or was aborted."""
        if self.result == NO_WINNER:
            return self.sides.no_winner
        return self.result

    @property
    def result_text(self) -> str:
        """The result in the kind's words for a list of games: ``"Dark wins"``, ``"Tie"``."""
        return self.sides.result_text(self.result_word)

    def store_result(self, result: str) -> None:
        """Keep ``result``, an outcome's (a seat's colour, the kind's word for nobody
        winning, or "" for an aborted game), as every kind's result is stored. Raises
        ``ValueError`` for any other."""
        no_winner = self.sides.no_winner
        if result not in ("", *Color, no_winner):
            raise ValueError(f"{result!r} is not a result of {self.game_kind.title}")
        self.result = NO_WINNER if result == no_winner else result
