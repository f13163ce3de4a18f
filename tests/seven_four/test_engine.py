"""The 7-4-1776 engine against its rule book (docs/SEVEN-FOUR.md).

One test per rule and per refusal on board diagrams; the notation's forgiving forms
and its errors; the position text; the rule book's perft figures and its 200 random
games; and random games checked move by move against an independent, plain model
of the rules (``tests.seven_four.model.py``).

Diagrams read like the board: rows 1 to 10 from top to bottom, columns A to J from
left to right; ``B`` a blue stone, ``R`` a red one, ``.`` an empty square; spaces
are ignored. Expected values are worked out by hand from the rule book.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.seven_four import (
    ENDS,
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
from tests.seven_four.model import Model

EMPTY_ROW = ".........."


def board(diagram: str, side: str = "b") -> Position:
    """The position a diagram draws, the side to move ``b`` or ``r``. Rows not drawn
    are empty, but for a red stone on J10 (red has moved when blue is to move) when
    fewer than ten rows are drawn."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    if len(rows) < 10:
        rows += [EMPTY_ROW] * (9 - len(rows)) + [".........R"]
    return Position.from_text("/".join(rows) + f" {side}")


def texts(position: Position) -> list[str]:
    return [str(move) for move in position.legal_moves()]


def slides(position: Position) -> set[str]:
    return {text for text in texts(position) if "-" in text}


MID_GAME = ["D4", "G7", "F4", "C8", "H2", "E9", "B2", "H9"]


# --- The start and drops ---------------------------------------------------------------


def test_the_game_starts_on_an_empty_board_with_blue_to_move():
    pos = Position.start()
    assert pos.to_text() == START_TEXT
    assert pos.turn is Color.DARK
    assert pos.score() == (0, 0)
    assert not pos.is_over and pos.outcome() is None
    assert len(pos.legal_moves()) == 100


def test_a_drop_puts_a_stone_of_the_mover_on_any_empty_square():
    pos = Position.start().play("E5")
    assert pos.stone_at("E5") is Color.DARK
    assert pos.turn is Color.LIGHT
    pos = pos.play("J10")
    assert pos.stone_at("J10") is Color.LIGHT
    assert pos.record == ("E5", "J10")
    assert pos.score() == (1, 1)
    assert pos.last_filled == ()


def test_a_drop_on_a_taken_square_is_refused():
    pos = Position.start().play("E5")
    with pytest.raises(IllegalMoveError, match="E5 is taken"):
        pos.play("E5")
    assert pos.why_illegal("E5") == "E5 is taken"


def test_play_leaves_the_position_it_was_played_on_as_it_was():
    pos = Position.start()
    pos.play("A1")
    assert pos == Position.start()
    assert pos.ply == 0


# --- Slides -----------------------------------------------------------------------------


def test_a_lone_stone_slides_like_a_queen_to_squares_next_to_another_lone_stone():
    pos = board(
        """
        B.........
        ..........
        ..........
        ...B......
        """
    )
    # A1's rays reach one square next to D4, C3, before D4 blocks the diagonal; D4's
    # reach one square next to A1, B2, the same way.
    assert slides(pos) == {"A1-C3", "D4-B2"}
    assert pos.landings("A1") == (parse_square("C3"),)


def test_a_stone_touching_a_stone_of_its_own_colour_cannot_slide():
    pos = board(
        """
        BB........
        ..........
        ..........
        ..........
        ......B...
        """
    )
    assert not any(text.startswith(("A1-", "B1-")) for text in slides(pos))
    assert pos.why_illegal("A1-A3") == (
        "the blue stone on A1 touches another blue stone, so it cannot slide"
    )
    with pytest.raises(IllegalMoveError, match="touches another blue stone"):
        pos.play("B1-B3")


def test_enemy_neighbours_do_not_stop_a_stone_sliding():
    pos = board(
        """
        BR........
        R.........
        ..B.......
        """
    )
    assert pos.lone() == (0, 22)
    assert "A1-B2" in slides(pos)


