"""Monte Carlo tree search with progressive bias and widening, and an exact endgame solver.

The search (UCT, Kocsis and Szepesvári 2006) grows a tree of positions from the one
to move in, one node per iteration: it walks down the tree choosing the child with
the best upper confidence bound, adds one child, plays the rest of the game out
(``playout``), and counts the result (win 1, tie ½, loss 0, plus a small share for
the margin) in every node on the way back up. The move played is the child with the
most visits. The tree is ``game.mcts``'s, as every game's; what it knows of
Mǽrstánas, the moves' values and the playout, is ``knowledge()``'s.

Prior knowledge comes from a cheap evaluation, the points a move makes at once
(``move_values``), in three ways. Progressive bias (Chaslot et al. 2008) adds
``BIAS * value / (visits + 1)`` to the bound, so it guides a child while its visits
are few. Progressive widening lets a node of n visits have only ``1 + WIDENING·√n``
children, the best-valued first: with forty-odd moves a position, a tree that tried
every move once before going deeper would stay one or two moves deep. And the
playouts draw a few candidate moves and play the best-valued one.

When few moves remain, ``solve`` searches to the end of the game with alpha-beta
on the result (win, tie, loss) and a transposition table, within a budget, and
proves which move is best.

Speed, measured on one core from the empty board (standard rules, ``make bench``):
``playout`` runs some 10,000 guided playouts a second, working on the engine's
bitboards; the whole search, tree included, some 7,400 iterations a second
(``Position.play`` playouts gave 4,400). The profile after that: the
playout two thirds, ``move_values`` for new nodes most of the rest.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from game.grid import (
    FULL,
    SQUARES,
    lister,
)

# The bitboards serve the playout, the hot loop.
from game.maerstanas.bitboards import THUNDER_BIT, WODEN_BIT, points
from game.maerstanas.engine import Position
from game.maerstanas.notation import PASS, Move, Stone
from game.mcts import Knowledge, Node, grow, search_move
from game.surface import (
    Color,
)
from game.thinking import most_visited, moves_to_choose

_square_list = lister(SQUARES)  # the squares of a mask's set bits, a row at a time
_NONE = (0,) * len(SQUARES)  # no scoring edges: simple scoring or wraparound

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.7
# Weight of the evaluation in the bound, fading as 1 / (visits + 1).
BIAS = 0.6
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children, the
# best-valued moves first, so that the search goes deeper than one or two moves
# among the forty-odd moves of a position.
WIDENING = 1.0
# Points a move makes at once are scaled by this into [0, 1] for the bias.
VALUE_SCALE = 8.0

WIN, TIE, LOSS = 1, 0, -1
# Part of a playout's reward that grows with the margin, up to MARGIN_SCALE points:
# many games are tied under good play, and a search that only counts results
# cannot tell a safe tie from a near win, so it would not press an advantage.
MARGIN_WEIGHT = 0.2
MARGIN_SCALE = 6
# Moves drawn at random for each move of a playout, the best-valued one played;
# 1 is uniformly random playouts.
PLAYOUT_SAMPLES = 3


def outcome(position: Position, color: Color) -> float:
    """The finished game's result for ``color``: 1 a win, 0.5 a tie, 0 a loss."""
    dark, light = position.score()
    if dark == light:
        return 0.5
    return 1.0 if (dark > light) == (color is Color.DARK) else 0.0


def move_values(position: Position, moves: list[Move]) -> list[float]:
    """How many points each move gains its side at once, minus what it costs the
    other side: a cheap evaluation, read off the board without playing the moves.

    A stone scores a hinge for each friendly neighbour and, under standard scoring
    on the flat board, each edge it touches; a Woden-stone also takes those hinges
    from the opponent; a thunder-stone takes away the hinges of what it clears.
    """
    mover = position.turn
    rules = position.rules
    geometry = position._geometry
    masks = geometry.neighbour_masks
    edges = geometry.edge_sides if rules.scoring == "standard" and not rules.wraparound else None
    mine = position._dark if mover is Color.DARK else position._light
    theirs = position._light if mover is Color.DARK else position._dark
    values = []
    for move in moves:
        square = move.square
        if square is None:
            values.append(0.0)
            continue
        near = masks[square]
        edge = edges[square] if edges else 0
        if move.stone is Stone.STONE:
            value = (near & mine).bit_count() + edge
        elif move.stone is Stone.WODEN:
            value = 2 * ((near & mine).bit_count() + edge) + (near & theirs).bit_count()
        else:  # thunder: the cleared stones' hinges go with them
            value = (
                edge
                + sum(_stone_hinges(n, masks, theirs, edges) for n in _squares(near & theirs))
                - sum(_stone_hinges(n, masks, mine, edges) for n in _squares(near & mine))
            )
        values.append(float(value))
    return values


