"""The Land Grab engine against its rule book (docs/LAND-GRAB.md).

One test per rule and per refusal on board diagrams; the notation's forgiving forms
and its errors; the position text; the rule book's perft figures and its 200 random
games; and random games checked move by move against an independent, plain model
of the rules (``tests/land_grab/model.py``).

Diagrams read like the board: rows 1 to 8 from top to bottom, columns A to H from
left to right; ``b`` an empty black tile, ``w`` an empty white one, ``B`` a black
tile with black's stone, ``W`` a white tile with white's; spaces are ignored.
Expected values are worked out by hand from the rule book.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.land_grab import (
    ENDS,
    PASS,
    SIDES,
    START_TEXT,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Position,
    Rules,
    format_move,
    parse_move,
    parse_square,
    split_moves,
)
from game.land_grab.engine import compare_claims
from game.land_grab.perft import GAMES, MID_GAME, random_games
from tests.land_grab.model import Model


def board(
    diagram: str, side: str = "b", ply: int = 10, quiet: int = 0, flipless: bool = False
) -> Position:
    """The position a diagram draws, with the side to move and the counts."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    flag = "f" if flipless else "-"
    return Position.from_text("/".join(rows) + f" {side} {ply} {quiet} {flag}")


def texts(position: Position) -> list[str]:
    return [str(move) for move in position.legal_moves()]


def square_names(position: Position, colour: str) -> set[str]:
    """The squares whose tiles show ``colour`` ("b" or "w")."""
    return {
        f"{'ABCDEFGH'[at % 8]}{at // 8 + 1}"
        for at in range(64)
        if position.tile_at(at) is (Color.DARK if colour == "b" else Color.LIGHT)
    }


# A black stone on A1 alone in its claim; a lone white stone on H8, its claim cut off
# by the black tiles G8 and H7: the rest of the white tiles hold no white stone.
OPEN = """
    B w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w b
    w w w w w w b W
"""

# As OPEN, but the white stone on H8 stands in the one great white claim.
GUARDED = """
    B w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
    w w w w w w w W
"""

# Black's claim is rows 1 to 4 but C2 (a white claim of one, with no stone); white's
# is rows 5 to 8, with white's stone on H5. Black can flip C2; white can flip nothing.
HALVES = """
    b B b b b b b b
    b b w b b b b b
    b b b b b b b b
    b b b b b b b b
    w w w w w w w W
    w w w w w w w w
    w w w w w w w w
    w w w w w w w w
"""
HALVES_TEXT = "/".join(line.replace(" ", "") for line in HALVES.strip().splitlines())


# --- The start and the drops ---------------------------------------------------------------


def test_the_game_starts_on_a_checkerboard_with_a1_black_and_black_to_drop():
    pos = Position.start()
    assert pos.to_text() == START_TEXT
    assert START_TEXT.startswith("bwbwbwbw/wbwbwbwb/")
    assert pos.tile_at("A1") is Color.DARK and pos.tile_at("B1") is Color.LIGHT
    assert pos.tile_at("B2") is Color.DARK and pos.tile_at("H8") is Color.DARK
    assert pos.turn is Color.DARK and pos.is_dropping
    assert not pos.is_over and pos.outcome() is None
    assert texts(pos) == sorted(square_names(pos, "b"))
    assert len(texts(pos)) == 32


def test_the_starting_checkerboard_scores_as_a_draw():
    score = Position.start().score()
    assert score.claims == ((1,) * 32, (1,) * 32)
    assert score == (1, 1) and (score.black, score.white) == (1, 1)


def test_each_side_drops_two_stones_on_tiles_of_its_own_colour():
    pos = Position.replay(["D4", "C4", "F2", "D3"])
    assert pos.stone_at("D4") is Color.DARK and pos.stone_at("F2") is Color.DARK
    assert pos.stone_at("C4") is Color.LIGHT and pos.stone_at("D3") is Color.LIGHT
    assert not pos.is_dropping and pos.turn is Color.DARK
    assert pos.quiet == 4 and not pos.flipless


