"""What a game calls its two sides, and a game nobody won.

Every game has two seats, stored and sent by the API as ``dark`` (the side that
moves first) and ``light`` (the second side), whatever the game calls them; a kind
names them for people (``GameKind.sides``): Mǽrstánas's and Cyngesheall's Dark and
Light, a rule book's Blue and Red, or White and Black when White moves first. A game
nobody won is stored as one result for all games (``Game.Result.NO_WINNER``), which
each kind names in its own word: Mǽrstánas's tie, Cyngesheall's draw.

Plain Python, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.surface import (
    Color,
)

__all__ = ["DARK_AND_LIGHT", "NO_WINNER", "Sides"]

# How a game nobody won is stored, whatever its kind calls it (``Game.Result``).
NO_WINNER = "even"


@dataclass(frozen=True, slots=True)
class Sides:
    """A kind's names for its seats, capitalised as a sentence starts them: ``first``
    the side that moves first (the ``dark`` seat), ``second`` the other (``light``);
    ``no_winner`` is its result word for a game nobody won (``"tie"``, ``"draw"``), which
    its engine's ``outcome()`` gives and its pages, records and API answers say."""

    first: str = "Dark"
    second: str = "Light"
    no_winner: str = "tie"
    # Each seat's picture beside its name in the status bar, among the static files.
    first_image: str = "img/dark-stone.svg"
    second_image: str = "img/light-stone.svg"

    def seat(self, side: Color | str) -> Color:
        """The seat of ``side``, named by its seat (``"dark"``) or in the kind's own
        words, as its engine's ``outcome()`` says them (``"blue"``, ``"Red"``).
        Raises ``ValueError`` for what is no side."""
        word = str(side).lower()
        if word in (Color.DARK, self.first.lower()):
            return Color.DARK
        if word in (Color.LIGHT, self.second.lower()):
            return Color.LIGHT
        raise ValueError(f"{side!r} is no side: {self.first} or {self.second}")

    def name(self, color: Color | str) -> str:
        """The side of the ``color`` seat (or of a side named in the kind's words) as a
        sentence starts it: ``"Dark"``, ``"Blue"``. Raises ``ValueError`` for what is
        no side."""
        return self.first if self.seat(color) is Color.DARK else self.second

    def word(self, color: Color | str) -> str:
        """The side of the ``color`` seat inside a sentence: ``"dark"``, ``"blue"``."""
        return self.name(color).lower()

    def as_mapping(self) -> dict[str, str]:
        """Each seat's side by its stored colour: ``{"dark": "Dark", "light": "Light"}``."""
        return {color.value: self.name(color) for color in Color}

    def result_text(self, result: str) -> str:
        """A result in words for a headline: ``"Dark wins"``, ``"Tie"``; "" for none.
        ``result`` is a seat's colour or the kind's ``no_winner``."""
        if not result:
            return ""
        if result == self.no_winner:
            return result.capitalize()
        return f"{self.name(result)} wins"

    def verdict(self, result: str) -> str:
        """A result inside a sentence: ``"dark wins"``, ``"a tie"``."""
        if result == self.no_winner:
            return f"a {result}"
        return f"{self.word(result)} wins"


# The sides of Mǽrstánas and of Cyngesheall, the names every seat had before the kinds
# named theirs: what shared code says when it is told no kind's.
DARK_AND_LIGHT = Sides()
