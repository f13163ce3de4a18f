"""What every kind's computer players share: finding a level on the ladder and playing
it (``play_level``: the checks, the seed, the budget, thinking without the garbage
collector), the moves a player chooses among (``moves_to_choose``), and reading a
search tree for the analysis of a position (the move, the line it expects and the
chances it gives: ``read_tree``). Engine only, no Django.

The tree itself is ``game.mcts``'s, one for every game. Its nodes, whatever the
game, have ``move``, ``visits``, ``wins`` (for the side that moved into the node)
and ``children``.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from game.surface import (
    Color,
)

__all__ = [
    "LINE_PLIES",
    "Analysis",
    "dark_chances",
    "find_level",
    "mover_chances",
    "most_visited",
    "moves_to_choose",
    "play_level",
    "principal_line",
    "read_tree",
    "search_budget",
    "without_collector",
]

# The longest line shown, and how searched a reply must be to be part of it: a
# tenth of its parent's visits, and some visits at the least.
LINE_PLIES = 8
LINE_SHARE = 0.1
LINE_VISITS = 5


class HasId(Protocol):
    id: str


Level = TypeVar("Level", bound=HasId)


def find_level(levels: Sequence[Level], level_id: str | Level) -> Level:
    """The level of ``levels`` with this id, or ``level_id`` itself when it is a level
    (one made for a trial, say). Raises ``KeyError`` for an unknown id, naming those
    there are."""
    if not isinstance(level_id, str):
        return level_id
    for level in levels:
        if level.id == level_id:
            return level
    ids = ", ".join(level.id for level in levels)
    raise KeyError(f"{level_id!r} is not a level: choose one of {ids}")


def moves_to_choose(position: Any) -> list[Any]:
    """The legal moves of ``position``, for a player to choose one of. Raises
    ``ValueError`` when the game is over."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return moves


class Rung(HasId, Protocol):
    seconds: float
    playouts: int | None


def play_level(
    levels: Sequence[Level],
    level_id: str | Level,
    position: Any,
    choose: Callable[..., Any],
    *,
    seconds: float | None = None,
    seed: int | None = None,
) -> Any:
    """The move the level ``level_id`` of ``levels`` plays in ``position``: the only
    move at once, else ``choose(position, level, moves, rng, started, budget)``, with
    the collector paused, ``rng`` seeded by ``seed``, ``started`` the clock when the
    move was asked for and ``budget`` the seconds it may think (``seconds`` when
    given, else ``None`` for a level counted in playouts, else the level's own).
    Raises ``ValueError`` when the game is over and ``KeyError`` for an unknown
    level."""
    chosen = find_level(levels, level_id)
    started = time.perf_counter()
    with without_collector():
        moves = moves_to_choose(position)
        if len(moves) == 1:
            return moves[0]
        rng = random.Random(seed)
        budget = seconds if seconds is not None else None if chosen.playouts else chosen.seconds
        return choose(position, chosen, moves, rng, started, budget)


def search_budget(level: Rung, started: float, budget: float | None) -> dict[str, Any]:
    """A search's budget as ``game.mcts.grow`` takes it: until ``started + budget``
    when timed, else the level's playouts (counted, so a seed repeats the move on any
    machine)."""
    if budget is not None:
        return {"deadline": started + budget}
    return {"playouts": level.playouts}


@contextmanager
def without_collector() -> Iterator[None]:
    """No cyclic garbage collection while inside: a search makes tens of thousands of
    short-lived objects and no cycles, and a collection of a big process's heap in the
    middle of a move would only cost time (tens of milliseconds, enough to break a
    time limit). The collector is left as it was found."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@dataclass(frozen=True, slots=True)
class Analysis:
    """The strongest level's view of a position."""

    move: Any
    line: tuple[Any, ...]  # the expected moves, ``move`` first
    dark_win: float  # dark's chances, 0 to 1 (a tie or a draw counts half)
    proven: bool  # a result is proven: ``dark_win`` is then 1, 0.5 or 0
    iterations: int  # the search's playouts (0 when proven before searching)


class Node(Protocol):
    move: Any
    visits: int
    wins: float
    children: list[Any]


def most_visited(node: Node) -> Node:
    """The child of ``node`` the search looked at most."""
    return max(node.children, key=lambda child: child.visits)


def principal_line(
    root: Node,
    pick: Callable[[Any], Any] = most_visited,
    sure: Callable[[Any], bool] = lambda child: False,
) -> tuple[Any, ...]:
    """The moves the search expects from ``root`` down: each node's ``pick``ed child
    while it is searched enough to mean something (or ``sure``, as a proven one is),
    ``LINE_PLIES`` at the most. The first move is always there."""
    line = []
    node = root
    while node.children and len(line) < LINE_PLIES:
        child = pick(node)
        if line and not sure(child) and child.visits < max(LINE_VISITS, LINE_SHARE * node.visits):
            break
        line.append(child.move)
        node = child
    return tuple(line)


def read_tree(
    root: Node,
    iterations: int,
    turn: Color,
    pick: Callable[[Any], Any] = most_visited,
    sure: Callable[[Any], bool] = lambda child: False,
) -> Analysis:
    """The analysis a searched tree gives of its root, ``turn`` to move: the ``pick``ed
    child's move, the line from there (``principal_line``) and dark's chances
    (``mover_chances``), unproven."""
    best = pick(root)
    return Analysis(
        move=best.move,
        line=principal_line(root, pick, sure),
        dark_win=dark_chances(turn, mover_chances(best)),
        proven=False,
        iterations=iterations,
    )


def mover_chances(best: Node) -> float:
    """The side to move's chances when it plays ``best``: the mean of the playouts
    through that move, and of those through the reply expected to it, taken half and
    half (0.5 for a move not searched).

    Either alone leans to one side. The playouts through the chosen move begin with
    the opponent to move, those through the reply with the mover, and the side to
    move at a playout's start does better than it would in a real game: taken alone,
    the first made each Mǽrstánas estimate lean some 9 points towards whoever was to
    move, so the graph of a quiet game saw-toothed by 15 to 30 points. Half and half,
    each start counts once, and consecutive estimates agree (``tests/game/test_analysis.py``).
    """
    if not best.visits:
        return 0.5
    through = best.wins / best.visits
    replies = [child for child in best.children if child.visits]
    if not replies:
        return through
    reply = max(replies, key=lambda child: child.visits)
    return (through + 1.0 - reply.wins / reply.visits) / 2


def dark_chances(turn: Color, mover: float) -> float:
    """Dark's chances, from those of the side to move (``turn``)."""
    return mover if turn is Color.DARK else 1.0 - mover