def test_a_drop_on_a_tile_of_the_other_colour_is_refused():
    pos = Position.start()
    assert pos.why_illegal("B1") == "B1 is a white tile: black drops on a black tile"
    with pytest.raises(IllegalMoveError, match="B1 is a white tile"):
        pos.play("B1")
    with pytest.raises(IllegalMoveError, match="A1 is a black tile: white drops"):
        pos.play("D4").play("A1")


def test_a_drop_on_a_stone_is_refused_even_next_to_an_enemy_stone_drops_are_free():
    pos = Position.replay(["D4"])
    assert "C4" in texts(pos) and "E4" in texts(pos)
    with pytest.raises(IllegalMoveError, match="D4 holds a stone"):
        pos.play("D4").play("D4")


def test_the_first_four_plies_are_drops_and_the_rest_are_not():
    with pytest.raises(IllegalMoveError, match="the first four plies are drops"):
        Position.start().play("D4-D2")
    with pytest.raises(IllegalMoveError, match="the first four plies are drops"):
        Position.start().play("Pass")
    after = Position.replay(["D4", "C4", "F2", "D3"])
    with pytest.raises(IllegalMoveError, match="the drops are over"):
        after.play("A1")


def test_play_leaves_the_position_it_was_played_on_as_it_was():
    pos = Position.start()
    pos.play("A1")
    assert pos == Position.start() and pos.ply == 0


# --- Flip moves ----------------------------------------------------------------------------


def test_a_stone_moves_in_any_of_eight_lines_to_an_empty_enemy_tile_which_flips():
    pos = board(OPEN)
    legal = texts(pos)
    for target in ("B1", "H1", "A2", "A8", "B2", "F6"):
        assert f"A1-{target}" in legal
    after = pos.play("A1-D4")
    assert after.stone_at("D4") is Color.DARK and after.stone_at("A1") is None
    assert after.tile_at("D4") is Color.DARK
    assert after.tile_at("A1") is Color.DARK
    assert after.quiet == 0 and after.turn is Color.LIGHT


def test_a_flip_move_crosses_tiles_of_either_colour_but_never_a_stone():
    pos = board(
        """
        B w b W b w w w
        w w w b w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        """
    )
    # B1 and F1's white claim... D1's is D1 alone (C1, E1, D2 are black), so the big
    # white claim holds no white stone; C1 is crossed, D1's stone blocks the row.
    assert "A1-B1" in texts(pos)
    assert not any(text.startswith(("A1-E1", "A1-F1")) for text in texts(pos))
    assert pos.why_illegal("A1-F1") == "A1-F1 would pass the stone on D1"
    assert pos.why_illegal("A1-D3") == "D3 is not on a line from A1"
    assert "A1-B2" in texts(pos) and "A1-C3" in texts(pos)


def test_a_flip_move_may_not_enter_a_claim_holding_an_enemy_stone():
    pos = board(GUARDED)
    assert texts(pos) == ["A1-G7xH8"]
    assert pos.why_illegal("A1-B1") == "that claim holds a white stone"
    with pytest.raises(IllegalMoveError, match="that claim holds a white stone"):
        pos.play("A1-D4")


def test_a_move_to_a_tile_of_the_mover_is_no_flip():
    pos = board(OPEN)
    assert pos.why_illegal("A1-G7") is None
    assert pos.why_illegal("A1-H7") == (
        "H7 is not in the claim of A1: a stone shifts only within its own claim"
    )


# --- Capture by approach ----------------------------------------------------------------


def test_a_flip_move_that_stops_just_before_an_enemy_stone_captures_it():
    pos = board(
        """
        B w W W w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        """
    )
    # B1's claim holds white stones, but a capture is not held back by them; only
    # the stone on C1 goes, not the one behind it.
    assert "A1-B1xC1" in texts(pos)
    after = pos.play("A1-B1xC1")
    assert after.stone_at("C1") is None and after.stone_at("D1") is Color.LIGHT
    assert after.tile_at("B1") is Color.DARK and after.tile_at("C1") is Color.LIGHT
    assert after.record == ("A1-B1xC1",) and after.quiet == 0
    assert not after.is_over


