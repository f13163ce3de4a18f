"""An independent, slow model of 7-4-1776's rules (docs/SEVEN-FOUR.md), for the
property tests to hold the engine against: a board as a dict of (column, row) to
"B"/"R", every rule read straight from the rule book, no bitboards."""

from __future__ import annotations

from dataclasses import dataclass, field

SIZE = 10
LETTERS = "ABCDEFGHIJ"
STEPS = [(dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dc, dr) != (0, 0)]


def name(square: tuple[int, int]) -> str:
    return f"{LETTERS[square[0]]}{square[1] + 1}"


def around(square: tuple[int, int]) -> list[tuple[int, int]]:
    column, row = square
    return [
        (column + dc, row + dr)
        for dc, dr in STEPS
        if 0 <= column + dc < SIZE and 0 <= row + dr < SIZE
    ]


@dataclass
class Model:
    """A board and the side to move, "B" or "R"."""

    stones: dict[tuple[int, int], str] = field(default_factory=dict)
    turn: str = "B"

    def single(self, square: tuple[int, int]) -> bool:
        colour = self.stones[square]
        return all(self.stones.get(near) != colour for near in around(square))

    def moves(self) -> list[str]:
        """The record's texts of every legal turn, sorted; [] on a full board."""
        squares = [(c, r) for r in range(SIZE) for c in range(SIZE)]
        if all(square in self.stones for square in squares):
            return []
        found = [name(square) for square in squares if square not in self.stones]
        mine = [sq for sq in squares if self.stones.get(sq) == self.turn and self.single(sq)]
        for origin in mine:
            for dc, dr in STEPS:
                column, row = origin[0] + dc, origin[1] + dr
                while 0 <= column < SIZE and 0 <= row < SIZE and (column, row) not in self.stones:
                    if any(other in mine and other != origin for other in around((column, row))):
                        found.append(f"{name(origin)}-{name((column, row))}")
                    column, row = column + dc, row + dr
        return sorted(found)

    def play(self, text: str) -> Model:
        """The model after the turn ``text``, written as the record writes it."""
        stones = dict(self.stones)
        if "-" in text:
            origin, target = (self._square(part) for part in text.split("-"))
            del stones[origin]
            stones[target] = self.turn
            for near in around(target):
                stones.setdefault(near, self.turn)
        else:
            stones[self._square(text)] = self.turn
        return Model(stones, "R" if self.turn == "B" else "B")

    def winner(self) -> str | None:
        """ "blue" or "red" once the board is full (the side to move lost), else None."""
        if len(self.stones) < SIZE * SIZE:
            return None
        return "red" if self.turn == "B" else "blue"

    @staticmethod
    def _square(text: str) -> tuple[int, int]:
        return LETTERS.index(text[0]), int(text[1:]) - 1