def test_a_player_needs_two_lone_stones_to_slide():
    pos = board(
        """
        B.........
        ..........
        ..........
        .........R
        """
    )
    assert slides(pos) == set()
    assert pos.why_illegal("A1-B2") == "no lone blue stone is next to B2, other than the one on A1"


def test_a_landing_square_next_only_to_a_friendly_group_is_refused():
    pos = board(
        """
        B.......B.
        ..........
        ...BB.....
        """
    )
    # C3 touches D3, but D3 and E3 form a group; the lone I1 is far away.
    with pytest.raises(IllegalMoveError, match="no lone blue stone is next to C3"):
        pos.play("A1-C3")
    assert "A1-H1" in slides(pos)


def test_a_landing_square_may_touch_groups_and_enemy_stones_beside_one_lone_friend():
    pos = board(
        """
        B.........
        ..R.......
        BB........
        ..........
        ....B.....
        """
    )
    # B2 touches the lone A1, the red C2 and the group A3/B3: one lone friend is enough.
    assert pos.lone() == (0, 44)
    assert pos.landings("E5") == (parse_square("B2"),)
    after = pos.play("E5-B2")
    assert after.stone_at("C2") is Color.LIGHT
    for name in ("A1", "B1", "C1", "A2", "B2", "C3"):
        assert after.stone_at(name) is Color.DARK
    assert after.stone_at("E5") is None


def test_a_slide_fills_every_empty_square_around_its_landing_square():
    pos = board(
        """
        B.........
        ..........
        ....R.....
        ..........
        ....B.....
        """
    )
    after = pos.play("A1-D4")
    # D4's neighbours: E3 (red, stays), C3, D3, C4, E4, C5, D5, E5 (blue already).
    filled = ("C3", "D3", "C4", "E4", "C5", "D5")
    assert after.stone_at("A1") is None
    assert after.stone_at("D4") is Color.DARK
    assert after.stone_at("E3") is Color.LIGHT
    for name in filled:
        assert after.stone_at(name) is Color.DARK
    assert after.score() == (8, 2)
    assert after.last_filled == tuple(parse_square(name) for name in filled)
    assert after.record == ("A1-D4",)


def test_a_one_square_slide_fills_the_square_it_left():
    pos = board(
        """
        B.........
        ..........
        ..B.......
        """
    )
    after = pos.play("A1-B2")
    assert after.stone_at("A1") is Color.DARK
    assert after.score() == (9, 1)


def test_a_slide_passes_over_empty_squares_only():
    pos = board(
        """
        B.R.......
        ..........
        ....B.....
        """
    )
    assert pos.why_illegal("A1-D1") == "A1 cannot slide over C1"
    with pytest.raises(IllegalMoveError, match="cannot slide over C1"):
        pos.play("A1-D1")


def test_a_slide_must_follow_a_line():
    pos = board(
        """
        B.........
        ..........
        ....B.....
        """
    )
    with pytest.raises(IllegalMoveError, match="D2 is not on a line from A1"):
        pos.play("A1-D2")


def test_a_slide_must_move_land_on_an_empty_square_and_start_from_the_movers_stone():
    pos = board(
        """
        B.R.......
        ..........
        ....B.....
        """
    )
    assert pos.why_illegal("A1-A1") == "A1-A1 does not move"
    assert pos.why_illegal("A1-C1") == "C1 is taken"
    assert pos.why_illegal("B5-B6") == "there is no stone on B5"
    assert pos.why_illegal("C1-D2") == "the stone on C1 is red: blue is to move"
    with pytest.raises(IllegalMoveError, match="the stone on C1 is red"):
        pos.play("C1-D2")