def test_a_diagonal_approach_captures_too_and_capturing_the_last_stone_wins():
    pos = board(OPEN)
    assert "A1-G7xH8" in texts(pos)
    assert "A1-G7" not in texts(pos)
    after = pos.play("a1 g7")
    assert after.record == ("A1-G7xH8",)
    assert after.outcome() == ("black", "all-captured")
    assert after.winner is Color.DARK and after.result == "black"
    assert after.verdict() == "Black wins: all stones captured"
    assert after.legal_moves() == [] and after.why_illegal("G7-G6") == "the game is over"


def test_a_capture_square_must_be_the_stone_the_move_takes():
    pos = board(OPEN)
    assert pos.why_illegal("A1-G7xG8") == "A1-G7 captures the stone on H8"
    with pytest.raises(IllegalMoveError, match="captures the stone on H8"):
        pos.play("A1-G7xG8")
    assert pos.why_illegal("A1-B1xC1") == "A1-B1 captures nothing"
    with pytest.raises(IllegalMoveError, match="captures nothing"):
        pos.play("A1-B1xC1")


# --- Shifts -------------------------------------------------------------------------------


def test_a_stone_shifts_within_its_claim_and_the_other_friendly_stone_blocks():
    pos = board(
        """
        B b B b w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w W
        """
    )
    shifts = {text for text in texts(pos) if pos.tile_at(parse_move(text).target) is Color.DARK}
    assert shifts == {"A1-B1", "C1-B1", "C1-D1"}
    assert pos.why_illegal("A1-D1") == "the other black stone blocks the way from A1 to D1"
    after = pos.play("C1-D1")
    assert after.tile_at("C1") is Color.DARK and after.stone_at("D1") is Color.DARK
    assert after.quiet == 1


def test_a_shift_takes_orthogonal_steps_only():
    pos = board(HALVES)
    # B1 to D3 is two steps each way over black tiles: a shift, not a line.
    assert "B1-D3" in texts(pos)
    assert "B1-H4" in texts(pos)
    assert pos.targets("B1")[0] == parse_move("B1-A1")


# --- Passing and the ends ----------------------------------------------------------------


def test_a_player_passes_only_when_nothing_else_is_legal():
    pos = Position.replay(["D4", "C4", "F2", "D3"])
    assert pos.why_illegal("Pass") == "black may pass only when nothing else is legal"
    stuck = board(
        """
        B w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w W
        w w w w w w w w
        """
    )
    assert stuck.legal_moves() == [PASS] and stuck.why_illegal("pass") is None


def test_a_flipless_turn_followed_by_a_player_without_a_flip_ends_the_game():
    stuck = board(
        """
        B w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w w
        w w w w w w w W
        w w w w w w w w
        """
    )
    after = stuck.play("Pass")
    assert after.flipless
    # White could shift, but a shift could not change the score: white does not move.
    assert after.outcome() == ("white", "no-flips")
    assert after.verdict() == "White wins on claims: no flips left"
    assert after.score().claims == ((1,), (63,)) and after.score() == (1, 63)


def test_a_shift_by_a_player_who_could_flip_is_not_a_flipless_turn():
    pos = board(HALVES)
    assert pos.has_flip() and "B1-C2" in texts(pos)
    after = pos.play("B1-B2")
    assert not after.flipless and not after.has_flip()
    assert not after.is_over
    # White had no flip, so its shift is flipless; black can still flip, so play goes on.
    again = after.play("H5-H6")
    assert again.flipless and not again.is_over


