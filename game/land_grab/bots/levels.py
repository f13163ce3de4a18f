"""The Land Grab computer players: a ladder of levels, weakest first. Engine only, no
Django.

Each level is a way of choosing a move (``choose_move``):

- the lowest moves at random, but takes the other side's last stone when it can and,
  half the time, a capture when there is one;
- the next plays the move whose position the evaluation likes best one ply deep
  (``policy.evaluate``: the largest claims and the stones left), blurred by a little
  noise, never one that lets the other side take its last stone at once when
  another does not;
- the two strongest search with Monte Carlo tree search and its solver
  (``search.mcts``, cut-off playouts judged by the evaluation): the lower for a
  number of playouts, so a seed makes it repeat its moves exactly, the strongest for
  a second.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.land_grab.bots import policy, search
from game.land_grab.engine import Position
from game.land_grab.notation import Move
from game.thinking import find_level, play_level, search_budget

__all__ = ["LEVELS", "LEVEL_IDS", "STRONGEST", "Level", "choose_move", "greedy", "level"]


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder, as the site shows it and as ``choose_move`` plays it."""

    id: str
    name: str
    description: str
    seconds: float  # how long a move takes on one core, about: the site's "thinking" time
    kind: str  # "random", "greedy" or "search"
    playouts: int | None = None  # the search's budget, when counted in playouts
    noise: float = 0.0  # the greedy level's blur of the evaluation


LEVELS: tuple[Level, ...] = (
    Level(
        "squatter",
        "Squatter",
        "Plays like a squatter: settles almost anywhere, but grabs a stone "
        "that stands in reach now and then, and always the last one.",
        0.01,
        "random",
    ),
    Level(
        "surveyor",
        "Surveyor",
        "Plays like a surveyor: measures every claim after each of its moves and "
        "takes the best, but never looks past the next move.",
        0.02,
        "greedy",
        noise=0.02,
    ),
    Level(
        "homesteader",
        "Homesteader",
        "Plays like a homesteader: follows two thousand short lines of play before each move.",
        0.2,
        "search",
        playouts=2000,
    ),
    Level(
        "baron",
        "Land Baron",
        "Plays like a land baron: thinks for a full second, some ten thousand lines, "
        "and never misses a stone it can take for good.",
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
    """The move ``level_id`` plays in ``position``.

    ``seconds`` makes a searching level think for that long instead of its playouts
    (never much longer). With a ``seed`` and a level that is not timed, the same move
    comes back every time. Raises ``ValueError`` when the game is over and
    ``KeyError`` for an unknown level.
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
    win = policy.winning_move(position)
    if win is not None:
        return win
    if chosen.kind == "random":
        captures = [move for move in moves if move.capture is not None]
        if captures and rng.random() < 0.5:
            return rng.choice(captures)
        return rng.choice(moves)
    if chosen.kind == "greedy":
        return greedy(position, moves, rng, chosen.noise)
    return search.mcts(position, rng, **search_budget(chosen, started, budget))[0]


def greedy(position: Position, moves: list[Move], rng: random.Random, noise: float) -> Move:
    """The move whose position the evaluation likes best for the mover, one ply deep,
    blurred by up to ``noise``; a move that lets the other side take the mover's last
    stone at once only when every move does."""
    black_to_move = position._turn == 0
    best_move, best = moves[0], -1e9
    for move in moves:
        after = position.play(move)
        if policy.winning_move(after) is not None:
            value = -1.0
        else:
            chance = policy.playout(after, rng, 0)
            value = chance if black_to_move else 1.0 - chance
        value += noise * rng.random()
        if value > best:
            best_move, best = move, value
    return best_move