def test_singleness_is_judged_before_the_slide():
    # A1 slides to B2, next to the lone C3; the filled stones then touch C3, but the
    # slide is legal because C3 was lone before it.
    pos = board(
        """
        B.........
        ..........
        ..B.......
        """
    )
    assert pos.is_legal("A1-B2")
    assert pos.play("A1-B2").lone(Color.DARK) == ()


# --- The end ------------------------------------------------------------------------------


FULL_BUT_ONE = "/".join(["BRBRBRBRBR", "RBRBRBRBRB"] * 5)


def test_whoever_fills_the_last_square_wins():
    text = FULL_BUT_ONE[:-1] + ". r"
    pos = Position.from_text(text)
    assert pos.legal_moves() == [parse_move("J10")]
    after = pos.play("J10")
    assert after.is_over
    assert after.outcome() == Outcome("red", "board-full")
    assert after.outcome().winner is Color.LIGHT
    assert after.winner is Color.LIGHT and after.result == "red"
    assert after.legal_moves() == []


def test_no_move_is_played_once_the_board_is_full():
    pos = Position.from_text(FULL_BUT_ONE + " b")
    assert pos.is_over
    assert pos.outcome() == ("red", "board-full")
    assert pos.why_illegal("A1") == "the game is over"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        pos.play("A1")


def test_the_outcome_names_the_winner_in_the_rule_books_words():
    assert Outcome("blue", "board-full").winner is Color.DARK
    assert Outcome("red", "board-full").winner is Color.LIGHT
    assert ENDS == {"board-full": "Board full"}
    assert SIDES.name(Color.DARK) == "Blue" and SIDES.no_winner == "draw"


# --- Notation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("e5", "E5"),
        (" E5 ", "E5"),
        ("J10", "J10"),
        ("b2-e5", "B2-E5"),
        (" B2 - E5 ", "B2-E5"),
        ("B2 E5", "B2-E5"),
        ("B2E5", "B2-E5"),
        ("a10j1", "A10-J1"),
    ],
)
def test_moves_are_read_in_every_forgiving_form(text, written):
    assert str(parse_move(text)) == written
    assert format_move(parse_move(text)) == written


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("E 5", "is not a move"),
        ("B2--E5", "is not a move"),
        ("B2,E5", "is not a move"),
        ("K1", "columns run A to J"),
        ("A0", "rows run 1 to 10"),
        ("A11", "rows run 1 to 10"),
        ("A01", "leading 0"),
        ("", "is not a move"),
        ("pass", "is not a move"),
        ("E5" * 30, "that is not a move"),
    ],
)
def test_text_that_is_not_a_move_is_refused(text, why):
    with pytest.raises(InvalidMoveError, match=why):
        parse_move(text)
    with pytest.raises(InvalidMoveError):
        Position.start().play(text)


def test_moves_are_interned_and_print_as_the_record_writes_them():
    assert parse_move("e5") is parse_move("E5")
    assert parse_move("B2-E5") == Move(parse_square("E5"), parse_square("B2"))
    assert parse_move("B2-E5").is_slide and not parse_move("E5").is_slide
    assert not parse_move("E5").is_pass


def test_a_record_is_split_into_its_moves():
    assert list(split_moves("1. D4 G7 2. b2 - e5, A10;J1 C3C4")) == [
        "D4",
        "G7",
        "b2 - e5",
        "A10",
        "J1",
        "C3C4",
    ]
    with pytest.raises(InvalidMoveError):
        list(split_moves("D4 Z9"))


def test_replay_plays_a_record_and_names_the_move_that_fails():
    pos = Position.replay(MID_GAME)
    assert pos.ply == 8 and pos.turn is Color.DARK
    assert Position.replay(Rules(), "D4, G7") == Position.replay(["D4", "G7"])
    with pytest.raises(IllegalMoveError, match="move 2: "):
        Position.replay(["D4", "D4"])


# --- Position text -------------------------------------------------------------------------


