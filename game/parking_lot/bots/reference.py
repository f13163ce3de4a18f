"""Reference players the arena measures the Parking Lot levels against.

- ``random``: any legal turn, uniformly (as the rule book's random games choose).
- ``greedy``: one ply deep: the turn that leaves the best groups for the mover
  (the valet's choice, ``levels.greedy``).
- ``uct``: plain UCT, every legal turn at every node, uniformly random playouts to
  the end of the game, no evaluation, no prior, for a given time.
"""

from __future__ import annotations

import random
import time

from game.mcts import Knowledge, best_child, grow
from game.parking_lot.bots.levels import greedy
from game.parking_lot.engine import Position
from game.parking_lot.notation import Move

__all__ = ["greedy_move", "random_move", "uct_move"]


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal turn, uniformly. Raises ``ValueError`` when the game is over."""
    if position.is_over:
        raise ValueError("the game is over: there is no move to choose")
    return position.random_move(rng)


def greedy_move(position: Position, rng: random.Random) -> Move:
    """The turn whose groups one ply deep are best for the mover, ties at random.
    Raises ``ValueError`` when the game is over."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return greedy(position, moves, rng)


def _random_result(position: Position, rng: random.Random) -> float:
    while not position.is_over:
        position = position._after(position.random_move(rng))
    winner = position.outcome().winner
    return 0.5 if winner is None else 1.0 if winner.value == "dark" else 0.0


PLAIN = Knowledge(
    moves=lambda position: [(0.0, move) for move in position.legal_moves()],
    playout=_random_result,
    dark_moved=lambda position: position._turn == 1,
)


def uct_move(position: Position, rng: random.Random, seconds: float) -> Move:
    """Plain UCT for ``seconds``: the bound mean + C·√(ln N / n) with C = 1, every turn
    tried once before any twice, uniformly random playouts to the end (win 1, draw ½,
    loss 0); the most visited turn. Raises ``ValueError`` when the game is over."""
    if position.is_over:
        raise ValueError("the game is over: there is no move to choose")
    root, _ = grow(
        position,
        rng,
        PLAIN,
        deadline=time.perf_counter() + seconds,
        exploration=1.0,
        bias=0.0,
        widening=None,
    )
    return best_child(root).move
