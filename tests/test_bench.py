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


def test_the_load_reports_verdict_names_only_the_sizes_measured_so_far(capsys):
    import argparse
    from collections import Counter

    from bench import load

    def result(games: int, p95_ms: float) -> load.Result:
        return load.Result(
            games=games,
            streams=2 * games,
            moves=100,
            seconds=10.0,
            from_send=[p95_ms] * 20,
            from_answer=[p95_ms] * 20,
            healthz=[5.0] * 20,
            loop_lag=[1.0] * 20,
            errors=Counter(),
            cpu={"server": 1.0, "client": 0.5, "postgres": 0.0},
            setup_seconds=1.0,
            spread="1/1",
            idle=0.1,
        )

    args = argparse.Namespace(
        games=[500, 1000, 3000],
        database_url=None,
        workers=None,
        servers=1,
        seconds=10.0,
        connections=5000,
    )
    load.report([result(500, 20.0)], args)
    said = capsys.readouterr().out
    assert "met up to 500 games; 500 games: met" in said and "3,000" not in said
    load.report([result(500, 20.0), result(1000, 500.0)], args)
    assert "met up to 500 games; 1,000 games: not met" in capsys.readouterr().out
