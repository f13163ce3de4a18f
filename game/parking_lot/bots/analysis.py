"""What the strongest level thinks of a position: its turn, the line it expects and
blue's chances. Engine only, no Django; the site's worker runs it for replays.

The search's tree gives the turn (the most visited), the line (the most visited
replies, while they are searched enough to mean something) and the chances
(``game.thinking.read_tree``): an estimate, as the search's playouts and evaluation
value positions, not a probability measured over games. A finished-in-one position
(the last turn) is searched like any other: the tree's leaves there are exact.
"""

from __future__ import annotations

import random
import time

from game.parking_lot.bots import search
from game.parking_lot.engine import Position
from game.thinking import Analysis, read_tree

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
    if position.is_over:
        raise ValueError("the game is over: there is nothing to analyse")
    deadline = None if playouts else time.perf_counter() + seconds
    root, iterations = search.search_tree(
        position, random.Random(seed), playouts=playouts, deadline=deadline
    )
    return read_tree(root, iterations, position.turn)
