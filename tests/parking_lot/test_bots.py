"""The Parking Lot computer players (game/parking_lot/bots/): every level plays legal
turns quickly, the levels that look at the turn find the turn that wins, seeds repeat
choices, the commuter beats the learner, the last two turns are solved as the rules
judge them, the evaluation counts liberties, and the playouts' turns follow the
rules."""

from __future__ import annotations

import math
import random
import time

import pytest

from game.parking_lot import Color, Move, Position
from game.parking_lot.bots import (
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
from game.parking_lot.engine import groups as groups_of

MID_GAME = "D4 | E4 | B2 | B1 | F2 D4-D6 | A8 | G5 | F8 B1-D2"

# Red to move, the last turn: a piece on E4 or E5 joins its four and its three into
# eight and wins; on E6 or anywhere else it loses to blue's five, or draws.
LAST_TURN = (
    "/".join(
        [
            "BBBBB...",
            "BBBBB...",
            "........",
            "RRRR..RR",
            "RRRR..RR",
            "......RR",
            ".....BBB",
            ".....BBB",
        ]
    )
    + " r"
)
WINS = {"E4", "E5"}


def _some_positions() -> list[Position]:
    rng = random.Random(7)
    found = [Position.start(), Position.replay(MID_GAME), Position.from_text(LAST_TURN)]
    pos = Position.start()
    for _ in range(12):
        pos = pos.play(pos.random_move(rng))
    found.append(pos)
    return found


def test_the_ladder_names_four_levels_weakest_first() -> None:
    assert len(LEVELS) >= 4
    assert STRONGEST is LEVELS[-1] and level("attendant") is STRONGEST
    assert len(set(LEVEL_IDS)) == len(LEVEL_IDS)
    assert [each.kind for each in LEVELS] == ["random", "joiner", "greedy", "search"]
    for each in LEVELS:
        assert each.name and each.description and each.seconds > 0
    with pytest.raises(KeyError, match="not a level"):
        level("chauffeur")


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_every_level_plays_a_legal_turn_quickly(level_id: str) -> None:
    for pos in _some_positions():
        started = time.perf_counter()
        move = choose_move(pos, level_id, seconds=0.05, seed=1)
        assert time.perf_counter() - started < 1.0
        assert isinstance(move, Move) and pos.is_legal(move)


def test_a_finished_game_has_no_turn_to_choose() -> None:
    over = Position.from_text(LAST_TURN).play("E4")
    assert over.is_over
    with pytest.raises(ValueError, match="over"):
        choose_move(over, "attendant", seconds=0.05)
    with pytest.raises(ValueError, match="over"):
        analyse(over, 0.05)


@pytest.mark.parametrize("level_id", ["valet", "attendant"])
def test_the_levels_that_weigh_their_turn_find_the_winning_turn(level_id: str) -> None:
    pos = Position.from_text(LAST_TURN)
    for seed in range(3):
        move = choose_move(pos, level_id, seconds=0.2, seed=seed)
        assert str(move) in WINS
        assert pos.play(move).outcome().winner is Color.LIGHT


@pytest.mark.parametrize("level_id", ["learner", "commuter", "valet"])
def test_a_seed_repeats_the_choice(level_id: str) -> None:
    pos = Position.replay(MID_GAME)
    first = choose_move(pos, level_id, seed=5)
    assert all(choose_move(pos, level_id, seed=5) == first for _ in range(2))


def test_the_commuter_beats_the_learner() -> None:
    points = 0.0
    for game in range(4):
        pos = Position.start()
        commuter = game % 2  # 0: the commuter is blue
        while not pos.is_over:
            mover = "commuter" if pos.turn is (Color.DARK, Color.LIGHT)[commuter] else "learner"
            pos = pos.play(choose_move(pos, mover, seed=100 * game + pos.ply))
        winner = pos.outcome().winner
        points += 1.0 if winner is (Color.DARK, Color.LIGHT)[commuter] else 0.5 * (winner is None)
    assert points >= 3.5


def test_the_commuter_parks_against_its_own_cars_most_of_the_time() -> None:
    pos = Position.replay(MID_GAME)
    joins = {anchor for anchor in pos.placements() if _joins(pos, anchor)}
    assert joins
    chosen = [choose_move(pos, "commuter", seed=seed) for seed in range(200)]
    share = sum(move.place in joins for move in chosen) / len(chosen)
    assert 0.6 < share < 0.95
    assert all(pos.is_legal(move) for move in chosen)


def _joins(pos: Position, anchor: int) -> bool:
    """Whether a piece of the side to move on ``anchor`` makes its largest group larger."""
    before, after = pos.score(), pos.play(Move(anchor)).score()
    side = "blue" if pos._turn == 0 else "red"
    return max(getattr(after, side).sizes) > max(getattr(before, side).sizes, default=0)


def _last_turns(seed: int, placed: int) -> Position:
    """A random game's position after ``placed`` pieces went down."""
    rng = random.Random(seed)
    pos = Position.start()
    while pos.ply < placed:
        pos = pos.play(pos.random_move(rng))
    return pos


def _blue_points(pos: Position) -> float:
    winner = pos.outcome().winner
    return 0.5 if winner is None else 1.0 if winner is Color.DARK else 0.0


@pytest.mark.parametrize("seed", range(3))
def test_the_last_turn_is_solved_as_the_rules_judge_it(seed: int) -> None:
    pos = _last_turns(seed, 15)
    best = max(1.0 - _blue_points(pos.play(move)) for move in pos.legal_moves())
    assert 1.0 - _blue_points(pos.play(search.endgame(pos))) == best
    assert search.mcts(pos, random.Random(seed), playouts=10)[1] == 0  # no search


@pytest.mark.parametrize("seed", range(2))
def test_blues_last_turn_is_solved_against_every_reply(seed: int) -> None:
    pos = _last_turns(100 + seed, 14)

    def after_replies(after: Position) -> float:
        return min(_blue_points(after.play(reply)) for reply in after.legal_moves())

    values = {str(move): after_replies(pos.play(move)) for move in pos.legal_moves()}
    assert values[str(search.endgame(pos))] == max(values.values())
    assert search.endgame(_last_turns(seed, 13)) is None  # earlier turns are searched


# Blue to move. Red's block of three in the top-left corner has no room left beside
# it: blue's block of five walls it in. Red's other two cars lie on row 8.
WALLED_IN = (
    "/".join(
        [
            "RRRRB...",
            "RRBBB...",
            "BBBB....",
            "BB......",
            "........",
            "........",
            "........",
            "RRRR....",
        ]
    )
    + " b"
)


def test_a_block_with_no_room_left_beside_it_is_in_danger() -> None:
    pos = Position.from_text(WALLED_IN)
    blue, red = pos._pieces
    blue_squares, red_squares = blue | blue << 1, red | red << 8
    empty = ~(blue_squares | red_squares) & ((1 << 64) - 1)
    block = next(iter(sorted(groups_of(red_squares), key=int.bit_count, reverse=True)))
    assert block.bit_count() == 6 and policy.liberties(block, empty, 1) == 0
    assert policy.liberties(blue_squares, empty, 0) > 5
    # Blue leads by two pieces and a third of red's second group; the walled-in
    # block counts for more than that lead alone.
    lead_alone = 1.0 / (1.0 + math.exp(-policy.SHARPNESS * (2 - 2 / 3)))
    assert policy.evaluate(blue, red) > lead_alone + 0.05
    # The valet's one-ply value counts the lead alone; the search's prior, the room too.
    move = pos.legal_moves()[0]
    assert policy.move_prior(pos, move) > policy.move_value(pos, move) + 1


def test_analysis_sees_the_last_turn_won() -> None:
    found = analyse(Position.from_text(LAST_TURN), playouts=400, seed=1)
    assert str(found.move) in WINS and found.line[0] == found.move
    assert found.dark_win < 0.2  # red to move wins
    assert found.iterations == 400 and not found.proven


def test_the_playouts_turns_follow_the_rules() -> None:
    rng = random.Random(3)
    for _ in range(40):
        pos = Position.start()
        while not pos.is_over:
            own, other = pos._pieces[pos._turn], pos._pieces[1 - pos._turn]
            after, place, origin, target = policy.policy_turn(
                own, other, pos._turn, rng, not pos.is_last_turn
            )
            move = Move(place) if origin < 0 else Move(place, origin, target)
            pos = pos.play(move)  # raises for a turn the rules forbid
            assert pos._pieces[1 - pos._turn] == after


def test_playouts_end_with_blues_result() -> None:
    rng = random.Random(4)
    over = Position.from_text(LAST_TURN).play("E4")
    assert policy.playout(over, rng) == 0.0
    for pos in _some_positions():
        assert 0.0 <= policy.playout(pos, rng) <= 1.0
        assert policy.playout(pos, rng, turns=None) in (0.0, 0.5, 1.0)


def test_the_tree_lists_every_turn_at_the_root_and_placements_below() -> None:
    pos = Position.replay(MID_GAME)
    knows = search.knowledge(pos)
    assert sorted(str(m) for _, m in knows.moves(pos)) == sorted(str(m) for m in pos.legal_moves())
    child = pos.play("A1")
    below = [move for _, move in knows.moves(child)]
    assert [str(m) for m in below] and all(not m.drives for m in below)
    assert {m.place for m in below} == set(child.placements())
    priors = [prior for prior, _ in knows.moves(pos)]
    assert priors == sorted(priors)


def test_the_reference_players_play_legal_turns() -> None:
    rng = random.Random(5)
    for pos in _some_positions():
        assert pos.is_legal(reference.random_move(pos, rng))
        assert pos.is_legal(reference.greedy_move(pos, rng))
        assert pos.is_legal(reference.uct_move(pos, rng, 0.05))
    assert str(reference.greedy_move(Position.from_text(LAST_TURN), rng)) in WINS
    over = Position.from_text(LAST_TURN).play("E4")
    for player in (reference.random_move, reference.greedy_move):
        with pytest.raises(ValueError, match="over"):
            player(over, rng)
    with pytest.raises(ValueError, match="over"):
        reference.uct_move(over, rng, 0.01)
