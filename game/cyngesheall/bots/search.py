"""Monte Carlo tree search with a solver for the kings' race, and the tables it plays on.

The search (UCT, Kocsis and Szepesvári 2006) grows a tree of positions from the one
to move in, one node per iteration: it walks down the tree choosing the child with
the best upper confidence bound, adds one child, plays a few plies on from it
(``playout``), and counts the result (win 1, draw ½, loss 0, or the evaluation's
chance when the playout stopped first) in every node on the way back up. The move
played is the child with the most visits.

Cyngesheall is decided by single moves: a king one clear line from its goal corner,
or a king that can be sandwiched, wins or loses on the next ply. So the tree is an
MCTS-Solver (Winands, Björnsson and Saito 2008): a node whose side to move can win
at once (``winning_move``) is proven on the spot, a node with a proven winning child
is proven lost for the side that moved into it, one whose children are all proven
lost is proven won, and proofs climb the tree as they are found. The root never
plays a move proven to lose while another is not, and plays a proven win at once.

The playouts are guided and short. Cyngesheall's random games are long (150 plies,
mostly drawn by the 60-ply rule) and say little, so each ply the side to move wins if
it can (its king home, or the enemy king taken), blocks the enemy king's clear line
home, takes a piece when it can (``CAPTURE_RATE`` of the time), and otherwise moves a
random piece to a random square, trying again (``SAFE_TRIES``) when the square is one
where it could be sandwiched; after ``PLAYOUT_PLIES`` plies (or at the 60-ply rule)
the evaluation (``evaluate``: material, the kings' steps from their goals, what the
side to move can take at once) judges the position. Measured in the arena at 0.1 s a
move against the two-ply search (``shallow``), playouts of 24 plies and of 6 lost
(37% and 35%) where 2 plies won: the evaluation knows more than random plies.

Priors come from ``move_values`` (what a move takes, how near it brings the king,
whether it can be taken back), as progressive bias (Chaslot et al. 2008). The levels
search only the root moves that a two-ply look does not condemn (``candidates``):
Monte Carlo search alone, at a tenth of a second, lost to that two-ply look (30%), as
it let captures two plies off slip through its widened tree.

Everything hot works on the engine's bitboards (``Position``'s ``_dark``, ``_light``,
``_kings``, ``_commanders``, ``_turn``), not on positions; tests/test_cyngesheall_bots.py
checks that it follows the rules as ``Position.play`` does.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from game.cyngesheall import engine
from game.cyngesheall.engine import BETWEEN, PINCERS, Position
from game.cyngesheall.notation import MOVES, Move
from game.cyngesheall.rules import QUIET_LIMIT
from game.grid import COL_A, FULL, NUM_SQUARES, SIZE, Color

__all__ = [
    "Node",
    "evaluate",
    "exposed",
    "forced_win",
    "immediate_win",
    "mcts",
    "move_values",
    "playout",
    "search_tree",
    "shallow",
    "winning_move",
]

# --- Tables ------------------------------------------------------------------------


def _plain(rays: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(square) for square in ray) for ray in rays if ray)


# The engine's rays from each square as plain ints, empty ones left out (they cost a
# loop for nothing): four for the rook's moves, then the commander's four diagonals.
ROOK_RAYS = tuple(_plain(rays) for rays in engine.ROOK_RAYS)
DIAGONAL_RAYS = tuple(_plain(rays[4:]) for rays in engine.QUEEN_RAYS)
QUEEN_RAYS = tuple(r + d for r, d in zip(ROOK_RAYS, DIAGONAL_RAYS, strict=True))
# Each side's goal: the corner its king races for (dark's G1, light's A7).
GOAL = (6, 42)
GOAL_BITS = (1 << 6, 1 << 42)
# For each square, which rook lines join it to each goal: the squares between (a
# mask), or None when it shares no row or column with it.
_LINE = tuple(
    tuple(
        None
        if sq == goal or (sq // SIZE != goal // SIZE and sq % SIZE != goal % SIZE)
        else BETWEEN[sq][goal]
        for sq in range(NUM_SQUARES)
    )
    for goal in GOAL
)
# How far each square is from each goal, in steps along rows and columns.
DISTANCE = tuple(
    tuple(abs(sq // SIZE - goal // SIZE) + abs(sq % SIZE - goal % SIZE) for sq in range(49))
    for goal in GOAL
)
_COL_B = COL_A << 1
_COL_F = COL_A << (SIZE - 2)
_COL_G = COL_A << (SIZE - 1)
_NOT_A = FULL ^ COL_A
_NOT_AB = FULL ^ COL_A ^ _COL_B
_NOT_G = FULL ^ _COL_G
_NOT_FG = FULL ^ _COL_F ^ _COL_G
_BITS = tuple(1 << sq for sq in range(NUM_SQUARES))


def _squares(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def capture_squares(own: int, victims: int) -> int:
    """The squares (empty or not) where a piece of ``own`` landing would sandwich one
    of ``victims`` against another piece of ``own``, in one of the four lines."""
    return (
        ((victims << SIZE) & (own << 2 * SIZE))  # the victim north of the square
        | ((victims >> SIZE) & (own >> 2 * SIZE))  # south
        | ((victims << 1) & _NOT_A & (own << 2) & _NOT_AB)  # west
        | ((victims >> 1) & _NOT_G & (own >> 2) & _NOT_FG)  # east
    ) & FULL


def reachers(target: int, own: int, occupied: int, commanders: int) -> list[int]:
    """The squares of the pieces of ``own`` that can move to the empty ``target``."""
    found = []
    for ray in ROOK_RAYS[target]:
        for sq in ray:
            if occupied >> sq & 1:
                if own >> sq & 1:
                    found.append(sq)
                break
    if own & commanders:
        for ray in DIAGONAL_RAYS[target]:
            for sq in ray:
                if occupied >> sq & 1:
                    if (own & commanders) >> sq & 1:
                        found.append(sq)
                    break
    return found


def immediate_win(dark: int, light: int, kings: int, commanders: int, turn: int) -> Move | None:
    """A move that wins at once for the side to move (``turn`` 0 dark, 1 light): its
    king home, else a capture of the enemy king; None when there is none."""
    own, other = (light, dark) if turn else (dark, light)
    occupied = dark | light
    king = own & kings
    if king:
        origin = king.bit_length() - 1
        line = _LINE[turn][origin]
        goal = GOAL[turn]
        if line is not None and not (line | GOAL_BITS[turn]) & occupied:
            return MOVES[origin][goal]
    enemy_king = other & kings
    if enemy_king:
        for target in _squares(capture_squares(own, enemy_king) & ~occupied):
            found = reachers(target, own, occupied, commanders)
            if found:
                return MOVES[found[0]][target]
    return None


def winning_move(position: Position) -> Move | None:
    """A move that wins ``position`` at once (king home, or the enemy king taken),
    or None; None too when the game is over."""
    if position.is_over:
        return None
    return immediate_win(
        position._dark, position._light, position._kings, position._commanders, position._turn
    )


def home_threat(own: int, occupied: int, kings: int, turn: int) -> int:
    """The squares of the clear line by which ``turn``'s king (``own & kings``) could
    reach its goal next move, goal included; 0 when it has none."""
    king = own & kings
    if not king:
        return 0
    line = _LINE[turn][king.bit_length() - 1]
    if line is None or (line | GOAL_BITS[turn]) & occupied:
        return 0
    return line | GOAL_BITS[turn]


# --- Evaluation ---------------------------------------------------------------------

# Material: a stone 1, the commander more, as it moves like a queen.
COMMANDER_VALUE = 2.5
# What a step of the king nearer its goal is worth, in stones.
KING_STEP = 0.3
# The share of what the side to move can take at once that the evaluation counts.
HANGING = 0.7


def evaluate(dark: int, light: int, kings: int, commanders: int, turn: int) -> float:
    """The position for the side to move, in stones (0 even): material, each king's
    steps from its goal, and a share (``HANGING``) of the most the side to move can
    take with its next move (a capture it would make before the other side answers)."""
    sides = (dark, light)
    value = 0.0
    for side in (0, 1):
        pieces = sides[side]
        stones = (pieces & ~kings & ~commanders).bit_count()
        material = stones + COMMANDER_VALUE * (pieces & commanders).bit_count()
        king = pieces & kings
        if king:
            material += KING_STEP * (12 - DISTANCE[side][king.bit_length() - 1])
        value += material if side == turn else -material
    own, other = sides[turn], sides[1 - turn]
    occupied = dark | light
    targets = capture_squares(own, other) & ~occupied
    if targets:
        best = 0.0
        for target in _squares(targets):
            if not reachers(target, own, occupied, commanders):
                continue
            taken = 0
            for near, beyond in PINCERS[target]:
                if other & near and own & beyond:
                    taken |= near
            gain = taken.bit_count() + (COMMANDER_VALUE - 1) * (taken & commanders).bit_count()
            if gain > best:
                best = gain
        value += HANGING * best
    return value


def _squash(value: float) -> float:
    """An evaluation in stones as a chance of winning, 0 to 1."""
    return 1.0 / (1.0 + math.exp(-value / 2.0))


def move_values(position: Position, moves: list[Move]) -> list[float]:
    """A quick value of each move, 0 to 1: a win 1; else what it captures, how far it
    brings its king towards its goal, less a share when it lands where it can be
    sandwiched (an enemy next to it, the square beyond empty)."""
    turn = position._turn
    dark, light, kings = position._dark, position._light, position._kings
    own, other = (light, dark) if turn else (dark, light)
    occupied = dark | light
    win = winning_move(position)
    threat = home_threat(other, occupied, kings, 1 - turn)
    distance = DISTANCE[turn]
    values = []
    for move in moves:
        if move is win:
            values.append(1.0)
            continue
        origin, target = move
        bit = _BITS[target]
        mine = own ^ _BITS[origin] ^ bit
        value = 0.3
        for near, beyond in PINCERS[target]:
            if other & near and mine & beyond:
                value += 0.2
        if kings >> origin & 1:
            value += 0.04 * (distance[origin] - distance[target])
        if threat and not (threat & bit):
            value -= 0.25  # the enemy king goes home unless this blocks it
        empty = FULL ^ (mine | other)
        for near, beyond in PINCERS[target]:
            if (other & near and empty & beyond) or (other & beyond and empty & near):
                value -= 0.1 if not kings >> origin & 1 else 0.2
                break
        values.append(min(max(value, 0.0), 0.95))
    return values


# --- Playouts ---------------------------------------------------------------------

# Share of the plies on which a playout takes a piece when it can.
CAPTURE_RATE = 0.9
# Draws of a random move before a square where it could be sandwiched is accepted.
SAFE_TRIES = 3
# Plies a playout runs before the evaluation judges it (the 60-ply rule may end it
# first); None plays to the end.
PLAYOUT_PLIES: int | None = 2


def playout(
    position: Position,
    rng: random.Random,
    *,
    plies: int | None = PLAYOUT_PLIES,
    guided: bool = True,
) -> float:
    """Play ``position`` on by the playout policy and return dark's result: 1 a win,
    ½ a draw, 0 a loss, or after ``plies`` plies the evaluation's chance for dark.
    With ``guided`` False every ply is a uniformly random legal move, to the end (plain
    UCT's playout). Repetitions are not counted; the 60-ply rule is."""
    dark, light = position._dark, position._light
    kings, commanders = position._kings, position._commanders
    turn, quiet = position._turn, position._quiet
    if position.is_over:
        result = position.result
        return 1.0 if result == "dark" else 0.0 if result == "light" else 0.5
    random_ = rng.random
    left = plies if plies is not None and guided else 1 << 30
    while True:
        if left <= 0:
            value = _squash(evaluate(dark, light, kings, commanders, turn))
            return value if turn == 0 else 1.0 - value
        left -= 1
        own, other = (light, dark) if turn else (dark, light)
        occupied = dark | light
        empty = FULL ^ occupied
        origin = target = -1
        if guided:
            win = immediate_win(dark, light, kings, commanders, turn)
            if win is not None:
                return 0.0 if turn else 1.0
            threat = home_threat(other, occupied, kings, 1 - turn)
            if threat:
                # Block the line (taking the king is not possible: it would have won).
                blocks = [
                    (sq, target)
                    for target in _squares(threat)
                    for sq in reachers(target, own, occupied, commanders)
                ]
                if not blocks:
                    return 1.0 if turn else 0.0
                origin, target = blocks[int(random_() * len(blocks))]
            elif random_() < CAPTURE_RATE:
                targets = _squares(capture_squares(own, other) & empty)
                if targets:
                    target = targets[int(random_() * len(targets))]
                    found = reachers(target, own, occupied, commanders)
                    if found:
                        origin = found[int(random_() * len(found))]
                    else:
                        target = -1
        if origin < 0:
            pieces = _squares(own)
            tries = SAFE_TRIES if guided else 1
            while True:
                index = int(random_() * len(pieces))
                origin = pieces[index]
                options = []
                for ray in QUEEN_RAYS[origin] if commanders >> origin & 1 else ROOK_RAYS[origin]:
                    for sq in ray:
                        if occupied >> sq & 1:
                            break
                        options.append(sq)
                if not options:
                    pieces[index] = pieces[-1]
                    pieces.pop()
                    if not pieces:
                        return 1.0 if turn else 0.0  # no move: the side to move loses
                    continue
                target = options[int(random_() * len(options))]
                if tries <= 1 or not exposed(target, other, occupied ^ _BITS[origin]):
                    break
                tries -= 1
        # Play origin-target on the bitboards, as Position.play does.
        origin_bit, target_bit = _BITS[origin], _BITS[target]
        own ^= origin_bit | target_bit
        if kings & origin_bit:
            kings ^= origin_bit | target_bit
            if target_bit & GOAL_BITS[turn]:
                return 0.0 if turn else 1.0
        elif commanders & origin_bit:
            commanders ^= origin_bit | target_bit
        captured = 0
        for near, beyond in PINCERS[target]:
            if other & near and own & beyond:
                captured |= near
        if captured:
            if kings & captured:
                return 0.0 if turn else 1.0
            other ^= captured
            commanders &= ~captured
            quiet = 0
        else:
            quiet += 1
            if quiet >= QUIET_LIMIT:
                return 0.5
        dark, light = (other, own) if turn else (own, other)
        turn = 1 - turn


def exposed(target: int, other: int, occupied: int) -> bool:
    """True when a piece on ``target`` has an enemy on one side and an empty square on
    the other, in a row or a column: it could be sandwiched next move."""
    return any(other & near and not occupied & beyond for near, beyond in PINCERS[target])


# --- The tree -----------------------------------------------------------------------

# Exploration constant of the confidence bound; results are in [0, 1].
EXPLORATION = 0.6
# Weight of the prior (``move_values``) in the bound, fading as 1 / (visits + 1).
BIAS = 1.0
# Progressive widening: a node of n visits has at most 1 + WIDENING·√n children, the
# best-valued first; None lets every move in as soon as the node is visited.
WIDENING: float | None = 2.0

WON, LOST = 1, -1  # proofs, for the side that moved into a node


class Node:
    """A position in the tree. ``wins`` count for the side that moved into it; so does
    ``proven``: ``WON``, ``LOST`` or 0 while unproven."""

    __slots__ = ("bias", "children", "move", "position", "proven", "untried", "visits", "wins")

    def __init__(self, position: Position, move: Move | None, bias: float) -> None:
        self.position = position
        self.move = move
        self.bias = bias
        self.children: list[Node] = []
        self.untried: list[tuple[float, Move]] | None = None  # listed on the second visit
        self.visits = 0
        self.wins = 0.0
        self.proven = 0
        if position.is_over:
            if position.winner is not None:
                self.proven = WON if position.winner is not position.turn else LOST
        elif winning_move(position) is not None:
            self.proven = LOST

    def expand_order(self, use_bias: bool) -> list[tuple[float, Move]]:
        """The moves not yet in the tree, best last, so that ``pop()`` takes it."""
        moves = self.position.legal_moves()
        if not use_bias:
            return [(0.0, move) for move in moves]
        values = move_values(self.position, moves)
        ordered = sorted(zip(values, moves, strict=True), key=lambda pair: pair[0])
        return ordered


def mcts(position: Position, rng: random.Random, **options: Any) -> tuple[Move, int]:
    """The move to play after ``playouts`` iterations or at ``deadline``, and the number
    of iterations run: a proven win at once, else the most visited move not proven
    lost. ``options`` are those of ``search_tree``. Raises ``ValueError`` on a finished
    game."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    if len(moves) == 1:
        return moves[0], 0
    root, iterations = search_tree(position, rng, **options)
    return best_child(root).move, iterations


def best_child(root: Node) -> Node:
    """The child to play: a proven win, else the most visited child not proven lost
    (or, when all are lost, the most visited one: the loss may take the longest)."""
    for child in root.children:
        if child.proven == WON:
            return child
    alive = [child for child in root.children if child.proven != LOST] or root.children
    return max(alive, key=lambda child: (child.visits, child.wins))


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
    the root."""
    root = Node(position, None, 0.0)
    # The root's moves all enter the tree at once: each is checked for a win and for
    # a reply that wins at once, which a widening root could leave untried.
    root.untried = []
    for bias, move in root.expand_order(use_bias):
        if moves is None or move in moves:
            root.children.append(Node(position.play(move), move, bias))
    if solver and any(child.proven == WON for child in root.children):
        return root, 0
    bias_weight = BIAS if use_bias else 0.0
    log, sqrt = math.log, math.sqrt
    iterations = 0
    while True:
        if playouts is not None and iterations >= playouts:
            break
        # At least one iteration, so that a late start still gives a searched move.
        if deadline is not None and iterations & 15 == 1 and clock() >= deadline:
            break
        if solver and root.proven:
            break
        iterations += 1
        node = root
        path = [root]
        result = -1.0  # dark's result, when a proof or the game's end gives it
        while True:
            if solver and node.proven:
                break
            if node.position.is_over:
                break
            if node.untried is None:
                # A node's moves are valued on its second visit: most leaves get one.
                node.untried = node.expand_order(use_bias)
            children = node.children
            if node.untried and (
                widening is None or len(children) < 1 + widening * sqrt(node.visits)
            ):
                bias, move = node.untried.pop()
                child = Node(node.position.play(move), move, bias)
                children.append(child)
                path.append(child)
                node = child
                break
            scale = exploration * sqrt(log(node.visits + 1))
            best_score = -1e9
            chosen = None
            for child in children:
                if solver and child.proven == LOST:
                    continue
                visits = child.visits
                if visits == 0:
                    score = 10.0 + child.bias
                else:
                    score = (
                        child.wins / visits
                        + scale / sqrt(visits)
                        + bias_weight * child.bias / (visits + 1)
                    )
                if score > best_score:
                    chosen, best_score = child, score
            if chosen is None:  # every child is lost (the solver marks it below)
                break
            node = chosen
            path.append(node)
        if solver and node.proven:
            mover_dark = node.position._turn == 1
            won = node.proven == WON
            result = 1.0 if won == mover_dark else 0.0
        elif node.position.is_over:
            result = (
                1.0
                if node.position.result == "dark"
                else 0.0
                if node.position.result == "light"
                else 0.5
            )
        else:
            result = playout(node.position, rng, plies=plies, guided=guided)
        # Backpropagation, proving on the way: each node's wins are for the side that
        # moved into it.
        for visited in reversed(path):
            visited.visits += 1
            if visited.move is not None:
                mover_dark = visited.position._turn == 1
                visited.wins += result if mover_dark else 1.0 - result
            if solver and not visited.proven and visited.children:
                if any(child.proven == WON for child in visited.children):
                    visited.proven = LOST
                elif (
                    visited.untried is not None
                    and not visited.untried
                    and all(child.proven == LOST for child in visited.children)
                ):
                    visited.proven = WON
    return root, iterations


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
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
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
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
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
