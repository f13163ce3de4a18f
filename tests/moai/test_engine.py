"""The Moai engine against its rule book (docs/MOAI.md).

One test per rule and per refusal on board diagrams; the notation's forgiving forms
and its errors; the position text of both boards; the rule book's perft figures and
its 200 random games a board; and random games checked move by move against an
independent, plain model of the rules (``tests/moai/model.py``).

Square-board diagrams read like the board: rows 1 to 8 from top to bottom, columns
A to H from left to right; ``#`` a missing corner, ``.`` empty, ``o`` a counter,
``W`` and ``B`` the Moai; spaces are ignored. Expected values are worked out by
hand from the rule book.
"""

from __future__ import annotations

import ast
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.moai import (
    ENDS,
    HEX,
    SIDES,
    SQUARE,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Outcome,
    Position,
    Rules,
    parse_move,
    split_moves,
)
from game.moai.perft import MID_GAMES, RANDOM_GAMES, perft, random_games
from tests.moai.model import Model

HEXAGON = Rules("hex")


def board(diagram: str, side: str = "w") -> Position:
    """The square-board position a diagram of eight rows draws, ``side`` to move."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    return Position.from_text("/".join(rows) + f" {side}")


def texts(position: Position) -> list[str]:
    return [str(move) for move in position.legal_moves()]


def moves_of(position: Position, square: str) -> set[str]:
    """The legal turns that move the Moai on ``square``."""
    return {text for text in texts(position) if text.split(":")[1].startswith(square + "-")}


def landings(position: Position, counter: str, square: str) -> set[str]:
    """Where the Moai on ``square`` may go with the counter on ``counter``."""
    prefix = f"{counter}:{square}-"
    return {text[len(prefix) :] for text in texts(position) if text.startswith(prefix)}


# The rule book's example: the white Moai on D4, the black one out of the way on G7.
EXAMPLE = board(
    """
    # . . . . . . #
    . . . . . . . .
    . . . . . . . .
    . . . W . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . B .
    # . . . . . . #
    """
)


# --- Sides, set-up and placements -------------------------------------------------------


def test_the_game_starts_on_an_empty_board_with_white_to_place():
    pos = Position.start()
    assert pos.to_text() == SQUARE.start_text
    assert pos.turn is Color.DARK
    assert pos.is_placing and not pos.is_over and pos.outcome() is None
    assert len(pos.legal_moves()) == 60
    assert SIDES.first == "White" and SIDES.second == "Black"
    assert Outcome.FIRST == "white" and Outcome.SECOND == "black"
    assert ENDS == {"moai-stuck": "Moai stuck"}


def test_white_places_first_then_black_on_any_other_square():
    pos = Position.start().play("D4")
    assert pos.piece_at("D4") == "W" and pos.turn is Color.LIGHT
    assert "D4" not in texts(pos) and len(texts(pos)) == 59
    pos = pos.play("D5")
    assert pos.piece_at("D5") == "B" and pos.turn is Color.DARK
    assert not pos.is_placing
    assert pos.record == ("D4", "D5")


def test_black_cannot_place_on_the_white_moai():
    with pytest.raises(IllegalMoveError, match="D4 is taken"):
        Position.start().play("D4").play("D4")


def test_a_missing_corner_is_no_square():
    with pytest.raises(InvalidMoveError, match="cut away"):
        Position.start().play("A1")


def test_a_placement_is_not_a_turn():
    with pytest.raises(IllegalMoveError, match="places his Moai first"):
        Position.start().play("D8:D4-D6")
    with pytest.raises(IllegalMoveError, match="a turn puts a counter"):
        EXAMPLE.play("E5")


# --- The counter ------------------------------------------------------------------------


def test_the_counter_goes_on_any_empty_square_in_line_with_the_moai_it_moves():
    counters = {text.split(":")[0] for text in moves_of(EXAMPLE, "D4")}
    # Column D, row 4 and both diagonals through D4, at any distance.
    expected = {f"D{r}" for r in (1, 2, 3, 5, 6, 7, 8)} | {f"{c}4" for c in "ABCEFGH"}
    expected |= {"C3", "B2", "E5", "F6", "E3", "F2", "G1", "C5", "B6", "A7"}
    assert counters == expected


def test_whatever_stands_between_does_not_matter_to_the_counter():
    pos = board(
        """
        # . . . . . . #
        o . . . . . . .
        . . . o . . . .
        . . . W . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . B .
        # . . . . . . #
        """
    )
    # D1 lies beyond the counter on D3: the push away from it is still a turn.
    assert {"D5", "D6", "D7", "D8"} <= landings(pos, "D1", "D4")
    assert pos.play("D1:D4-D6").piece_at("D1") == "o"


def test_the_counter_must_be_in_line():
    with pytest.raises(IllegalMoveError, match="E6 is not in line with the white Moai on D4"):
        EXAMPLE.play("E6:D4-D5")


def test_the_counter_cannot_go_on_a_taken_square():
    with pytest.raises(IllegalMoveError, match="counter cannot go on G7"):
        EXAMPLE.play("G7:D4-D5")


def test_a_turn_moves_a_moai_that_is_there():
    with pytest.raises(IllegalMoveError, match="no Moai on C3"):
        EXAMPLE.play("C1:C3-C4")


# --- Straight moves -------------------------------------------------------------------


def test_a_push_goes_away_from_the_counter_and_a_pull_toward_it_short_of_it():
    assert landings(EXAMPLE, "D8", "D4") >= {"D3", "D2", "D1", "D5", "D6", "D7"}
    assert "D8" not in landings(EXAMPLE, "D8", "D4")
    # The rule book's example: counter D1, Moai D4.
    assert {"D2", "D3", "D5", "D6", "D7", "D8"} <= landings(EXAMPLE, "D1", "D4")
    assert "D1" not in landings(EXAMPLE, "D1", "D4")


def test_a_moai_never_lands_on_or_passes_the_counter():
    with pytest.raises(IllegalMoveError, match="cannot pass D3"):
        EXAMPLE.play("D3:D4-D2")
    with pytest.raises(IllegalMoveError, match="D3 is taken"):
        EXAMPLE.play("D3:D4-D3")


def test_counters_the_other_moai_and_the_missing_corners_block():
    pos = board(
        """
        # . . . . . . #
        . . . . . . . o
        . . . . . . . .
        . . . W . o . .
        . . . B . . . .
        . . . . . . . .
        . . . . . . . .
        # . . . . . . #
        """
    )
    # Pushed east from A4 the counter on F4 stops it at E4; pulled west, short of A4.
    assert landings(pos, "A4", "D4") == {"E4", "F3", "F5", "C4", "B4", "B3", "B5", "A3", "A5"}
    # Pushed south from D1 the black Moai blocks at once, so only the pull is left.
    assert landings(pos, "D1", "D4") == {"D3", "D2", "C2", "E2", "C1", "E1"}
    corner = board(
        """
        # W . . . . . #
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . B .
        # . . . . . . #
        """
    )
    # Row 1 has nothing north of it, and A1 is gone: only the pull east and its
    # turns south-east are left.
    assert landings(corner, "G1", "B1") == {"C1", "D1", "E1", "F1", "D2", "E2", "F2", "G2"}
    assert all(not text.endswith("-A1") for text in texts(corner))


def test_a_moai_must_move():
    with pytest.raises(IllegalMoveError, match="must move"):
        EXAMPLE.play("D8:D4-D4")


def test_a_counter_on_a_diagonal_allows_straight_moves_only():
    assert landings(EXAMPLE, "F6", "D4") == {"E5", "C3", "B2"}
    with pytest.raises(IllegalMoveError, match="diagonal allows straight moves only"):
        EXAMPLE.play("F6:D4-D5")


# --- Bent moves ----------------------------------------------------------------------------


def test_a_bent_move_runs_along_a_row_or_column_and_turns_one_step_diagonally_forward():
    # The rule book's examples: counter D1, Moai D4; D4-D3-C2 toward, D4-D5-E6 and
    # D4-D5-D6-E7 away. The run may stop on any of its squares.
    assert landings(EXAMPLE, "D1", "D4") == {
        *("D3", "D2", "C2", "E2", "C1", "E1"),
        *("D5", "D6", "D7", "D8", "C6", "E6", "C7", "E7", "C8", "E8"),
    }
    assert EXAMPLE.play("D1:D4-C2").piece_at("C2") == "W"
    assert EXAMPLE.play("D1:D4-E7").piece_at("E7") == "W"


def test_the_run_has_at_least_one_square():
    for text in ("D1:D4-C3", "D6:D4-E4"):
        with pytest.raises(IllegalMoveError, match="cannot reach"):
            EXAMPLE.play(text)


def test_the_turn_square_must_be_empty_and_on_the_board():
    pos = board(
        """
        # . . . . . . #
        . . o . o . . .
        . . . . . . . .
        . . . W . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . B .
        # . . . . . . #
        """
    )
    toward = {cell for cell in landings(pos, "D1", "D4") if cell[1] < "4"}
    assert toward == {"D3", "D2", "C1", "E1"}
    edge = board(
        """
        # . . . . . . #
        W . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . B .
        # . . . . . . #
        """
    )
    assert landings(edge, "A7", "A2") == {"A3", "A4", "A5", "A6", "B4", "B5", "B6", "B7"}


def test_a_turn_may_move_the_other_moai():
    assert "G1:G7-G4" in texts(EXAMPLE)
    pos = EXAMPLE.play("G1:G7-G4")
    assert pos.piece_at("G4") == "B" and pos.piece_at("G1") == "o"
    assert pos.turn is Color.LIGHT


# --- The end --------------------------------------------------------------------------------


def test_a_player_whose_own_moai_cannot_move_loses():
    stuck = board(
        """
        # . . . . . . #
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . B .
        . . . . . . o o
        . . . . . . o W
        # . . . . . o #
        """
    )
    assert stuck.is_over
    assert stuck.outcome() == Outcome("black", "moai-stuck")
    assert stuck.winner is Color.LIGHT and stuck.result == "black"
    assert stuck.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        stuck.play("A5:G5-F5")


def test_a_stuck_player_loses_even_if_he_could_move_the_other_moai():
    pos = board(
        """
        # . . . . . . #
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . o o o
        . . . . . . o W
        # B . . . . o #
        """,
        "b",
    ).play("D8:B8-C8")
    assert pos.turn is Color.DARK
    assert pos.is_over and pos.outcome() == ("black", "moai-stuck")


def test_a_moai_with_one_free_neighbour_may_still_move():
    pos = board(
        """
        # . . . . . . #
        o . . . . . . .
        . . . . . . . .
        . . . . . . B .
        . . . . . . . .
        . . . . . . o o
        . . . . . . . W
        # . . . . . o #
        """
    )
    assert not pos.is_over
    # Only row 7 is open: every counter goes on it, west of the Moai, which is pulled.
    moves = moves_of(pos, "H7")
    assert {text.split(":")[0][1] for text in moves} == {"7"}
    assert {"A7:H7-G7", "F7:H7-G7", "F7:H7-F6", "F7:H7-F8", "A7:H7-B7"} <= moves
    assert "G7:H7-F7" not in moves


# --- Notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["D8:D4-D6", "d8:d4-d6", " D8 : D4 - D6 ", "d8 d4 d6", "D8D4D6", "D8,D4/D6", "D8-D4-D6"]
)
def test_every_forgiving_form_reads_as_the_same_turn(text):
    assert str(parse_move(text)) == "D8:D4-D6"
    assert EXAMPLE.play(text) == EXAMPLE.play("D8:D4-D6")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "not a move"),
        ("Z4", "squares run"),
        ("D9", "squares run"),
        ("H8", "cut away"),
        ("D8:D4", "not a move"),
        ("D8:D4-D6-D7", "not a move"),
        ("D8;D4;D6", "not a move"),
        ("x" * 50, "not a move"),
    ],
)
def test_text_that_is_not_a_move_is_refused(text, why):
    with pytest.raises(InvalidMoveError, match=why):
        parse_move(text)


def test_a_record_splits_into_its_moves():
    assert split_moves("1. H2 D3, F1:D3-B5\nA2 / H2 - E1 B4H2E1") == [
        "H2",
        "D3",
        "F1:D3-B5",
        "A2 / H2 - E1",
        "B4H2E1",
    ]
    with pytest.raises(InvalidMoveError, match="not a move"):
        split_moves("H2 D3 ??")


def test_the_hex_board_names_its_cells_by_slanting_columns():
    assert HEX.names[0] == "F1" and HEX.names[5] == "K1" and len(HEX.names) == 91
    assert parse_move("f6", HEXAGON).target == HEX.names.index("F6")
    with pytest.raises(InvalidMoveError, match="cells run"):
        parse_move("A1", HEXAGON)
    assert parse_move("A11", HEXAGON).text == "A11"


# --- The hex board ---------------------------------------------------------------------------


def test_on_the_hex_board_every_line_bends_by_sixty_degrees():
    pos = Position.start(HEXAGON).play("F6").play("K1")
    # The counter on F1 (north-west line), the Moai pulled one step to F5, then
    # turned to north-east (G4) or west (E5).
    assert {"F1:F6-F5", "F1:F6-G4", "F1:F6-E5"} <= set(texts(pos))
    assert "F1:F6-G5" not in texts(pos)
    # A counter east of it: run west (away), then turn south-west or north-west.
    assert {"K6:F6-E6", "K6:F6-D7", "K6:F6-E5"} <= set(texts(pos))


def test_the_hex_position_text_writes_each_row_of_cells():
    pos = Position.start(HEXAGON).play("F6")
    rows = pos.to_text().split()[0].split("/")
    assert [len(row) for row in rows] == [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
    assert rows[5] == ".....W....."
    assert Position.from_text(pos.to_text(), HEXAGON) == pos


# --- Position text ------------------------------------------------------------------------


def test_position_text_round_trips_on_both_boards():
    for name, record in MID_GAMES.items():
        rules = Rules(name)
        pos = Position.replay(rules, record)
        again = Position.from_text(pos.to_text(), rules)
        assert again == pos and again.to_text() == pos.to_text()
        assert texts(again) == texts(pos)


def test_the_square_position_text_marks_the_missing_corners():
    assert SQUARE.start_text == "#......#/" + "......../" * 6 + "#......# w"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "the rows, a space and the side to move"),
        (SQUARE.start_text.replace(" w", " x"), "the side to move is w or b"),
        ("/".join(["........"] * 7) + " w", "needs 8 rows"),
        (SQUARE.start_text.replace("#......#", "#.....#", 1), "row 1 needs 8 squares"),
        (SQUARE.start_text.replace("#", ".", 1), "missing corner is written #"),
        (SQUARE.start_text.replace("........", "...X....", 1), "'X' is not a piece"),
        (SQUARE.start_text.replace(" w", " b"), "white is to move"),
        (SQUARE.start_text.replace("........", "...B....", 1), "no black Moai before"),
        (SQUARE.start_text.replace("........", "...W....", 1), "black is to move"),
        (SQUARE.start_text.replace("........", "..WoB...", 1), "with 1 counter down it is black"),
        (SQUARE.start_text.replace("........", "..WW....", 1), "one white Moai"),
        (SQUARE.start_text.replace("........", "..Wo....", 1).replace(" w", " b"), "counters come"),
        ("x" * 500, "position text"),
    ],
)
def test_position_text_that_no_game_reaches_is_refused(text, why):
    with pytest.raises(InvalidPositionError, match=why):
        Position.from_text(text)


# --- The rule book's figures -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "middle", "depth", "count"),
    [
        ("square", False, 1, 60),
        ("square", False, 2, 3_540),
        ("square", True, 1, 29),
        ("square", True, 2, 1_552),
        ("square", True, 3, 88_466),
        ("hex", False, 1, 91),
        ("hex", False, 2, 8_190),
        ("hex", True, 1, 56),
        ("hex", True, 2, 3_576),
        ("hex", True, 3, 197_758),
    ],
)
def test_perft(name, middle, depth, count):
    rules = Rules(name)
    pos = Position.replay(rules, MID_GAMES[name]) if middle else Position.start(rules)
    assert pos.turn is Color.DARK
    assert perft(pos, depth) == count


def test_perft_from_the_start_at_depth_three_on_the_square_board():
    assert perft(Position.start(), 3) == 975_840


@pytest.mark.parametrize("name", ["square", "hex"])
def test_the_rule_books_two_hundred_random_games(name):
    results, plies = random_games(name)
    white, black, mean = RANDOM_GAMES[name]
    assert dict(results) == {"white": white, "black": black}
    assert round(plies, 1) == mean


def test_the_legal_list_is_in_the_order_of_its_texts():
    listed = texts(Position.replay(MID_GAMES["square"]))
    assert listed == sorted(listed) and len(listed) == 29


# --- Against the model ------------------------------------------------------------------------


def model_of(pos: Position, name: str) -> Model:
    model = Model(name)
    for text in pos.record:
        model.play(text)
    return model


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["square", "hex"]))
def test_random_games_agree_with_the_plain_model(seed, name):
    rng = random.Random(seed)
    pos, model = Position.start(Rules(name)), Model(name)
    while True:
        assert texts(pos) == model.moves()
        assert pos.to_text().split()[1] == model.turn.lower()
        if pos.is_over:
            assert model.moves() == []
            assert pos.result == ("black" if model.turn == "W" else "white")
            break
        text = rng.choice(texts(pos))
        pos = pos.play(text)
        model.play(text)
        assert Position.from_text(pos.to_text(), Rules(name)) == pos


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.text(max_size=12))
def test_every_move_the_engine_refuses_the_model_refuses_too(seed, garbage):
    rng = random.Random(seed)
    pos = Position.start()
    for _ in range(rng.randrange(30)):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(texts(pos)))
    legal = set(model_of(pos, "square").moves())
    for _ in range(30):
        names = [rng.choice(SQUARE.names) for _ in range(3)]
        text = names[0] if rng.random() < 0.1 else f"{names[0]}:{names[1]}-{names[2]}"
        assert (pos.why_illegal(text) is None) == (text in legal)
        assert pos.is_legal(text) == (text in legal)
        if text not in legal:
            with pytest.raises(IllegalMoveError):
                pos.play(text)
    try:
        parse_move(garbage)
    except InvalidMoveError:
        assert not pos.is_legal(garbage)


def test_the_engine_imports_nothing_but_the_standard_library_and_the_game():
    folder = pathlib.Path(__file__).resolve().parents[2] / "game" / "moai"
    for path in [folder / name for name in ("engine.py", "notation.py", "perft.py", "turns.py")]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not node.module.startswith("django"), path
            if isinstance(node, ast.Import):
                assert all(not alias.name.startswith("django") for alias in node.names), path


def test_a_move_made_for_one_board_is_read_by_its_text_on_the_other():
    hexagon = Position.start(HEXAGON)
    on_hex = parse_move("K1", HEXAGON)
    with pytest.raises(InvalidMoveError, match="cut away"):
        Position.start().play(parse_move("H8:H7-G7", HEXAGON))
    with pytest.raises(InvalidMoveError, match="squares run"):
        Position.start().play(on_hex)
    assert hexagon.play(parse_move("F6")).piece_at("F6") == "W"
