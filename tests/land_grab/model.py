"""An independent, slow model of Land Grab's rules (docs/LAND-GRAB.md), for the
property tests to hold the engine against: tiles and stones as dicts of (column,
row), every rule read straight from the rule book, no bitboards. It keeps its own
list of earlier positions for the repetition rule."""

from __future__ import annotations

from dataclasses import dataclass, field

SIZE = 8
LETTERS = "ABCDEFGH"
ORTHOGONAL = [(0, -1), (-1, 0), (1, 0), (0, 1)]
LINES = ORTHOGONAL + [(-1, -1), (1, -1), (-1, 1), (1, 1)]
SQUARES = [(c, r) for r in range(SIZE) for c in range(SIZE)]
ENDS = ["all-captured", "no-flips", "repetition", "quiet-plies", "ply-limit"]


def name(square: tuple[int, int]) -> str:
    return f"{LETTERS[square[0]]}{square[1] + 1}"


def on_board(column: int, row: int) -> bool:
    return 0 <= column < SIZE and 0 <= row < SIZE


@dataclass
class Model:
    """Tiles ("B"/"W" faces), stones ("B"/"W"), the side to move, the counts, and
    the positions seen so far (with this one)."""

    tiles: dict[tuple[int, int], str] = field(
        default_factory=lambda: {(c, r): "B" if (c + r) % 2 == 0 else "W" for c, r in SQUARES}
    )
    stones: dict[tuple[int, int], str] = field(default_factory=dict)
    turn: str = "B"
    ply: int = 0
    quiet: int = 0
    flipless: bool = False
    seen: list[tuple] = field(default_factory=list)
    end: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        if not self.seen:
            self.seen = [self.key()]

    def key(self) -> tuple:
        return (tuple(sorted(self.tiles.items())), tuple(sorted(self.stones.items())), self.turn)

    @property
    def enemy(self) -> str:
        return "W" if self.turn == "B" else "B"

    def claim(self, square: tuple[int, int]) -> set[tuple[int, int]]:
        colour = self.tiles[square]
        found, todo = {square}, [square]
        while todo:
            column, row = todo.pop()
            for dc, dr in ORTHOGONAL:
                near = (column + dc, row + dr)
                if on_board(*near) and near not in found and self.tiles[near] == colour:
                    found.add(near)
                    todo.append(near)
        return found

    def flips(self, side: str) -> list[str]:
        """The flip moves and captures of ``side``, as texts."""
        enemy = "W" if side == "B" else "B"
        found = []
        for origin, stone in self.stones.items():
            if stone != side:
                continue
            for dc, dr in LINES:
                column, row = origin[0] + dc, origin[1] + dr
                while on_board(column, row) and (column, row) not in self.stones:
                    target = (column, row)
                    if self.tiles[target] == enemy:
                        beyond = (column + dc, row + dr)
                        text = f"{name(origin)}-{name(target)}"
                        if self.stones.get(beyond) == enemy:
                            found.append(f"{text}x{name(beyond)}")
                        elif not any(self.stones.get(sq) == enemy for sq in self.claim(target)):
                            found.append(text)
                    column, row = column + dc, row + dr
        return found

    def shifts(self) -> list[str]:
        found = []
        for origin, stone in self.stones.items():
            if stone != self.turn:
                continue
            reached, todo = {origin}, [origin]
            while todo:
                column, row = todo.pop()
                for dc, dr in ORTHOGONAL:
                    near = (column + dc, row + dr)
                    if (
                        on_board(*near)
                        and near not in reached
                        and near not in self.stones
                        and self.tiles[near] == self.turn
                    ):
                        reached.add(near)
                        todo.append(near)
            found += [f"{name(origin)}-{name(sq)}" for sq in reached if sq != origin]
        return found

    def moves(self) -> list[str]:
        """The record's texts of every legal move, sorted; [] once the game is over."""
        if self.end is not None:
            return []
        if self.ply < 4:
            found = [
                name(sq) for sq in SQUARES if self.tiles[sq] == self.turn and sq not in self.stones
            ]
        else:
            found = self.flips(self.turn) + self.shifts()
        return sorted(found) or ["Pass"]

    def score(self, side: str) -> list[int]:
        left = {sq for sq in SQUARES if self.tiles[sq] == side}
        sizes = []
        while left:
            claim = self.claim(next(iter(left)))
            sizes.append(len(claim))
            left -= claim
        return sorted(sizes, reverse=True)

    def play(self, text: str) -> Model:
        """The model after the move ``text``, written as the record writes it."""
        assert text in self.moves(), text
        tiles, stones = dict(self.tiles), dict(self.stones)
        had_flip = self.ply >= 4 and bool(self.flips(self.turn))
        flipped = captured = False
        if text == "Pass":
            pass
        elif "-" not in text:
            stones[self.square(text)] = self.turn
        else:
            move, _, taken = text.partition("x")
            origin, target = (self.square(part) for part in move.split("-"))
            del stones[origin]
            stones[target] = self.turn
            if tiles[target] != self.turn:
                tiles[target] = self.turn
                flipped = True
            if taken:
                del stones[self.square(taken)]
                captured = True
        after = Model(
            tiles,
            stones,
            self.enemy,
            self.ply + 1,
            0 if flipped else self.quiet + 1,
            self.ply >= 4 and not had_flip,
            self.seen + [None],
        )
        after.seen[-1] = after.key()
        if captured and self.enemy not in stones.values():
            after.end = ("black" if self.turn == "B" else "white", "all-captured")
            return after
        reason = None
        if after.flipless and not after.flips(after.turn):
            reason = "no-flips"
        elif after.seen.count(after.key()) >= 3:
            reason = "repetition"
        elif after.quiet >= 20:
            reason = "quiet-plies"
        elif after.ply >= 200:
            reason = "ply-limit"
        if reason:
            black, white = after.score("B"), after.score("W")
            padded = max(len(black), len(white))
            black += [0] * (padded - len(black))
            white += [0] * (padded - len(white))
            result = "black" if black > white else "white" if white > black else "draw"
            after.end = (result, reason)
        return after

    @staticmethod
    def square(text: str) -> tuple[int, int]:
        return LETTERS.index(text[0]), int(text[1:]) - 1
