"""What the strongest Moai level thinks of a position: its move, the line it
expects and white's chances. Engine only, no Django; the site's worker runs it for
replays.

A turn that traps the other Moai, or a root the search's solver proves, gives a proven
value (white's chances 1 or 0). Otherwise the search's tree gives the move, the line
(the most visited replies, while they are searched enough to mean something) and
the chances, as ``game.thinking.read_tree`` reads them: an estimate, as the search
values positions, not a probability measured over games.
"""

from __future__ import annotations

import random
import time

from game.moai.bots import policy, search
from game.moai.engine import Position
from game.moai.notation import Move
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
    if position.is_over:
        raise ValueError("the game is over: there is nothing to analyse")
    win = policy.winning_move(position)
    if win is not None:
        return _proven(position, win, True)
    deadline = None if playouts else started + seconds
    root, iterations = search.search_tree(
        position, random.Random(seed), playouts=playouts, deadline=deadline
    )
    best = search.best_child(root)
    if best.proven:
        line = principal_line(root, search.best_child, _sure)
        return _proven(position, best.move, best.proven == search.WON, line, iterations)
    return read_tree(root, iterations, position.turn, search.best_child, _sure)


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
    return Analysis(
        move=move,
        line=line if line and line[0] is move else (move,),
        dark_win=dark_chances(position.turn, 1.0 if won else 0.0),
        proven=True,
        iterations=iterations,
    )