def test_position_text_round_trips():
    pos = Position.replay(MID_GAME + ["B2-C3"])
    text = pos.to_text()
    assert text.endswith(" r")
    assert text.split()[0].split("/")[1] == ".BBB...B.."
    again = Position.from_text(text)
    assert again == pos and again.to_text() == text
    assert texts(again) == texts(pos)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the rows, a space and the side to move"),
        (START_TEXT.replace(" b", " x"), "the side to move is b or r"),
        ("/".join([EMPTY_ROW] * 9) + " b", "needs 10 rows"),
        ("/".join([EMPTY_ROW] * 9 + ["........."]) + " b", "row 10 needs 10 squares"),
        ("/".join([EMPTY_ROW] * 9 + [".........X"]) + " b", "'X' is not a stone"),
        (START_TEXT.replace(" b", " r"), "blue moves first"),
        ("R" + START_TEXT[1:], "blue moves first"),
        ("B" + START_TEXT[1:], "it is red's turn"),
        ("x" * 300, "ten rows"),
    ],
)
def test_position_text_that_no_game_reaches_is_refused(text, why):
    with pytest.raises(InvalidPositionError, match=why):
        Position.from_text(text)


# --- The rule book's figures -------------------------------------------------------------


def perft(pos: Position, depth: int) -> int:
    """Turn texts at ``depth`` plies: a finished game has none."""
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(move), depth - 1) for move in moves)


@pytest.mark.parametrize(("depth", "count"), [(1, 100), (2, 9_900), (3, 970_200)])
def test_perft_from_the_start(depth, count):
    assert perft(Position.start(), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 106), (2, 12_679), (3, 1_310_355)])
def test_perft_from_the_mid_game_position(depth, count):
    assert perft(Position.replay(MID_GAME), depth) == count


def test_the_rule_books_two_hundred_random_games():
    rng = random.Random(2014)
    results: dict[Outcome, int] = {}
    plies = slides_played = 0
    for _ in range(200):
        pos = Position.start()
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
        results[pos.outcome()] = results.get(pos.outcome(), 0) + 1
        plies += pos.ply
        slides_played += sum("-" in text for text in pos.record)
    assert results == {("blue", "board-full"): 104, ("red", "board-full"): 96}
    assert f"{plies / 200:.2f}" == "84.00"
    assert f"{slides_played / 200:.2f}" == "4.07"


def test_the_legal_list_is_in_the_order_of_its_texts():
    listed = texts(Position.replay(MID_GAME))
    assert listed == sorted(listed)
    assert listed.index("A10") < listed.index("A2")


# --- Against the model ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_agree_with_the_plain_model(seed):
    rng = random.Random(seed)
    pos, model = Position.start(), Model()
    # Drops now and then more often, so that games reach slides and full boards.
    while True:
        assert texts(pos) == model.moves()
        assert pos.to_text().split()[1] == model.turn.lower()
        if pos.is_over:
            assert pos.outcome() == (model.winner(), "board-full")
            break
        assert model.winner() is None
        legal = texts(pos)
        slides_now = [text for text in legal if "-" in text]
        text = rng.choice(slides_now if slides_now and rng.random() < 0.5 else legal)
        pos, model = pos.play(text), model.play(text)
        assert Position.from_text(pos.to_text()) == pos


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.text(max_size=8))
def test_every_move_the_engine_refuses_the_model_refuses_too(seed, garbage):
    rng = random.Random(seed)
    pos, model = Position.start(), Model()
    for _ in range(rng.randrange(60)):
        text = rng.choice(texts(pos))
        pos, model = pos.play(text), model.play(text)
    legal = set(model.moves())
    squares = [f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11)]
    for _ in range(30):
        text = rng.choice(squares) + ("-" + rng.choice(squares) if rng.random() < 0.8 else "")
        assert (pos.why_illegal(text) is None) == (text in legal)
        assert pos.is_legal(text) == (text in legal)
    try:
        parse_move(garbage)
    except InvalidMoveError:
        assert not pos.is_legal(garbage)
