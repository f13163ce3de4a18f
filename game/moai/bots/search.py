"""Monte Carlo tree search with a solver for Moai.

The tree is ``game.mcts``'s, as every game's; what it knows of Moai is ``policy``'s,
handed to it by ``knowledge()``: the moves with their priors (the room each leaves
the mover's Moai against the other's), the cut-off playout, and a proof of each
position the tree adds (lost for the side to move when his Moai is stuck, won for
him when he can trap the other Moai at once, as far as ``policy.winning_move``
looks). The move played is the child with the most visits, never one proven lost
while another is not.

Speed: the playouts never list the turns (``policy.random_turn`` draws one in a few
steps) and stop after ``PLAYOUT_PLIES`` turns; ``Position.play`` checks a turn along
two rays, not against the list of turns; a node lists its moves only on its second
visit. So the strongest level runs some ten thousand playouts in its second.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from game.mcts import LOST, WON, Knowledge, Node, best_child, grow, search_move
from game.moai.bots.policy import (
    PLAYOUT_PLIES,
    move_values,
    playout,
    valued_turns,
    winning_move,
)
from game.moai.engine import Position
from game.moai.notation import Move

__all__ = ["LOST", "WON", "Node", "best_child", "knowledge", "mcts", "search_tree", "tree_moves"]

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.4
# Weight of the prior in the bound, fading as 1 / (visits + 1).
BIAS = 0.5
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children.
WIDENING: float | None = 1.5


def tree_moves(position: Position) -> list[tuple[float, Move]]:
    """Every legal move with its prior (``policy.move_values``), in the order the tree
    adds them, best last; [] once the game is over."""
    if position.is_over:
        return []
    if position.is_placing:
        moves = position.moves()
        found = list(zip(move_values(position, moves), moves, strict=True))
    else:
        found = valued_turns(position)
    found.sort(key=_prior)
    return found


def _prior(pair: tuple[float, Move]) -> float:
    return pair[0]


def knowledge(*, use_bias: bool = True, plies: int | None = PLAYOUT_PLIES) -> Knowledge:
    """What the tree (``game.mcts``) knows of Moai: the moves with their priors
    (``tree_moves``), or none unless ``use_bias``; the cut-off playout of ``plies``
    quick turns, or a uniformly random game to the end when ``plies`` is None; and
    the proofs."""

    def moves(position: Position) -> list[tuple[float, Move]]:
        if use_bias:
            return tree_moves(position)
        return [(0.0, move) for move in position.moves()]

    def white_result(position: Position, rng: random.Random) -> float:
        if plies is None:
            return _random_game(position, rng)
        return playout(position, rng, plies)

    return Knowledge(moves, white_result, _white_moved, _prove)


def _random_game(position: Position, rng: random.Random) -> float:
    """White's result of a uniformly random game to the end, through the engine."""
    while not position.is_over:
        position = position.play_unchecked(rng.choice(position.moves()))
    return 1.0 if position._turn == 1 else 0.0


def _white_moved(position: Position) -> bool:
    return position._turn == 1


def _prove(position: Position) -> int:
    if position.is_over:
        return WON  # the side that moved into it trapped the other Moai
    return LOST if winning_move(position, pockets=False) is not None else 0


def search_tree(
    position: Position,
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    use_bias: bool = True,
    exploration: float = EXPLORATION,
    widening: float | None = WIDENING,
    solver: bool = True,
    plies: int | None = PLAYOUT_PLIES,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Node, int]:
    """The search tree of ``position`` after ``playouts`` iterations or at ``deadline``
    (or once the root is proven), and the number of iterations run. Without ``solver``
    no proof is used and without ``use_bias`` no prior (plain UCT, with ``plies``
    None for random playouts to the end)."""
    return grow(
        position,
        rng,
        knowledge(use_bias=use_bias, plies=plies),
        playouts=playouts,
        deadline=deadline,
        exploration=exploration,
        bias=BIAS if use_bias else 0.0,
        widening=widening,
        solver=solver,
        parent_shift=1,
        clock=clock,
    )


def mcts(position: Position, rng: random.Random, **options: Any) -> tuple[Move, int]:
    """The move to play after ``playouts`` iterations or at ``deadline``, and the number
    of iterations run: the only move at once, else the most visited move not proven
    lost (a proven win first). ``options`` are those of ``search_tree``. Raises
    ``ValueError`` on a finished game."""
    return search_move(position, rng, search_tree, best_child, listing=Position.moves, **options)
