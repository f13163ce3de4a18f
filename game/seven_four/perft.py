"""The rule book's perft table (docs/SEVEN-FOUR.md, "Figures a correct engine
reproduces"): ``python -m game.seven_four.perft`` counts the turn texts at each depth
from the start (depths 1 to 4) and from the mid-game position (depths 1 to 3), and
prints each count beside the rule book's. Depth 4 from the start takes a while; the
unit tests stop at depth 3.
"""

from __future__ import annotations

import argparse
import time

from game.seven_four.engine import Position

__all__ = ["FIGURES", "MID_GAME", "main", "perft"]

MID_GAME = ("D4", "G7", "F4", "C8", "H2", "E9", "B2", "H9")
# The rule book's counts: (the moves from the start, depth, count).
FIGURES = (
    ((), 1, 100),
    ((), 2, 9_900),
    ((), 3, 970_200),
    ((), 4, 94_109_400),
    (MID_GAME, 1, 106),
    (MID_GAME, 2, 12_679),
    (MID_GAME, 3, 1_310_355),
)


def perft(position: Position, depth: int) -> int:
    """The turns at ``depth`` plies from ``position``: 1 at depth 0, and a finished
    game adds nothing deeper. The last ply is counted, not played."""
    if depth == 0:
        return 1
    moves = position.moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(move), depth - 1) for move in moves)


def main(argv: list[str] | None = None) -> int:
    """Print the table; 1 when a count differs from the rule book's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4, help="the deepest depth counted")
    args = parser.parse_args(argv)
    wrong = 0
    for moves, depth, expected in FIGURES:
        if depth > args.depth:
            continue
        started = time.perf_counter()
        count = perft(Position.replay(moves), depth)
        took = time.perf_counter() - started
        where = "start" if not moves else "after " + " ".join(moves)
        mark = "ok" if count == expected else f"WRONG, the rule book says {expected:,}"
        print(f"{where:34} depth {depth}: {count:>12,} {mark} ({took:.1f} s)")
        wrong += count != expected
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
