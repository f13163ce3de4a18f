"""The arena (bench/arena.py): its Elo arithmetic, its table and one real game."""

from __future__ import annotations

import json

import pytest

from bench import arena
from game.engine import Rules


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