def test_the_third_time_a_position_stands_ends_the_game():
    pos = board(HALVES)
    cycle = ["B1-B2", "H5-H6", "B2-B1", "H6-H5"]
    pos = pos.play_record(cycle)
    assert not pos.is_over
    pos = pos.play_record(cycle[:3])
    assert not pos.is_over
    pos = pos.play(cycle[3])
    assert pos.outcome() == ("white", "repetition")
    assert pos.verdict() == "White wins on claims: threefold repetition"


def test_repetition_comes_before_the_quiet_plies_end():
    pos = board(HALVES, ply=30, quiet=12).play_record(["B1-B2", "H5-H6", "B2-B1", "H6-H5"] * 2)
    assert pos.quiet == 20
    assert pos.outcome() == ("white", "repetition")


def test_twenty_plies_without_a_flip_end_the_game():
    pos = board(HALVES, ply=30, quiet=18).play("B1-B2")
    assert not pos.is_over and pos.quiet == 19
    pos = pos.play("H5-H6")
    assert pos.outcome() == ("white", "quiet-plies")
    assert pos.verdict() == "White wins on claims: 20 plies without a flip"


def test_drops_shifts_and_passes_count_as_quiet_plies_and_a_flip_starts_again():
    after = Position.replay(["A1", "H1", "H8", "A8"])
    assert after.quiet == 4
    assert board(HALVES, quiet=3).play("B1-B2").quiet == 4
    assert board(HALVES, quiet=3).play("B1-C2").quiet == 0


def test_the_game_ends_once_the_two_hundredth_ply_is_played():
    pos = board(HALVES, side="w", ply=199).play("H5-H6")
    assert pos.ply == 200
    assert pos.outcome() == ("white", "ply-limit")
    assert pos.verdict() == "White wins on claims: 200 plies"


def test_identical_claims_are_a_draw():
    pos = board(
        """
        B w b w b w b w
        w b w b w b w b
        b w b w b w b w
        w b w b w b w b
        b w b w b w b w
        w b w b w b w b
        b w b w b w b W
        w b w b w b W B
        """,
        ply=24,
        quiet=20,
    )
    assert pos.outcome() == ("draw", "quiet-plies")
    assert pos.winner is None and pos.result == "draw"
    assert pos.verdict() == "Draw on claims: 20 plies without a flip"


def test_claims_compare_largest_first_and_never_by_sums():
    assert compare_claims([24, 1, 1, 1, 1, 1], [15, 14, 6]) == 1
    assert compare_claims([5, 3], [5, 3, 1]) == -1
    assert compare_claims([5, 3, 1], [5, 2, 2, 2]) == 1
    assert compare_claims([2, 2], [2, 2]) == 0


def test_the_score_lists_each_sides_claims_largest_first():
    pos = board(HALVES)
    assert pos.score().claims == ((31,), (32, 1)) and pos.score() == (31, 32)
    assert str(pos.score()) == "Black: 31, White: 32 1"
    claims = pos.claims()
    assert len(claims) == 3 and len(claims[0]) == 31 and claims[2] == (parse_square("C2"),)
    assert pos.claim("C2") == (parse_square("C2"),)


def test_the_sides_and_ends_have_the_rule_books_words():
    assert (SIDES.first, SIDES.second, SIDES.no_winner) == ("Black", "White", "draw")
    assert Outcome("black", "no-flips").winner is Color.DARK
    assert Outcome("white", "no-flips").winner is Color.LIGHT
    assert Outcome("draw", "no-flips").winner is None
    assert list(ENDS) == ["all-captured", "no-flips", "repetition", "quiet-plies", "ply-limit"]


