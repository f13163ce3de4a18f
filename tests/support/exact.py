"""What the tests measure the engine's users against, with no cleverness to doubt.
No Django."""

from __future__ import annotations

import functools
import itertools

from game.engine import Color, Position, Rules

# Every rule set the engine plays: special stones on and off, both scorings, flat or
# wrapped.
RULE_SETS = [
    Rules(special_stones=special, scoring=scoring, wraparound=wrap)
    for special, scoring, wrap in itertools.product(
        (True, False), ("standard", "simple"), (False, True)
    )
]


def minimax(position: Position) -> int:
    """The result for the side to move under perfect play: 1 win, 0 tie, -1 loss.
    Plain recursion over every move, with no pruning: slow, and obviously right."""

    @functools.cache
    def value(pos: Position) -> int:
        moves = pos.legal_moves()
        if not moves:
            dark, light = pos.score()
            diff = dark - light if pos.turn is Color.DARK else light - dark
            return (diff > 0) - (diff < 0)
        return max(-value(pos.play(move)) for move in moves)

    return value(position)
