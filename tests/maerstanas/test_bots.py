"""The computer players (game/bots): legal moves on every rule set, repeatable with a
seed, on time, and an endgame solver that agrees with exhaustive minimax."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable

import pytest

from game import bots
from game.engine import PASS, Move, Position, Rules
from game.maerstanas.bots import reference, search
from tests.support.diagrams import CHECKERBOARD, board
from tests.support.exact import minimax
from tests.support.timing import timed

RULE_SETS = [
    Rules(),
    Rules(special_stones=False),
    Rules(scoring="simple"),
    Rules(wraparound=True),
    Rules(special_stones=False, scoring="simple", wraparound=True),
]


def midgame(rules: Rules, plies: int, seed: int = 0) -> Position:
    rng = random.Random(seed)
    position = Position.start(rules)
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_moves()))
    return position


def near_the_end(rules: Rules, remaining: int, seed: int) -> Position:
    """A random game stopped once at most ``remaining`` moves can still be played."""
    rng = random.Random(seed)
    position = Position.start(rules)
    while search.remaining_moves(position) > remaining and not position.is_over:
        position = position.play(rng.choice(position.legal_moves()))
    return position


def test_the_ladder_is_described_for_the_site():
    assert len(bots.LEVELS) >= 5
    assert tuple(level.id for level in bots.LEVELS) == bots.LEVEL_IDS
    assert len(set(bots.LEVEL_IDS)) == len(bots.LEVELS)
    assert bots.STRONGEST is bots.LEVELS[-1]
    for level in bots.LEVELS:
        assert level.id.isascii() and level.id.isalpha() and level.id.islower()
        assert level.name and level.description.endswith(".")
        assert 0 < level.seconds <= 1.0
        assert bots.level(level.id) is level
    with pytest.raises(KeyError, match="'nobody' is not a level: choose one of cild"):
        bots.level("nobody")


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
@pytest.mark.parametrize("level", bots.LEVEL_IDS)
def test_every_level_plays_legal_moves_on_every_rule_set(level, rules):
    for plies in (0, 17, 28):
        position = midgame(rules, plies, seed=plies)
        if position.is_over:
            continue
        move = bots.choose_move(position, level, seconds=0.05, seed=1)
        assert position.is_legal(move), (position, move)


@pytest.mark.parametrize("level", bots.LEVEL_IDS)
def test_a_level_passes_when_it_must_and_refuses_a_finished_game(level):
    must_pass = board(CHECKERBOARD, "d", "t")  # only light's thunder-stone can move
    assert must_pass.must_pass
    assert bots.choose_move(must_pass, level) is PASS
    over = board(CHECKERBOARD, "d", "-")
    assert over.is_over
    with pytest.raises(ValueError, match="the game is over"):
        bots.choose_move(over, level)


@pytest.mark.parametrize("level", [lv.id for lv in bots.LEVELS if lv.playouts])
def test_a_seed_repeats_a_level_counted_in_playouts(level):
    position = midgame(Rules(), 12, seed=4)
    moves = {bots.choose_move(position, level, seed=7) for _ in range(3)}
    assert len(moves) == 1
    others = {bots.choose_move(position, level, seed=seed) for seed in range(5)}
    assert position.is_legal(moves.pop()) and all(map(position.is_legal, others))


@pytest.mark.timing
def test_the_time_given_is_kept_within_a_tenth_and_fifty_milliseconds():
    for position in (Position.start(), midgame(Rules(), 20), near_the_end(Rules(), 19, 3)):
        for seconds in (0.05, 0.2):
            bound = seconds * 1.1 + 0.05
            move, spent = timed(
                lambda p=position, s=seconds: bots.choose_move(p, bots.STRONGEST, seconds=s),
                bound,
            )
            assert spent[-1] <= bound, (position, seconds, spent)
            assert position.is_legal(move)


@pytest.mark.timing
def test_the_strongest_level_thinks_for_about_its_second():
    bound = bots.STRONGEST.seconds * 1.1 + 0.05
    _, spent = timed(lambda: bots.choose_move(Position.start(), bots.STRONGEST), bound)
    assert bots.STRONGEST.seconds * 0.8 <= spent[-1] <= bound, spent


# --- The endgame solver --------------------------------------------------------------


SMALL_ENDGAMES = [(rules, seed) for rules in RULE_SETS for seed in range(4)]


@pytest.mark.parametrize(("rules", "seed"), SMALL_ENDGAMES, ids=str)
def test_the_solver_agrees_with_exhaustive_minimax(rules, seed):
    position = near_the_end(rules, 9, seed)
    if position.is_over:
        pytest.fail("the seed gives a finished game: choose another")
    proof = search.solve(position, time.perf_counter() + 30)
    assert proof is not None
    move, value = proof
    assert value == minimax(position)
    assert -minimax(position.play(move)) == value  # the move keeps the proven result


def reachable_margins(position: Position) -> frozenset[int]:
    """Every final margin (dark's points minus light's) some line of play reaches."""

    @functools.cache
    def margins(pos: Position) -> frozenset[int]:
        moves = pos.legal_moves()
        if not moves:
            dark, light = pos.score()
            return frozenset({dark - light})
        return frozenset().union(*(margins(pos.play(move)) for move in moves))

    return margins(position)


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_the_bitboard_playout_ends_where_the_rules_can_end(rules):
    positions = [near_the_end(rules, 7, seed) for seed in range(3)]
    if not rules.wraparound:  # the checkerboard is no dead end on the torus
        positions.append(board(CHECKERBOARD, "d", "t", rules=rules))  # dark passes at once
    rng = random.Random(3)
    for position in positions:
        reachable = reachable_margins(position)
        seen = set()
        for samples, uniform in ((1, True), (3, False), (2, True)):
            for _ in range(30):
                seen.add(search.playout(position, rng, samples, uniform=uniform))
        assert seen <= reachable, position
        assert len(seen) >= min(2, len(reachable)), position  # the playouts do differ


def test_progressive_widening_keeps_the_root_narrow():
    position = midgame(Rules(), 6, seed=2)
    roots = []
    original = search.Node.__init__

    def remember_root(node, pos, move, bias):
        original(node, pos, move, bias)
        if move is None:
            roots.append(node)

    search.Node.__init__ = remember_root
    try:
        search.mcts(position, random.Random(1), playouts=400)
        search.mcts(position, random.Random(1), playouts=400, widening=None)
    finally:
        search.Node.__init__ = original
    narrow, wide = (len(root.children) for root in roots)
    assert narrow <= 1 + 20  # 1 + √400
    assert wide == min(400, len(position.legal_moves()))


@pytest.mark.timing
def test_the_solver_gives_up_at_its_deadline_or_node_budget():
    position = midgame(Rules(), 8)
    # The deadline, and room for a busy machine.
    proof, spent = timed(lambda: search.solve(position, time.perf_counter() + 0.1), 0.4)
    assert proof is None and spent[-1] < 0.4, spent
    assert search.solve(position, nodes=500) is None


def test_a_solving_level_plays_a_proven_win_when_there_is_one():
    for seed in range(12):
        position = near_the_end(Rules(), 10, seed)
        if position.is_over or minimax(position) != search.WIN:
            continue
        for level in ("thegn", "wita"):
            move = bots.choose_move(position, level, seed=1)
            assert -minimax(position.play(move)) == search.WIN, (position, level)


def test_remaining_moves_bounds_the_game_left():
    for seed in range(20):
        position = midgame(Rules(), 15, seed)
        bound = search.remaining_moves(position)
        rng = random.Random(seed)
        played = 0
        while not position.is_over:
            position = position.play(rng.choice(position.legal_moves()))
            played += 1
        assert played <= 2 * bound  # passes aside, each move uses up a square or a stone


# --- Evaluation and reference players -------------------------------------------------


def test_move_values_count_the_points_a_move_makes_at_once():
    position = Position.start(Rules(special_stones=False))
    for move, value in zip(
        position.legal_moves(), search.move_values(position, position.legal_moves()), strict=True
    ):
        before = position.score().dark
        assert position.play(move).score().dark - before == value


def test_the_authors_weights():
    start = Position.start()
    assert reference.weight(start, start.play("A1").last_move) == 8  # a corner
    assert reference.weight(start, start.play("A4").last_move) == 4  # an edge
    assert reference.weight(start, start.play("D4").last_move) == 1  # nothing: at least 1
    position = Position.replay(Rules(), ["D4", "A1", "D5"])  # light to move
    # D4 turned light: its one opposing neighbour (D5) and the Woden-stone's 1.
    assert reference.weight(position, position.play("W D4").last_move) == 1 + 1
    position = Position.replay(Rules(), ["D4", "D5"])  # dark to move: D4 dark, D5 light
    assert reference.weight(position, position.play("E5").last_move) == 1  # D5 is light
    assert reference.weight(position, position.play("E4").last_move) == 3  # D4 is dark
    assert reference.weight(position, position.play("C5").last_move) == 1
    # Thunder on C4 clears D4 (friendly, +1): 2 + 1.
    assert reference.weight(position, position.play("T C4").last_move) == 3
    # Thunder on D6 clears D5 (opposing, -1): 2 - 1.
    assert reference.weight(position, position.play("T D6").last_move) == 1


@pytest.mark.parametrize("player", ["random", "heuristic", "aelfric", "uct"])
def test_reference_players_play_legal_moves(player):
    rng = random.Random(5)
    for rules in RULE_SETS[:4]:
        position = midgame(rules, 10, seed=2)
        if player == "uct":
            move = reference.uct_move(position, rng, 0.05)
        else:
            move = {
                "random": reference.random_move,
                "heuristic": reference.heuristic_move,
                "aelfric": reference.aelfric_move,
            }[player](position, rng)
        assert position.is_legal(move)


def score(first: str, second: str | Callable[..., Move], games: int, seconds=None) -> float:
    """The first player's score (a tie counts half) over ``games`` games from the start,
    colours alternating, each game seeded by its number."""
    points = 0.0
    for index in range(games):
        rng = random.Random(index)
        players = [first, second] if index % 2 == 0 else [second, first]
        position = Position.start()
        while not position.is_over:
            player = players[position.ply % 2]
            move = (
                bots.choose_move(
                    position,
                    player,
                    seconds=seconds if player == first else None,
                    seed=rng.randrange(1 << 30),
                )
                if isinstance(player, str)
                else player(position, rng)
            )
            position = position.play(move)
        dark, light = position.score()
        mine = (dark - light) * (1 if index % 2 == 0 else -1)
        points += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    return points / games


def test_the_weakest_level_beats_random_and_the_next_beats_it():
    assert score(bots.LEVEL_IDS[0], reference.random_move, 20) >= 0.7
    assert score(bots.LEVEL_IDS[1], bots.LEVEL_IDS[0], 20) >= 0.7


@pytest.mark.slow
def test_the_strongest_level_beats_random_every_game():
    assert score(bots.STRONGEST.id, reference.random_move, 4, seconds=0.1) == 1.0
