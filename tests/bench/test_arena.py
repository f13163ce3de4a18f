"""The arena (bench/arena.py): its Elo arithmetic, its table and one real game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings

from bench import arena
from bench.standings import Row
from game.engine import Rules
from game.moai.bots import LEVELS


def test_an_even_score_is_no_elo_difference_with_a_symmetric_interval():
    row = arena.Row("a:b", wins=40, ties=20, losses=40)
    elo, low, high = row.elo()
    assert row.score == 0.5
    assert elo == pytest.approx(0)
    assert low == pytest.approx(-high)
    assert -100 < low < -30  # 100 games: about ±60 Elo


def test_ties_narrow_the_interval():
    decisive = arena.Row("a:b", wins=30, ties=0, losses=10)
    tied = arena.Row("a:b", wins=20, ties=20, losses=0)
    assert decisive.score == tied.score == 0.75
    assert tied.elo()[2] - tied.elo()[1] < decisive.elo()[2] - decisive.elo()[1]


def test_a_perfect_score_is_clipped_and_marked():
    row = arena.Row("wita:random", wins=20)
    elo, low, high = row.elo()
    assert row.clipped
    assert 400 < elo < 800 and low < elo <= high
    assert "*" in arena.table([row]).splitlines()[-1]


def test_the_default_pairings_hold_the_ladder_and_the_goals():
    pairings = [*arena.ladder(), *arena.goals(0.25)]
    assert pairings[:2] == ["cild:random", "cild:heuristic"]
    assert "wita@0.25:aelfric" in pairings and "wita@0.25:uct@1" in pairings
    for pairing in pairings:
        for player in pairing.split(":"):
            assert arena.check_player(player) == player


def test_a_pairing_plays_whole_games_and_writes_its_json(tmp_path):
    rows = arena.run(["heuristic:random"], 2, Rules(), seed=1, jobs=1)
    assert rows[0].games == 2
    assert rows[0].time["heuristic"][1] > 10  # a move count: the game was played out
    path = tmp_path / "arena.json"
    arena.main(["cild:random", "--games", "2", "--jobs", "1", "--json", str(path)])
    record = json.loads(path.read_text())
    assert record["rows"][0]["games"] == 2
    assert set(record["ratings"]) == {"cild"}


def test_update_replaces_the_rows_it_plays_and_keeps_the_others(tmp_path, capsys):
    path = tmp_path / "arena.json"
    arena.main(["cild:random", "ceorl:cild", "--games", "2", "--jobs", "1", "--json", str(path)])
    first = json.loads(path.read_text())
    arena.main(["cild:random", "--games", "4", "--jobs", "1", "--json", str(path), "--update"])
    record = json.loads(path.read_text())
    assert [row["pairing"] for row in record["rows"]] == ["cild:random", "ceorl:cild"]
    assert record["rows"][0]["games"] == 4
    assert record["rows"][1] == first["rows"][1]
    assert set(record["ratings"]) == {"cild", "ceorl"}
    assert len(record["commands"]) == 2 and record["commands"][1].endswith("--update")
    assert "with the other rows of" in capsys.readouterr().out


def test_a_saved_row_keeps_its_figures():
    row = arena.Row("a:b", wins=3, ties=1, losses=2, time={"a": [1.5, 30], "b": [0.3, 30]})
    again = arena.Row.from_dict(row.as_dict())
    assert again.as_dict() == row.as_dict()
    assert again.elo() == row.elo()


def test_update_refuses_another_rule_set_and_a_missing_file_name(tmp_path, capsys):
    path = tmp_path / "arena.json"
    arena.main(["cild:random", "--games", "2", "--jobs", "1", "--json", str(path)])
    before = path.read_text()
    with pytest.raises(SystemExit):
        arena.main(["cild:random", "--wraparound", "--json", str(path), "--update"])
    assert "other rules" in capsys.readouterr().err
    assert path.read_text() == before
    with pytest.raises(SystemExit):
        arena.main(["cild:random", "--update"])
    assert "--update needs --json" in capsys.readouterr().err


def test_more_adds_new_games_to_a_saved_row(tmp_path):
    # Untimed players repeat their games, so four games played at once are the same
    # as two, and two more numbered on from them (with seed 3, games 2 and 3 end
    # otherwise than games 0 and 1, so playing 0 and 1 again would show).
    whole = arena.run(["cild:random"], 4, Rules(), seed=3, jobs=1)[0]
    path = tmp_path / "arena.json"
    arena.main(["cild:random", "--games", "2", "--seed", "3", "--jobs", "1", "--json", str(path)])
    arena.main(
        ["cild:random", "--games", "2", "--seed", "3", "--jobs", "1", "--json", str(path), "--more"]
    )
    row = json.loads(path.read_text())["rows"][0]
    assert (row["wins"], row["ties"], row["losses"]) == (whole.wins, whole.ties, whole.losses)
    assert row["games"] == 4


def test_an_interrupted_run_keeps_the_games_played_and_more_plays_on(tmp_path, capsys):
    path = tmp_path / "arena.json"
    command = ["wita@0.02:random", "--games", "60", "--jobs", "1", "--json", str(path)]
    before = signal.getsignal(signal.SIGINT)
    interrupt = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))
    interrupt.start()
    try:
        arena.main(command)
    finally:
        interrupt.cancel()
    assert signal.getsignal(signal.SIGINT) == before  # given back
    out = capsys.readouterr()
    assert "stopping: the games under way finish" in out.err
    row = json.loads(path.read_text())["rows"][0]
    assert 0 < row["games"] < 60
    assert f"stopped after {row['games']} of 60 games" in out.out
    # The games played were the pairing's first ones: more games are numbered on.
    arena.main(["wita@0.02:random", "--games", "1", "--jobs", "1", "--json", str(path), "--more"])
    assert json.loads(path.read_text())["rows"][0]["games"] == row["games"] + 1


def test_a_sigterm_to_the_whole_group_lets_the_games_under_way_finish(tmp_path):
    # As ``timeout`` or ``kill -- -group`` send it: to the arena and its workers alike.
    path = tmp_path / "arena.json"
    command = [sys.executable, "-m", "bench.arena", "wita@0.05:random", "--games", "200"]
    arena_run = subprocess.Popen(
        [*command, "--jobs", "2", "--json", str(path)],
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while "games" not in (arena_run.stderr.read(40) or "") and time.monotonic() < deadline:
        pass  # the first games are played: the workers are at work
    os.killpg(arena_run.pid, signal.SIGTERM)
    out, err = arena_run.communicate(timeout=60)
    assert arena_run.returncode == 0, err
    assert "stopping: the games under way finish" in err and "Traceback" not in err
    row = json.loads(path.read_text())["rows"][0]
    assert 0 < row["games"] < 200 and f"stopped after {row['games']} of 200 games" in out


def test_a_timed_level_at_its_own_time_rates_as_the_level():
    rows = [Row("visitor:random", 6, 0, 4), Row("carver:visitor", 8, 0, 2)]
    rows += [Row("elder:carver", 9, 0, 1), Row("ariki@1:elder", 7, 0, 3)]
    found = arena.ratings(rows, "moai")
    assert LEVELS[-1].seconds == 1.0 and LEVELS[-1].playouts is None
    assert list(found) == ["visitor", "carver", "elder", "ariki"]
    assert abs(found["ariki"] - found["elder"] - Row("a:b", 7, 0, 3).elo()[0]) <= 1
    # At another time it is not the level; nor is a level counted in playouts at its time.
    assert "ariki" not in arena.ratings([*rows[:3], Row("ariki@0.1:elder", 7, 0, 3)], "moai")
    assert LEVELS[-2].playouts is not None
    swapped = [rows[0], rows[1], Row(f"elder@{LEVELS[-2].seconds:g}:carver", 9, 0, 1)]
    assert "elder" not in arena.ratings(swapped, "moai")


def test_rows_added_together_weigh_their_times_by_games():
    one = arena.Row("a:b", wins=1, time={"a": [1.0, 10], "b": [2.0, 10]})
    three = arena.Row("a:b", ties=2, losses=1, time={"a": [3.0, 10], "b": [2.0, 10]})
    both = one.plus(three)
    assert (both.wins, both.ties, both.losses) == (1, 2, 1)
    assert both.mean_seconds("a") == pytest.approx((0.1 * 1 + 0.3 * 3) / 4)
    assert both.mean_seconds("b") == pytest.approx(0.2)


def test_any_games_option_is_asked_for_by_name(tmp_path, capsys):
    path = tmp_path / "arena.json"
    arena.main(
        ["visitor:random", "--game", "moai", "--rule", "board=hex"]
        + ["--games", "2", "--jobs", "1", "--json", str(path)]
    )
    assert json.loads(path.read_text())["rules"] == {"game": "moai", "board": "hex"}
    with pytest.raises(SystemExit):
        arena.main(["visitor:random", "--game", "moai", "--rule", "board=round"])
    assert "'round' is not square or hex" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        arena.main(["visitor:random", "--game", "moai", "--rule", "colour=red"])
    assert "Moai has no rule option colour" in capsys.readouterr().err
