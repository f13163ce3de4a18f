"""The engine benchmark (bench/engine.py) and the instruction counts
(bench/instructions.py) measure what they say, briefly."""

from __future__ import annotations

import pytest

from bench import engine, instructions
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


@pytest.mark.slow
def test_the_instruction_counts_run_each_workload_and_count_a_playout():
    instructions.playout(3)
    instructions.search(1)
    per_playout = instructions.per_unit(instructions.ROOT, "playout", 3)
    # A random game is some 36 moves; each costs thousands of instructions, not millions.
    assert 100_000 < per_playout < 10_000_000
