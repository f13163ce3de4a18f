"""What the fragment cache of ``game/fragments.py`` saves: a board and its move list
drawn with the cached pieces, then with every piece rendered afresh.

Run ``python -m bench.drawing``; it prints the best of five batches for each.
"""

from __future__ import annotations

import os
import random
import time

import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maerstanas_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # static() without a collected manifest
    django.setup()
    from game import fragments
    from game.engine import Position
    from game.maerstanas.drawing import draw_board
    from game.moves import move_list

    rng = random.Random(1)
    position = Position.start()
    for _ in range(20):
        position = position.play(rng.choice(position.legal_moves()))

    def draw() -> None:
        str(draw_board(position, mover=position.turn).squares)
        str(move_list(position))

    def best_microseconds(batch: int = 300) -> float:
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(batch):
                draw()
            best = min(best, (time.perf_counter() - started) / batch)
        return best * 1e6

    draw()
    cached = best_microseconds()
    render = fragments._render
    fragments._render = render.__wrapped__
    try:
        fresh = best_microseconds()
    finally:
        fragments._render = render
    print(f"49 squares and a 20-move list: {cached:,.0f} µs cached, {fresh:,.0f} µs afresh")


if __name__ == "__main__":
    main()