def _stone_hinges(square: int, masks: tuple[int, ...], friends: int, edges) -> int:
    return (masks[square] & friends).bit_count() + (edges[square] if edges else 0)


def _squares(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def playout(position: Position, rng: random.Random, samples: int, *, uniform: bool = False) -> int:
    """Play ``position`` to its end and return dark's margin (dark's points minus light's).

    At each move, ``samples`` candidate moves are drawn and the one that gains its side
    the most points at once is played (the first drawn on a tie). A handful of
    candidates keeps the playout cheap (it never scores the whole list) while its
    games look like play, not noise: a move that joins friendly stones beats a lonely
    one far more often than chance would have it.

    A candidate is a normal stone on an open square, or one of the special stones in
    hand, each counted as a single candidate on a random square of its own: drawn
    like any of the forty-odd open squares early on, a special stone is seldom
    spent at the start and often at the end, when few squares are open and it is
    worth most. With ``uniform`` every legal move is one candidate instead (with
    ``samples=1``, a uniformly random playout, as plain UCT plays it).

    This is the search's hot loop, so it works on the engine's bitboards (the
    ``Position`` internals) instead of making a ``Position`` and a move list each
    ply; tests/maerstanas/test_bots.py checks that it follows the rules as ``Position.play`` does.
    """
    rules = position._rules
    geometry = position._geometry
    open_squares = geometry.open_squares
    masks = geometry.neighbour_masks
    edges = geometry.edge_sides if rules.scoring == "standard" and not rules.wraparound else _NONE
    random_ = rng.random
    dark, light, hand, turn = position._dark, position._light, position._hand, position._turn
    while True:
        occupied = dark | light
        stones = open_squares(occupied)
        mine, theirs = (light, dark) if turn else (dark, light)
        thunder = FULL ^ occupied if hand & THUNDER_BIT[turn] else 0
        woden = theirs if hand & WODEN_BIT[turn] else 0
        if not (stones or thunder or woden):
            # Only the opponent's special stones can move when ours cannot (RULES.md, Pass).
            other = 1 - turn
            if (hand & THUNDER_BIT[other] and occupied != FULL) or (
                hand & WODEN_BIT[other] and mine
            ):
                turn = other
                continue
            return points(dark, rules) - points(light, rules)
        squares = _square_list(stones)
        n_stones = len(squares)
        if uniform:
            n_thunder, n_woden = thunder.bit_count(), woden.bit_count()
        else:
            n_thunder, n_woden = (thunder != 0), (woden != 0)
        total = n_stones + n_thunder + n_woden
        best_pick = best_square = -1
        best_value = -99
        for _ in range(samples):
            pick = int(random_() * total)
            if pick < n_stones:
                square = squares[pick]
                # A stone gains a hinge for each friendly neighbour and scoring edge.
                value = (masks[square] & mine).bit_count() + edges[square]
            else:
                is_thunder = pick < n_stones + n_thunder
                targets = _square_list(thunder if is_thunder else woden)
                if uniform:
                    square = targets[pick - n_stones - (0 if is_thunder else n_thunder)]
                else:
                    square = targets[int(random_() * len(targets))]
                # Special stones are drawn seldom: count their points in full.
                new_mine, new_theirs = _special(mine, theirs, square, is_thunder, masks)
                value = (
                    points(new_mine, rules)
                    - points(mine, rules)
                    + points(theirs, rules)
                    - points(new_theirs, rules)
                )
            if value > best_value:
                best_pick, best_square, best_value = pick, square, value
        if best_pick < n_stones:
            mine |= 1 << best_square
        else:
            is_thunder = best_pick < n_stones + n_thunder
            mine, theirs = _special(mine, theirs, best_square, is_thunder, masks)
            hand &= ~(THUNDER_BIT if is_thunder else WODEN_BIT)[turn]
        dark, light = (theirs, mine) if turn else (mine, theirs)
        turn = 1 - turn


def _special(
    mine: int, theirs: int, square: int, is_thunder: bool, masks: tuple[int, ...]
) -> tuple[int, int]:
    """Both sides' stones after a thunder- or Woden-stone of ours on ``square``."""
    bit = 1 << square
    if is_thunder:
        keep = ~masks[square]
        return (mine & keep) | bit, theirs & keep
    return mine | bit, theirs ^ bit


def knowledge(
    *,
    use_bias: bool = True,
    policy: int = PLAYOUT_SAMPLES,
    uniform: bool = False,
    margin_weight: float = MARGIN_WEIGHT,
) -> Knowledge:
    """What the tree (``game.mcts``) knows of Mǽrstánas: the moves best-valued last,
    their points at once (``move_values``, scaled by ``VALUE_SCALE`` into [0, 1]) as
    priors unless not ``use_bias``, and ``playout``'s margin made a result for dark
    (win 1, tie ½, loss 0, with ``margin_weight`` of it for the margin)."""

    def moves(position: Position) -> list[tuple[float, Move]]:
        legal = position.legal_moves()
        if not use_bias:
            return [(0.0, move) for move in legal]
        values = move_values(position, legal)
        ordered = sorted(zip(values, legal, strict=True), key=lambda pair: pair[0])
        return [(min(value, VALUE_SCALE) / VALUE_SCALE, move) for value, move in ordered]

    def dark_result(position: Position, rng: random.Random) -> float:
        margin = playout(position, rng, policy, uniform=uniform)
        return (0.5 if margin == 0 else 1.0 if margin > 0 else 0.0) * (
            1 - margin_weight
        ) + margin_weight * (
            0.5 + max(-MARGIN_SCALE, min(MARGIN_SCALE, margin)) / (2 * MARGIN_SCALE)
        )

    return Knowledge(moves, dark_result, _dark_moved)


def _dark_moved(position: Position) -> bool:
    return position.turn is Color.LIGHT


def mcts(position: Position, rng: random.Random, **options: Any) -> tuple[Move, int]:
    """The most visited move after ``playouts`` iterations or at ``deadline``; also
    the number of iterations run. ``options`` are those of ``search_tree``. Raises
    ``ValueError`` on a finished game."""
    return search_move(position, rng, search_tree, most_visited, **options)


def search_tree(
    position: Position,
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    use_bias: bool = True,
    exploration: float = EXPLORATION,
    policy: int = PLAYOUT_SAMPLES,
    uniform: bool = False,
    widening: float | None = WIDENING,
    margin_weight: float = MARGIN_WEIGHT,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Node, int]:
    """The search tree of ``position`` after ``playouts`` iterations or at
    ``deadline``, and the number of iterations run (``mcts`` plays its most visited
    move; ``analysis`` reads its line and values)."""
    return grow(
        position,
        rng,
        knowledge(use_bias=use_bias, policy=policy, uniform=uniform, margin_weight=margin_weight),
        playouts=playouts,
        deadline=deadline,
        exploration=exploration,
        bias=BIAS if use_bias else 0.0,
        widening=widening,
        clock=clock,
    )


class _OutOfTime(Exception):
    pass


def solve(
    position: Position,
    deadline: float | None = None,
    *,
    nodes: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Move, int] | None:
    """A move proven best (win over tie over loss) and its value for the side to
    move (``WIN``, ``TIE``, ``LOSS``), or None if the proof is not done by
    ``deadline`` or within ``nodes`` positions searched (a budget that does not
    depend on the machine's speed, for repeatable levels).

    Alpha-beta over the three results, moves ordered by ``move_values``, with a
    transposition table of exact values and bounds (positions that reach the same
    board by different orders are searched once).
    """
    table: dict[Position, tuple[int, int]] = {}
    counter = [0]

    def negamax(pos: Position, alpha: int, beta: int) -> int:
        counter[0] += 1
        if counter[0] & 15 == 0 and (
            (deadline is not None and clock() >= deadline)
            or (nodes is not None and counter[0] >= nodes)
        ):
            raise _OutOfTime
        moves = pos.legal_moves()
        if not moves:
            dark, light = pos.score()
            diff = dark - light if pos.turn is Color.DARK else light - dark
            return (diff > 0) - (diff < 0)
        entry = table.get(pos)
        if entry is not None:
            low, high = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
            if alpha >= beta:
                return alpha
        original_alpha, original_beta = alpha, beta
        best = -2
        ordered = sorted(zip(move_values(pos, moves), moves, strict=True), key=lambda p: -p[0])
        for _, move in ordered:
            value = -negamax(pos.play(move), -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        low, high = entry if entry is not None else (-1, 1)
        if best <= original_alpha:
            table[pos] = (low, best)
        elif best >= original_beta:
            table[pos] = (best, high)
        else:
            table[pos] = (best, best)
        return best

    moves = moves_to_choose(position)
    ordered = sorted(zip(move_values(position, moves), moves, strict=True), key=lambda p: -p[0])
    try:
        best_move, best = ordered[0][1], -2
        for _, move in ordered:
            value = -negamax(position.play(move), -2, -best)
            if value > best:
                best_move, best = move, value
                if best == WIN:
                    break
    except _OutOfTime:
        return None
    return best_move, best


def remaining_moves(position: Position) -> int:
    """An upper bound on the moves left to play: open squares plus special stones."""
    stones, thunder, woden, _ = position._legal_masks()
    return stones.bit_count() + bool(thunder) + bool(woden) + bin(position._hand).count("1")


__all__ = [
    "PASS",
    "Node",
    "knowledge",
    "mcts",
    "move_values",
    "outcome",
    "remaining_moves",
    "search_tree",
    "solve",
]
