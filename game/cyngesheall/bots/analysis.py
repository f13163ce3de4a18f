"""What the strongest level thinks of a position: its move, the line it expects and
dark's chances. Engine only, no Django; the site's worker runs it for replays.

A win in two moves (``search.forced_win``) or a root the search's solver proves
gives a proven value (dark's chances 1 or 0). Otherwise the search's tree gives the
move, the line (the most visited replies, while they are searched enough to mean
something) and the chances: the mean result of the playouts through the chosen move
and through the reply expected to it, half and half (``game.thinking.mover_chances``), so that
neither side's being to move at the playouts' start leans the estimate. They are an
estimate, as the search values positions, not a probability measured over games.
"""

from __future__ import annotations

import random
import time

from game.cyngesheall.bots import search
from game.cyngesheall.bots.levels import SOLVER_SHARE
from game.cyngesheall.engine import Position
from game.cyngesheall.notation import Move
from game.thinking import Analysis, dark_chances, principal_line, read_tree

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
    deadline = None if playouts else started + seconds
    win = search.forced_win(position, None if playouts else started + seconds * SOLVER_SHARE)
    if win is not None:
        return _proven(position, win, True)
    root, iterations = search.search_tree(
        position, random.Random(seed), playouts=playouts, deadline=deadline
    )
    best = search.best_child(root)
    if best.proven:
        return _proven(position, best.move, best.proven == search.WON, _line(root), iterations)
    return read_tree(root, iterations, position.turn, search.best_child, _sure)


def _line(root: search.Node) -> tuple[Move, ...]:
    """The moves the search expects from the root down: a proven win where there is
    one, else the most visited move, while they are searched enough."""
    return principal_line(root, search.best_child, _sure)


def _sure(child: search.Node) -> bool:
    return bool(child.proven)


def _proven(
    position: Position,
    move: Move,
    won: bool,
    line: tuple[Move, ...] = (),
    iterations: int = 0,
) -> Analysis:
    """The analysis of a position whose win (or loss) for the side to move is proven."""
    mover = 1.0 if won else 0.0
    return Analysis(
        move=move,
        line=line if line and line[0] is move else (move,),
        dark_win=dark_chances(position.turn, mover),
        proven=True,
        iterations=iterations,
    )
