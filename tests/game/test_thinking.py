"""What the games' computer players share (``game.thinking``): the ladder's lookup,
the collector left as found, and the reading of a search tree for an analysis."""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

import pytest

from game.surface import (
    Color,
)
from game.thinking import (
    LINE_PLIES,
    dark_chances,
    find_level,
    most_visited,
    mover_chances,
    principal_line,
    without_collector,
)


@dataclass
class Rung:
    id: str


@dataclass
class Node:
    move: str
    visits: int
    wins: float
    children: list[Node] = field(default_factory=list)
    proven: int = 0


LADDER = (Rung("low"), Rung("high"))


def test_a_level_is_found_by_its_id_and_a_level_stands_for_itself():
    assert find_level(LADDER, "high") is LADDER[1]
    trial = Rung("trial")
    assert find_level(LADDER, trial) is trial
    with pytest.raises(KeyError, match="'nobody' is not a level: choose one of low, high"):
        find_level(LADDER, "nobody")


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_off_inside_and_as_it_was_after_even_on_an_error(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with pytest.raises(RuntimeError), without_collector():
            assert not gc.isenabled()
            raise RuntimeError
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def chain(visits: list[int]) -> Node:
    """A root whose line goes down one child a level, with these visits."""
    root = Node("", visits[0], 0)
    node = root
    for depth, count in enumerate(visits[1:], start=1):
        child = Node(f"m{depth}", count, count / 2)
        node.children = [child, Node(f"x{depth}", 1, 0)]
        node = child
    return root


def test_the_line_follows_the_most_visited_while_it_is_searched_enough():
    # 100 -> 60 -> 30 -> 2: the last has fewer than 5 visits, so it is left out.
    assert principal_line(chain([100, 60, 30, 2])) == ("m1", "m2")
    # A first move is always given, however little searched.
    assert principal_line(chain([100, 1])) == ("m1",)
    # A tenth of the parent's visits is needed: 1000 -> 90 stops at once.
    assert principal_line(chain([2000, 1000, 90])) == ("m1",)
    assert len(principal_line(chain([10**6] * 20))) == LINE_PLIES


def test_a_sure_child_stays_in_the_line_however_little_searched():
    root = chain([100, 60, 1])
    sure = principal_line(root, most_visited, lambda child: child.move == "m2")
    assert sure == ("m1", "m2")


def test_the_mover_s_chances_are_half_the_move_and_half_the_reply():
    reply = Node("r", 10, 4)  # the reply's mover won 40%: the mover 60%
    best = Node("b", 20, 16, [reply, Node("s", 0, 0)])  # 80% through the move
    assert mover_chances(best) == pytest.approx(0.7)
    assert mover_chances(Node("b", 4, 3)) == 0.75  # no reply searched: the move alone
    assert mover_chances(Node("b", 0, 0)) == 0.5  # nothing searched: even


def test_dark_s_chances_are_the_mover_s_or_their_complement():
    assert dark_chances(Color.DARK, 0.7) == 0.7
    assert dark_chances(Color.LIGHT, 0.7) == pytest.approx(0.3)
