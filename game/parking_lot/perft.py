"""Parking Lot's perft: the rule book's table of legal turn counts, deeper than the
tests go (``python -m game.parking_lot.perft``, or ``--depth N`` for more).

Perft counts turn texts, as the rule book does: the turns a position lists, then
theirs, and so on, to a depth; the last ply is counted without listing its turns.
"""

from __future__ import annotations

import argparse
import time

from game.parking_lot.engine import Position

__all__ = ["MID_GAME", "TABLE", "perft"]

# The rule book's mid-game position, blue to move, as its turns.
MID_GAME = ("D4", "E4", "B2", "B1", "F2 D4-D6", "A8", "G5", "F8 B1-D2")

# The rule book's figures: (where from, depth, count).
TABLE = (
    ("start", 1, 56),
    ("start", 2, 2_940),
    ("start", 3, 5_966_124),
    ("mid-game", 1, 1_838),
    ("mid-game", 2, 2_493_347),
)


def perft(position: Position, depth: int) -> int:
    """How many turn sequences of ``depth`` turns ``position`` allows (1 and up)."""
    if depth <= 1:
        return position.count_moves() if depth == 1 else 1
    return sum(perft(position._after(move), depth - 1) for move in position.legal_moves())


def main(argv: list[str] | None = None) -> None:
    """Print the rule book's table, each count beside the engine's and its time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--depth", type=int, default=0, help="also count from the start to this depth"
    )
    args = parser.parse_args(argv)
    starts = {"start": Position.start(), "mid-game": Position.replay(MID_GAME)}
    rows = list(TABLE)
    rows += [("start", depth, None) for depth in range(4, args.depth + 1)]
    print(f"{'from':<9} {'depth':>5} {'rule book':>12} {'engine':>12} {'seconds':>8}")
    for where, depth, expected in rows:
        began = time.perf_counter()
        count = perft(starts[where], depth)
        took = time.perf_counter() - began
        book = f"{expected:,}" if expected is not None else "-"
        mark = "" if expected in (None, count) else "  DIFFERS"
        print(f"{where:<9} {depth:>5} {book:>12} {count:>12,} {took:>8.2f}{mark}")


if __name__ == "__main__":
    main()
