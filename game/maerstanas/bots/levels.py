"""The computer players: a ladder of levels, weakest first. Engine only, no Django.

Each level is a way of choosing a move (``choose_move``):

- the two lowest play at a glance: a move drawn by the weights of the game
  author's computer player, then the move the evaluation likes best;
- the middle ones search with Monte Carlo tree search (``search.mcts``) for a
  number of playouts, so a seed makes them repeat their moves exactly;
- the strongest searches for a time, and once few moves remain it proves the
  best move with the endgame solver (``search.solve``) before it searches.

The arena (``make arena``) measures them against each other and against the
reference players of ``reference``.

The search tree is not kept from one move to the next, because it would not pay.
Measured over self-play games at 0.25 s a move, the subtree below the move played
and the opponent's reply held on average 5% of the next search's iterations: none
before the twentieth move (the reply is one of some forty, seldom searched), a few
percent later, and only near the end, where the solver takes over anyway, up to a
half. The site's workers, besides, think for many games in several processes, so a
kept tree would seldom be in the process that thinks of the game's next move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.maerstanas.bots import reference, search
from game.maerstanas.engine import Position
from game.maerstanas.notation import Move
from game.thinking import find_level, play_level, search_budget

__all__ = ["LEVELS", "LEVEL_IDS", "STRONGEST", "Level", "choose_move", "level"]


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder, as the site shows it and as ``choose_move`` plays it."""

    id: str
    name: str
    description: str
    seconds: float  # how long a move takes on one core, about: the site's "thinking" time
    kind: str  # "weighted", "greedy" or "search"
    playouts: int | None = None  # the search's budget, when counted in playouts
    solver: bool = False  # prove the endgame when few moves remain


LEVELS: tuple[Level, ...] = (
    Level(
        "cild",
        "Cild",
        "Plays like a child: moves that look good at a glance, and many that do not.",
        0.01,
        "weighted",
    ),
    Level(
        "ceorl",
        "Ceorl",
        "Plays like a farmer: always takes the most points it can get at once.",
        0.01,
        "greedy",
    ),
    Level(
        "cniht",
        "Cniht",
        "Plays like a squire: tries twenty-five games before each move.",
        0.01,
        "search",
        playouts=25,
    ),
    Level(
        "thegn",
        "Þegn",
        "Plays like a thane: tries a hundred and twenty games a move and sees the end coming.",
        0.01,
        "search",
        playouts=120,
        solver=True,
    ),
    Level(
        "ealdor",
        "Ealdormann",
        "Plays like a lord: a thousand games a move, and a perfect endgame.",
        0.1,
        "search",
        playouts=1000,
        solver=True,
    ),
    Level(
        "wita",
        "Wita",
        "Plays like the wise: searches for a full second and proves the endgame.",
        1.0,
        "search",
        solver=True,
    ),
)
LEVEL_IDS: tuple[str, ...] = tuple(level.id for level in LEVELS)
STRONGEST: Level = LEVELS[-1]

# The solver is tried once at most this many moves can still be played: deep
# enough to prove most endgames in well under a second, so it rarely gives up.
SOLVER_MOVES = 18
# The share of the time the solver may use before the search takes over, and for
# a level counted in playouts, the positions it may search for each playout.
SOLVER_SHARE = 0.5
SOLVER_NODES = 20


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
    """The move ``level_id`` plays in ``position`` (``PASS`` when it must pass).

    ``seconds`` makes a searching level think for that long instead of its
    playouts (never more than 10% + 50 ms longer). With a ``seed`` and a level
    counted in playouts, the same move comes back every time. Raises
    ``ValueError`` when the game is over and ``KeyError`` for an unknown level.
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
    if chosen.kind == "weighted":
        return reference.weighted_move(position, rng)
    if chosen.kind == "greedy":
        return _greedy(position, moves, rng)
    if chosen.solver and search.remaining_moves(position) <= SOLVER_MOVES:
        if budget is not None:
            proof = search.solve(position, started + budget * SOLVER_SHARE)
        else:  # counted, not timed, so that a seed repeats the move on any machine
            proof = search.solve(position, nodes=chosen.playouts * SOLVER_NODES)
        # A proven loss is left to the search, which picks the move most likely to
        # go wrong for an opponent who is not perfect.
        if proof is not None and proof[1] != search.LOSS:
            return proof[0]
    return search.mcts(position, rng, **search_budget(chosen, started, budget))[0]


def _greedy(position: Position, moves: list[Move], rng: random.Random) -> Move:
    values = search.move_values(position, moves)
    top = max(values)
    return rng.choice([m for m, v in zip(moves, values, strict=True) if v == top])
