"""Monte Carlo tree search with a solver for Land Grab.

The tree is ``game.mcts``'s, as every game's; what it knows of Land Grab is
``policy``'s, handed to it by ``knowledge()``: the moves with their priors (captures
first, then flip moves, then shifts and drops), the cut-off playout, and a proof of
each position the tree adds (over, or lost for the side that moved into it when the
side to move can capture its last stone at once). The move played is the child with
the most visits, never one proven lost while another is not.

Ten thousand playouts a second: each iteration's playout is four plies on the
bitboards alone (``policy.playout``: no position is built, a side's flip moves are
one walk along its two stones' rays) before the evaluation, and the tree lists a
node's moves only on its second visit, so most leaves cost one ``play``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from game.land_grab.bots.policy import PLAYOUT_PLIES, playout, winning_move
from game.land_grab.engine import Position
from game.land_grab.notation import Move
from game.mcts import LOST, WON, Knowledge, Node, best_child, grow, search_move

__all__ = ["LOST", "WON", "Node", "best_child", "knowledge", "mcts", "search_tree", "tree_moves"]

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.5
# Weight of the prior (``tree_moves``) in the bound, fading as 1 / (visits + 1).
BIAS = 0.5
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children, the
# best-valued first; None lets every move in as soon as the node is visited.
WIDENING: float | None = 2.0


def tree_moves(position: Position) -> list[tuple[float, Move]]:
    """Every legal move with its prior, in the order the tree adds them, best last; []
    once the game is over: a capture 1, another flip move 0.5, a shift, drop or pass 0,
    and a small share of each target square so that no corner is favoured."""
    moves = position.moves()
    tiles = position.tiles
    # The mover's tiles are black's (bits set) when black moves: a target tile of the
    # other face is a flip.
    enemy_face = 0 if position._turn == 0 else 1
    found = []
    for move in moves:
        target = move.target
        if target is None:
            prior = 0.0
        elif move.capture is not None:
            prior = 1.0
        elif move.origin is not None and (tiles >> target & 1) == enemy_face:
            prior = 0.5
        else:
            prior = 0.0
        found.append((prior + 0.001 * (target or 0) / 64, move))
    found.sort(key=_prior)
    return found


def _prior(pair: tuple[float, Move]) -> float:
    return pair[0]


def knowledge(*, use_bias: bool = True, plies: int | None = PLAYOUT_PLIES) -> Knowledge:
    """What the tree (``game.mcts``) knows of Land Grab: the moves with their priors
    (``tree_moves``), or none unless ``use_bias``; the cut-off playout of ``plies``
    plies, or a uniformly random game to the end through the engine when ``plies`` is
    None; and the proofs."""

    def moves(position: Position) -> list[tuple[float, Move]]:
        if use_bias:
            return tree_moves(position)
        return [(0.0, move) for move in position.moves()]

    def black_result(position: Position, rng: random.Random) -> float:
        if plies is None:
            return _random_game(position, rng)
        return playout(position, rng, plies)

    return Knowledge(moves, black_result, _black_moved, _prove)


def _random_game(position: Position, rng: random.Random) -> float:
    """Black's result of a uniformly random game to the end, through the engine."""
    while not position.is_over:
        position = position.play(rng.choice(position.moves()))
    winner = position.winner
    return 0.5 if winner is None else 1.0 if position.result == "black" else 0.0


def _black_moved(position: Position) -> bool:
    return position._turn == 1


def _prove(position: Position) -> int:
    outcome = position.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        # The side that moved into it is the one not to move.
        return WON if outcome.winner is not position.turn else LOST
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
