"""How steady the analysis's estimate is from one moment of a game to the next.

Plays ``--games`` games between two quick searches and, at every moment, searches
as the analysis does (``--iterations`` iterations, the game analysis's effort) and
reads dark's chances three ways from the same tree:

- ``through the move``: the mean of the playouts through the chosen move, which
  the analysis gave before: the playouts begin with the opponent to move;
- ``after the reply``: through the chosen move and the reply expected to it: the
  playouts begin with the side to move;
- ``half and half``: the mean of the two, which the analysis gives now
  (``game.maerstanas.bots.analysis._mover_chances``).

For each it prints the mean and the 90th percentile of the change from one moment
to the next, and the mean change into moments where dark is to move and into those
where light is: an estimate that leans towards the side to move shows as the two
signed changes pulling apart. Run ``python -m bench.estimates`` (``--help``).
"""

from __future__ import annotations

import argparse
import random
import statistics

from game.engine import Color, Position
from game.maerstanas.bots import search

WAYS = ("through the move", "after the reply", "half and half")


def estimates(position: Position, iterations: int, rng: random.Random) -> tuple[float, ...]:
    """Dark's chances in ``position``, read the three ways from one search."""
    root, _ = search.search_tree(position, rng, playouts=iterations)
    mover = position.turn

    def dark(chances: float, side: Color) -> float:
        return chances if side is Color.DARK else 1.0 - chances

    best = max(root.children, key=lambda child: child.visits)
    through = dark(best.wins / best.visits, mover)
    if best.children:
        reply = max(best.children, key=lambda child: child.visits)
        after = dark(reply.wins / reply.visits, mover.opponent)
    else:
        after = through
    return through, after, (through + after) / 2


def measure(games: int, iterations: int, moves: int, seed: int) -> dict[str, dict[str, float]]:
    """The figures of each way, by name."""
    rng = random.Random(seed)
    changes: dict[str, list[float]] = {way: [] for way in WAYS}
    into: dict[str, dict[Color, list[float]]] = {way: {c: [] for c in Color} for way in WAYS}
    levels: dict[str, list[float]] = {way: [] for way in WAYS}
    for _ in range(games):
        position = Position.start()
        before = None
        while position.legal_moves():
            found = estimates(position, iterations, rng)
            for way, value in zip(WAYS, found, strict=True):
                levels[way].append(value)
            if before is not None:
                for way, old, new in zip(WAYS, before, found, strict=True):
                    changes[way].append(abs(new - old))
                    into[way][position.turn].append(new - old)
            before = found
            move, _ = search.mcts(position, rng, playouts=moves)
            position = position.play(move)
    return {
        way: {
            "mean": statistics.mean(changes[way]),
            "p90": statistics.quantiles(changes[way], n=10)[-1],
            "into dark": statistics.mean(into[way][Color.DARK]),
            "into light": statistics.mean(into[way][Color.LIGHT]),
            "level": statistics.mean(levels[way]),
        }
        for way in WAYS
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=1600, help="a moment's search")
    parser.add_argument("--moves", type=int, default=200, help="the players' search a move")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    found = measure(options.games, options.iterations, options.moves, options.seed)
    print(
        f"{options.games} games, {options.iterations} iterations a moment; dark's chances "
        "in points (of 100) from one moment to the next:"
    )
    for way, figures in found.items():
        print(
            f"  {way:<17} change mean {100 * figures['mean']:4.1f}, p90 "
            f"{100 * figures['p90']:4.1f}; into dark to move {100 * figures['into dark']:+5.1f}, "
            f"into light to move {100 * figures['into light']:+5.1f}; mean level "
            f"{100 * figures['level']:4.1f}"
        )


if __name__ == "__main__":
    main()
