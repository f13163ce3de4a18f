"""The engine benchmark (bench/engine.py) measures what it says, briefly."""

from __future__ import annotations

from bench import engine
from game.engine import Rules


def test_the_search_figures_count_playouts_and_iterations():
    playouts, iterations = engine.measure_search(Rules(), seconds=0.05, seed=1)
    assert playouts > 100 and iterations > 100


def test_the_benchmark_prints_both_figures_for_every_rule_set(capsys):
    engine.main(["--seconds", "0.02", "--rounds", "1", "--all"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 8
    assert sum("playouts/s best" in line for line in lines) == 4
    assert sum("MCTS iterations/s" in line for line in lines) == 4
    assert any(line.startswith("wraparound") and "guided" in line for line in lines)
