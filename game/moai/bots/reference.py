"""Reference players the arena measures the Moai levels against.

- ``random``: any legal move.
- ``greedy``: one move deep: trap the other Moai when it can, else the turn that
  leaves its own Moai the most room against the other's; ties at random.
- ``uct``: plain UCT, uniformly random playouts to the end of the game, no
  evaluation, no prior, no solver, for a given time.
"""

from __future__ import annotations

import random
import time

from game.moai.bots import policy
from game.moai.bots.search import mcts
from game.moai.engine import Position
from game.moai.notation import Move

__all__ = ["greedy_move", "random_move", "uct_move"]


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly. Raises ``ValueError`` when the game is over."""
    return rng.choice(_legal(position))


def greedy_move(position: Position, rng: random.Random) -> Move:
    """One move deep: a win, else a move that leaves the mover's Moai the most room
    against the other's; ties at random. Raises ``ValueError`` when the game is over."""
    moves = _legal(position)
    win = policy.winning_move(position)
    if win is not None:
        return win
    values = policy.move_values(position, moves)
    top = max(values)
    return rng.choice([move for move, value in zip(moves, values, strict=True) if value == top])


def uct_move(position: Position, rng: random.Random, seconds: float) -> Move:
    """Plain UCT for ``seconds``: the bound mean + C·√(ln N / n) with C = 1, every move
    tried once before any twice, uniformly random playouts to the end (win 1, loss 0),
    no evaluation, no prior, no solver; the most visited move. Raises ``ValueError``
    when the game is over."""
    deadline = time.perf_counter() + seconds
    return mcts(
        position,
        rng,
        deadline=deadline,
        use_bias=False,
        exploration=1.0,
        widening=None,
        solver=False,
        plies=None,
    )[0]


def _legal(position: Position) -> list[Move]:
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return moves
