"""An independent, slow model of Moai's rules (docs/MOAI.md), for the property tests
to hold the engine against: cells as (letter, row) pairs, each board's directions
written out, every rule read straight from the rule book, no bitboards."""

from __future__ import annotations

from dataclasses import dataclass, field

LETTERS = "ABCDEFGHIJK"

SQUARE_STEPS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
HEX_STEPS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]


def on_board(board: str, cell: tuple[int, int]) -> bool:
    letter, row = cell
    if board == "square":
        return 0 <= letter < 8 and 0 <= row < 8 and cell not in {(0, 0), (7, 0), (0, 7), (7, 7)}
    return 0 <= letter < 11 and 0 <= row < 11 and 7 <= letter + 1 + row + 1 <= 17


def name(cell: tuple[int, int]) -> str:
    return f"{LETTERS[cell[0]]}{cell[1] + 1}"


def cells(board: str) -> list[tuple[int, int]]:
    return [(c, r) for r in range(11) for c in range(11) if on_board(board, (c, r))]


def turned(board: str, step: tuple[int, int]) -> list[tuple[int, int]]:
    """The steps a bent move may end with after a run along ``step``."""
    if board == "hex":
        at = HEX_STEPS.index(step)
        return [HEX_STEPS[(at + 1) % 6], HEX_STEPS[(at - 1) % 6]]
    dc, dr = step
    if dc and dr:
        return []
    if dc:
        return [(dc, 1), (dc, -1)]
    return [(1, dr), (-1, dr)]


@dataclass
class Model:
    """A board name, the counters, the Moai ("W", "B") and the side to move ("W"/"B")."""

    board: str = "square"
    counters: set[tuple[int, int]] = field(default_factory=set)
    moai: dict[str, tuple[int, int]] = field(default_factory=dict)
    turn: str = "W"

    def free(self, cell: tuple[int, int], counter: tuple[int, int] | None = None) -> bool:
        return (
            on_board(self.board, cell)
            and cell not in self.counters
            and cell not in self.moai.values()
            and cell != counter
        )

    def turns_of(self, who: str) -> set[str]:
        steps = HEX_STEPS if self.board == "hex" else SQUARE_STEPS
        start = self.moai[who]
        found = set()
        for counter in cells(self.board):
            if not self.free(counter):
                continue
            for dc, dr in steps:
                # Is the counter on this line from the Moai?
                k = 1
                while on_board(self.board, (start[0] + k * dc, start[1] + k * dr)):
                    if (start[0] + k * dc, start[1] + k * dr) == counter:
                        break
                    k += 1
                else:
                    continue
                for step in ((dc, dr), (-dc, -dr)):
                    at = start
                    while True:
                        at = (at[0] + step[0], at[1] + step[1])
                        if not self.free(at, counter):
                            break
                        found.add(f"{name(counter)}:{name(start)}-{name(at)}")
                        for side in turned(self.board, step):
                            bent = (at[0] + side[0], at[1] + side[1])
                            if self.free(bent, counter):
                                found.add(f"{name(counter)}:{name(start)}-{name(bent)}")
        return found

    def moves(self) -> list[str]:
        """The record's texts of every legal move, sorted; [] once the mover is stuck."""
        if self.turn not in self.moai:
            return sorted(name(c) for c in cells(self.board) if c not in self.moai.values())
        if not self.turns_of(self.turn):
            return []
        return sorted(self.turns_of("W") | self.turns_of("B"))

    def play(self, text: str) -> None:
        if ":" not in text:
            letter, row = LETTERS.index(text[0]), int(text[1:]) - 1
            self.moai[self.turn] = (letter, row)
        else:
            counter, move = text.split(":")
            origin, target = move.split("-")

            def cell(n: str) -> tuple[int, int]:
                return LETTERS.index(n[0]), int(n[1:]) - 1

            self.counters.add(cell(counter))
            who = next(w for w, at in self.moai.items() if at == cell(origin))
            self.moai[who] = cell(target)
        self.turn = "B" if self.turn == "W" else "W"
