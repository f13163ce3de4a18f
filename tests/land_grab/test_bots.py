"""The Land Grab computer players (game/land_grab/bots/): every level plays legal
moves quickly, each takes the other side's last stone when it can, seeds repeat
choices, the greedy level beats the random one, and the search's bitboard shortcuts
agree with the engine."""

from __future__ import annotations

import random
import time

import pytest

from game.land_grab import Color, Position
from game.land_grab.bots import (
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
from game.land_grab.engine import FULL

# Black to move with one stone on A1; white's last stone on H8 can be taken by the
# diagonal approach A1-G7, and many plain flips are there too.
TAKE_THE_LAST = "Bwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwwb/wwwwwwbW b 20 0 -"


def _some_positions() -> list[Position]:
    rng = random.Random(7)
    found = [Position.start()]
    pos = Position.start()
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.ply in (4, 12, 40):
            found.append(pos)
    return found + [Position.from_text(TAKE_THE_LAST)]


def test_the_ladder_names_four_levels_weakest_first():
    assert len(LEVELS) >= 4
    assert STRONGEST is LEVELS[-1]
    assert level("baron") is STRONGEST
    assert len(set(LEVEL_IDS)) == len(LEVEL_IDS)
    kinds = [each.kind for each in LEVELS]
    assert kinds[:2] == ["random", "greedy"] and kinds[2:] == ["search", "search"]
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
    pos = Position.from_text(TAKE_THE_LAST).play("A1-G7")
    assert pos.is_over
    with pytest.raises(ValueError, match="over"):
        choose_move(pos, STRONGEST.id, seconds=0.05)
    with pytest.raises(ValueError, match="over"):
        analyse(pos, 0.05)


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_every_level_takes_the_last_stone_when_it_can(level_id):
    pos = Position.from_text(TAKE_THE_LAST)
    assert len(pos.legal_moves()) > 10
    move = choose_move(pos, level_id, seconds=0.05, seed=2)
    assert pos.play(move).outcome() == ("black", "all-captured")


@pytest.mark.parametrize("level_id", LEVEL_IDS[:-1])
def test_a_seed_repeats_the_choice(level_id):
    pos = _some_positions()[2]
    first = choose_move(pos, level_id, seed=11)
    assert all(choose_move(pos, level_id, seed=11) == first for _ in range(2))


def _match(black_player, white_player, seed: int) -> str:
    rng = random.Random(seed)
    pos = Position.start()
    while not pos.is_over:
        player = black_player if pos.turn is Color.DARK else white_player
        pos = pos.play(player(pos, rng))
    return pos.result


def test_the_greedy_level_beats_the_random_one():
    def greedy(pos, rng):
        return choose_move(pos, "surveyor", seed=rng.randrange(1 << 30))

    def anyhow(pos, rng):
        return reference.random_move(pos, rng)

    won = sum(_match(greedy, anyhow, seed) == "black" for seed in range(3))
    won += sum(_match(anyhow, greedy, seed) == "white" for seed in range(3, 6))
    assert won >= 5


def test_analysis_gives_a_sane_estimate():
    pos = _some_positions()[1]
    found = analyse(pos, 0.3)
    assert found.move in pos.legal_moves()
    assert found.line and found.line[0] == found.move
    assert 0.02 < found.dark_win < 0.98 and not found.proven
    assert found.iterations > 50
    assert analyse(pos, playouts=100, seed=3) == analyse(pos, playouts=100, seed=3)
    won = analyse(Position.from_text(TAKE_THE_LAST), 0.1)
    assert won.proven and won.dark_win == 1.0 and won.move.capture is not None


def test_the_search_lists_the_legal_moves_with_their_priors():
    for pos in _some_positions():
        listed = search.tree_moves(pos)
        assert sorted((move for _, move in listed), key=str) == pos.legal_moves()
        priors = [prior for prior, _ in listed]
        assert priors == sorted(priors)
        for prior, move in listed:
            assert (prior >= 1.0) == (move.capture is not None)


def test_the_bitboard_shortcuts_agree_with_the_engine():
    rng = random.Random(5)
    for _ in range(15):
        pos = Position.start()
        while not pos.is_over:
            moves = pos.legal_moves()
            wins = [move for move in moves if pos.play(move).winner is pos.turn]
            captures_last = [
                move for move in wins if pos.play(move).outcome().reason == "all-captured"
            ]
            found = policy.winning_move(pos)
            assert (found is not None) == bool(captures_last)
            assert found is None or found in captures_last
            if not pos.is_dropping:
                black, white = pos.stones
                own, enemy = (white, black) if pos.turn is Color.LIGHT else (black, white)
                own_tiles = pos.tiles if pos.turn is Color.DARK else FULL ^ pos.tiles
                flipped = {
                    (origin, target, -1 if taken < 0 else taken)
                    for origin, target, taken in policy.flips(own, enemy, FULL ^ own_tiles)
                }
                engine_flips = {
                    (move.origin, move.target, -1 if move.capture is None else move.capture)
                    for move in moves
                    if move.origin is not None and not own_tiles >> move.target & 1
                }
                assert flipped == engine_flips
            chance = policy.playout(pos, rng)
            assert 0.0 <= chance <= 1.0
            pos = pos.play(rng.choice(moves))


def test_the_evaluation_favours_the_larger_claim_and_the_extra_stone():
    even = policy.evaluate(0, 1, 2)  # every tile white: white's one claim of 64
    assert even < 0.01
    start = Position.replay(["D4", "C4", "F2", "D3"])
    black, white = start.stones
    assert policy.evaluate(start.tiles, black, white) == pytest.approx(0.5)
    assert policy.evaluate(start.tiles, black, white & (white - 1)) > 0.7


def test_the_reference_players_play_legal_moves():
    pos = _some_positions()[2]
    rng = random.Random(1)
    assert reference.random_move(pos, rng) in pos.legal_moves()
    assert reference.greedy_move(pos, rng) in pos.legal_moves()
    assert reference.uct_move(pos, rng, 0.05) in pos.legal_moves()
    won = reference.greedy_move(Position.from_text(TAKE_THE_LAST), rng)
    assert Position.from_text(TAKE_THE_LAST).play(won).winner is Color.DARK


@pytest.mark.timing
def test_the_strongest_level_runs_a_thousand_playouts_a_second_even_on_a_busy_machine():
    # make bench measures the real figure (some 18,000 a second on a quiet machine).
    pos = _some_positions()[2]
    started = time.perf_counter()
    _, iterations = search.search_tree(pos, random.Random(1), deadline=started + 0.3)
    assert iterations / (time.perf_counter() - started) > 1000
