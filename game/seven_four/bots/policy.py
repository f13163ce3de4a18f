"""What the 7-4-1776 search knows of the game: the parity of the empty squares, the
evaluation built on it, the moves' priors and the playouts. Engine only, no Django.

The game is a race for parity. Whoever fills the last square wins, a drop fills one
square and a slide fills at least one, so if nobody slid again, the side to move
would win exactly when an odd number of squares is empty. A slide that fills an even
number of squares hands the other side the parity it had, so the side that is
behind on parity lives by its slides (two lone stones, and a landing square next to
one of them), and the side ahead by keeping the other from sliding.

- ``evaluate``: blue's chances from the parity and how much sliding the side
  behind has left in it (its lone stones, and the empty squares where a drop would
  make one);
- ``move_values``: a move's prior, 1 when it leaves the other side behind on
  parity, else 0;
- ``playout``: ``PLAYOUT_PLIES`` plies of a cheap policy (the side behind plays a
  slide that wins the parity back when it finds one, else everyone drops at
  random), then the evaluation: a cut-off playout, so that the search reaches
  thousands of playouts a second in Python.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from game.seven_four.engine import FULL, NEIGHBOURS, RAYS, Position, lone_stones, neighbours
from game.seven_four.notation import DROPS, SLIDES, Move

__all__ = [
    "PLAYOUT_PLIES",
    "evaluate",
    "move_values",
    "playout",
    "slides",
    "winning_move",
]

# Plies played before the evaluation judges a playout.
PLAYOUT_PLIES = 4


def slides(own: int, occupied: int) -> Iterator[tuple[int, int, int]]:
    """Every slide of the side whose stones are ``own``: (origin, target, the squares
    it fills, the one just left among them when it is next to the landing square)."""
    lone = lone_stones(own)
    if not lone & (lone - 1):
        return
    rest = lone
    while rest:
        low = rest & -rest
        rest ^= low
        origin = low.bit_length() - 1
        near = neighbours(lone ^ low)
        lifted = occupied ^ low
        for ray in RAYS[origin]:
            for target in ray:
                if occupied >> target & 1:
                    break
                if near >> target & 1:
                    yield origin, target, NEIGHBOURS[target] & ~lifted


def winning_move(position: Position) -> Move | None:
    """A move that fills the board, so wins at once, or None (also once it is over)."""
    if position.is_over:
        return None
    blue, red = position.stones
    occupied = blue | red
    empty = FULL & ~occupied
    if not empty & (empty - 1):
        return DROPS[empty.bit_length() - 1]
    if empty.bit_count() > 9:  # a slide fills at most the eight squares around it
        return None
    own = red if position._turn else blue
    for origin, target, filled in slides(own, occupied):
        if filled | 1 << target == empty | 1 << origin:
            return SLIDES[origin][target]
    return None


def evaluate(blue: int, red: int, turn: int) -> float:
    """Blue's chances, 0 to 1, with ``turn`` (0 blue, 1 red) to move: the side ahead on
    parity is favoured, the less so the more the side behind may still slide."""
    occupied = blue | red
    empty = FULL & ~occupied
    count = empty.bit_count()
    if not count:
        return 0.0 if turn == 0 else 1.0  # the side to move has lost
    ahead = turn if count & 1 else 1 - turn
    behind = (red, blue)[ahead]
    lone = lone_stones(behind).bit_count()
    # Squares where a drop makes a lone stone of the side behind.
    room = (empty & ~neighbours(behind)).bit_count()
    sure = 0.45 / (1.0 + 0.35 * max(lone - 1, 0) + 0.04 * room)
    chance = 0.5 + sure
    return chance if ahead == 0 else 1.0 - chance


def move_values(position: Position, moves: list[Move]) -> list[float]:
    """Each move's prior: 1 when it leaves the other side an even number of empty
    squares (behind on parity), else 0; a move that fills the board, 2."""
    blue, red = position.stones
    occupied = blue | red
    count = 100 - occupied.bit_count()
    values = []
    for move in moves:
        target, origin = move
        if origin is None:
            left = count - 1
        else:
            left = count - (NEIGHBOURS[target] & ~(occupied ^ 1 << origin)).bit_count()
        values.append(2.0 if not left else 0.0 if left & 1 else 1.0)
    return values


def playout(position: Position, rng: random.Random, plies: int = PLAYOUT_PLIES) -> float:
    """Blue's result of ``plies`` plies of the cheap policy from ``position``: 1 or 0 when
    the board fills, else the evaluation of where it stopped."""
    blue, red = position.stones
    turn = position._turn
    randrange = rng.randrange
    for _ in range(plies):
        occupied = blue | red
        empty = FULL & ~occupied
        if not empty:
            return 0.0 if turn == 0 else 1.0
        count = empty.bit_count()
        own = red if turn else blue
        moved = False
        if not count & 1:
            # Behind on parity: a slide that fills an even number of squares wins it back.
            for origin, target, filled in slides(own, occupied):
                if not filled.bit_count() & 1:
                    own = own ^ 1 << origin | 1 << target | filled
                    moved = True
                    break
        if not moved:
            if count == 1:
                square = empty.bit_length() - 1
            else:
                square = randrange(100)
                while occupied >> square & 1:
                    square = randrange(100)
            own |= 1 << square
        if turn:
            red = own
        else:
            blue = own
        turn = 1 - turn
    if blue | red == FULL:
        return 0.0 if turn == 0 else 1.0
    return evaluate(blue, red, turn)
