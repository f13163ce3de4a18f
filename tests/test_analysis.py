"""The strongest level's analysis of a position (game/bots/analysis.py) and the graph
of dark's chances over a game (game/graph.py)."""

from __future__ import annotations

import random
import time
import xml.etree.ElementTree as ElementTree

import pytest

from game.engine import Color, Position, Rules
from game.graph import estimate_graph, turning_points
from game.maerstanas.bots import analyse
from tests.support.exact import minimax

SVG = "{http://www.w3.org/2000/svg}"
MIDGAME = ["D4", "E4", "T E5", "A7", "W A7", "C3", "B2", "T C4"]


def endgame(seed: int, open_moves: int = 10, rules: Rules | None = None) -> Position:
    """A position of a random game with about ``open_moves`` moves left."""
    rng = random.Random(seed)
    position = Position.start(rules)
    while len(position.legal_moves()) > open_moves:
        position = position.play(rng.choice(position.legal_moves()))
    return position


def test_the_move_and_line_are_legal_and_the_chances_a_share():
    position = Position.replay(Rules(), MIDGAME)
    found = analyse(position, playouts=400, seed=2)
    assert found.line[0] == found.move and position.is_legal(found.move)
    after = position
    for move in found.line:
        assert after.is_legal(move)
        after = after.play(move)
    assert 0.0 <= found.dark_win <= 1.0 and not found.proven and found.iterations == 400


def test_a_seed_repeats_the_analysis():
    position = Position.replay(Rules(), MIDGAME)
    assert analyse(position, playouts=300, seed=5) == analyse(position, playouts=300, seed=5)


@pytest.mark.parametrize("seed", range(4))
def test_an_endgame_is_proven_as_exhaustive_minimax_says(seed):
    position = endgame(seed, open_moves=6)
    value = minimax(position)
    found = analyse(position, 1.0)
    assert found.proven
    mover = (value + 1) / 2
    assert found.dark_win == (mover if position.turn is Color.DARK else 1 - mover)
    assert -minimax(position.play(found.move)) == value  # the move keeps the value


@pytest.mark.timing
def test_the_time_is_kept():
    position = Position.replay(Rules(), MIDGAME)
    started = time.perf_counter()
    analyse(position, 0.3)
    assert time.perf_counter() - started < 0.3 * 1.1 + 0.25


def test_a_finished_game_has_nothing_to_analyse():
    rng = random.Random(1)
    position = Position.start()
    while not position.is_over:
        position = position.play(rng.choice(position.legal_moves()))
    with pytest.raises(ValueError, match="nothing to analyse"):
        analyse(position, 0.1)


# The graph ---------------------------------------------------------------------------------


def graph(estimates, current=None):
    moves = [f"M<{ply}>" for ply in range(1, len(estimates))]
    svg = estimate_graph(
        estimates, moves=moves, link=lambda ply: f"?ply={ply}&x=1", current=current
    )
    return svg, ElementTree.fromstring(svg)


def test_turning_points_are_the_largest_swings():
    estimates = [0.5, 0.52, 0.9, 0.88, 0.3, 0.35, 0.36, 0.6, 0.62]
    assert turning_points(estimates) == [2, 4, 7]  # swings .38, .58, .24 beat the rest
    assert turning_points([0.5, 0.55, 0.6, 0.62]) == []  # none reaches .15


def test_the_graph_links_its_turning_points_and_marks_the_moment():
    svg, tree = graph([0.5, 0.52, 0.9, 0.88, 0.3], current=3)
    links = tree.findall(f"{SVG}a")
    assert [link.get("href") for link in links] == ["?ply=2&x=1", "?ply=4&x=1"]
    assert "Move 4, M&lt;4&gt;, swung the estimate from 88% to 30% for dark" in svg
    assert tree.find(f"{SVG}line[@class='estimate__now']").get("x1") == "450.0"
    assert "turning points at moves 2, 4" in tree.find(f"{SVG}desc").text
    assert tree.get("role") == "group"


def test_a_gap_where_a_moment_is_not_analysed():
    _, tree = graph([0.5, 0.6, None, 0.4, 0.45])
    assert len(tree.findall(f"{SVG}polyline")) == 2
    assert "4 of 5 moments analysed" in tree.find(f"{SVG}desc").text
    _, empty = graph([None, None])
    assert not empty.findall(f"{SVG}polyline")
