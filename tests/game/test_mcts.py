"""The tree every game's search grows (``game.mcts``) and the ladder's shared parts
(``game.thinking.play_level``, ``search_budget``, ``read_tree``), tried on a game
of their own: a pile of stones, each side taking one, two or three, and whoever
takes the last wins (the side to move loses on a multiple of four).

The ladder below, random, greedy and searching levels with an analysis, is what a
new game's computer players cost on the kit: some sixty lines with its game."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from game.mcts import LOST, WON, Knowledge, Node, best_child, grow
from game.surface import (
    Color,
)
from game.thinking import play_level, read_tree, search_budget


@dataclass(frozen=True)
class Pile:
    stones: int
    turn: Color = Color.DARK

    @property
    def is_over(self) -> bool:
        return self.stones == 0

    def legal_moves(self) -> list[int]:
        return [take for take in (1, 2, 3) if take <= self.stones]

    def play(self, take: int) -> Pile:
        return Pile(self.stones - take, self.turn.opponent)


# --- The game's ladder on the kit --------------------------------------------------


def _moves(pile: Pile) -> list[tuple[float, int]]:
    # The prior likes leaving a multiple of four; the best is added first, so last.
    return sorted(
        ((1.0 if (pile.stones - take) % 4 == 0 else 0.0), take) for take in pile.legal_moves()
    )


def _playout(pile: Pile, rng: random.Random) -> float:
    stones, turn = pile.stones, pile.turn
    if not stones:  # the side that moved took the last
        return 0.0 if turn is Color.DARK else 1.0
    while True:
        stones -= min(stones, 1 + int(rng.random() * 3))
        if not stones:
            return 1.0 if turn is Color.DARK else 0.0
        turn = turn.opponent


def _prove(pile: Pile) -> int:
    if pile.is_over:
        return WON
    return LOST if pile.stones <= 3 else 0


KNOWLEDGE = Knowledge(_moves, _playout, lambda pile: pile.turn is Color.LIGHT, _prove)


@dataclass(frozen=True)
class Level:
    id: str
    kind: str
    seconds: float = 0.01
    playouts: int | None = None


LEVELS = (Level("random", "random"), Level("greedy", "greedy"), Level("search", "search", 0.1, 200))


def _choose(pile, level, moves, rng, started, budget):
    if level.kind == "random":
        return rng.choice(moves)
    if level.kind == "greedy":
        return _moves(pile)[-1][1]
    return best_child(_tree(pile, rng, **search_budget(level, started, budget))[0]).move


def _tree(pile: Pile, rng: random.Random, **budget) -> tuple[Node, int]:
    return grow(
        pile, rng, KNOWLEDGE, exploration=0.7, bias=0.5, widening=None, solver=True, **budget
    )


def choose_move(pile: Pile, level_id: str, *, seconds=None, seed=None) -> int:
    return play_level(LEVELS, level_id, pile, _choose, seconds=seconds, seed=seed)


def analyse(pile: Pile, playouts: int, seed: int):
    root, iterations = _tree(pile, random.Random(seed), playouts=playouts)
    return read_tree(root, iterations, pile.turn, best_child, lambda child: bool(child.proven))


# --- Tests -----------------------------------------------------------------------


def _grow(stones: int, seed: int = 1, **options) -> tuple[Node, int]:
    """The pile's tree as the tests below grow it: the exploration every test uses,
    no prior and no widening unless a test says otherwise."""
    options = {"exploration": 0.7, "bias": 0.0, "widening": None} | options
    return grow(Pile(stones), random.Random(seed), KNOWLEDGE, **options)


@pytest.mark.parametrize("stones", [5, 6, 7, 9, 10, 11])
def test_the_solver_proves_the_move_that_leaves_a_multiple_of_four(stones):
    root, iterations = _grow(stones, playouts=2000, solver=True)
    best = best_child(root)
    assert (stones - best.move) % 4 == 0
    assert best.proven == WON
    assert root.proven == LOST  # lost for the side that moved into it: the other side
    assert iterations < 2000  # a proven root ends the search


def test_a_move_that_wins_at_once_ends_the_search_before_it_starts():
    root, iterations = _grow(3, playouts=100, solver=True, whole_root=True, parent_shift=1)
    assert iterations == 0
    assert best_child(root).move == 3


def test_only_the_root_moves_given_are_searched():
    root, _ = _grow(9, playouts=50, whole_root=True, root_moves=[2, 3], parent_shift=1)
    assert sorted(child.move for child in root.children) == [2, 3]
    assert sum(child.visits for child in root.children) == 50


def test_without_the_solver_the_visits_and_wins_add_up():
    root, iterations = _grow(13, seed=2, playouts=300, widening=1.0)
    assert iterations == root.visits == 300
    assert root.proven == 0 and all(child.proven == 0 for child in root.children)
    assert sum(child.visits for child in root.children) == 300
    # Each child's wins are the dark side's, who moved into it, and never more than its visits.
    assert all(0 <= child.wins <= child.visits for child in root.children)


def test_a_late_start_still_searches_one_iteration_and_stops():
    root, iterations = _grow(20, deadline=0.5, clock=lambda: 1.0)
    assert iterations == 1
    assert root.visits == 1


def test_a_timed_search_looks_at_the_clock_every_sixteen_iterations():
    ticks = iter(range(100))
    _, iterations = _grow(20, deadline=0.5, clock=lambda: float(next(ticks)))
    assert iterations == 17  # the clock read after the first (0, early) and the 17th


def test_a_knowledge_that_plays_its_own_moves_makes_the_nodes_with_it():
    played = []

    def play(pile: Pile, take: int) -> Pile:
        played.append((pile.stones, take))
        return pile.play(take)

    own = Knowledge(_moves, _playout, KNOWLEDGE.dark_moved, play=play)
    root, iterations = grow(
        Pile(9), random.Random(1), own, playouts=50, exploration=0.7, bias=0.0, widening=None
    )
    assert played and len(played) == _count(root) - 1  # every node but the root
    assert _count(root) == _count(_grow(9, playouts=50)[0])  # the same tree as play's


def _count(node: Node) -> int:
    return 1 + sum(_count(child) for child in node.children)


def test_the_same_seed_grows_the_same_tree():
    def grown(seed):
        root, _ = _grow(30, seed, playouts=400, bias=0.5, widening=1.0)
        return [(child.move, child.visits, child.wins) for child in root.children]

    assert grown(4) == grown(4)
    assert grown(4) != grown(5)


def test_the_ladder_plays_its_levels_and_its_analysis_reads_the_tree():
    assert choose_move(Pile(1), "search") == 1  # the only move, without thinking
    assert choose_move(Pile(10), "greedy") == 2
    assert choose_move(Pile(10), "search", seed=3) == 2
    assert choose_move(Pile(10), "search", seconds=0.05, seed=3) == 2
    assert choose_move(Pile(10), "random", seed=1) in (1, 2, 3)
    analysis = analyse(Pile(10), playouts=3000, seed=1)
    assert analysis.move == 2 and analysis.line[0] == 2
    assert analysis.dark_win > 0.5
    with pytest.raises(ValueError, match="game is over"):
        choose_move(Pile(0), "search")
    with pytest.raises(KeyError, match="choose one of random, greedy, search"):
        choose_move(Pile(5), "wise")


def test_a_timed_level_searches_until_its_deadline_and_a_counted_one_its_playouts():
    level = LEVELS[-1]
    assert search_budget(level, 100.0, 0.25) == {"deadline": 100.25}
    assert search_budget(level, 100.0, None) == {"playouts": 200}
