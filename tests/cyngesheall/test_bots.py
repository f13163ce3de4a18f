"""The Cyngesheall computer players (game/cyngesheall/bots/): every level plays legal
moves quickly, the strongest sees the kings' race one and two moves ahead, seeds
repeat choices, and the search's bitboard shortcuts agree with the engine."""

from __future__ import annotations

import random
import time

import pytest

from game.cyngesheall import Color, Position
from game.cyngesheall.bots import (
    LEVEL_IDS,
    LEVELS,
    STRONGEST,
    analyse,
    choose_move,
    level,
    policy,
    reference,
)

# Dark to move: E7-E4 sandwiches light's king on D4 against the stone on C4.
KING_CAPTURE = "......./.K...../......./..Sk.../......./......c/....S.. d 3"
# Dark to move: its king on G5 has a clear line up column G to its goal, G1.
KING_HOME = "..k..../......./..s..../......./......K/......./......S d 0"
# Dark to move: A5-B5 would take the stone on C5, and open the A column for light's
# king on A3 to reach A7.
OPENS_THE_WAY = "......./......./k....../......./S.sS.../......./..K.... d 0"
# Dark to move: its king on F2 steps next to G1 (F1 or G2) and no light piece can
# reach G1 to stop it, so dark wins in two moves of its own.
WIN_IN_TWO = "......./.....K./.k...../......./..s..../......./......S d 0"


def _some_positions() -> list[Position]:
    rng = random.Random(7)
    found = [Position.start()]
    pos = Position.start()
    for _ in range(24):
        pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.is_over:
            break
    found.append(pos)
    found += [Position.from_text(text) for text in (KING_CAPTURE, OPENS_THE_WAY)]
    return found


def test_the_ladder_names_five_levels_weakest_first():
    assert len(LEVELS) >= 4
    assert STRONGEST is LEVELS[-1]
    assert level("cyning") is STRONGEST
    assert len(set(LEVEL_IDS)) == len(LEVEL_IDS)
    for each in LEVELS:
        assert each.name and each.description and each.seconds > 0
    with pytest.raises(KeyError, match="not a level"):
        level("eorl")


@pytest.mark.timing
@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_every_level_plays_a_legal_move_quickly(level_id):
    for pos in _some_positions():
        started = time.perf_counter()
        move = choose_move(pos, level_id, seconds=0.05, seed=1)
        assert time.perf_counter() - started < 1.0
        assert move in pos.legal_moves()


def test_a_finished_game_has_no_move_to_choose():
    pos = Position.from_text(KING_CAPTURE).play("E7-E4")
    assert pos.is_over
    with pytest.raises(ValueError, match="over"):
        choose_move(pos, "cyning", seconds=0.05)
    with pytest.raises(ValueError, match="over"):
        analyse(pos, 0.05)


@pytest.mark.parametrize("level_id", ["scop", "duguth", "gesith", "cyning"])
def test_the_levels_above_the_lowest_take_the_king(level_id):
    pos = Position.from_text(KING_CAPTURE)
    assert str(choose_move(pos, level_id, seconds=0.05, seed=2)) == "E7-E4"


def test_the_strongest_takes_the_king_and_goes_home_in_one():
    pos = Position.from_text(KING_CAPTURE)
    assert str(choose_move(pos, STRONGEST.id, seconds=0.1)) == "E7-E4"
    pos = Position.from_text(KING_HOME)
    move = choose_move(pos, STRONGEST.id, seconds=0.1)
    assert str(move) == "G5-G1"
    assert pos.play(move).outcome().reason == "king-home"


@pytest.mark.parametrize("level_id", ["duguth", "gesith", "cyning"])
def test_the_searching_levels_do_not_open_the_way_home(level_id):
    pos = Position.from_text(OPENS_THE_WAY)
    assert policy.winning_move(pos.play("A5-B5")) is not None  # the trap is real
    for seed in range(3):
        move = choose_move(pos, level_id, seconds=0.1, seed=seed)
        assert policy.winning_move(pos.play(move)) is None, move


def test_the_strongest_sees_a_win_in_two():
    pos = Position.from_text(WIN_IN_TWO)
    assert policy.winning_move(pos) is None
    move = choose_move(pos, STRONGEST.id, seconds=0.2)
    after = pos.play(move)
    for reply in after.legal_moves():
        assert policy.winning_move(after.play(reply)) is not None, (move, reply)
    found = analyse(pos, 0.2)
    assert found.proven and found.dark_win == 1.0


@pytest.mark.parametrize("level_id", LEVEL_IDS[:-1])
def test_a_seed_repeats_the_choice(level_id):
    pos = _some_positions()[1]
    first = choose_move(pos, level_id, seed=11)
    assert all(choose_move(pos, level_id, seed=11) == first for _ in range(2))


def test_analysis_gives_a_sane_estimate():
    pos = Position.start()
    found = analyse(pos, 0.3)
    assert found.move in pos.legal_moves()
    assert found.line and found.line[0] == found.move
    assert 0.2 < found.dark_win < 0.8 and not found.proven
    assert found.iterations > 50
    assert analyse(pos, playouts=100, seed=3) == analyse(pos, playouts=100, seed=3)
    won = analyse(Position.from_text(KING_HOME), 0.1)
    assert won.proven and won.dark_win == 1.0 and str(won.move) == "G5-G1"
    # Light to move in the same trap, after dark opened the way: light wins.
    lost = analyse(Position.from_text(OPENS_THE_WAY).play("A5-B5"), 0.1)
    assert lost.proven and lost.dark_win == 0.0


def test_the_bitboard_shortcuts_agree_with_the_engine():
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        pos = Position.start()
        while not pos.is_over:
            moves = pos.legal_moves()
            wins = [m for m in moves if pos.play(m).winner is pos.turn]
            king_wins = [
                m for m in wins if pos.play(m).outcome().reason in ("king-home", "king-captured")
            ]
            found = policy.winning_move(pos)
            assert (found is not None) == bool(king_wins)
            if found is not None:
                assert found in king_wins
            for move in moves[:8]:
                taken, king = reference.captures(pos, move)
                after = pos.play(move)
                assert taken == len(after.last_captured)
                assert king == (
                    after.outcome() is not None and after.outcome().reason == "king-captured"
                )
            checked += 1
            pos = pos.play(rng.choice(moves))
    assert checked > 1000


def test_playouts_end_with_a_result_for_dark():
    rng = random.Random(1)
    pos = Position.start()
    results = [policy.playout(pos, rng, plies=None) for _ in range(20)]
    assert all(r in (0.0, 0.5, 1.0) for r in results)
    assert all(0.0 <= policy.playout(pos, rng) <= 1.0 for _ in range(20))
    assert policy.playout(Position.from_text(KING_HOME), rng) == 1.0


def test_the_reference_players_play_legal_moves():
    rng = random.Random(2)
    pos = Position.from_text(KING_CAPTURE)
    assert str(reference.greedy_move(pos, rng)) == "E7-E4"
    assert reference.random_move(pos, rng) in pos.legal_moves()
    assert reference.uct_move(Position.start(), rng, 0.05) in Position.start().legal_moves()
    assert Position.start().turn is Color.DARK
