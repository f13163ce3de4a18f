"""Monte Carlo tree search with progressive bias, and an exact endgame solver.

The search (UCT, Kocsis and Szepesvári 2006) grows a tree of positions from the one
to move in, one node per iteration: it walks down the tree choosing the child with
the best upper confidence bound, adds one child, plays the rest of the game with
random moves (a playout), and counts the result (win 1, tie ½, loss 0) in every
node on the way back up. A cheap evaluation of each move, the points it makes at
once (``move_values``), guides the tree while a child has few visits: progressive
bias (Chaslot et al. 2008) adds ``BIAS * value / (visits + 1)`` to the bound, and
children are tried in the order of their values. The move played is the child
with the most visits.

When few moves remain, ``solve`` searches to the end of the game with alpha-beta
on the result (win, tie, loss) and a transposition table, within a deadline, and
proves which move is best.

Playouts go through the engine's ``Position.play``. At about 10,000 playouts a
second on one core the opening search reaches some 5,000 playouts in a second.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from game.engine import PASS, Color, Move, Position, Stone

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.7
# Weight of the evaluation in the bound, fading as 1 / (visits + 1).
BIAS = 0.6
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


def playout(position: Position, rng: random.Random, samples: int) -> Position:
    """Play ``position`` to its end: at each move, draw ``samples`` legal moves at
    random and play the one that makes the most points at once (``move_values``,
    inlined for stones, which are almost every move).

    A handful of candidates keeps the playout cheap (it never scores the whole
    list) while its games look like play, not noise: a move that joins friendly
    stones beats a lonely one far more often than chance would have it.
    """
    rules = position.rules
    geometry = position._geometry
    masks = geometry.neighbour_masks
    edges = geometry.edge_sides if rules.scoring == "standard" and not rules.wraparound else None
    randrange = rng.randrange
    stone = Stone.STONE
    while True:
        legal = position.legal_moves()
        count = len(legal)
        if not count:
            return position
        if count == 1:
            position = position.play(legal[0])
            continue
        mine = position._dark if position._turn == 0 else position._light
        best = None
        best_value = -99
        for _ in range(samples):
            move = legal[randrange(count)]
            if move.stone is stone:
                square = move.square
                value = (masks[square] & mine).bit_count() + (edges[square] if edges else 0)
            else:
                value = move_values(position, [move])[0]
            if value > best_value:
                best, best_value = move, value
        position = position.play(best)


class Node:
    """A position in the tree. ``wins`` count for the side that moved into it."""

    __slots__ = ("bias", "children", "move", "position", "untried", "visits", "wins")

    def __init__(self, position: Position, move: Move | None, bias: float) -> None:
        self.position = position
        self.move = move
        self.bias = bias
        self.children: list[Node] = []
        self.untried: list[tuple[float, Move]] | None = None  # set on first visit
        self.visits = 0
        self.wins = 0.0

    def expand_order(self, use_bias: bool) -> list[tuple[float, Move]]:
        """The moves not yet in the tree, worst last: ``pop()`` takes the best."""
        moves = self.position.legal_moves()
        if not use_bias:
            return [(0.0, move) for move in moves]
        values = move_values(self.position, moves)
        ordered = sorted(zip(values, moves, strict=True), key=lambda pair: pair[0])
        return [(min(value, VALUE_SCALE) / VALUE_SCALE, move) for value, move in ordered]


def mcts(
    position: Position,
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    use_bias: bool = True,
    exploration: float = EXPLORATION,
    policy: int = PLAYOUT_SAMPLES,
    margin_weight: float = MARGIN_WEIGHT,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Move, int]:
    """The most visited move after ``playouts`` iterations or at ``deadline``; also
    the number of iterations run. Raises ``ValueError`` on a finished game."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    if len(moves) == 1:
        return moves[0], 0
    root = Node(position, None, 0.0)
    root.untried = root.expand_order(use_bias)
    bias_weight = BIAS if use_bias else 0.0
    log, sqrt, choice = math.log, math.sqrt, rng.choice
    iterations = 0
    while True:
        if playouts is not None and iterations >= playouts:
            break
        # At least one iteration, so that a late start still gives a searched move.
        if deadline is not None and iterations & 15 == 1 and clock() >= deadline:
            break
        iterations += 1
        node = root
        path = [root]
        # Selection: down through fully expanded nodes.
        while not node.untried and node.children:
            scale = exploration * sqrt(log(node.visits))
            best = None
            best_score = -1.0
            for child in node.children:
                visits = child.visits
                score = (
                    child.wins / visits
                    + scale / sqrt(visits)
                    + bias_weight * child.bias / (visits + 1)
                )
                if score > best_score:
                    best, best_score = child, score
            node = best
            path.append(node)
        # Expansion: one new child, the best-valued untried move.
        if node.untried:
            bias, move = node.untried.pop()
            child = Node(node.position.play(move), move, bias)
            child.untried = None
            node.children.append(child)
            node = child
            path.append(node)
        # Playout.
        current = node.position
        if node.untried is None:
            node.untried = node.expand_order(use_bias) if not current.is_over else []
        if policy > 1:
            current = playout(current, rng, policy)
        else:
            while True:
                legal = current.legal_moves()
                if not legal:
                    break
                current = current.play(choice(legal))
        dark, light = current.score()
        margin = dark - light
        dark_result = (0.5 if margin == 0 else 1.0 if margin > 0 else 0.0) * (
            1 - margin_weight
        ) + margin_weight * (
            0.5 + max(-MARGIN_SCALE, min(MARGIN_SCALE, margin)) / (2 * MARGIN_SCALE)
        )
        # Backpropagation: each node's wins are for the side that moved into it.
        for visited in path:
            visited.visits += 1
            if visited.move is not None:
                mover = visited.position.turn.opponent
                visited.wins += dark_result if mover is Color.DARK else 1.0 - dark_result
    best = max(root.children, key=lambda child: child.visits)
    return best.move, iterations


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

    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
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


__all__ = ["PASS", "mcts", "move_values", "outcome", "remaining_moves", "solve"]