# --- Notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("d4", "D4"),
        (" D4 ", "D4"),
        ("d4-d2", "D4-D2"),
        (" D4 - D2 ", "D4-D2"),
        ("D4 D2", "D4-D2"),
        ("D4D2", "D4-D2"),
        ("a1-c3xd4", "A1-C3xD4"),
        ("A1 - C3 x D4", "A1-C3xD4"),
        ("a1c3xd4", "A1-C3xD4"),
        ("pass", "Pass"),
        (" PASS ", "Pass"),
    ],
)
def test_moves_are_read_in_every_forgiving_form(text, written):
    assert str(parse_move(text)) == written
    assert format_move(parse_move(text)) == written


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("D 4", "is not a move"),
        ("D4--D2", "is not a move"),
        ("D4,D2", "is not a move"),
        ("A1-C3x", "is not a move"),
        ("A1-C3xD4xE5", "is not a move"),
        ("I1", "columns run A to H"),
        ("A9", "rows run 1 to 8"),
        ("A0", "rows run 1 to 8"),
        ("A10", "rows run 1 to 8"),
        ("", "is not a move"),
        ("passe", "is not a move"),
        ("D4" * 30, "that is not a move"),
    ],
)
def test_text_that_is_not_a_move_is_refused(text, why):
    with pytest.raises(InvalidMoveError, match=why):
        parse_move(text)
    with pytest.raises(InvalidMoveError):
        Position.start().play(text)


def test_moves_are_interned_and_print_as_the_record_writes_them():
    assert parse_move("d4") is parse_move("D4")
    assert parse_move("D4-D2") is parse_move("d4 d2")
    assert parse_move("D4-D2") == Move(parse_square("D2"), parse_square("D4"))
    assert parse_move("D4").is_drop and not parse_move("D4-D2").is_drop
    assert parse_move("Pass") is PASS and PASS.is_pass and not PASS.is_drop
    assert parse_square("A1") == 0 and parse_square("h8") == 63 and parse_square("B3") == 17


def test_a_record_is_split_into_its_moves():
    assert list(split_moves("1. D4 C4 2. f2 d3, D4-D2;C4 - C1 A1-C3xD4 Pass d2d4")) == [
        "D4",
        "C4",
        "f2",
        "d3",
        "D4-D2",
        "C4 - C1",
        "A1-C3xD4",
        "Pass",
        "d2d4",
    ]
    with pytest.raises(InvalidMoveError):
        list(split_moves("D4 Z9"))


def test_replay_plays_a_record_and_names_the_move_that_fails():
    pos = Position.replay(MID_GAME)
    assert pos.ply == 16 and pos.turn is Color.DARK
    assert Position.replay(Rules(), "D4, C4") == Position.replay(["D4", "C4"])
    with pytest.raises(IllegalMoveError, match="move 2: "):
        Position.replay(["D4", "D4"])


# --- Position text -------------------------------------------------------------------------


def test_position_text_round_trips():
    pos = Position.replay(MID_GAME)
    text = pos.to_text()
    assert text.endswith(" b 16 0 -")
    again = Position.from_text(text)
    assert again == pos and again.to_text() == text
    assert texts(again) == texts(pos)
    stuck = board(GUARDED)
    assert Position.from_text(stuck.to_text()) == stuck


def test_position_text_keeps_the_counts_and_the_flipless_turn():
    after = board(HALVES, ply=30, quiet=5).play("B1-B2").play("H5-H6")
    text = after.to_text()
    assert text.endswith(" b 32 7 f")
    again = Position.from_text(text)
    assert (again.ply, again.quiet, again.flipless) == (32, 7, True)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the rows, the side to move"),
        (START_TEXT.replace(" b 0", " x 0"), "the side to move is b or w"),
        (START_TEXT.replace(" b 0", " w 0"), "it is black's turn"),
        (START_TEXT.split("/", 1)[1], "needs 8 rows"),
        ("bwbwbwb" + START_TEXT[8:], "row 1 needs 8 squares"),
        ("bwbwbwbx" + START_TEXT[8:], "'x' is not a tile"),
        (START_TEXT.replace("0 0 -", "0 0 x"), "f .a flipless last turn. or -"),
        (START_TEXT.replace("0 0 -", "0 a -"), "whole numbers"),
        (START_TEXT.replace("0 0 -", "0 0 f"), "a drop is never a flipless turn"),
        ("B" + START_TEXT[1:], "after 0 drops black has 0 stones"),
        (HALVES_TEXT + " b 10 11 -", "11 plies without a flip: there are at most 10"),
        (HALVES_TEXT + " b 230 0 -", "a game ends at ply 200"),
        ("BwBwBwbw" + START_TEXT[8:].replace("b 0 0", "b 10 0"), "two stones at most"),
        ("Bwbwbwbw" + START_TEXT[8:].replace("b 0 0", "b 10 0"), "white has no stone left"),
        ("x" * 300, "eight rows"),
    ],
)
def test_position_text_that_no_game_reaches_is_refused(text, why):
    with pytest.raises(InvalidPositionError, match=why):
        Position.from_text(text)


