"""Monte Carlo tree search for Parking Lot, on the shared tree (``game.mcts``).

A turn of Parking Lot is a placement and perhaps a drive: some fifty placements and
a thousand or more turns in the middle game. The tree could not list them all at
every node it grows and still search thousands of playouts a second, so it lists
them all only at the root, each with a prior from the mover's standing one ply deep
(``policy.move_prior``: the lead in pieces and the liberties of the blocks, squashed
to 0..1), and below the root only the placements without a drive
(``policy.placement_moves``: a prior of 1 for a placement that joins one's own
pieces). Progressive widening lets the root's best-valued turns in first (Chaslot et
al. 2008) and progressive bias leans the bound toward them. Drives below the root
are the playouts' (``policy.playout``), which drive a piece to join its group half
the time.

The last two turns are not searched but solved (``endgame``): blue's last turn, a
placement and a drive, against each of red's last placements, some fifty thousand
judgements of group sizes, a few milliseconds to a fraction of a second.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from game.mcts import Knowledge, Node, best_child, grow
from game.parking_lot.bots.policy import (
    PLAYOUT_TURNS,
    anchors_after,
    move_prior,
    placement_moves,
    playout,
    result,
)
from game.parking_lot.engine import _FULL, TURNS, Position, _cover, _free, _sizes
from game.parking_lot.notation import Move

__all__ = ["Node", "best_child", "endgame", "knowledge", "mcts", "root_moves", "search_tree"]

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.5
# Weight of the prior in the bound, fading as 1 / (visits + 1).
BIAS = 0.5
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children.
WIDENING = 1.5


def root_moves(position: Position) -> list[tuple[float, Move]]:
    """Every legal turn with its prior, the mover's standing one ply deep squashed to
    0..1, in the order the tree adds them: best last."""
    valued = [
        (1.0 / (1.0 + math.exp(-move_prior(position, move))), move)
        for move in position.legal_moves()
    ]
    valued.sort(key=lambda pair: pair[0])
    return valued


def knowledge(root: Position, *, turns: int | None = PLAYOUT_TURNS) -> Knowledge:
    """What the tree knows of a search from ``root``: every turn at the root, the
    placements below it; ``policy.playout`` for ``turns`` turns (to the end for None)."""

    def moves(position: Position) -> list[tuple[float, Move]]:
        if position.is_over:
            return []
        if position is root:
            return root_moves(position)
        return placement_moves(position)

    def blue_result(position: Position, rng: random.Random) -> float:
        return playout(position, rng, turns=turns)

    return Knowledge(moves, blue_result, _blue_moved, play=Position._after)


def _blue_moved(position: Position) -> bool:
    return position._turn == 1


def _after_red_replies(blue: int, red: int) -> float:
    """Blue's result after red's best last placement with these anchors."""
    blue_squares = _cover(blue, 0)
    blue_sizes = _sizes(blue_squares)
    free = _free(_FULL & ~(blue_squares | _cover(red, 1)), 1)
    worst = 1.0
    while free and worst > 0.0:
        low = free & -free
        free ^= low
        worst = min(worst, result(blue, red | low, blue_sizes=blue_sizes))
    return worst


def endgame(position: Position) -> Move | None:
    """The best turn of the game's last two, solved: red's last placement, or blue's
    last turn against red's best reply to it (the first of the best, in the order of
    ``legal_moves``); ``None`` earlier in the game."""
    placed = position._pieces[0].bit_count() + position._pieces[1].bit_count()
    if placed < TURNS - 2 or position.is_over:
        return None
    side = position._turn
    best, best_value = None, -1.0
    for move in position.legal_moves():
        pieces = anchors_after(position, move)
        value = 1.0 - result(*pieces) if side == 1 else _after_red_replies(*pieces)
        if value > best_value:
            best, best_value = move, value
            if value == 1.0:
                break
    return best


def search_tree(
    position: Position,
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    turns: int | None = PLAYOUT_TURNS,
    exploration: float = EXPLORATION,
    bias: float = BIAS,
    widening: float | None = WIDENING,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Node, int]:
    """The search tree of ``position`` after ``playouts`` iterations or at
    ``deadline``, and the number of iterations run (each one playout)."""
    return grow(
        position,
        rng,
        knowledge(position, turns=turns),
        playouts=playouts,
        deadline=deadline,
        exploration=exploration,
        bias=bias,
        widening=widening,
        clock=clock,
    )


def mcts(position: Position, rng: random.Random, **options: Any) -> tuple[Move, int]:
    """The most searched turn after the search (``search_tree``'s ``options``), and the
    number of iterations run; in the last two turns the solved turn (``endgame``), and
    no iteration. Raises ``ValueError`` on a finished game."""
    if position.is_over:
        raise ValueError("the game is over: there is no move to choose")
    solved = endgame(position)
    if solved is not None:
        return solved, 0
    root, iterations = search_tree(position, rng, **options)
    return best_child(root).move, iterations
