"""Dark's chances over a game, drawn as an inline SVG on the server: no script, no
chart library. Pure Python, no Django.

``estimates[i]`` is the strongest level's estimate that dark wins in the position
after ``i`` moves (``None`` where that moment is not analysed yet: a gap in the
line). The moves that swung the estimate most are the game's turning points: each
is marked, and links to its moment of the replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

# A swing of the estimate smaller than this is no turning point.
TURNING_SWING = 0.15
TURNING_POINTS = 3


def turning_points(estimates: Sequence[float | None]) -> list[int]:
    """The plies whose move swung the estimate most (at most three, by ply)."""
    swings = [
        (abs(after - before), ply)
        for ply, (before, after) in enumerate(zip(estimates, estimates[1:], strict=False), 1)
        if before is not None and after is not None and abs(after - before) >= TURNING_SWING
    ]
    swings.sort(key=lambda swing: (-swing[0], swing[1]))
    return sorted(ply for _, ply in swings[:TURNING_POINTS])


def estimate_graph(
    estimates: Sequence[float | None],
    *,
    moves: Sequence[str],
    link: Callable[[int], str],
    current: int | None = None,
    width: int = 600,
    height: int = 160,
) -> str:
    """The graph as SVG markup; ``moves[i]`` is the notation of ply ``i + 1``,
    ``link(ply)`` the address of a moment, ``current`` the moment shown."""
    plies = max(1, len(estimates) - 1)

    def x(ply: int) -> float:
        return round(ply * width / plies, 1)

    def y(estimate: float) -> float:
        return round((1 - estimate) * height, 1)

    runs: list[list[tuple[float, float]]] = [[]]
    for ply, estimate in enumerate(estimates):
        if estimate is None:
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append((x(ply), y(estimate)))
    runs = [run for run in runs if run]
    middle = y(0.5)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="estimate" '
        f'viewBox="0 0 {width} {height}" width="100%" role="group" '
        'aria-labelledby="estimate-title estimate-desc">',
        f'<title id="estimate-title">Dark\'s chances over {plies} moves</title>',
        f'<desc id="estimate-desc">{escape(_summary(estimates, moves))}</desc>',
        f'<rect class="estimate__light" x="0" y="0" width="{width}" height="{height}"/>',
    ]
    for run in runs:
        points = " ".join(f"{px},{py}" for px, py in run)
        area = f"{run[0][0]},{height} {points} {run[-1][0]},{height}"
        parts.append(f'<polygon class="estimate__dark" points="{area}"/>')
        parts.append(f'<polyline class="estimate__line" points="{points}"/>')
    parts.append(
        f'<line class="estimate__middle" x1="0" y1="{middle}" x2="{width}" y2="{middle}"/>'
    )
    if current is not None and 0 <= current < len(estimates):
        parts.append(
            f'<line class="estimate__now" x1="{x(current)}" y1="0" '
            f'x2="{x(current)}" y2="{height}"/>'
        )
    for ply in turning_points(estimates):
        before, after = estimates[ply - 1], estimates[ply]
        assert before is not None and after is not None
        move = moves[ply - 1] if ply - 1 < len(moves) else "?"
        title = (
            f"Move {ply}, {move}, swung the estimate from "
            f"{round(100 * before)}% to {round(100 * after)}% for dark"
        )
        parts.append(
            f'<a href="{escape(link(ply))}" class="estimate__turn" data-turning-point="{ply}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{x(ply)}" cy="{y(after)}" r="6"/></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _summary(estimates: Sequence[float | None], moves: Sequence[str]) -> str:
    """What the graph shows, in words."""
    known = [estimate for estimate in estimates if estimate is not None]
    if not known:
        return "No moment of the game is analysed yet."
    points = turning_points(estimates)
    turns = (
        "turning points at moves " + ", ".join(map(str, points)) if points else "no turning point"
    )
    return (
        f"Dark's chances end at {round(100 * known[-1])}%; {turns}; "
        f"{len(known)} of {len(estimates)} moments analysed."
    )
