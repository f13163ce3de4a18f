"""Reference players the arena measures the Cyngesheall levels against.

- ``random``: any legal move.
- ``greedy``: one move deep: take the enemy king, else bring one's own king home,
  else capture (the most pieces), else any move; ties at random.
- ``uct``: plain UCT, uniformly random playouts to the end of the game, no
  evaluation, no prior, no solver, for a given time.
"""

from __future__ import annotations

import random
import time

from game.cyngesheall.bots.policy import GOAL_BITS
from game.cyngesheall.bots.search import mcts
from game.cyngesheall.engine import PINCERS, Position
from game.cyngesheall.notation import Move
from game.thinking import moves_to_choose

__all__ = ["captures", "greedy_move", "random_move", "uct_move"]


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly. Raises ``ValueError`` when the game is over."""
    return rng.choice(moves_to_choose(position))


def captures(position: Position, move: Move) -> tuple[int, bool]:
    """How many pieces ``move`` takes, and whether the enemy king is among them."""
    own, other = (
        (position._light, position._dark) if position._turn else (position._dark, position._light)
    )
    origin, target = move
    own ^= (1 << origin) | (1 << target)
    taken = 0
    for near, beyond in PINCERS[target]:
        if other & near and own & beyond:
            taken |= near
    return taken.bit_count(), bool(taken & position._kings)


def greedy_move(position: Position, rng: random.Random) -> Move:
    """One move deep: a capture of the enemy king, else one's king home, else the move
    that takes the most pieces, else any move; ties at random. Raises ``ValueError``
    when the game is over."""
    moves = moves_to_choose(position)
    goal = GOAL_BITS[position._turn]
    kings = position._kings
    best: list[Move] = []
    top = -1
    for move in moves:
        taken, king = captures(position, move)
        if king:
            value = 100
        elif kings >> move.origin & 1 and goal >> move.target & 1:
            value = 50
        else:
            value = taken
        if value > top:
            best, top = [move], value
        elif value == top:
            best.append(move)
    return rng.choice(best)


def uct_move(position: Position, rng: random.Random, seconds: float) -> Move:
    """Plain UCT for ``seconds``: the bound mean + C·√(ln N / n) with C = 1, every move
    tried once before any twice, uniformly random playouts to the end (win 1, draw ½,
    loss 0), no evaluation, no prior, no solver; the most visited move. Raises
    ``ValueError`` when the game is over."""
    deadline = time.perf_counter() + seconds
    return mcts(
        position,
        rng,
        deadline=deadline,
        use_bias=False,
        exploration=1.0,
        guided=False,
        widening=None,
        solver=False,
    )[0]
