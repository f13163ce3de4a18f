"""The Parking Lot computer players: a ladder of levels, weakest first. Engine only,
no Django.

Each level is a way of choosing a turn (``choose_move``):

- the lowest, the learner, plays any legal turn at random;
- the commuter plays the playouts' turn (``policy.policy_turn``), parking against
  its own cars seven times in ten when it can and sometimes driving a car to join
  them;
- the valet plays the turn that leaves the best groups one ply deep
  (``policy.move_value``: the lead of its largest group, and a third of the next's),
  ties broken at random: the arena's ``greedy`` player;
- the strongest, the attendant, searches with Monte Carlo tree search for a second
  (``search.mcts``) and solves the last two turns.

Parking Lot between two players who join every car is a draw, eight to eight: two
searches, at one second and at 1,500 playouts (a quarter of it), drew 40 games of
40, and the search against a one-ply player that counts liberties
(``policy.move_prior``) 39 of 40. A ladder of searches would have no steps; each
level here instead makes the mistakes of the one above it less often (the figures
in README, ``make arena``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.parking_lot.bots import policy, search
from game.parking_lot.engine import Position
from game.parking_lot.notation import Move
from game.thinking import find_level, play_level, search_budget

__all__ = ["LEVELS", "LEVEL_IDS", "STRONGEST", "Level", "choose_move", "level"]


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder, as the site shows it and as ``choose_move`` plays it."""

    id: str
    name: str
    description: str
    seconds: float  # how long a turn takes on one core, about: the site's "thinking" time
    kind: str  # "random", "joiner", "greedy" or "search"
    playouts: int | None = None  # the search's budget, when counted in playouts


LEVELS: tuple[Level, ...] = (
    Level(
        "learner",
        "Learner",
        "Parks wherever there is room and drives about at random.",
        0.01,
        "random",
    ),
    Level(
        "commuter",
        "Commuter",
        "Parks next to its own cars most of the time, and now and then drives one over.",
        0.01,
        "joiner",
    ),
    Level(
        "valet",
        "Valet",
        "Parks where its own block grows most and yours least, looking only at the turn in hand.",
        0.05,
        "greedy",
    ),
    Level(
        "attendant",
        "Attendant",
        "Knows every space in the lot: thinks for a full second before each turn.",
        1.0,
        "search",
    ),
)
LEVEL_IDS: tuple[str, ...] = tuple(level.id for level in LEVELS)
STRONGEST: Level = LEVELS[-1]


def level(level_id: str | Level) -> Level:
    """The level with this id. Raises ``KeyError`` for an unknown one."""
    return find_level(LEVELS, level_id)


def choose_move(
    position: Position,
    level_id: str | Level,
    *,
    seconds: float | None = None,
    seed: int | None = None,
) -> Move:
    """The turn ``level_id`` plays in ``position``.

    ``seconds`` makes a searching level think for that long instead of its
    playouts. With a ``seed`` and a level that is not timed, the same turn comes
    back every time. Raises ``ValueError`` when the game is over and ``KeyError``
    for an unknown level.
    """
    return play_level(LEVELS, level_id, position, _choose, seconds=seconds, seed=seed)


def _choose(
    position: Position,
    chosen: Level,
    moves: list[Move],
    rng: random.Random,
    started: float,
    budget: float | None,
) -> Move:
    if chosen.kind == "random":
        return rng.choice(moves)
    if chosen.kind == "joiner":
        return joiner(position, rng)
    if chosen.kind == "greedy":
        return greedy(position, moves, rng)
    return search.mcts(position, rng, **search_budget(chosen, started, budget))[0]


# How often the commuter parks against its own cars when it can (the playouts' 0.85
# would leave the valet only 70% against it in the arena, near the ladder's 65%).
COMMUTER_JOINS = 0.7


def joiner(position: Position, rng: random.Random) -> Move:
    """The playouts' turn (``policy.policy_turn``), joining ``COMMUTER_JOINS`` of the
    time when it can."""
    side = position._turn
    _, place, origin, target = policy.policy_turn(
        position._pieces[side],
        position._pieces[1 - side],
        side,
        rng,
        not position.is_last_turn,
        join_share=COMMUTER_JOINS,
    )
    return Move(place) if origin < 0 else Move(place, origin, target)


def greedy(position: Position, moves: list[Move], rng: random.Random) -> Move:
    """The turn whose groups one ply deep are best for the mover (``move_value``),
    a random one of the best."""
    best: list[Move] = []
    top = -1e9
    for move in moves:
        value = policy.move_value(position, move)
        if value > top:
            best, top = [move], value
        elif value == top:
            best.append(move)
    return rng.choice(best)
