"""Monte Carlo tree search with a solver for 7-4-1776.

The tree is ``game.mcts``'s, as every game's; what it knows of 7-4-1776 is
``policy``'s, handed to it by ``knowledge()``: the moves with their priors (a move
that leaves the other side behind on parity first, and among drops, for the side
ahead, those that fill a square where the other side's lone stones could be joined
by a slide; for the side behind, those that make a new lone stone), the cut-off
playout, and a proof of each position the tree adds (lost for the side that moved
into it when the side to move can fill the board at once). The move played is the
child with the most visits, never one proven lost while another is not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from game.mcts import LOST, WON, Knowledge, Node, best_child, grow, search_move
from game.seven_four.bots.policy import PLAYOUT_PLIES, playout, winning_move
from game.seven_four.engine import FULL, NEIGHBOURS, RAYS, Position, lone_stones, neighbours
from game.seven_four.notation import DROPS, SLIDES, Move

__all__ = ["LOST", "WON", "Node", "best_child", "knowledge", "mcts", "search_tree", "tree_moves"]

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.5
# Weight of the prior (``tree_moves``) in the bound, fading as 1 / (visits + 1).
BIAS = 0.5
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children, the
# best-valued first; None lets every move in as soon as the node is visited.
WIDENING: float | None = 1.5

# A small fixed share of each square, so that moves of one prior enter the tree in an
# order that favours no corner of the board.
_SHUFFLE = random.Random(1776).sample(range(100), 100)
_JITTER = tuple(0.001 * rank / 100 for rank in _SHUFFLE)
_SQUARES = range(100)


def tree_moves(position: Position) -> list[tuple[float, Move]]:
    """Every legal move with its prior, in the order the tree adds them, best last; []
    once the game is over.

    1 for a move that leaves the other side behind on parity (``policy``), 0 for
    one that does not, 2 for a move that fills the board. Drops of the side ahead that
    fill a square next to a lone stone of the other side (where its slides land) add
    0.3; drops of the side behind that make a lone stone add 0.3.
    """
    if position.is_over:
        return []
    blue, red = position.stones
    turn = position._turn
    own, other = (red, blue) if turn else (blue, red)
    occupied = blue | red
    count = 100 - occupied.bit_count()
    jitter = _JITTER
    if count & 1:
        base = 2.0 if count == 1 else 1.0
        better = neighbours(lone_stones(other))
    else:
        base = 0.0
        better = FULL & ~neighbours(own)
    found = [
        (base + (0.3 if better >> square & 1 else 0.0) + jitter[square], DROPS[square])
        for square in _SQUARES
        if not occupied >> square & 1
    ]
    lone = lone_stones(own)
    if lone & (lone - 1):
        rest = lone
        while rest:
            low = rest & -rest
            rest ^= low
            origin = low.bit_length() - 1
            near = neighbours(lone ^ low)
            lifted = occupied ^ low
            row = SLIDES[origin]
            for ray in RAYS[origin]:
                for target in ray:
                    if occupied >> target & 1:
                        break
                    if near >> target & 1:
                        left = count - (NEIGHBOURS[target] & ~lifted).bit_count()
                        value = 2.0 if not left else 0.0 if left & 1 else 1.0
                        found.append((value + jitter[target], row[target]))
    found.sort(key=_prior)
    return found


def _prior(pair: tuple[float, Move]) -> float:
    return pair[0]


def knowledge(*, use_bias: bool = True, plies: int | None = PLAYOUT_PLIES) -> Knowledge:
    """What the tree (``game.mcts``) knows of 7-4-1776: the moves with their priors
    (``tree_moves``), or none unless ``use_bias``; the cut-off playout of ``plies``
    plies, or a uniformly random game to the end when ``plies`` is None; and the
    proofs."""

    def moves(position: Position) -> list[tuple[float, Move]]:
        if use_bias:
            return tree_moves(position)
        return [(0.0, move) for move in position.moves()]

    def blue_result(position: Position, rng: random.Random) -> float:
        if plies is None:
            return _random_game(position, rng)
        return playout(position, rng, plies)

    return Knowledge(moves, blue_result, _blue_moved, _prove)


def _random_game(position: Position, rng: random.Random) -> float:
    """Blue's result of a uniformly random game to the end, through the engine."""
    while not position.is_over:
        position = position.play(rng.choice(position.moves()))
    return 1.0 if position._turn == 1 else 0.0


def _blue_moved(position: Position) -> bool:
    return position._turn == 1


def _prove(position: Position) -> int:
    if position.is_over:
        return WON  # whoever filled the board won
    return LOST if winning_move(position) is not None else 0


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
        whole_root=True,
        parent_shift=1,
        clock=clock,
    )


def mcts(position: Position, rng: random.Random, **options: Any) -> tuple[Move, int]:
    """The move to play after ``playouts`` iterations or at ``deadline``, and the number
    of iterations run: the only move at once, else the most visited move not proven
    lost (a proven win first). ``options`` are those of ``search_tree``. Raises
    ``ValueError`` on a finished game."""
    return search_move(position, rng, search_tree, best_child, listing=Position.moves, **options)
