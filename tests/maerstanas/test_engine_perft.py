"""Move counts (perft) from fixed positions.

``perft(pos, depth)`` is the number of move sequences of that length from ``pos``
(the last level only counts ``len(legal_moves())``). The expected counts come from
an independent implementation of the rules and must match exactly. The first two
levels from the start can be checked by hand, see
``test_perft_from_the_start_agrees_with_hand_counts``.
"""

from __future__ import annotations

import pytest

from game.engine import Position, Rules

DEFAULT = Rules()
PLAIN = Rules(special_stones=False)
WRAP = Rules(wraparound=True)
WRAP_PLAIN = Rules(wraparound=True, special_stones=False)

MIDGAME_1 = "s....S./.ssT..s/....w.S/..S..SS/W..S.../..s..../...t..s d -"
MIDGAME_2 = ".sS...s/.wS.sS./S...ssS/...WS../...SSSs/.s...ss/sS.s.S. d -"
MIDGAME_3 = "S....ss/S..S.s./.ssS..S/..S.S../s.s.sS./sS.SS.s/.s..... d -"
MIDGAME_4 = "s....../.S...s./....sS./STSSt.s/..s..S./.....ss/SW.S..s d w"

# (name, position text or None for the start, rules, counts for depth 1, 2, ...)
CASES = [
    ("start", None, DEFAULT, [98, 9506, 680266]),
    ("start-plain", None, PLAIN, [49, 2352, 110520, 5080128]),
    ("start-wrap", None, WRAP, [98, 9506, 680414]),
    ("start-wrap-plain", None, WRAP_PLAIN, [49, 2352, 110544]),
    ("midgame-1", MIDGAME_1, DEFAULT, [30, 854, 22944]),
    ("midgame-2", MIDGAME_2, DEFAULT, [15, 200, 2340]),
    ("midgame-3-plain", MIDGAME_3, PLAIN, [21, 396, 6630]),
    ("midgame-4-wrap", MIDGAME_4, WRAP, [27, 983, 23836]),
]


def perft(pos: Position, depth: int) -> int:
    """Number of move sequences of ``depth`` moves from ``pos``."""
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(move), depth - 1) for move in moves)


# Each count takes well under a second (the deepest, start-plain at depth 4 with five
# million leaves, about a quarter of a second), so none is marked slow; mark a deeper
# count added here with `pytest.mark.slow` if it takes more than about a second.
PARAMS = [
    pytest.param(text, rules, depth, count, id=f"{name}-depth{depth}")
    for name, text, rules, counts in CASES
    for depth, count in enumerate(counts, start=1)
]


@pytest.mark.parametrize(("text", "rules", "depth", "count"), PARAMS)
def test_perft_counts(text, rules, depth, count):
    pos = Position.start(rules) if text is None else Position.from_text(text, rules)
    assert perft(pos, depth) == count


@pytest.mark.parametrize(
    "rules", [DEFAULT, PLAIN, WRAP, WRAP_PLAIN], ids=["default", "plain", "wrap", "wrap-plain"]
)
def test_perft_from_the_start_agrees_with_hand_counts(rules):
    # Depth 1: a stone on any of the 49 squares, and a thunder-stone on any of them
    # when special stones are on (no Woden-stone: light has no stone to replace).
    # Depth 2: one stone has at most three hinges next to anything, so light may put
    # a stone on any of the 48 other squares, a thunder-stone on them too, and its
    # Woden-stone on dark's stone: 48 + 48 + 1 = 97 replies (48 without specials).
    first = 98 if rules.special_stones else 49
    replies = 97 if rules.special_stones else 48
    pos = Position.start(rules)
    assert perft(pos, 1) == first
    assert perft(pos, 2) == first * replies
