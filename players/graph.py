"""A player's rating over their rated games, drawn as an inline SVG on the server, in
the analysis graph's colours (``game/graph.py``). Pure Python, no Django."""

from __future__ import annotations

from collections.abc import Sequence

from game.ratings import START


def rating_graph(ratings: Sequence[float], width: int = 600, height: int = 160) -> str:
    """The graph of ``ratings``, the rating before the first rated game and after each,
    as SVG markup; the start (1000) is drawn as a line across."""
    low = min(*ratings, START) - 10
    high = max(*ratings, START) + 10
    steps = max(1, len(ratings) - 1)

    def x(index: int) -> float:
        return round(index * width / steps, 1)

    def y(rating: float) -> float:
        return round((high - rating) * height / (high - low), 1)

    points = " ".join(f"{x(index)},{y(rating)}" for index, rating in enumerate(ratings))
    start = y(START)
    games = len(ratings) - 1
    summary = (
        f"From {round(ratings[0])} to {round(ratings[-1])} over {games} rated "
        f"game{'' if games == 1 else 's'}; highest {round(max(ratings))}, "
        f"lowest {round(min(ratings))}."
    )
    return "".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" class="estimate rating-graph" '
            f'viewBox="0 0 {width} {height}" width="100%" role="img" '
            'aria-labelledby="rating-title rating-desc">',
            '<title id="rating-title">Rating over the rated games</title>',
            f'<desc id="rating-desc">{summary}</desc>',
            f'<rect class="estimate__light" x="0" y="0" width="{width}" height="{height}"/>',
            f'<line class="estimate__middle" x1="0" y1="{start}" x2="{width}" y2="{start}"/>',
            f'<polyline class="estimate__line" points="{points}"/>',
            "</svg>",
        ]
    )
