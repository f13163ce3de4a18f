"""The 7-4-1776 computer players: a ladder of levels, weakest first. Engine only, no
Django.

Each level is a way of choosing a move (``choose_move``):

- the lowest moves at random, but fills the board when it can (a win held out to it)
  and, half the time, plays a move that leaves the other side an even number of
  empty squares (``policy.move_values``), when it sees one;
- the next plays the move whose position the evaluation likes best one ply deep
  (``policy.evaluate``: the parity of the empty squares and how much the side behind
  on it may still slide), blurred by a little noise, never one that lets the other
  side fill the board at once when another does not;
- the two strongest search with Monte Carlo tree search and its solver
  (``search.mcts``, cut-off playouts judged by the evaluation): the lower for a
  number of playouts, so a seed makes it repeat its moves exactly, the strongest for
  a second.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.seven_four.bots import policy, search
from game.seven_four.engine import Position
from game.seven_four.notation import Move
from game.thinking import find_level, play_level, search_budget

__all__ = ["LEVELS", "LEVEL_IDS", "STRONGEST", "Level", "choose_move", "level"]


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
        "recruit",
        "Recruit",
        "Plays like a recruit on his first muster: puts a stone almost anywhere, "
        "but sometimes counts the empty squares, and fills the last one when it can.",
        0.01,
        "random",
    ),
    Level(
        "minuteman",
        "Minuteman",
        "Plays like a minuteman, ready at once: counts the empty squares and keeps "
        "the count on his side, but never looks past the next move.",
        0.02,
        "greedy",
        noise=0.05,
    ),
    Level(
        "continental",
        "Continental",
        "Plays like a soldier of the Continental Army: follows two thousand short "
        "lines of play before each move.",
        0.15,
        "search",
        playouts=2000,
    ),
    Level(
        "general",
        "General",
        "Plays like the general: thinks for a full second, some ten thousand lines, "
        "and never misses a way to fill the board.",
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
        if rng.random() < 0.5:
            values = policy.move_values(position, moves)
            moves = [move for move, value in zip(moves, values, strict=True) if value] or moves
        return rng.choice(moves)
    if chosen.kind == "greedy":
        return greedy(position, moves, rng, chosen.noise)
    return search.mcts(position, rng, **search_budget(chosen, started, budget))[0]


def greedy(position: Position, moves: list[Move], rng: random.Random, noise: float) -> Move:
    """The move whose position the evaluation likes best for the mover, one ply deep,
    blurred by up to ``noise``; a move that lets the other side fill the board at once
    only when every move does."""
    blue_to_move = position._turn == 0
    best_move, best = moves[0], -1e9
    for move in moves:
        after = position.play(move)
        if policy.winning_move(after) is not None:
            value = -1.0
        else:
            blue, red = after.stones
            chance = policy.evaluate(blue, red, after._turn)
            value = chance if blue_to_move else 1.0 - chance
        value += noise * rng.random()
        if value > best:
            best_move, best = move, value
    return best_move
