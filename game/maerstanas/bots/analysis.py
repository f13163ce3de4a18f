"""What the strongest level thinks of a position: its move, the line it expects and
dark's chances. Engine only, no Django; the site's worker runs it for replays.

Near the end the solver proves the value (a win, a tie or a loss with perfect play)
and the line is the proven one. Before that, the search's tree gives both: the line
follows the most visited replies while they are searched enough to mean something,
and the chances are the mean result of the playouts through the chosen move and
the reply expected to it (``game.thinking.mover_chances``), as the search values
them (a win or loss, with a little weight on the margin), so they are an estimate,
not a probability measured over games.
"""

from __future__ import annotations

import random
import time

from game.maerstanas.bots import search
from game.maerstanas.bots.levels import SOLVER_MOVES, SOLVER_NODES, SOLVER_SHARE
from game.maerstanas.engine import Position
from game.maerstanas.notation import Move
from game.thinking import LINE_PLIES, Analysis, dark_chances, read_tree

__all__ = ["Analysis", "analyse"]


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
    return read_tree(root, iterations, position.turn)


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
        dark_win=dark_chances(position.turn, mover),
        proven=True,
        iterations=0,
    )
