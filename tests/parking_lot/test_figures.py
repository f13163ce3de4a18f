"""The figures Parking Lot's rule book (docs/PARKING-LOT.md, "Figures") says a correct
engine reproduces: perft from the start and from a mid-game position, and 200 random
games with one ``random.Random(2014)``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from game.parking_lot import Color, Position
from game.parking_lot.perft import MID_GAME, perft

MID_GAME_TEXT = "......../.B.RRB../.B...B../....RR../......B./...B..B./...B..../RR...RR. b"


def test_the_mid_game_position_is_the_rule_books() -> None:
    mid = Position.replay(MID_GAME)
    assert mid.to_text() == MID_GAME_TEXT
    assert mid.turn is Color.DARK
    assert mid.record == ("D4", "E4", "B2", "B1", "F2 D4-D6", "A8", "G5", "F8 B1-D2")


@pytest.mark.parametrize(("depth", "count"), [(1, 56), (2, 2_940), (3, 5_966_124)])
def test_perft_from_the_start(depth: int, count: int) -> None:
    assert perft(Position.start(), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 1_838), (2, 2_493_347)])
def test_perft_from_the_mid_game(depth: int, count: int) -> None:
    assert perft(Position.replay(MID_GAME), depth) == count


def test_perft_counts_what_legal_moves_lists() -> None:
    mid = Position.replay(MID_GAME)
    moves = mid.legal_moves()
    assert len(moves) == mid.count_moves() == 1_838
    assert len({str(move) for move in moves}) == len(moves)
    assert sum(len(mid.play(move).legal_moves()) for move in moves[::50]) == sum(
        mid.play(move).count_moves() for move in moves[::50]
    )


def test_two_hundred_random_games_give_the_rule_books_results() -> None:
    rng = random.Random(2014)
    results: Counter[tuple[str, str]] = Counter()
    lengths = drives = 0
    for _ in range(200):
        pos = Position.start()
        while not pos.is_over:
            legal = pos.legal_moves()
            assert [str(move) for move in legal] == sorted(str(move) for move in legal)
            move = rng.choice(legal)
            drives += move.drives
            pos = pos.play(move)
        results[tuple(pos.outcome())] += 1
        lengths += len(pos.record)
    assert results == {
        ("blue", "largest-group"): 77,
        ("blue", "next-group"): 23,
        ("red", "largest-group"): 73,
        ("red", "next-group"): 10,
        ("draw", "equal-groups"): 17,
    }
    assert lengths == 200 * 16
    assert round(drives / 200, 2) == 11.54


def test_a_random_turn_is_the_one_choice_from_the_legal_list_gives() -> None:
    listing, counting = random.Random(7), random.Random(7)
    for _ in range(20):
        pos = Position.start()
        while not pos.is_over:
            expected = listing.choice(pos.legal_moves())
            assert pos.random_move(counting) == expected
            pos = pos.play(expected)
    with pytest.raises(IndexError):
        pos.random_move(counting)
