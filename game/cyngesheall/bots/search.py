"""Monte Carlo tree search with a solver for the kings' race.

The search (UCT, Kocsis and Szepesvári 2006) grows a tree of positions from the one
to move in, one node per iteration: it walks down the tree choosing the child with
the best upper confidence bound, adds one child, plays a few plies on from it
(``policy.playout``), and counts the result (win 1, draw ½, loss 0, or the
evaluation's chance when the playout stopped first) in every node on the way back
up. The move played is the child with the most visits. The tree is ``game.mcts``'s,
as every game's; what it knows of the game, the playouts, the evaluation and the
moves' priors, is ``policy``'s, handed to it by ``knowledge()``.

Cyngesheall is decided by single moves: a king one clear line from its goal corner,
or a king that can be sandwiched, wins or loses on the next ply. So the tree is an
MCTS-Solver (Winands, Björnsson and Saito 2008): a node whose side to move can win
at once (``winning_move``) is proven on the spot, a node with a proven winning child
is proven lost for the side that moved into it, one whose children are all proven
lost is proven won, and proofs climb the tree as they are found. The root never
plays a move proven to lose while another is not, and plays a proven win at once.

The priors (``move_values``) bias the bound, fading with visits. The levels search
only the root moves that a two-ply look does not condemn (``candidates``): Monte
Carlo search alone, at a tenth of a second, lost to that two-ply look (30%), as it
let captures two plies off slip through its widened tree.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from game.cyngesheall.bots.policy import (
    PLAYOUT_PLIES,
    evaluate,
    move_values,
    playout,
    winning_move,
)
from game.cyngesheall.engine import Position
from game.cyngesheall.notation import Move
from game.mcts import LOST, WON, Knowledge, Node, best_child, grow, search_move
from game.surface import (
    Color,
)
from game.thinking import moves_to_choose

__all__ = [
    "Node",
    "best_child",
    "candidates",
    "forced_win",
    "knowledge",
    "mcts",
    "search_tree",
    "shallow",
]

# --- The tree -----------------------------------------------------------------------

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.6
# Weight of the prior (``move_values``) in the bound, fading as 1 / (visits + 1).
BIAS = 1.0
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children, the
# best-valued first; None lets every move in as soon as the node is visited.
WIDENING: float | None = 2.0


def knowledge(
    *, use_bias: bool = True, guided: bool = True, plies: int | None = PLAYOUT_PLIES
) -> Knowledge:
    """What the tree (``game.mcts``) knows of Cyngesheall: the moves with their priors
    (``move_values``) best last, unless not ``use_bias``; ``policy.playout`` for
    ``plies`` (random to the end unless ``guided``); and a proof of each position
    the tree adds: won for the side that moved into it when it has taken the king or
    brought its own home, lost when the side to move wins at once."""

    def moves(position: Position) -> list[tuple[float, Move]]:
        legal = position.legal_moves()
        if not use_bias:
            return [(0.0, move) for move in legal]
        values = move_values(position, legal)
        return sorted(zip(values, legal, strict=True), key=lambda pair: pair[0])

    def dark_result(position: Position, rng: random.Random) -> float:
        return playout(position, rng, plies=plies, guided=guided)

    return Knowledge(moves, dark_result, _dark_moved, _prove)


def _dark_moved(position: Position) -> bool:
    return position._turn == 1


def _prove(position: Position) -> int:
    if position.is_over:
        if position.winner is not None:
            return WON if position.winner is not position.turn else LOST
        return 0
    return LOST if winning_move(position) is not None else 0


def mcts(position: Position, rng: random.Random, **options: Any) -> tuple[Move, int]:
    """The move to play after ``playouts`` iterations or at ``deadline``, and the number
    of iterations run: a proven win at once, else the most visited move not proven
    lost. ``options`` are those of ``search_tree``. Raises ``ValueError`` on a finished
    game."""
    return search_move(position, rng, search_tree, best_child, **options)


def search_tree(
    position: Position,
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    use_bias: bool = True,
    exploration: float = EXPLORATION,
    guided: bool = True,
    widening: float | None = WIDENING,
    solver: bool = True,
    plies: int | None = PLAYOUT_PLIES,
    moves: list[Move] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Node, int]:
    """The search tree of ``position`` after ``playouts`` iterations or at ``deadline``
    (or once the root is proven), and the number of iterations run. Without
    ``solver`` no proof is used (plain UCT); without ``guided`` the playouts are
    uniformly random and go to the end. With ``moves``, only those are searched at
    the root. The root's moves all enter the tree at once: each is checked for a win
    and for a reply that wins at once, which a widening root could leave untried."""
    return grow(
        position,
        rng,
        knowledge(use_bias=use_bias, guided=guided, plies=plies),
        playouts=playouts,
        deadline=deadline,
        exploration=exploration,
        bias=BIAS if use_bias else 0.0,
        widening=widening,
        solver=solver,
        whole_root=True,
        root_moves=moves,
        parent_shift=1,
        clock=clock,
    )


# --- Exact and shallow searches -----------------------------------------------------


def forced_win(position: Position, deadline: float | None = None) -> Move | None:
    """A move that wins within two of one's own moves whatever the reply (the enemy
    king taken, or one's own king home, now or next move), or None when there is none
    or ``deadline`` comes first. Replies that repeat a position are not special: the
    check is exact up to the third repetition, which cannot come so soon."""
    win = winning_move(position)
    if win is not None:
        return win
    moves = position.legal_moves()
    values = move_values(position, moves)
    for _, move in sorted(zip(values, moves, strict=True), key=lambda pair: -pair[0]):
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        after = position.play(move)
        if after.is_over:
            if after.winner is not None and after.winner is position.turn:
                return move
            continue
        if winning_move(after) is not None:
            continue
        for reply in after.legal_moves():
            again = after.play(reply)
            if again.is_over:
                if again.winner is not position.turn:
                    break
                continue
            if winning_move(again) is None:
                break
        else:
            return move
    return None


_WIN = 1000.0


def shallow(position: Position, rng: random.Random, noise: float = 0.05) -> Move:
    """The best move two plies deep (one's move and the reply) by ``evaluate``, a
    win counted at once at either ply and also one left for the next move (so, in
    effect, three plies deep for the kings' race); ties broken by ``noise``. Raises
    ``ValueError`` when the game is over."""
    moves = moves_to_choose(position)
    win = winning_move(position)
    if win is not None:
        return win
    me = position._turn
    values = move_values(position, moves)
    ordered = sorted(zip(values, moves, strict=True), key=lambda pair: -pair[0])
    best_move, best, best_tie = ordered[0][1], -3 * _WIN, 0.0
    for _, move in ordered:
        # A value at or below the bound passed may be a bound only (the replies were
        # cut short): it can tie only once it is above, where it is exact.
        value = _after_reply(position.play(move), me, best - noise)
        tie = rng.random()
        if value > best + noise or (value >= best - noise and tie > best_tie):
            best_move, best, best_tie = move, max(value, best), tie
    return best_move


def candidates(position: Position, margin: float = 0.5) -> list[Move]:
    """The moves worth searching: those whose value two plies deep (as ``shallow``
    counts it) is within ``margin`` stones of the best. A search among them cannot
    fall for a capture or a king's race that the two-ply look sees. Raises
    ``ValueError`` when the game is over."""
    moves = moves_to_choose(position)
    me = position._turn
    values = move_values(position, moves)
    ordered = [m for _, m in sorted(zip(values, moves, strict=True), key=lambda p: -p[0])]
    found = []
    best = -3 * _WIN
    for move in ordered:
        # Below the bound passed, a value may be a bound only: such moves are left out.
        value = _after_reply(position.play(move), me, best - margin)
        found.append(value)
        best = max(best, value)
    return [m for m, v in zip(ordered, found, strict=True) if v >= best - margin]


def _after_reply(after: Position, me: int, alpha: float) -> float:
    """The value for ``me`` of ``after`` (the other side to move) once the reply that
    is worst for ``me`` is played; stops early once it is no better than ``alpha``."""
    if after.is_over:
        return _end_value(after, me)
    if winning_move(after) is not None:
        return -_WIN
    worst = 2 * _WIN
    for reply in after.legal_moves():
        again = after.play(reply)
        if again.is_over:
            value = _end_value(again, me)
        elif winning_move(again) is not None:
            value = _WIN / 2
        else:
            value = evaluate(again._dark, again._light, again._kings, again._commanders, me)
        if value < worst:
            worst = value
            if worst <= alpha:
                break
    return worst


def _end_value(position: Position, me: int) -> float:
    if position.winner is None:
        return 0.0
    return (
        _WIN
        if position.winner is Color.DARK and me == 0 or (position.winner is Color.LIGHT and me == 1)
        else -_WIN
    )
