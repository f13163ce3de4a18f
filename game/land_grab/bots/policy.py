"""What the Land Grab search knows of the game: the evaluation, the moves' priors
and the cut-off playouts. Engine only, no Django.

A game is scored by the claims, largest first, unless one side captures both of the
other's stones; so a position is judged by the difference of the two largest claims
of each side and, far more, by the stones each side has left.

- ``evaluate``: black's chances from the claims and the stones;
- ``winning_move``: a capture of the other side's last stone, which wins at once;
- ``playout``: ``PLAYOUT_PLIES`` plies of a cheap policy on the bitboards (a capture
  when there is one, else a flip move at random; a side without a flip skips its
  turn, as a shift changes no tile), then the evaluation: a cut-off playout, so that
  the search reaches ten thousand playouts a second in Python.
"""

from __future__ import annotations

import math
import random

from game.land_grab.engine import (
    FULL,
    WALKS,
    Position,
    claim_of,
    claims,
    squares_of,
)
from game.land_grab.notation import Move

__all__ = [
    "PLAYOUT_PLIES",
    "evaluate",
    "flips",
    "playout",
    "winning_move",
]

# Plies played before the evaluation judges a playout.
PLAYOUT_PLIES = 4
# A stone more is worth this many tiles of the largest claim.
STONE = 6.0
# How many tiles of advantage make the chances about three to one.
SCALE = 5.0


def flips(own: int, enemy: int, enemy_tiles: int) -> list[tuple[int, int, int]]:
    """The flip moves of the stones ``own``, as (origin, target, the square of the
    stone it captures or -1): the engine's ``flip_moves`` without building moves."""
    occupied = own | enemy
    guarded = claim_of(enemy, enemy_tiles)
    found = []
    for origin in squares_of(own):
        for walk in WALKS[origin]:
            for target, bit, beyond in walk:
                if occupied & bit:
                    break
                if enemy_tiles & bit:
                    if beyond >= 0 and enemy >> beyond & 1:
                        found.append((origin, target, beyond))
                    elif not guarded & bit:
                        found.append((origin, target, -1))
    return found


def winning_move(position: Position) -> Move | None:
    """A capture of the other side's last stone, which wins at once, or None (also
    once the game is over or during the drops)."""
    if position.is_over or position.is_dropping:
        return None
    black, white = position.stones
    enemy = black if position._turn else white
    if enemy & (enemy - 1):
        return None
    for move in position.moves():
        if move.capture is not None:
            return move
    return None


def evaluate(tiles: int, black: int, white: int) -> float:
    """Black's chances, 0 to 1: the largest claims of each side compared (the second
    counting a third as much) and the stones each has left."""
    mine = claims(tiles) + [0, 0]
    theirs = claims(FULL ^ tiles) + [0, 0]
    lead = mine[0] - theirs[0] + (mine[1] - theirs[1]) / 3
    lead += STONE * (black.bit_count() - white.bit_count())
    return 1.0 / (1.0 + math.exp(-lead / SCALE))


def playout(position: Position, rng: random.Random, plies: int = PLAYOUT_PLIES) -> float:
    """Black's result of ``plies`` plies of the cheap policy from ``position``: 1, 0 or
    ½ for a game that is over, else the evaluation of where it stopped."""
    outcome = position.outcome()
    if outcome is not None:
        winner = outcome.winner
        return 0.5 if winner is None else 1.0 if winner.value == "dark" else 0.0
    tiles = position.tiles
    black, white = position.stones
    turn = position._turn
    if position.is_dropping:
        return evaluate(tiles, black, white)
    random_ = rng.random
    for _ in range(plies):
        if turn:
            own, enemy, enemy_tiles = white, black, tiles
        else:
            own, enemy, enemy_tiles = black, white, FULL ^ tiles
        found = flips(own, enemy, enemy_tiles)
        if found:
            captures = [move for move in found if move[2] >= 0]
            origin, target, taken = (
                captures[int(random_() * len(captures))]
                if captures
                else found[int(random_() * len(found))]
            )
            own ^= 1 << origin | 1 << target
            tiles ^= 1 << target
            if taken >= 0:
                enemy ^= 1 << taken
                if not enemy:
                    return 1.0 if turn == 0 else 0.0
            if turn:
                white, black = own, enemy
            else:
                black, white = own, enemy
        turn ^= 1
    return evaluate(tiles, black, white)
