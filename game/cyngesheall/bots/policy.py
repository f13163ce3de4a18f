"""What Cyngesheall's search knows of the game: the tables it plays on, the evaluation,
the priors of moves and the playout policy. The tree (``search``) asks these of each
position it adds; they work on the engine's bitboards (``Position``'s ``_dark``,
``_light``, ``_kings``, ``_commanders``, ``_turn``), not on positions, and
tests/cyngesheall/test_bots.py checks that they follow the rules as ``Position.play`` does.

The playouts are guided and short. Cyngesheall's random games are long (150 plies,
mostly drawn by the 60-ply rule) and say little, so each ply the side to move wins if
it can (its king home, or the enemy king taken), blocks the enemy king's clear line
home, takes a piece when it can (``CAPTURE_RATE`` of the time), and otherwise moves a
random piece to a random square, trying again (``SAFE_TRIES``) when the square is one
where it could be sandwiched; after ``PLAYOUT_PLIES`` plies (or at the 60-ply rule)
the evaluation (``evaluate``: material, the kings' steps from their goals, what the
side to move can take at once) judges the position. Measured in the arena at 0.1 s a
move against the two-ply search (``search.shallow``), playouts of 24 plies and of 6
lost (37% and 35%) where 2 plies won: the evaluation knows more than random plies.

Priors come from ``move_values`` (what a move takes, how near it brings the king,
whether it can be taken back), as progressive bias (Chaslot et al. 2008).
"""

from __future__ import annotations

import math
import random

from game.cyngesheall import engine
from game.cyngesheall.engine import BETWEEN, PINCERS, Position
from game.cyngesheall.notation import MOVES, Move
from game.cyngesheall.rules import QUIET_LIMIT
from game.grid import (
    COL_A,
    FULL,
    NUM_SQUARES,
    SIZE,
)

__all__ = [
    "capture_squares",
    "evaluate",
    "exposed",
    "home_threat",
    "immediate_win",
    "move_values",
    "playout",
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
