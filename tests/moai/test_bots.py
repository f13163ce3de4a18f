"""The Moai computer players (game/moai/bots/): every level plays legal moves quickly
on both boards, each traps the other Moai when it can, seeds repeat choices, the
greedy level beats the random one, and the playouts' quick turns are turns."""

from __future__ import annotations

import random
import time

import pytest

from game.moai import Color, Position, Rules
from game.moai.bots import (
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
from game.moai.engine import can_move, is_turn

# White to move; the black Moai on H7 has one way out, G7: a counter on G7 (in line,
# and next to it) traps it, since row 7 is its only open line.
TRAP = "#......#/o......./......../......W./......../......oo/.......B/#.....o# w"


def _some_positions() -> list[Position]:
    found = []
    for board, seed in (("square", 7), ("hex", 8)):
        rng = random.Random(seed)
        pos = Position.start(Rules(board))
        found.append(pos)
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.ply in (1, 2, 12, 30):
                found.append(pos)
    return found + [Position.from_text(TRAP)]


def test_the_ladder_names_four_levels_weakest_first():
    assert len(LEVELS) >= 4
    assert STRONGEST is LEVELS[-1]
    assert level("ariki") is STRONGEST
    assert len(set(LEVEL_IDS)) == len(LEVEL_IDS)
    assert [each.kind for each in LEVELS] == ["random", "greedy", "search", "search"]
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
        assert time.perf_counter() - started < 1.5
        assert move in pos.legal_moves()


def test_the_trap_is_a_win_at_once():
    pos = Position.from_text(TRAP)
    after = pos.play("G7:G4-G3")
    assert after.is_over and after.winner is Color.DARK


def test_a_finished_game_has_no_move_to_choose():
    pos = Position.from_text(TRAP).play("G7:G4-G3")
    with pytest.raises(ValueError, match="over"):
        choose_move(pos, STRONGEST.id, seconds=0.05)
    with pytest.raises(ValueError, match="over"):
        analyse(pos, 0.05)


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_every_level_traps_the_other_moai_when_it_can(level_id):
    pos = Position.from_text(TRAP)
    move = choose_move(pos, level_id, seconds=0.05, seed=2)
    assert pos.play(move).outcome() == ("white", "moai-stuck")


@pytest.mark.parametrize("level_id", LEVEL_IDS[:-1])
def test_a_seed_repeats_the_choice(level_id):
    pos = _some_positions()[3]
    first = choose_move(pos, level_id, seed=11)
    assert all(choose_move(pos, level_id, seed=11) == first for _ in range(2))


def _match(white_player, black_player, seed: int, board: str = "square") -> str:
    rng = random.Random(seed)
    pos = Position.start(Rules(board))
    while not pos.is_over:
        player = white_player if pos.turn is Color.DARK else black_player
        pos = pos.play(player(pos, rng))
    return pos.result


def test_the_greedy_level_beats_the_random_one():
    def greedy(pos, rng):
        return choose_move(pos, "carver", seed=rng.randrange(1 << 30))

    def anyhow(pos, rng):
        return reference.random_move(pos, rng)

    won = sum(_match(greedy, anyhow, seed) == "white" for seed in range(3))
    won += sum(_match(anyhow, greedy, seed) == "black" for seed in range(3, 6))
    assert won >= 5


def test_analysis_gives_a_sane_estimate():
    pos = _some_positions()[3]
    found = analyse(pos, 0.3)
    assert found.move in pos.legal_moves()
    assert found.line and found.line[0] == found.move
    assert 0.0 <= found.dark_win <= 1.0
    assert found.iterations > 50 or found.proven
    assert analyse(pos, playouts=100, seed=3) == analyse(pos, playouts=100, seed=3)
    won = analyse(Position.from_text(TRAP), 0.1)
    assert won.proven and won.dark_win == 1.0
    assert Position.from_text(TRAP).play(won.move).is_over


def test_the_search_lists_the_legal_moves_with_their_priors():
    for pos in _some_positions():
        listed = search.tree_moves(pos)
        assert sorted(move for _, move in listed) == pos.legal_moves()
        priors = [prior for prior, _ in listed]
        assert priors == sorted(priors)


def test_the_playouts_quick_turns_are_turns_and_the_wins_are_wins():
    rng = random.Random(5)
    for board in ("square", "hex"):
        for _ in range(6):
            pos = Position.start(Rules(board))
            while not pos.is_over:
                moves = pos.legal_moves()
                if not pos.is_placing:
                    white, black = pos.moai
                    occupied = pos.occupied
                    for _ in range(10):
                        found = policy.random_turn(
                            pos.geometry, white, black, occupied, pos._turn, rng
                        )
                        if found is not None:
                            assert is_turn(pos.geometry, *found, occupied)
                    win = policy.winning_move(pos)
                    if win is not None:
                        assert pos.play(win).winner is pos.turn
                    own = pos.moai[pos._turn]
                    assert can_move(pos.geometry, own, occupied)
                chance = policy.playout(pos, rng)
                assert 0.0 <= chance <= 1.0
                pos = pos.play(rng.choice(moves))


def test_the_reference_players_play_legal_moves():
    pos = _some_positions()[3]
    rng = random.Random(1)
    assert reference.random_move(pos, rng) in pos.legal_moves()
    assert reference.greedy_move(pos, rng) in pos.legal_moves()
    assert reference.uct_move(pos, rng, 0.05) in pos.legal_moves()
    trap = Position.from_text(TRAP)
    assert trap.play(reference.greedy_move(trap, rng)).winner is Color.DARK


def test_the_searchs_priors_are_the_move_values():
    for pos in _some_positions():
        if pos.is_over:
            continue
        moves = pos.legal_moves()
        expected = dict(zip(moves, policy.move_values(pos, moves), strict=True))
        listed = search.tree_moves(pos)
        assert {move: prior for prior, move in listed} == pytest.approx(expected)
