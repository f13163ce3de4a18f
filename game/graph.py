"""Dark's chances over a game, drawn as an inline SVG on the server: no script, no
chart library. Pure Python, no Django.

``estimates[i]`` is the strongest level's estimate that dark wins in the position
after ``i`` moves (``None`` where that moment is not analysed yet: a gap in the
line). The axes give the moves and 0, 50 and 100%; the moves the review judged
(``game.review``) are marked, each linking to the moment of the replay it was played
from, where the better move is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from game.review import Judgement
from game.sides import DARK_AND_LIGHT, Sides

# Room for the axes' labels: the percentages at the left, the moves below.
LEFT = 40
BOTTOM = 22
TOP = 6
RIGHT = 8
# A tick of the moves' axis every so many moves, so that at most about ten show.
TICK_STEPS = (1, 2, 5, 10, 20, 50)


def move_ticks(plies: int) -> list[int]:
    """The moves the axis names: 0 and every step up to ``plies``."""
    step = next((step for step in TICK_STEPS if plies / step <= 10), TICK_STEPS[-1])
    return list(range(0, plies + 1, step))


def estimate_graph(
    estimates: Sequence[float | None],
    *,
    marks: Sequence[Judgement] = (),
    link: Callable[[int], str],
    current: int | None = None,
    width: int = 600,
    height: int = 180,
    sides: Sides = DARK_AND_LIGHT,
) -> str:
    """The graph as SVG markup; ``marks`` the judged moves, ``link(ply)`` the address
    of a moment, ``current`` the moment shown, ``sides`` the game's names for its sides
    (the chances are the first side's)."""
    plies = max(1, len(estimates) - 1)
    inner_width, inner_height = width - LEFT - RIGHT, height - TOP - BOTTOM

    def x(ply: int) -> float:
        return round(LEFT + ply * inner_width / plies, 1)

    def y(estimate: float) -> float:
        return round(TOP + (1 - estimate) * inner_height, 1)

    runs: list[list[tuple[float, float]]] = [[]]
    for ply, estimate in enumerate(estimates):
        if estimate is None:
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append((x(ply), y(estimate)))
    runs = [run for run in runs if run]
    bottom = y(0.0)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="estimate" '
        f'viewBox="0 0 {width} {height}" width="100%" role="group" '
        'aria-labelledby="estimate-title estimate-desc">',
        f'<title id="estimate-title">{escape(sides.first)}\'s chances over {plies} moves</title>',
        f'<desc id="estimate-desc">{escape(_summary(estimates, marks, sides))}</desc>',
        f'<rect class="estimate__light" x="{LEFT}" y="{TOP}" '
        f'width="{inner_width}" height="{inner_height}"/>',
    ]
    for run in runs:
        points = " ".join(f"{px},{py}" for px, py in run)
        area = f"{run[0][0]},{bottom} {points} {run[-1][0]},{bottom}"
        parts.append(f'<polygon class="estimate__dark" points="{area}"/>')
        parts.append(f'<polyline class="estimate__line" points="{points}"/>')
    for percent in (0, 50, 100):
        level = y(percent / 100)
        line_class = "estimate__middle" if percent == 50 else "estimate__grid"
        parts.append(
            f'<line class="{line_class}" x1="{LEFT}" y1="{level}" x2="{width - RIGHT}" '
            f'y2="{level}"/>'
            f'<text class="estimate__label" x="{LEFT - 4}" y="{level}" text-anchor="end" '
            f'dominant-baseline="middle">{percent}%</text>'
        )
    for ply in move_ticks(plies):
        parts.append(
            f'<text class="estimate__label" x="{x(ply)}" y="{height - 6}" '
            f'text-anchor="middle" data-tick="{ply}">{ply}</text>'
        )
    if current is not None and 0 <= current < len(estimates):
        parts.append(
            f'<line class="estimate__now" x1="{x(current)}" y1="{TOP}" '
            f'x2="{x(current)}" y2="{bottom}"/>'
        )
    for mark in marks:
        after = estimates[mark.ply]
        if after is None:
            continue
        who = sides.word(mark.color)
        title = f"Move {mark.ply}, {who}: {mark.text} ({mark.kind}); see the board before it"
        parts.append(
            f'<a href="{escape(link(mark.before))}" class="estimate__mark estimate__mark--'
            f'{mark.kind}" data-graph-mistake="{mark.ply}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{x(mark.ply)}" cy="{y(after)}" r="6"/></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _summary(estimates: Sequence[float | None], marks: Sequence[Judgement], sides: Sides) -> str:
    """What the graph shows, in words."""
    known = [estimate for estimate in estimates if estimate is not None]
    if not known:
        return "No moment of the game is analysed yet."
    marked = (
        "marked moves " + ", ".join(f"{mark.ply} ({mark.kind})" for mark in marks)
        if marks
        else "no move marked"
    )
    last = round(100 * known[-1])
    return (
        f"{sides.first}'s chances at the last moment analysed: {last}%; {marked}; "
        f"{len(known)} of {len(estimates)} moments analysed."
    )
