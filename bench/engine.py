"""Engine benchmark: random playouts per second through the public API.

Run ``python -m bench.engine`` (``--help`` for options). Each playout starts from
``Position.start(rules)`` and plays ``random.choice(pos.legal_moves())`` until
``pos.is_over``, exactly as a bot's playout would.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from game.engine import Position, Rules


def playout(rules: Rules, rng: random.Random) -> Position:
    """Play one random game to its end and return the final position."""
    pos = Position.start(rules)
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def measure(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    """Run playouts for about ``seconds``; return (playouts per second, mean plies)."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(100):
            plies += playout(rules, rng).ply
        games += 100
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started), plies / games


def main(argv: list[str] | None = None) -> None:
    """Print playouts per second for each rule set (best and median of the rounds)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="also the variants, not only defaults")
    args = parser.parse_args(argv)
    rule_sets = {"default rules": Rules()}
    if args.all:
        rule_sets |= {
            "special stones off": Rules(special_stones=False),
            "wraparound": Rules(wraparound=True),
            "simple scoring": Rules(scoring="simple"),
        }
    for name, rules in rule_sets.items():
        rates = []
        for round_number in range(args.rounds):
            rate, mean_plies = measure(rules, args.seconds, args.seed + round_number)
            rates.append(rate)
        print(
            f"{name:20} {max(rates):8,.0f} playouts/s best, "
            f"{statistics.median(rates):8,.0f} median "
            f"({args.rounds}×{args.seconds:g}s, {mean_plies:.1f} plies a game)"
        )


if __name__ == "__main__":
    main()
