"""The rule book's figures (docs/LAND-GRAB.md, "Figures a correct engine
reproduces"): ``python -m game.land_grab.perft`` counts the moves at each depth from
the start and from the mid-game position (depths 1 to 4, by record text), plays the
rule book's 200 random games, and prints each figure beside the rule book's. The
unit tests stop at depth 3.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from game.land_grab.engine import Position

__all__ = ["FIGURES", "GAMES", "MID_GAME", "main", "perft", "random_games"]

MID_GAME = (
    *("F2", "C4", "D2", "F3", "D2-A2", "C4-C1", "A2-F7", "C1-C3"),
    *("F7-D7", "C3-E3", "D7-A4", "E3-E5", "A4-A6", "E5-C7", "A6-G6", "C7-G3"),
)
# The rule book's counts: (the moves from the start, depth, count).
FIGURES = (
    ((), 1, 32),
    ((), 2, 1_024),
    ((), 3, 31_744),
    ((), 4, 984_064),
    (MID_GAME, 1, 17),
    (MID_GAME, 2, 421),
    (MID_GAME, 3, 7_129),
    (MID_GAME, 4, 271_196),
)
# The rule book's 200 random games: how each ended, and their mean length in plies.
GAMES = {
    ("black", "all-captured"): 29,
    ("white", "all-captured"): 36,
    ("black", "no-flips"): 6,
    ("white", "no-flips"): 5,
    ("draw", "no-flips"): 1,
    ("black", "quiet-plies"): 63,
    ("white", "quiet-plies"): 59,
    ("black", "ply-limit"): 1,
}
MEAN_PLIES = 100.2


def perft(position: Position, depth: int) -> int:
    """The moves at ``depth`` plies from ``position``: 1 at depth 0, and a finished
    game adds nothing deeper. The last ply is counted, not played."""
    if depth == 0:
        return 1
    moves = position.moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(move), depth - 1) for move in moves)


def random_games(count: int = 200, seed: int = 2014) -> tuple[Counter, float]:
    """How ``count`` random games ended (result, reason) and their mean length: one
    ``random.Random(seed)`` for all, each ply a choice among the sorted legal texts."""
    rng = random.Random(seed)
    ends: Counter = Counter()
    plies = 0
    for _ in range(count):
        pos = Position.start()
        while not pos.is_over:
            pos = pos.play(rng.choice(sorted(str(move) for move in pos.moves())))
        ends[tuple(pos.outcome())] += 1
        plies += pos.ply
    return ends, plies / count


def main(argv: list[str] | None = None) -> int:
    """Print the tables; 1 when a figure differs from the rule book's."""
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
        where = "start" if not moves else "mid-game"
        mark = "ok" if count == expected else f"WRONG, the rule book says {expected:,}"
        print(f"{where:9} depth {depth}: {count:>10,} {mark} ({took:.1f} s)")
        wrong += count != expected
    started = time.perf_counter()
    ends, mean = random_games()
    took = time.perf_counter() - started
    for key, expected in GAMES.items():
        mark = "ok" if ends[key] == expected else f"WRONG, the rule book says {expected}"
        print(f"random games {key[0]:5} {key[1]:12}: {ends[key]:>3} {mark}")
        wrong += ends[key] != expected
    wrong += sum(ends.values()) != sum(GAMES.values())
    mark = "ok" if round(mean, 1) == MEAN_PLIES else f"WRONG, the rule book says {MEAN_PLIES}"
    print(f"random games mean length: {mean:.1f} plies {mark} ({took:.1f} s)")
    wrong += round(mean, 1) != MEAN_PLIES
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
