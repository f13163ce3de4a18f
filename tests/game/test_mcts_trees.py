"""Both games' searches grow, on fixed positions with fixed seeds and budgets, the very
trees they grew before they shared one tree (``game.mcts``): the same children, in
the same order, with the same visits and wins, so the same moves, and so the ladders
are exactly as strong as they were.

``tests/data/search_trees.json`` was recorded by the games' own tree loops, before
the change: 20 positions of each game (random games from the start, a seeded random
length), searched for 300 iterations with each way a ladder searches (Mǽrstánas: the
levels' search and plain UCT; Cyngesheall: the levels' search with its solver, plain
UCT, and the search among ``candidates`` only), the children listed as ``[move,
visits, wins, proof]``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from game.cyngesheall.bots import search as cyngesheall_search
from game.cyngesheall.engine import Position as CyngesheallPosition
from game.maerstanas.bots import search as maerstanas_search
from game.maerstanas.engine import Position as MaerstanasPosition
from game.maerstanas.rules import Rules
from game.thinking import most_visited

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "search_trees.json").read_text())
PLAYOUTS = 300

MAERSTANAS_WAYS = (
    {},
    {
        "use_bias": False,
        "exploration": 1.0,
        "policy": 1,
        "uniform": True,
        "widening": None,
        "margin_weight": 0.0,
    },
)
CYNGESHEALL_WAYS = (
    {},
    {"use_bias": False, "exploration": 1.0, "guided": False, "widening": None, "solver": False},
    "candidates",
)


def _positions(start, count: int, seed: int, longest: int) -> list:
    """``count`` unfinished positions, each a random game of a random length from the start."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = start()
        for _ in range(rng.randrange(0, longest)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        if position.legal_moves():
            found.append(position)
    return found


def _grown(root, iterations: int) -> dict:
    return {
        "iterations": iterations,
        "children": [
            [str(child.move), child.visits, round(child.wins, 9), child.proven]
            for child in root.children
        ],
    }


MAERSTANAS = _positions(lambda: MaerstanasPosition.start(Rules()), 20, 35, 40)
CYNGESHEALL = _positions(CyngesheallPosition.start, 20, 36, 160)


def test_the_record_covers_forty_positions_and_proofs():
    assert len(RECORDED["maerstanas"]) == 20 * len(MAERSTANAS_WAYS)
    assert len(RECORDED["cyngesheall"]) == 20 * len(CYNGESHEALL_WAYS)
    proofs = [c for e in RECORDED["cyngesheall"] for c in e["children"] if c[3]]
    assert len(proofs) > 50  # the solver's paths are part of it
    assert any(e["iterations"] < PLAYOUTS for e in RECORDED["cyngesheall"])  # root proven


def _grows_as_recorded(search, game: str, index: int, way: int, position, options: dict):
    """Asserts that ``search`` grows the tree recorded for ``game``'s ``index``th
    position the ``way``th way, and plays the recorded move from it; that tree and move."""
    ways = len(MAERSTANAS_WAYS if game == "maerstanas" else CYNGESHEALL_WAYS)
    recorded = RECORDED[game][index * ways + way]
    seed = index * 10 + way
    root, iterations = search.search_tree(
        position, random.Random(seed), playouts=PLAYOUTS, **options
    )
    assert _grown(root, iterations) == {
        "iterations": recorded["iterations"],
        "children": recorded["children"],
    }
    move, _ = search.mcts(position, random.Random(seed), playouts=PLAYOUTS, **options)
    assert str(move) == recorded["move"]
    return root, recorded["move"]


@pytest.mark.parametrize("index", range(20))
def test_maerstanas_grows_the_recorded_trees(index):
    position = MAERSTANAS[index]
    for way, options in enumerate(MAERSTANAS_WAYS):
        root, move = _grows_as_recorded(
            maerstanas_search, "maerstanas", index, way, position, options
        )
        assert str(most_visited(root).move) == move


@pytest.mark.parametrize("index", range(20))
def test_cyngesheall_grows_the_recorded_trees(index):
    position = CYNGESHEALL[index]
    for way, options in enumerate(CYNGESHEALL_WAYS):
        if options == "candidates":
            options = {"moves": cyngesheall_search.candidates(position)}
        _grows_as_recorded(cyngesheall_search, "cyngesheall", index, way, position, options)
