"""The strongest level's analysis of a position (game/bots/analysis.py) and the graph
of dark's chances over a game (game/graph.py)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree

import pytest

from game.engine import Color, Position, Rules
from game.graph import estimate_graph, move_ticks
from game.maerstanas.bots import analyse
from game.review import JUDGEMENTS, judgement_of, review
from tests.support.exact import minimax
from tests.support.timing import timed

SVG = "{http://www.w3.org/2000/svg}"
MIDGAME = ["D4", "E4", "T E5", "A7", "W A7", "C3", "B2", "T C4"]
PLAYS = [("dark", "D4"), ("light", "E5"), ("dark", "E4"), ("light", "C4")]


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
    bound = 0.3 * 1.1 + 0.25
    _, spent = timed(lambda: analyse(position, 0.3), bound)
    assert spent[-1] < bound, spent


def test_a_finished_game_has_nothing_to_analyse():
    rng = random.Random(1)
    position = Position.start()
    while not position.is_over:
        position = position.play(rng.choice(position.legal_moves()))
    with pytest.raises(ValueError, match="nothing to analyse"):
        analyse(position, 0.1)


# The graph ---------------------------------------------------------------------------------


def graph(estimates, current=None, marks=()):
    svg = estimate_graph(
        estimates, marks=marks, link=lambda ply: f"?ply={ply}&x=1", current=current
    )
    return svg, ElementTree.fromstring(svg)


def test_the_graph_links_the_judged_moves_and_marks_the_moment():
    estimates = [0.5, 0.52, 0.9, 0.3, 0.35]
    judged = review(estimates, ["D4", "D5", "C3", "F6"], PLAYS)
    svg, tree = graph(estimates, current=3, marks=judged.judgements)
    links = tree.findall(f"{SVG}a")
    # Light's E5 let dark's chances rise by 38 points; dark's E4 lost 60.
    # Each links the moment it was played from, where the better move is shown.
    assert [link.get("href") for link in links] == ["?ply=1&x=1", "?ply=2&x=1"]
    assert [link.get("data-graph-mistake") for link in links] == ["2", "3"]
    assert "Move 3, dark: E4 lost 60%: C3 was best (blunder); see the board before it" in svg
    assert links[1].get("class") == "estimate__mark estimate__mark--blunder"
    assert tree.find(f"{SVG}line[@class='estimate__now']").get("x1") == "454.0"
    assert "marked moves 2 (blunder), 3 (blunder)" in tree.find(f"{SVG}desc").text
    assert tree.get("role") == "group"


def test_the_graph_has_axes_of_moves_and_percentages():
    svg, tree = graph([0.5] * 41)
    labels = [text.text for text in tree.findall(f"{SVG}text")]
    assert labels[:3] == ["0%", "50%", "100%"]
    assert [text.get("data-tick") for text in tree.findall(f"{SVG}text[@data-tick]")] == [
        "0",
        "5",
        "10",
        "15",
        "20",
        "25",
        "30",
        "35",
        "40",
    ]
    assert move_ticks(7) == list(range(8)) and move_ticks(130) == [0, 20, 40, 60, 80, 100, 120]


def test_a_gap_where_a_moment_is_not_analysed():
    _, tree = graph([0.5, 0.6, None, 0.4, 0.45])
    assert len(tree.findall(f"{SVG}polyline")) == 2
    assert "4 of 5 moments analysed" in tree.find(f"{SVG}desc").text
    _, empty = graph([None, None])
    assert not empty.findall(f"{SVG}polyline")


# The review --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loss", "kind"),
    [
        (0.0, ""),
        (0.099, ""),
        (0.10, "inaccuracy"),
        (0.199, "inaccuracy"),
        (0.2, "mistake"),
        (0.3, "blunder"),
        (1.0, "blunder"),
    ],
)
def test_a_loss_is_judged_by_lichess_thresholds(loss, kind):
    assert judgement_of(loss) == kind
    assert JUDGEMENTS == ("inaccuracy", "mistake", "blunder")


def test_each_move_is_judged_by_what_it_cost_its_own_side():
    estimates = [0.5, 0.62, 0.5, 0.2, 0.2, 0.3]
    plays = [("dark", "D4"), ("light", "E4"), ("dark", "B2"), ("light", "Pass"), ("dark", "A1")]
    judged = review(estimates, ["C3", "C5", "D5", "Pass", "A1"], plays)
    # Dark's D4 gained; light's E4 cost light nothing (dark's chances fell); dark's
    # B2 lost 30 points where D5 was best; the pass is forced; A1 was the best move.
    assert [(each.ply, each.kind, each.best) for each in judged.judgements] == [
        (3, "blunder", "D5")
    ]
    assert judged.of(3).text == "B2 lost 30%: D5 was best" and judged.of(3).symbol == "??"
    assert judged.of(2) is None
    dark, light = judged.sides
    assert (dark.color, dark.judged, dark.blunders, dark.mistakes) == ("dark", 3, 1, 0)
    assert dark.average_percent == 10.0  # (0 + 30 + 0) / 3
    assert (light.judged, light.inaccuracies, light.average_percent) == (1, 0, 0.0)


def test_the_level_own_move_is_never_marked_and_unanalysed_moments_are_not_judged():
    judged = review(
        [0.9, 0.2, None, 0.5], ["D4", "E4", ""], [("dark", "D4"), ("light", "E4"), ("dark", "C3")]
    )
    assert judged.judgements == ()
    assert [side.judged for side in judged.sides] == [1, 0]


def test_the_estimate_holds_steady_over_moves_the_search_agrees_with():
    """Moves the strongest level would play itself change little: its estimates of
    consecutive moments must not saw-tooth towards whoever is to move."""
    position = Position.replay(Rules(), MIDGAME)
    estimates = []
    for ply in range(12):
        found = analyse(position, playouts=1500, seed=ply)
        estimates.append(found.dark_win)
        position = position.play(found.move)
    swings = [abs(after - before) for before, after in zip(estimates, estimates[1:], strict=False)]
    assert max(swings) <= 0.12, estimates
    assert sum(swings) / len(swings) <= 0.05, estimates
