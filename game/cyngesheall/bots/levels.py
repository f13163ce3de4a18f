"""The Cyngesheall computer players: a ladder of levels, weakest first. Engine only,
no Django.

Each level is a way of choosing a move (``choose_move``):

- the lowest plays as the search's playouts do: a win it sees, a block of the
  enemy king's way home, a capture half the time, else a random move that does
  not stop where it could be sandwiched;
- the next plays the move whose position the evaluation likes best one ply deep
  (``policy.evaluate``, blurred by up to 1.5 stones of noise so that it is beaten
  more often than not by the next), never one that lets the other side win at once;
- the middle one searches two plies deep, its move and every reply, by the
  evaluation (``search.shallow``), and plays any move within half a stone of the
  best it finds (so that the next level up beats it more often than not);
- the two strongest search with Monte Carlo tree search and its solver
  (``search.mcts``) among the moves the two-ply look keeps (``search.candidates``):
  the lower for a number of iterations, so a seed makes it repeat its moves
  exactly, the strongest for a time. Both first look for a win in two moves of
  their own whatever the reply (``search.forced_win``).

The arena (``make arena ARGS="--game cyngesheall"``) measures them against each
other and against the reference players of ``reference``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.cyngesheall.bots import policy, search
from game.cyngesheall.engine import Position
from game.cyngesheall.notation import Move
from game.thinking import find_level, play_level, search_budget

__all__ = ["LEVELS", "LEVEL_IDS", "STRONGEST", "Level", "choose_move", "level"]


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder, as the site shows it and as ``choose_move`` plays it."""

    id: str
    name: str
    description: str
    seconds: float  # how long a move takes on one core, about: the site's "thinking" time
    kind: str  # "careful", "greedy", "shallow" or "search"
    playouts: int | None = None  # the search's budget, when counted in playouts
    solver: bool = False  # look for a win in two moves before searching
    # The shallow search's margin, in stones: it chooses at random among the moves this
    # close to the best.
    noise: float = 0.0


LEVELS: tuple[Level, ...] = (
    Level(
        "byrele",
        "Byrele",
        "Plays like the cup-bearer: carries the mead about the hall, moves wherever, "
        "but keeps out of a sandwich and takes a win held out to it.",
        0.01,
        "careful",
    ),
    Level(
        "scop",
        "Scop",
        "Plays like the hall's poet: takes what lies in reach and sings of it, "
        "never looks past the next move, and often misjudges that one.",
        0.01,
        "greedy",
    ),
    Level(
        "duguth",
        "Duguþ",
        "Plays like the tried warriors on the benches: weighs each move against "
        "every answer to it, but takes any that looks nearly as good as the best.",
        0.05,
        "shallow",
        noise=0.5,
    ),
    Level(
        "gesith",
        "Gesíþ",
        "Plays like the king's companion: follows three hundred lines of play before "
        "each move, and sees a king's race two moves off.",
        0.1,
        "search",
        playouts=300,
        solver=True,
    ),
    Level(
        "cyning",
        "Cyning",
        "Plays like the king in his hall: thinks for a full second and never misses a way home.",
        1.0,
        "search",
        solver=True,
    ),
)
LEVEL_IDS: tuple[str, ...] = tuple(level.id for level in LEVELS)
STRONGEST: Level = LEVELS[-1]

# The share of the time the look for a win in two may use before the search.
SOLVER_SHARE = 0.3


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

    ``seconds`` makes a searching level think for that long instead of its
    playouts (never much longer). With a ``seed`` and a level that is not timed,
    the same move comes back every time. Raises ``ValueError`` when the game is
    over and ``KeyError`` for an unknown level.
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
    if chosen.kind == "careful":
        return _careful(position, moves, rng)
    if chosen.kind == "greedy":
        return _greedy(position, moves, rng)
    if chosen.kind == "shallow":
        return search.shallow(position, rng, noise=chosen.noise)
    if chosen.solver:
        win = search.forced_win(
            position, None if budget is None else started + budget * SOLVER_SHARE
        )
        if win is not None:
            return win
    # The search looks only at the moves that a two-ply look does not condemn.
    moves = search.candidates(position)
    if len(moves) == 1:
        return moves[0]
    return search.mcts(position, rng, moves=moves, **search_budget(chosen, started, budget))[0]


def _careful(position: Position, moves: list[Move], rng: random.Random) -> Move:
    """A move as the search's playouts play one: a win, else a block of the enemy
    king's way home, else (half the time) a capture, else a random move that does not
    stop where it could be sandwiched, if it finds one."""
    win = policy.winning_move(position)
    if win is not None:
        return win
    turn = position._turn
    own, other = (position._light, position._dark) if turn else (position._dark, position._light)
    occupied = own | other
    threat = policy.home_threat(other, occupied, position._kings, 1 - turn)
    if threat:
        blocks = [move for move in moves if threat >> move.target & 1]
        if blocks:
            return rng.choice(blocks)
    if rng.random() < 0.5:
        takes = policy.capture_squares(own, other)
        captures = [move for move in moves if takes >> move.target & 1]
        if captures:
            return rng.choice(captures)
    safe = [
        move
        for move in moves
        if not policy.exposed(move.target, other, occupied ^ (1 << move.origin))
    ]
    return rng.choice(safe or moves)


def _greedy(position: Position, moves: list[Move], rng: random.Random) -> Move:
    """The move whose position the evaluation likes best, one ply deep: a win at once,
    never a move that lets the other side win at once when another does not."""
    me = position._turn
    best_move, best = moves[0], -1e9
    for move in moves:
        after = position.play(move)
        if after.is_over:
            if after.winner is not None and after.winner is position.turn:
                return move
            value = 0.0 if after.winner is None else -1000.0
        elif policy.winning_move(after) is not None:
            value = -1000.0
        else:
            value = -policy.evaluate(
                after._dark, after._light, after._kings, after._commanders, 1 - me
            )
        value += 1.5 * rng.random()
        if value > best:
            best_move, best = move, value
    return best_move
