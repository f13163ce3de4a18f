"""What Parking Lot's search knows of the game: the evaluation, the priors of turns,
and the playout policy. They work on the engine's bitboards (a position's anchors
and its side to move), not on positions; tests/parking_lot/test_bots.py checks that
the turns they play follow the rules as ``Position.play`` does.

The game is won by the largest block of a colour, so a turn is good as far as it
grows one's own block or keeps the other's apart. The playout policy plays that
idea cheaply: the side to move places its piece against one of its own pieces
(``JOIN_SHARE`` of the time, when it can), else anywhere it fits; then, half the
time (``DRIVE_SHARE``), it picks one of its pieces and, if that piece is free to
drive and can reach a place against another of its pieces, drives it there. After
``PLAYOUT_TURNS`` turns, or at the end of the game, it stops: a finished game gives
its result (1, ½ or 0 for blue), an unfinished one the evaluation's chance for blue
(``evaluate``: the largest groups, then the next ones, compared). Each playout turn
costs a few fills of the board, so a playout is some tens of microseconds.
"""

from __future__ import annotations

import math
import random

from game.parking_lot.engine import (
    _ANCHORS,
    _FULL,
    _PIECE,
    _SPAN,
    _TOUCH,
    TURNS,
    Position,
    _cover,
    _free,
    _near,
    _reach,
    _sizes,
    groups,
    judge,
)
from game.parking_lot.notation import Move

__all__ = [
    "DRIVE_SHARE",
    "JOIN_SHARE",
    "PLAYOUT_TURNS",
    "evaluate",
    "joining",
    "move_value",
    "placement_moves",
    "playout",
    "policy_turn",
]

# The playout policy: how often a placement joins one's own pieces when it can, how
# often a turn tries a drive, and how many turns a playout plays before it judges.
JOIN_SHARE = 0.85
DRIVE_SHARE = 0.5
PLAYOUT_TURNS = 6
# How sharply the evaluation's lead in pieces turns into a chance (a logistic).
SHARPNESS = 0.9


def joining(free: int, own_squares: int, side: int) -> int:
    """Of the anchors ``free``, those where a piece of ``side`` would touch
    ``own_squares``: it would join their group."""
    near = _near(own_squares)
    return (near | near >> _SPAN[side]) & free


def _pick(mask: int, rng: random.Random) -> int:
    """A random square of ``mask`` (which is not empty), as a bit."""
    for _ in range(int(rng.random() * mask.bit_count())):
        mask &= mask - 1
    return mask & -mask


def _lead(blue_squares: int, red_squares: int) -> float:
    """Blue's lead in pieces: in the largest groups, and a third of it in the next."""
    blue = [group.bit_count() >> 1 for group in groups(blue_squares)[:2]] + [0, 0]
    red = [group.bit_count() >> 1 for group in groups(red_squares)[:2]] + [0, 0]
    return (blue[0] - red[0]) + (blue[1] - red[1]) / 3


def evaluate(blue: int, red: int) -> float:
    """Blue's chance, 0 to 1, in a game with these anchors (blue's, red's): the lead
    of its largest group, and a little of its next, squashed by a logistic."""
    lead = _lead(_cover(blue, 0), _cover(red, 1))
    return 1.0 / (1.0 + math.exp(-SHARPNESS * lead))


def _result(blue: int, red: int) -> float:
    outcome = judge(_sizes(_cover(blue, 0)), _sizes(_cover(red, 1)))
    return 1.0 if outcome.result == "blue" else 0.0 if outcome.result == "red" else 0.5


def playout(position: Position, rng: random.Random, *, turns: int | None = PLAYOUT_TURNS) -> float:
    """Play ``position`` on by the playout policy and return blue's result: 1 a win,
    ½ a draw, 0 a loss; or after ``turns`` turns the evaluation's chance for blue
    (``None``: play to the end)."""
    pieces = list(position._pieces)
    side = position._turn
    placed = pieces[0].bit_count() + pieces[1].bit_count()
    left = TURNS if turns is None else turns
    while placed < TURNS and left > 0:
        left -= 1
        placed += 1
        pieces[side] = policy_turn(pieces[side], pieces[1 - side], side, rng, placed < TURNS)[0]
        side = 1 - side
    if placed == TURNS:
        return _result(*pieces)
    return evaluate(*pieces)


def policy_turn(
    own: int, other: int, side: int, rng: random.Random, may_drive: bool = True
) -> tuple[int, int, int, int]:
    """One turn of the playout policy for ``side``, whose anchors are ``own`` (the
    other side's ``other``): its anchors after the turn, and the turn as the anchors
    placed on, driven from and to (both -1 without a drive). ``may_drive`` is false
    on the last turn."""
    random_ = rng.random
    span = _SPAN[side]
    own_squares = own | own << span
    occupied = own_squares | _cover(other, 1 - side)
    empty = _FULL & ~occupied
    free = empty & (empty >> span) & _ANCHORS[side]
    near = _near(own_squares)
    join = (near | near >> span) & free
    bit = _pick(join if join and random_() < JOIN_SHARE else free, rng)
    place = bit.bit_length() - 1
    before = own
    own |= bit
    own_squares |= bit | bit << span
    if before and may_drive and random_() < DRIVE_SHARE:
        car = _pick(before, rng)
        origin = car.bit_length() - 1
        piece = _PIECE[side][origin]
        if not _TOUCH[side][origin] & own_squares & ~piece:
            empty = _FULL & ~(own_squares | occupied)
            reach = _reach(car, _free(empty | piece, side))
            near = _near(own_squares & ~piece)
            ends = (near | near >> span) & reach
            if ends:
                end = _pick(ends, rng)
                return own ^ car ^ end, place, origin, end.bit_length() - 1
    return own, place, -1, -1


def placement_moves(position: Position) -> list[tuple[float, Move]]:
    """The placements alone (no drive), each with a prior: 1 for one that joins the
    side's own pieces, 0 for another; in the order the tree adds them, best last."""
    blue, red = position._pieces
    side = position._turn
    own, other = (blue, red) if side == 0 else (red, blue)
    own_squares = _cover(own, side)
    empty = _FULL & ~(own_squares | _cover(other, 1 - side))
    free = _free(empty, side)
    join = joining(free, own_squares, side) if own else 0
    found = []
    for bit_index, prior in ((free & ~join, 0.0), (join, 1.0)):
        mask = bit_index
        while mask:
            low = mask & -mask
            found.append((prior, Move(low.bit_length() - 1)))
            mask ^= low
    return found


def move_value(position: Position, move: Move) -> float:
    """Blue's lead in pieces (largest groups, then a third of the next) after ``move``,
    from the side to move's view: higher is better for the mover."""
    side = position._turn
    pieces = list(position._pieces)
    pieces[side] |= 1 << move.place
    if move.origin is not None:
        pieces[side] ^= (1 << move.origin) | (1 << move.target)
    lead = _lead(_cover(pieces[0], 0), _cover(pieces[1], 1))
    return lead if side == 0 else -lead
