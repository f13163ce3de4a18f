"""What the strongest level thinks of a position: its move, the line it expects and
dark's chances. Engine only, no Django; the site's worker runs it for replays.

Near the end the solver proves the value (a win, a tie or a loss with perfect play)
and the line is the proven one. Before that, the search's tree gives both: the line
follows the most visited replies while they are searched enough to mean something,
and the chances are the mean result of the playouts through the chosen move and
the reply expected to it (``_mover_chances``), as the search values them (a win or
loss, with a little weight on the margin), so they are an estimate, not a
probability measured over games.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from game.grid import Color
from game.maerstanas.bots import search
from game.maerstanas.bots.levels import SOLVER_MOVES, SOLVER_NODES, SOLVER_SHARE
from game.maerstanas.engine import Position
from game.maerstanas.notation import Move

# The longest line shown, and how searched a reply must be to be part of it: a
# tenth of its parent's visits, and some visits at the least.
LINE_PLIES = 8
LINE_SHARE = 0.1
LINE_VISITS = 5


@dataclass(frozen=True, slots=True)
class Analysis:
    """The strongest level's view of a position."""

    move: Move
    line: tuple[Move, ...]  # the expected moves, ``move`` first
    dark_win: float  # dark's chances, 0 to 1 (a tie counts half)
    proven: bool  # the solver proved it: ``dark_win`` is then 1, 0.5 or 0
    iterations: int  # the search's playouts (0 when proven)


def analyse(
    position: Position,
    seconds: float = 1.0,
    *,
    playouts: int | None = None,
    seed: int | None = None,
) -> Analysis:
    """Analyse ``position`` for ``seconds`` (or for ``playouts``, repeatably with a
    ``seed``). Raises ``ValueError`` when the game is over."""
    started = time.perf_counter()
    if not position.legal_moves():
        raise ValueError("the game is over: there is nothing to analyse")
    deadline = started + seconds
    # The solver first, as the strongest level plays (game.bots).
    if search.remaining_moves(position) <= SOLVER_MOVES:
        budget = {"nodes": playouts * SOLVER_NODES} if playouts else {}
        solver_deadline = None if playouts else started + seconds * SOLVER_SHARE
        proof = search.solve(position, solver_deadline, **budget)
        if proof is not None:
            return _proven(position, *proof, deadline=None if playouts else deadline)
    root, iterations = search.search_tree(
        position,
        random.Random(seed),
        playouts=playouts,
        deadline=None if playouts else deadline,
    )
    mover_win = _mover_chances(root)
    best = max(root.children, key=lambda child: child.visits)
    return Analysis(
        move=best.move,
        line=_line(root),
        dark_win=mover_win if position.turn is Color.DARK else 1.0 - mover_win,
        proven=False,
        iterations=iterations,
    )


def _mover_chances(root: search.Node) -> float:
    """The side to move's chances: the mean of the playouts through the chosen move,
    and of those through the reply expected to it, taken half and half.

    Either alone leans to one side. The playouts through the chosen move begin with
    the opponent to move, those through the reply with the mover, and the side to
    move at a playout's start does better than it would in a real game: taken alone,
    the first made each estimate lean some 9 points towards whoever was to move, so
    the graph of a quiet game saw-toothed by 15 to 30 points. Half and half, each
    start counts once, and consecutive estimates agree (``tests/test_analysis.py``).
    """
    best = max(root.children, key=lambda child: child.visits)
    through = best.wins / best.visits
    if not best.children:
        return through
    reply = max(best.children, key=lambda child: child.visits)
    return (through + 1.0 - reply.wins / reply.visits) / 2


def _line(root: search.Node) -> tuple[Move, ...]:
    """The most visited moves from the root down, while they are searched enough."""
    line = []
    node = root
    while node.children and len(line) < LINE_PLIES:
        child = max(node.children, key=lambda each: each.visits)
        if line and child.visits < max(LINE_VISITS, LINE_SHARE * node.visits):
            break
        line.append(child.move)
        node = child
    return tuple(line)


def _proven(position: Position, move: Move, value: int, deadline: float | None) -> Analysis:
    """The analysis of a proven position: the line is proven move by move, as far
    as the time allows (each later position is smaller, so quicker to prove)."""
    line = [move]
    after = position.play(move)
    while len(line) < LINE_PLIES and after.legal_moves():
        if deadline is not None and time.perf_counter() >= deadline:
            break
        proof = search.solve(after, deadline, nodes=None if deadline else 2000)
        if proof is None:
            break
        line.append(proof[0])
        after = after.play(proof[0])
    mover = (value + 1) / 2  # WIN, TIE, LOSS: 1, 0.5, 0 for the side to move
    return Analysis(
        move=move,
        line=tuple(line),
        dark_win=mover if position.turn is Color.DARK else 1.0 - mover,
        proven=True,
        iterations=0,
    )
