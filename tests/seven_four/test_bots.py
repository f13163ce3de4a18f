"""The 7-4-1776 computer players (game/seven_four/bots/): every level plays legal
moves quickly, each fills the board when it can, seeds repeat choices, the greedy
level beats the random one, and the search's bitboard shortcuts agree with the
engine."""

from __future__ import annotations

import random
import time

import pytest

from game.seven_four import SLIDES, Color, Position
from game.seven_four.bots import (
    LEVEL_IDS,
    LEVELS,
    STRONGEST,
    analyse,
    choose_move,
    level,
    policy,
    reference,
    search,
)

# Blue to move, B1 and B2 empty, everything else red but blue's lone A1 and C1: a drop
# leaves red the last square, but A1-B1 (or C1-B1, A1-B2, C1-B2) fills the board.
FILL_THE_BOARD = "B.BRRRRRRR/R.RRRRRRRR/" + "/".join(["RRRRRRRRRR"] * 8) + " b"


def _some_positions() -> list[Position]:
    rng = random.Random(7)
    found = [Position.start()]
    pos = Position.start()
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.ply in (12, 60, 80):
            found.append(pos)
    return found + [Position.from_text(FILL_THE_BOARD)]


def test_the_ladder_names_four_levels_weakest_first():
    assert len(LEVELS) >= 4
    assert STRONGEST is LEVELS[-1]
    assert level("general") is STRONGEST
    assert len(set(LEVEL_IDS)) == len(LEVEL_IDS)
    for each in LEVELS:
        assert each.name and each.description and each.seconds > 0
    with pytest.raises(KeyError, match="not a level"):
        level("king")


@pytest.mark.timing
@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_every_level_plays_a_legal_move_quickly(level_id):
    for pos in _some_positions():
        started = time.perf_counter()
        move = choose_move(pos, level_id, seconds=0.05, seed=1)
        assert time.perf_counter() - started < 1.0
        assert move in pos.legal_moves()


def test_a_finished_game_has_no_move_to_choose():
    pos = Position.from_text(FILL_THE_BOARD).play("A1-B1")
    assert pos.is_over
    with pytest.raises(ValueError, match="over"):
        choose_move(pos, STRONGEST.id, seconds=0.05)
    with pytest.raises(ValueError, match="over"):
        analyse(pos, 0.05)


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_every_level_fills_the_board_when_it_can(level_id):
    pos = Position.from_text(FILL_THE_BOARD)
    assert pos.play("B1").play("B2").winner is Color.LIGHT  # a drop loses
    move = choose_move(pos, level_id, seconds=0.05, seed=2)
    assert move.is_slide
    assert pos.play(move).outcome() == ("blue", "board-full")


@pytest.mark.parametrize("level_id", LEVEL_IDS[:-1])
def test_a_seed_repeats_the_choice(level_id):
    pos = _some_positions()[1]
    first = choose_move(pos, level_id, seed=11)
    assert all(choose_move(pos, level_id, seed=11) == first for _ in range(2))


def _match(blue_player, red_player, seed: int) -> str:
    rng = random.Random(seed)
    pos = Position.start()
    while not pos.is_over:
        player = blue_player if pos.turn is Color.DARK else red_player
        pos = pos.play(player(pos, rng))
    return pos.result


def test_the_greedy_level_beats_the_random_one():
    def greedy(pos, rng):
        return choose_move(pos, "minuteman", seed=rng.randrange(1 << 30))

    def anyhow(pos, rng):
        return reference.random_move(pos, rng)

    won = sum(_match(greedy, anyhow, seed) == "blue" for seed in range(3))
    won += sum(_match(anyhow, greedy, seed) == "red" for seed in range(3, 6))
    assert won >= 5


def test_analysis_gives_a_sane_estimate():
    pos = Position.start()
    found = analyse(pos, 0.3)
    assert found.move in pos.legal_moves()
    assert found.line and found.line[0] == found.move
    assert 0.05 < found.dark_win < 0.95 and not found.proven
    assert found.iterations > 50
    assert analyse(pos, playouts=100, seed=3) == analyse(pos, playouts=100, seed=3)
    won = analyse(Position.from_text(FILL_THE_BOARD), 0.1)
    assert won.proven and won.dark_win == 1.0 and won.move.is_slide


def test_the_search_lists_the_legal_moves_with_their_priors():
    for pos in _some_positions():
        listed = search.tree_moves(pos)
        assert sorted((move for _, move in listed), key=str) == sorted(pos.legal_moves(), key=str)
        priors = [prior for prior, _ in listed]
        assert priors == sorted(priors)


def test_the_bitboard_shortcuts_agree_with_the_engine():
    rng = random.Random(5)
    for _ in range(20):
        pos = Position.start()
        while not pos.is_over:
            moves = pos.legal_moves()
            wins = [move for move in moves if pos.play(move).winner is pos.turn]
            found = policy.winning_move(pos)
            assert (found is not None) == bool(wins)
            assert found is None or found in wins
            blue, red = pos.stones
            own = red if pos.turn is Color.LIGHT else blue
            slid = {(origin, target) for origin, target, _ in policy.slides(own, blue | red)}
            assert slid == {(m.origin, m.target) for m in moves if m.is_slide}
            for origin, target, filled in policy.slides(own, blue | red):
                after = pos.play(SLIDES[origin][target])
                assert after.last_filled == tuple(
                    square for square in range(100) if filled >> square & 1
                )
            chance = policy.playout(pos, rng)
            assert 0.0 <= chance <= 1.0
            pos = pos.play(rng.choice(moves))


def test_the_reference_players_play_legal_moves():
    pos = _some_positions()[2]
    rng = random.Random(1)
    assert reference.random_move(pos, rng) in pos.legal_moves()
    assert reference.greedy_move(pos, rng) in pos.legal_moves()
    assert reference.uct_move(pos, rng, 0.05) in pos.legal_moves()
    won = reference.greedy_move(Position.from_text(FILL_THE_BOARD), rng)
    assert Position.from_text(FILL_THE_BOARD).play(won).winner is Color.DARK