def test_a_set_up_position_whose_side_to_move_has_no_stone_is_a_finished_game():
    text = "Bwbwbwbw" + START_TEXT[8:].replace("b 0 0", "w 11 0")
    assert Position.from_text(text).outcome() == ("black", "all-captured")


# --- The rule book's figures -------------------------------------------------------------


def perft(pos: Position, depth: int) -> int:
    """Move texts at ``depth`` plies: a finished game has none."""
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(set(map(str, moves)))
    return sum(perft(pos.play(move), depth - 1) for move in moves)


@pytest.mark.parametrize(("depth", "count"), [(1, 32), (2, 1_024), (3, 31_744)])
def test_perft_from_the_start(depth, count):
    assert perft(Position.start(), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 17), (2, 421), (3, 7_129)])
def test_perft_from_the_mid_game_position(depth, count):
    assert perft(Position.replay(MID_GAME), depth) == count


def test_the_rule_books_two_hundred_random_games():
    ends, mean = random_games(200, 2014)
    assert dict(ends) == GAMES
    assert f"{mean:.1f}" == "100.2"


def test_the_legal_list_is_in_the_order_of_its_texts():
    listed = texts(Position.replay(MID_GAME))
    assert listed == sorted(listed) and len(listed) == 17


# --- Against the model ------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_agree_with_the_plain_model(seed):
    rng = random.Random(seed)
    pos, model = Position.start(), Model()
    while True:
        assert texts(pos) == model.moves()
        assert (tuple(pos.outcome()) if pos.is_over else None) == model.end
        assert pos.quiet == model.quiet and pos.flipless == model.flipless
        if pos.is_over:
            break
        legal = texts(pos)
        # Shifts now and then more often, so that games reach repetitions.
        shifts = [text for text in legal if "-" in text and "x" not in text]
        text = rng.choice(shifts if shifts and rng.random() < 0.3 else legal)
        pos, model = pos.play(text), model.play(text)
        assert Position.from_text(pos.to_text()).to_text() == pos.to_text()


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.text(max_size=8))
def test_every_move_the_engine_refuses_the_model_refuses_too(seed, garbage):
    rng = random.Random(seed)
    pos, model = Position.start(), Model()
    for _ in range(rng.randrange(40)):
        if pos.is_over:
            break
        text = rng.choice(texts(pos))
        pos, model = pos.play(text), model.play(text)
    legal = set(model.moves())
    squares = [f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 9)]
    for _ in range(30):
        text = rng.choice(squares) + ("-" + rng.choice(squares) if rng.random() < 0.8 else "")
        full = next((move for move in legal if move.split("x")[0] == text), text)
        assert (pos.why_illegal(full) is None) == (full in legal)
        assert pos.is_legal(text) == any(move.split("x")[0] == text for move in legal)
        if pos.why_illegal(text) is not None:
            with pytest.raises(IllegalMoveError):
                pos.play(text)
    try:
        parse_move(garbage)
    except InvalidMoveError:
        assert not pos.is_legal(garbage)


def test_the_engine_imports_nothing_from_django():
    import subprocess
    import sys

    code = (
        "import sys, game.land_grab, game.land_grab.perft; "
        "print(any(name.startswith('django') for name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False"
