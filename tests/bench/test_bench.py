"""The engine benchmark (bench/engine.py) and the instruction counts
(bench/instructions.py) measure what they say, briefly."""

from __future__ import annotations

import random
import subprocess

import pytest

from bench import engine, instructions
from game.engine import Position, Rules
from tests.support import system


def test_the_search_figures_count_playouts_and_iterations():
    playouts, iterations = engine.measure_search(Rules(), seconds=0.05, seed=1)
    assert playouts > 100 and iterations > 100


def test_the_benchmark_prints_both_figures_for_every_rule_set(capsys):
    engine.main(["--seconds", "0.02", "--rounds", "1", "--all"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 20
    assert sum("playouts/s best" in line for line in lines) == 9
    assert sum("MCTS iterations/s" in line for line in lines) == 5
    assert any(line.startswith("wraparound") and "guided" in line for line in lines)
    # Cyngesheall's beside Mǽrstánas's: its random games, then its search; then
    # 7-4-1776's random games and its search, Parking Lot's, Land Grab's, then Moai's
    # on each board.
    assert [line.split()[0] for line in lines[-12:-10]] == ["cyngesheall", "cyngesheall"]
    assert lines[-10].startswith("7-4-1776") and "playouts/s best" in lines[-10]
    assert lines[-9].startswith("7-4-1776 search:") and "playouts a second" in lines[-9]
    assert lines[-8].startswith("parking-lot") and "random games/s" in lines[-8]
    assert lines[-7].startswith("Parking Lot search:") and "playouts a second" in lines[-7]
    assert lines[-6].startswith("Land Grab") and "playouts/s best" in lines[-6]
    assert lines[-5].startswith("Land Grab search:") and "playouts a second" in lines[-5]
    assert lines[-4].startswith("moai square") and "playouts/s best" in lines[-4]
    assert lines[-3].startswith("moai square search:") and "playouts a second" in lines[-3]
    assert lines[-2].startswith("moai hex") and "playouts/s best" in lines[-2]
    assert lines[-1].startswith("moai hex search:") and "playouts a second" in lines[-1]


@pytest.mark.slow
def test_the_instruction_counts_run_each_workload_and_count_a_playout():
    system.require("valgrind")
    instructions.playout(3)
    instructions.search(1)
    per_playout = instructions.per_unit(instructions.ROOT, "playout", 3)
    # A random game is some 36 moves; each costs thousands of instructions, not millions.
    assert 100_000 < per_playout < 10_000_000


def test_the_move_workload_runs_in_the_process_callgrind_counts(tmp_path):
    """The htmx move, run as ``count`` runs it under valgrind (here without it): from
    the script's path, where bench/'s own modules must not stand for the standard
    library's."""
    database = tmp_path / "db.sqlite3"
    instructions.migrate(instructions.ROOT, database)
    done = subprocess.run(
        instructions.run_command("move", 2),
        cwd=instructions.ROOT,
        env=instructions.run_env(instructions.ROOT, database),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]


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
        clock=None,
    )
    load.report([result(500, 20.0)], args)
    said = capsys.readouterr().out
    assert "met up to 500 games; 500 games: met" in said and "3,000" not in said
    load.report([result(500, 20.0), result(1000, 500.0)], args)
    assert "met up to 500 games; 1,000 games: not met" in capsys.readouterr().out


def test_the_lobby_scenario_times_each_change_on_each_stream_from_canned_events():
    import json

    from bench.ledger import EventReader, Ledger, changed_ids

    def event(revision: int, rows: list[str], gone: list[str]) -> bytes:
        # A row's HTML may hold what looks like an entry: only the entries' ids count.
        data = {
            "revision": revision,
            "rows": [
                {"id": i, "html": f'<li data-challenge="{i}" data-x=\'{{"id": "no"}}\'>'}
                for i in rows
            ],
            "gone": [{"id": i, "status": "accepted"} for i in gone],
        }
        return f"id: {revision}\nevent: lobby\ndata: {json.dumps(data)}\n\n".encode()

    ((name, data),) = EventReader().feed(event(1, ["aB-_1234", "x"], ["y"]))
    assert name == b"lobby"
    assert changed_ids(data) == ([b"aB-_1234", b"x"], [b"y"])
    ledger = Ledger()
    streams = [EventReader() for _ in range(3)]

    def hear(number: int, raw: bytes, now: float) -> None:
        for name, data in streams[number].feed(raw):
            if name == b"lobby":
                ledger.heard(number, data, now)

    for reader in streams:
        assert reader.feed(b"retry: 1000\n\n: keep-alive\n\n") == []
        assert reader.retry == b"1000"
    # Stream 0 hears of the new challenge before the post's answer names it, the
    # event split across two reads; stream 1 after; stream 2 only once it has gone.
    posted_raw = event(5, ["new"], [])
    hear(0, posted_raw[:40], 10.0)
    hear(0, posted_raw[40:], 10.05)
    posted = ledger.posted("new", sent=10.0, answered=10.08)
    hear(1, posted_raw, 10.1)
    accepted = ledger.accepting("new")
    accepted.sent, accepted.answered = 11.0, 11.02
    hear(0, event(6, [], ["new"]), 11.05)
    hear(2, event(6, [], ["new"]), 11.2)
    # A change that failed is not waited for; one nobody made is not counted.
    ledger.forget(ledger.accepting("old"))
    hear(1, event(7, [], ["old"]), 11.3)

    assert streams[0].last_id == b"6" and streams[1].last_id == b"7"
    assert posted.heard == {0: 10.05, 1: 10.1, 2: 11.2}
    assert accepted.heard == {0: 11.05, 2: 11.2}
    from_send, from_answer, to_all, missed = ledger.delays(streams=3)
    assert [round(d) for d in from_send] == [50, 100, 1200, 50, 200]
    assert [round(d) for d in from_answer] == [0, 20, 1120, 30, 180]
    assert [round(d) for d in to_all] == [1200]  # the accept never reached stream 1
    assert missed == 1 and not ledger.complete(3)


def test_a_clock_is_read_as_the_lobby_writes_it():
    import argparse

    from bench import load

    assert load.clock_terms("5+3") == (300, 3)
    assert load.clock_terms("0.5+0") == (30, 0)
    assert load.clock_text((300, 3)) == "5+3"
    with pytest.raises(argparse.ArgumentTypeError, match="minutes"):
        load.clock_terms("five")


def test_the_estimates_benchmark_reads_each_way_from_one_search(capsys):
    from bench import estimates

    estimates.main(["--games", "1", "--iterations", "60", "--moves", "20"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 games, 60 iterations a moment")
    assert [line.split("change")[0].strip() for line in lines[1:]] == list(estimates.WAYS)
    through, after, half = estimates.estimates(Position.start(), 200, random.Random(3))
    assert half == (through + after) / 2 and 0.0 <= through <= 1.0 and 0.0 <= after <= 1.0
