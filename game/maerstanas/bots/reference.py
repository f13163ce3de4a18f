"""Reference players the arena measures the levels against.

- ``random``: any legal move.
- ``heuristic``: the weighted heuristic of the game author's computer player,
  one move deep: the legal move with the highest weight, ties at random.
- ``aelfric``: the author's "Aelfric", done right: ten playouts in which every
  move is drawn with probability proportional to its weight; the first move of
  the playout that ends best for the side to move (result, then margin) is played.
- ``uct``: plain UCT, uniformly random playouts, no evaluation, no solver, for
  a given time.

The weights (the author's): a corner 8, an edge 4, 3 for each friendly
neighbour and 1 for each opposing one; a Woden-stone 1 more; a thunder-stone 2
more, then 1 less for each opposing stone it clears and 1 more for each friendly.
"""

from __future__ import annotations

import random
import time

from game.maerstanas.bots.search import mcts
from game.maerstanas.engine import Position
from game.maerstanas.notation import Move, Stone
from game.surface import (
    Color,
)
from game.thinking import moves_to_choose


def weight(position: Position, move: Move) -> int:
    """The author's weight of ``move`` in ``position`` (at least 1, a pass 1)."""
    if move.square is None:
        return 1
    geometry = position._geometry
    near = geometry.neighbour_masks[move.square]
    mine, theirs = (
        (position._dark, position._light)
        if position.turn is Color.DARK
        else (position._light, position._dark)
    )
    edges = 0 if geometry.wraparound else geometry.edge_sides[move.square]
    value = 8 if edges == 2 else 4 if edges == 1 else 0
    if move.stone is Stone.THUNDER:
        value += 2 - (near & theirs).bit_count() + (near & mine).bit_count()
    else:
        value += 3 * (near & mine).bit_count() + (near & theirs).bit_count()
        if move.stone is Stone.WODEN:
            value += 1
    return max(value, 1)


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly. Raises ``ValueError`` when the game is over."""
    return rng.choice(moves_to_choose(position))


def heuristic_move(position: Position, rng: random.Random) -> Move:
    """The legal move of the highest ``weight``, ties at random. Raises ``ValueError``
    when the game is over."""
    moves = moves_to_choose(position)
    weights = [weight(position, move) for move in moves]
    top = max(weights)
    return rng.choice([m for m, w in zip(moves, weights, strict=True) if w == top])


def weighted_move(position: Position, rng: random.Random) -> Move:
    """A move drawn with probability proportional to its weight. Raises ``ValueError``
    when the game is over."""
    moves = moves_to_choose(position)
    return rng.choices(moves, weights=[weight(position, move) for move in moves])[0]


def aelfric_move(position: Position, rng: random.Random, playouts: int = 10) -> Move:
    """The first move of the best-ending of ``playouts`` weighted playouts (best for the
    side to move: its result, then its margin; the earliest on a tie). Raises
    ``ValueError`` when the game is over."""
    moves = moves_to_choose(position)
    if len(moves) == 1:
        return moves[0]
    me = position.turn
    best_move, best_key = moves[0], None
    for _ in range(playouts):
        first = weighted_move(position, rng)
        current = position.play(first)
        while not current.is_over:
            current = current.play(weighted_move(current, rng))
        dark, light = current.score()
        margin = dark - light if me is Color.DARK else light - dark
        key = ((margin > 0) - (margin < 0), margin)
        if best_key is None or key > best_key:
            best_move, best_key = first, key
    return best_move


def uct_move(position: Position, rng: random.Random, seconds: float) -> Move:
    """Plain UCT for ``seconds``: the bound mean + C·√(ln N / n) with C = 1 (UCB1's √2
    is the bound for any rewards in [0, 1]; a smaller C is the usual, fairer setting
    for game trees), every move tried once before any twice, uniformly random
    playouts, win 1, tie ½, loss 0, no evaluation, no solver; the most visited move.
    Raises ``ValueError`` when the game is over."""
    deadline = time.perf_counter() + seconds
    return mcts(
        position,
        rng,
        deadline=deadline,
        use_bias=False,
        exploration=1.0,
        policy=1,
        uniform=True,
        widening=None,
        margin_weight=0.0,
    )[0]
