"""What Parking Lot's search knows of the game: the evaluation, the priors of turns,
and the playout policy. They work on the engine's bitboards (a position's anchors
and its side to move), not on positions; tests/parking_lot/test_bots.py checks that
the turns they play follow the rules as ``Position.play`` does.

The game is won by the largest block of a colour, so a turn is good as far as it
grows one's own block or keeps the other's apart. Between two players who both join
every piece to their block the game is drawn, 8 pieces to 8; it is won by leaving
the other side, at its last placements, no room beside its block: no pair of empty
squares, in its orientation, touching it. Those pairs are a block's **liberties**
(``liberties``), and the evaluation and the priors of the root's turns count them:
a side with few left is in danger, one with none at its last placement has lost a
piece from its block.

The playout policy plays the joining idea cheaply: the side to move places its
piece against one of its own pieces (``JOIN_SHARE`` of the time, when it can), else
anywhere it fits; then, half the time (``DRIVE_SHARE``), it picks one of its pieces
and, if that piece is free to drive and can reach a place against another of its
pieces, drives it there. After ``PLAYOUT_TURNS`` turns, or at the end of the game,
it stops: a finished game gives its result (1, ½ or 0 for blue), an unfinished one
the evaluation's chance for blue (``evaluate``: the largest groups, then the next
ones, and the liberties, compared). Each playout turn costs a few fills of the
board, so a playout is some tens of microseconds.
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
    "anchors_after",
    "JOIN_SHARE",
    "PLAYOUT_TURNS",
    "evaluate",
    "joining",
    "liberties",
    "move_prior",
    "move_value",
    "placement_moves",
    "playout",
    "policy_turn",
    "result",
]

# The playout policy: how often a placement joins one's own pieces when it can, how
# often a turn tries a drive, and how many turns a playout plays before it judges.
JOIN_SHARE = 0.85
DRIVE_SHARE = 0.5
PLAYOUT_TURNS = 4
# How sharply the evaluation's lead in pieces turns into a chance (a logistic).
SHARPNESS = 0.9
# What a block short of liberties weighs against a lead in pieces: a side's danger is
# 1 / (liberties + 1), a whole piece's lead at 8 for a block down to its last one
# against a block with plenty. Measured against the one-ply greedy player, 60 games
# at 0.25 s a move: weights of 8 and 16 scored 90–95%, the same search without
# the term 82.5% (its draws twice as many).
LIBERTY_WEIGHT = 8.0


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


def _lead(blue_groups: tuple[int, ...], red_groups: tuple[int, ...]) -> float:
    """Blue's lead in pieces with these groups (``groups``'s, largest first): in the
    largest groups, and a third of it in the next."""
    blue = [group.bit_count() >> 1 for group in blue_groups[:2]] + [0, 0]
    red = [group.bit_count() >> 1 for group in red_groups[:2]] + [0, 0]
    return (blue[0] - red[0]) + (blue[1] - red[1]) / 3


def liberties(block: int, empty: int, side: int) -> int:
    """The number of places a piece of ``side`` fits on ``empty`` squares touching its
    ``block`` (squares): where its next piece can join it."""
    return joining(_free(empty, side), block, side).bit_count()


def _standing(blue: int, red: int) -> float:
    """Blue's standing with these anchors, in pieces: its lead (``_lead``'s: largest
    groups, a third of the next) and its largest block's safety against red's, each
    block's danger ``1 / (liberties + 1)`` weighing ``LIBERTY_WEIGHT``."""
    blue_squares, red_squares = _cover(blue, 0), _cover(red, 1)
    empty = _FULL & ~(blue_squares | red_squares)
    blue_groups, red_groups = groups(blue_squares), groups(red_squares)
    danger = [
        1.0 / (liberties(found[0], empty, side) + 1) if found else 0.0
        for side, found in ((0, blue_groups), (1, red_groups))
    ]
    return _lead(blue_groups, red_groups) + LIBERTY_WEIGHT * (danger[1] - danger[0])


def evaluate(blue: int, red: int) -> float:
    """Blue's chance, 0 to 1, in a game with these anchors (blue's, red's): its
    standing (the lead of its largest group, a little of its next, and the liberties
    of each side's block), squashed by a logistic."""
    return 1.0 / (1.0 + math.exp(-SHARPNESS * _standing(blue, red)))


def result(blue: int, red: int, *, blue_sizes: tuple[int, ...] | None = None) -> float:
    """Blue's result, 1, ½ or 0, in a finished game with these anchors (``blue_sizes``:
    blue's group sizes, when already known)."""
    if blue_sizes is None:
        blue_sizes = _sizes(_cover(blue, 0))
    outcome = judge(blue_sizes, _sizes(_cover(red, 1)))
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
        return result(*pieces)
    return evaluate(*pieces)


def policy_turn(
    own: int,
    other: int,
    side: int,
    rng: random.Random,
    may_drive: bool = True,
    *,
    join_share: float = JOIN_SHARE,
) -> tuple[int, int, int, int]:
    """One turn of the playout policy for ``side``, whose anchors are ``own`` (the
    other side's ``other``): its anchors after the turn, and the turn as the anchors
    placed on, driven from and to (both -1 without a drive). ``may_drive`` is false
    on the last turn; ``join_share`` is how often the placement joins when it can."""
    random_ = rng.random
    span = _SPAN[side]
    own_squares = own | own << span
    occupied = own_squares | _cover(other, 1 - side)
    empty = _FULL & ~occupied
    free = empty & (empty >> span) & _ANCHORS[side]
    near = _near(own_squares)
    join = (near | near >> span) & free
    bit = _pick(join if join and random_() < join_share else free, rng)
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


# Each anchor's placement with each prior, made once: the tree lists some fifty at each
# node it grows, and making the pairs anew was a fifth of a search's time.
_PLACEMENTS = tuple(tuple((prior, Move(anchor)) for anchor in range(64)) for prior in (0.0, 1.0))


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
    for mask, placements in ((free & ~join, _PLACEMENTS[0]), (join, _PLACEMENTS[1])):
        while mask:
            low = mask & -mask
            found.append(placements[low.bit_length() - 1])
            mask ^= low
    return found


def anchors_after(position: Position, move: Move) -> list[int]:
    """Each side's anchors after ``move``."""
    pieces = list(position._pieces)
    side = position._turn
    pieces[side] |= 1 << move.place
    if move.origin is not None:
        pieces[side] ^= (1 << move.origin) | (1 << move.target)
    return pieces


def move_prior(position: Position, move: Move) -> float:
    """The mover's standing in pieces after ``move`` (``_standing``: the lead and the
    liberties), from the side to move's view: higher is better for the mover."""
    standing = _standing(*anchors_after(position, move))
    return standing if position._turn == 0 else -standing


def move_value(position: Position, move: Move) -> float:
    """Blue's lead in pieces (largest groups, then a third of the next) after ``move``,
    from the side to move's view: higher is better for the mover."""
    blue, red = anchors_after(position, move)
    lead = _lead(groups(_cover(blue, 0)), groups(_cover(red, 1)))
    return lead if position._turn == 0 else -lead
