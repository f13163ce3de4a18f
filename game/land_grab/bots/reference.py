"""Reference players the arena measures the Land Grab levels against.

- ``random``: any legal move.
- ``greedy``: one move deep: a capture when there is one, else the move after which
  the mover's largest claim is largest; ties at random.
- ``uct``: plain UCT, uniformly random playouts to the end of the game, no
  evaluation, no prior, no solver, for a given time.
"""

from __future__ import annotations

import random
import time

from game.land_grab.bots.search import mcts
from game.land_grab.engine import FULL, Position, claims
from game.land_grab.notation import Move

__all__ = ["greedy_move", "random_move", "uct_move"]


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly. Raises ``ValueError`` when the game is over."""
    return rng.choice(_legal(position))


def greedy_move(position: Position, rng: random.Random) -> Move:
    """One move deep: a capture, else the move that leaves the mover's largest claim
    largest; ties at random. Raises ``ValueError`` when the game is over."""
    moves = _legal(position)
    captures = [move for move in moves if move.capture is not None]
    if captures:
        return rng.choice(captures)
    black_to_move = position._turn == 0
    values = []
    for move in moves:
        tiles = position.play(move).tiles
        own = claims(tiles if black_to_move else FULL ^ tiles)
        values.append(own[0] if own else 0)
    top = max(values)
    return rng.choice([move for move, value in zip(moves, values, strict=True) if value == top])


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
        widening=None,
        solver=False,
        plies=None,
    )[0]


def _legal(position: Position) -> list[Move]:
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return moves
