"""The Moai computer players: a ladder of levels, weakest first. Engine only, no
Django.

Each level is a way of choosing a move (``choose_move``); every level traps the
other Moai when it sees a turn that does (``policy.winning_move``):

- the lowest otherwise moves at random, but half the time only among the turns
  that leave its own Moai more room than the other's (``policy.move_values``);
- the next plays the turn that leaves its own Moai the most room against the
  other's, one ply deep, blurred by a little noise, never one after which the
  other side traps its Moai at once when another turn does not;
- the two strongest search with Monte Carlo tree search and its solver
  (``search.mcts``, cut-off playouts judged by the room of each Moai): the lower
  for a number of playouts, so a seed makes it repeat its moves exactly, the
  strongest for a second.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.moai.bots import policy, search
from game.moai.engine import Position
from game.moai.notation import Move
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
        "visitor",
        "Visitor",
        "Plays like a visitor to the island: puts counters down almost anywhere, "
        "but traps your Moai when it sees how.",
        0.01,
        "random",
    ),
    Level(
        "carver",
        "Carver",
        "Plays like a carver of stone: keeps room around its own Moai and takes it "
        "from yours, but never looks past the next move.",
        0.05,
        "greedy",
        noise=0.05,
    ),
    Level(
        "elder",
        "Elder",
        "Plays like an elder of the island: follows two thousand short lines of play "
        "before each move.",
        0.3,
        "search",
        playouts=2000,
    ),
    Level(
        "ariki",
        "Ariki",
        "Plays like the ariki, the chief: thinks for a full second, some ten thousand "
        "lines, and never misses a turn that traps your Moai.",
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
            moves = [
                move for move, value in zip(moves, values, strict=True) if value > 0.5
            ] or moves
        return rng.choice(moves)
    if chosen.kind == "greedy":
        return greedy(position, moves, rng, chosen.noise)
    return search.mcts(position, rng, **search_budget(chosen, started, budget))[0]


def greedy(position: Position, moves: list[Move], rng: random.Random, noise: float) -> Move:
    """The move that leaves the mover's Moai the most room against the other's, one
    ply deep, blurred by up to ``noise``; among the best few, one after which the
    other side cannot trap the mover's Moai at once, when there is one."""
    values = policy.move_values(position, moves)
    ranked = sorted(
        zip((value + noise * rng.random() for value in values), range(len(moves)), strict=True),
        reverse=True,
    )
    for _, at in ranked[:8]:
        if policy.winning_move(position.play(moves[at])) is None:
            return moves[at]
    return moves[ranked[0][1]]
