"""The rule book's figures (docs/MOAI.md, "Figures a correct engine reproduces"):
``python -m game.moai.perft`` counts the moves at each depth from the start and from
each board's mid-game position, plays the 200 random games of each board, and prints
each figure beside the rule book's. The unit tests stop at depth 2 from the start.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from game.moai.engine import Position, Rules

__all__ = ["FIGURES", "MID_GAMES", "RANDOM_GAMES", "main", "perft", "random_games"]

MID_GAMES = {
    "square": (
        "H2 D3 F1:D3-B5 A2:H2-E1 B4:B5-C7 E5:E1-F5 H5:F5-H4 C8:C7-B2 F2:B2-C2 G2:C2-B2 "
        "C4:H4-F5 F4:F5-G8 D2:B2-D1 G5:G8-F5 D3:F5-G6 C1:D1-E1 B1:G6-E4 H7:E4-F5 "
        "E3:E1-F3 G4:F3-E2"
    ),
    "hex": (
        "F8 G3 B8:F8-C7 G10:G3-G1 G5:G1-G4 I7:C7-A6 F5:G4-K1 H4:K1-J2 J7:J2-J3 "
        "G3:J3-I2 F6:A6-E5 H5:E5-D4 D11:D4-C10 E8:C10-A11 C9:A11-B9 J2:I2-G1 "
        "B11:B9-B10 D4:G1-E2 H2:E2-H1 B7:H1-C6 C8:C6-C5 A7:C5-B6 I6:B6-D6 A9:D6-E4 "
        "E2:E4-E5 I5:E5-C4 I3:B10-A11 A8:A11-A10 C6:C4-B6 F10:A10-D9 D5:D9-D7 "
        "J6:B6-A6 J1:D7-E6 E11:E6-D8 H6:A6-B6 D3:D8-E9 H9:E9-D9 D8:D9-D10 B10:B6-C4 "
        "K3:D10-G6"
    ),
}
# The rule book's counts: (board, from the mid-game position?, depth, count).
FIGURES = (
    ("square", False, 1, 60),
    ("square", False, 2, 3_540),
    ("square", False, 3, 975_840),
    ("square", True, 1, 29),
    ("square", True, 2, 1_552),
    ("square", True, 3, 88_466),
    ("hex", False, 1, 91),
    ("hex", False, 2, 8_190),
    ("hex", False, 3, 4_531_536),
    ("hex", True, 1, 56),
    ("hex", True, 2, 3_576),
    ("hex", True, 3, 197_758),
)
# 200 random games a board, one ``random.Random(2014)`` for them all: the wins of
# white and black (always a stuck Moai) and the mean length in plies.
RANDOM_GAMES = {"square": (97, 103, 38.3), "hex": (91, 109, 57.9)}


def perft(position: Position, depth: int) -> int:
    """The moves at ``depth`` plies from ``position``: 1 at depth 0, and a finished
    game adds nothing deeper. The last ply is counted, not played."""
    if depth == 0:
        return 1
    moves = position.moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play_unchecked(move), depth - 1) for move in moves)


def random_games(board: str, games: int = 200, seed: int = 2014) -> tuple[Counter[str], float]:
    """The rule book's random games on ``board``: each ply ``rng.choice`` of the sorted
    legal texts, one ``random.Random(seed)`` for every game. The results counted and
    the mean length in plies."""
    rng = random.Random(seed)
    rules = Rules(board)
    results: Counter[str] = Counter()
    plies = 0
    for _ in range(games):
        pos = Position.start(rules)
        while not pos.is_over:
            pos = pos.play(rng.choice(sorted(move.text for move in pos.moves())))
        results[pos.result] += 1
        plies += pos.ply
    return results, plies / games


def main(argv: list[str] | None = None) -> int:
    """Print the figures; 1 when one differs from the rule book's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=3, help="the deepest depth counted")
    args = parser.parse_args(argv)
    wrong = 0
    for board, middle, depth, expected in FIGURES:
        if depth > args.depth:
            continue
        rules = Rules(board)
        started = time.perf_counter()
        start = Position.replay(rules, MID_GAMES[board]) if middle else Position.start(rules)
        count = perft(start, depth)
        took = time.perf_counter() - started
        where = f"{board} {'mid-game' if middle else 'start'}"
        mark = "ok" if count == expected else f"WRONG, the rule book says {expected:,}"
        print(f"{where:16} depth {depth}: {count:>12,} {mark} ({took:.1f} s)")
        wrong += count != expected
    for board, (white, black, mean) in RANDOM_GAMES.items():
        started = time.perf_counter()
        results, plies = random_games(board)
        took = time.perf_counter() - started
        found = (results["white"], results["black"], round(plies, 1))
        mark = "ok" if found == (white, black, mean) else "WRONG"
        print(
            f"{board:16} 200 random games: white {found[0]}, black {found[1]}, "
            f"mean {found[2]} plies {mark} ({took:.1f} s, {200 / took:.0f} games a second)"
        )
        wrong += found != (white, black, mean)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
