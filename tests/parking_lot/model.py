"""A plain model of Parking Lot's rules, for the engine's tests.

Written straight from the rule book (shared/PARKING-LOT.md), as plainly as it reads
and sharing no code with ``game.parking_lot``: a piece is its colour and the (column,
row) of its anchor, a position a list of pieces and the side to move; a drive is
found by walking a square at a time, first leg then turn; groups by joining pieces
that touch until nothing changes. Slow on purpose: it only has to be obviously right.
"""

from __future__ import annotations

from dataclasses import dataclass

COLUMNS = "ABCDEFGH"
SIZE = 8
STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0))  # up, down, left, right as (column, row)


def name(column: int, row: int) -> str:
    return f"{COLUMNS[column]}{row + 1}"


def cells(color: str, column: int, row: int) -> set[tuple[int, int]]:
    """The two squares a piece covers: blue's stand upright, red's lie flat."""
    if color == "blue":
        return {(column, row), (column, row + 1)}
    return {(column, row), (column + 1, row)}


def on_board(squares: set[tuple[int, int]]) -> bool:
    return all(0 <= column < SIZE and 0 <= row < SIZE for column, row in squares)


def touching(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> bool:
    return any(abs(c1 - c2) + abs(r1 - r2) == 1 for c1, r1 in a for c2, r2 in b)


@dataclass(frozen=True)
class Model:
    """Pieces as (colour, column, row) and the side to move ("blue" or "red")."""

    pieces: tuple[tuple[str, int, int], ...]
    turn: str

    @classmethod
    def start(cls) -> Model:
        return cls((), "blue")

    def taken(self, skip: tuple[str, int, int] | None = None) -> set[tuple[int, int]]:
        found: set[tuple[int, int]] = set()
        for piece in self.pieces:
            if piece != skip:
                found |= cells(*piece)
        return found

    def is_over(self) -> bool:
        return len(self.pieces) == 16

    def fits(self, color: str, column: int, row: int, taken: set[tuple[int, int]]) -> bool:
        squares = cells(color, column, row)
        return on_board(squares) and not squares & taken

    def turns(self) -> list[str]:
        """Every turn's text, sorted as the rule book sorts them."""
        if self.is_over():
            return []
        found = []
        for column in range(SIZE):
            for row in range(SIZE):
                if not self.fits(self.turn, column, row, self.taken()):
                    continue
                place = name(column, row)
                found.append(place)
                placed = Model((*self.pieces, (self.turn, column, row)), self.turn)
                if len(placed.pieces) == 16:
                    continue
                for piece in self.pieces:
                    if piece[0] != self.turn or placed.frozen(piece):
                        continue
                    for end in placed.ends(piece):
                        found.append(f"{place} {name(piece[1], piece[2])}-{name(*end)}")
        return sorted(found)

    def frozen(self, piece: tuple[str, int, int]) -> bool:
        mine = cells(*piece)
        return any(
            other[0] == piece[0] and other != piece and touching(mine, cells(*other))
            for other in self.pieces
        )

    def ends(self, piece: tuple[str, int, int]) -> set[tuple[int, int]]:
        """Where a piece may stop: one leg, or a leg and a turn of 90°."""
        color, column, row = piece
        taken = self.taken(skip=piece)
        found = set()
        for dc, dr in STEPS:
            c, r = column + dc, row + dr
            while self.fits(color, c, r, taken):
                found.add((c, r))
                for tc, tr in STEPS:
                    if (tc, tr) in ((dc, dr), (-dc, -dr)):
                        continue
                    c2, r2 = c + tc, r + tr
                    while self.fits(color, c2, r2, taken):
                        found.add((c2, r2))
                        c2, r2 = c2 + tc, r2 + tr
                c, r = c + dc, r + dr
        found.discard((column, row))
        return found

    def play(self, text: str) -> Model:
        parts = text.replace("-", " ").split()
        column, row = COLUMNS.index(parts[0][0]), int(parts[0][1:]) - 1
        pieces = [*self.pieces, (self.turn, column, row)]
        if len(parts) == 3:
            origin = (self.turn, COLUMNS.index(parts[1][0]), int(parts[1][1:]) - 1)
            pieces.remove(origin)
            pieces.append((self.turn, COLUMNS.index(parts[2][0]), int(parts[2][1:]) - 1))
        return Model(tuple(pieces), "red" if self.turn == "blue" else "blue")

    def group_sizes(self, color: str) -> list[int]:
        mine = [piece for piece in self.pieces if piece[0] == color]
        group_of = list(range(len(mine)))
        changed = True
        while changed:
            changed = False
            for i, a in enumerate(mine):
                for j, b in enumerate(mine):
                    if touching(cells(*a), cells(*b)) and group_of[i] != group_of[j]:
                        low = min(group_of[i], group_of[j])
                        group_of[i] = group_of[j] = low
                        changed = True
        return sorted((group_of.count(g) for g in set(group_of)), reverse=True)

    def result(self) -> tuple[str, str] | None:
        if not self.is_over():
            return None
        blue, red = self.group_sizes("blue"), self.group_sizes("red")
        for place, (b, r) in enumerate(zip(blue, red, strict=False)):
            if b != r:
                return ("blue" if b > r else "red", "largest-group" if place == 0 else "next-group")
        return ("draw", "equal-groups")

    def board_text(self) -> str:
        rows = [["."] * SIZE for _ in range(SIZE)]
        for color, column, row in self.pieces:
            for c, r in cells(color, column, row):
                rows[r][c] = "B" if color == "blue" else "R"
        return "/".join("".join(row) for row in rows) + (" b" if self.turn == "blue" else " r")
