"""Three in a row's computer players: a ladder of two, weakest first. Engine only,
no Django.

The lower plays a random empty square; the higher completes its own line when it
can, else blocks the other side's, else plays as close to the middle as it can
(ties broken at random). Its analysis is that move, with chances proven only where
the move wins at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.thinking import Analysis, dark_chances, find_level, moves_to_choose
from tests.third_game.engine import BOARD, LINES, Move, Position

__all__ = ["LEVELS", "Level", "analyse", "choose_move"]


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder, as the site shows it."""

    id: str
    name: str
    description: str
    seconds: float


LEVELS = (
    Level("random", "Random", "Places a stone on any empty square.", 0.01),
    Level("greedy", "Greedy", "Completes a line, else blocks one, else takes the middle.", 0.01),
)
# How far each square is from the middle of the board, the nearer the better.
_MIDDLE = ((BOARD.width - 1) / 2, (BOARD.height - 1) / 2)
_CENTRALITY = tuple(
    abs(column - _MIDDLE[0]) + abs(row - _MIDDLE[1]) for column, row in BOARD.positions
)


def choose_move(
    position: Position,
    level_id: str | Level,
    *,
    seconds: float | None = None,
    seed: int | None = None,
) -> Move:
    """The move ``level_id`` plays in ``position`` (``seconds`` is not needed: both
    levels answer at once). Raises ``ValueError`` when the game is over and
    ``KeyError`` for an unknown level."""
    level = find_level(LEVELS, level_id)
    moves = moves_to_choose(position)
    chooser = random.Random(seed)
    if level.id == "random":
        return chooser.choice(moves)
    return _greedy(position, moves, chooser)[0]


def _greedy(position: Position, moves: list[Move], chooser: random.Random) -> tuple[Move, bool]:
    """The greedy move, and whether it wins at once."""
    mover, other = position.turn, position.turn.opponent
    for side in (mover, other):
        for move in moves:
            if _completes(position, move.square, side):
                return move, side is mover
    best = min(_CENTRALITY[move.square] for move in moves)
    return chooser.choice([move for move in moves if _CENTRALITY[move.square] == best]), False


def _completes(position: Position, cell: int, side: object) -> bool:
    """True when a stone of ``side`` on ``cell`` makes three in a row."""
    return any(
        cell in line and all(position.stone_at(at) is side for at in line if at != cell)
        for line in LINES
    )


def analyse(position: Position, seconds: float = 1.0, *, seed: int | None = None) -> Analysis:
    """The greedy level's view of ``position``. Raises ``ValueError`` when the game is
    over."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is nothing to analyse")
    move, wins = _greedy(position, moves, random.Random(seed))
    return Analysis(
        move=move,
        line=(move,),
        dark_win=dark_chances(position.turn, 1.0 if wins else 0.5),
        proven=wins,
        iterations=0,
    )
