"""Notation, position text, value types and the engine's independence from Django."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game import engine
from game.engine import (
    PASS,
    SQUARES,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    Rules,
    Score,
    Stone,
    format_move,
    parse_move,
    parse_square,
)
from game.maerstanas.notation import read_position_text, split_moves, write_position_text
from tests.support.diagrams import CHECKERBOARD, board

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f"{column}{row}" for row in range(1, 8) for column in "ABCDEFG"]
EMPTY_ROWS = "/".join(["......."] * 7)
START_TEXT = "......./......./......./......./......./......./....... d TWtw"

# E4's north neighbour E3 holds a light stone, its west neighbour D4 a dark one.
THUNDER_DIAGRAM = """
    . . . . . . .
    . . . . . . .
    . . . . s . .
    . . . S . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


# --- Squares -------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(49))
def test_square_names_round_trip(index):
    name = NAMES[index]  # row-major from A1: A1..G1, A2..G2, ... G7
    square = parse_square(name)
    assert square == index
    assert square is SQUARES[index]
    assert str(square) == name
    assert f"{square}" == name
    assert repr(square) == f"Square({name!r})"
    assert parse_square(name.lower()) is square
    assert parse_square(f"  {name} ") is square
    assert (square.column, square.row) == ("ABCDEFG".index(name[0]), int(name[1]) - 1)


@pytest.mark.parametrize("text", ["", "Z9", "H1", "A0", "A8", "E", "4", "E 4 4", "T E4", None])
def test_parse_square_refuses_what_is_not_a_square(text):
    with pytest.raises(InvalidMoveError, match="squares run A1 to G7"):
        parse_square(text)


# --- Moves ---------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "T ", "W "])
@pytest.mark.parametrize("name", NAMES)
def test_move_notation_round_trips(prefix, name):
    text = prefix + name
    move = parse_move(text)
    kind = {"": Stone.STONE, "T ": Stone.THUNDER, "W ": Stone.WODEN}[prefix]
    assert move == Move(kind, parse_square(name))
    assert (move.stone, move.square) == (kind, NAMES.index(name))
    assert format_move(move) == str(move) == text
    assert repr(move) == f"Move({text!r})"
    assert parse_move(format_move(move)) == move
    assert not move.is_pass


def test_pass_notation_round_trips():
    assert parse_move("Pass") == PASS == Move(None, None)
    assert PASS.is_pass
    assert format_move(PASS) == str(PASS) == "Pass"
    assert parse_move(format_move(PASS)) == PASS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("e4", "E4"),
        ("  E4  ", "E4"),
        ("e 4", "E4"),
        ("t e4", "T E4"),
        ("T  E4", "T E4"),
        ("te4", "T E4"),
        ("w   g7", "W G7"),
        ("T  E4 x E3 / D4", "T E4"),
        ("t e4xe3/d4", "T E4"),
        ("T E4XE3/D4", "T E4"),
        ("pass", "Pass"),
        ("PASS", "Pass"),
        ("  Pass ", "Pass"),
    ],
)
def test_move_input_is_forgiving(text, expected):
    assert str(parse_move(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "T",
        "W",
        "x",
        "W Z9",
        "T H1",
        "E4; DROP",
        "E4 E5",
        "Pass E4",
        "passe",
        "H1",
        "A0",
        "A8",
        "E44",
        "Z9",
        "4E",
        "E4 " * 1000,
        "E" + "4" * 100_000,
        "\u0415" + "4",  # Cyrillic capital IE, not E
        "E\uff14",  # full-width 4
        "E\u0664",  # Arabic-Indic 4: a digit, but not one of the board's rows
        "E4\u200b",  # zero-width space
        "\u00e94",  # é
        "E4xE3",  # a removal list on a normal stone
        "W E4xE3",  # ... or on a Woden-stone
        "T E4x",
        "T E4xE3/",
        "T E4xE3//D4",
        "T E4xZ9",
        "T E4xE3/E3",
        "E4\nE5",
    ],
)
def test_unreadable_move_text_is_an_invalid_move_error(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)
    pos = board(THUNDER_DIAGRAM, hand="TWtw")
    before = pos.to_text()
    with pytest.raises(InvalidMoveError):
        pos.play(text)
    assert pos.to_text() == before
    assert pos.record == ()
    assert not pos.is_legal(text)


@pytest.mark.parametrize("value", [None, 24, b"E4", ["E4"]])
def test_move_that_is_not_text_is_an_invalid_move_error(value):
    with pytest.raises(InvalidMoveError):
        parse_move(value)


def test_off_board_square_message_names_the_text():
    message = "'Z9' is not a move: squares run A1 to G7"
    with pytest.raises(InvalidMoveError, match=re.escape(message)):
        parse_move("Z9")
    with pytest.raises(InvalidMoveError, match=re.escape("'W Z9' is not a move")):
        parse_move("W Z9")


@pytest.mark.parametrize(
    "value",
    [(Stone.STONE, 49), (Stone.STONE, -1), (Stone.THUNDER, None), (None, 3), (Stone.WODEN, "E4")],
)
def test_move_value_refuses_what_is_not_a_move(value):
    with pytest.raises(InvalidMoveError):
        Move(*value)


# --- Thunder moves with their removal list -------------------------------------------


@pytest.mark.parametrize("text", ["T E4", "T E4xE3/D4", "t e4 x e3 / d4", "T  E4 x E3 / D4"])
def test_thunder_move_plays_with_or_without_its_removal_list(text):
    pos = board(THUNDER_DIAGRAM, hand="T")
    after = pos.play(text)
    assert after.last_removed == (parse_square("E3"), parse_square("D4"))
    assert after.record == ("T E4xE3/D4",)  # north E3 before west D4
    assert after.to_text() == f"{'/'.join(['.......'] * 3)}/....T../{'/'.join(['.......'] * 3)} l -"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("T E4xE3", "T E4 removes E3/D4"),
        ("T E4xD4", "T E4 removes E3/D4"),
        ("T E4xE3/D4/F4", "T E4 removes E3/D4"),
        ("T E4xE5", "T E4 removes E3/D4"),
        ("T G7xG6", "T G7 removes nothing"),
    ],
)
def test_thunder_move_with_a_wrong_removal_list_is_illegal_and_changes_nothing(text, message):
    pos = board(THUNDER_DIAGRAM, hand="T")
    before = (pos.to_text(), pos.record, pos.ply, [str(m) for m in pos.legal_moves()])
    with pytest.raises(IllegalMoveError, match=re.escape(message)):
        pos.play(text)
    assert (pos.to_text(), pos.record, pos.ply, [str(m) for m in pos.legal_moves()]) == before
    assert message in pos.why_illegal(text)
    assert not pos.is_legal(text)


def test_record_lists_thunder_removals_north_west_east_south():
    pos = board(
        """
        . . . . . . .
        . . . . . . .
        . . . s . . .
        . . S . S . .
        . . . s . . .
        . . . . . . .
        . . . . . . .
        """,
        hand="T",
    )
    after = pos.play("T D4")
    assert after.record == ("T D4xD3/C4/E4/D5",)
    assert Position.replay(Rules(), after.record, start=pos) == after


def test_record_replays_to_the_same_position():
    # Dark E3, light D4, dark's thunder-stone on E4 removes E3 (its own, north) and D4
    # (west); light A1, and dark's Woden-stone replaces it.
    pos = Position.start().play("E3").play("D4").play("T e4").play("A1").play("W A1")
    assert pos.record == ("E3", "D4", "T E4xE3/D4", "A1", "W A1")
    again = Position.replay(Rules(), pos.record)
    assert again == pos
    assert again.record == pos.record
    assert again.to_text() == pos.to_text()
    assert Position.replay(Rules(), [parse_move(t) for t in ("E3", "D4", "T E4")]) == (
        Position.start().play("E3").play("D4").play("T E4")
    )


def test_record_keeps_passes():
    pos = board(CHECKERBOARD, hand="t")
    after = pos.play("Pass").play("T B1")
    assert after.record == ("Pass", "T B1xA1/C1/B2")
    assert Position.replay(Rules(), after.record, start=pos) == after


def test_replay_names_the_move_that_failed():
    with pytest.raises(IllegalMoveError, match=re.escape("move 2: D4 is taken")):
        Position.replay(Rules(), ["D4", "D4"])
    with pytest.raises(InvalidMoveError, match="move 3: "):
        Position.replay(Rules(), ["D4", "E4", "Z9"])


def test_replay_follows_the_rules_it_is_given():
    record = ("A1", "T G7")
    with pytest.raises(IllegalMoveError, match="special stones are off in this game"):
        Position.replay(Rules(special_stones=False), record)
    assert Position.replay(Rules(), record).rules == Rules()


def test_score_line():
    assert str(Score(42, 39)) == "Dark: 42, Light: 39"
    assert str(Score(dark=0, light=7)) == "Dark: 0, Light: 7"
    assert Score(3, 4) == (3, 4)


# --- Position text -------------------------------------------------------------------


def test_start_position_text():
    assert Position.start().to_text() == START_TEXT
    assert Position.start(Rules(special_stones=False)).to_text() == EMPTY_ROWS + " d -"
    assert Position.from_text(START_TEXT) == Position.start()


@pytest.mark.parametrize(
    "text",
    [
        START_TEXT,
        EMPTY_ROWS + " l -",
        EMPTY_ROWS + " d T",
        EMPTY_ROWS + " l Ww",
        EMPTY_ROWS + " d TWt",
        "s....S./.ssT..s/....w.S/..S..SS/W..S.../..s..../...t..s d -",
        ".sS...s/.wS.sS./S...ssS/...WS../...SSSs/.s...ss/sS.s.S. l -",
        "S....../......./......./......./......./......./....... l Ttw",
        "......./......./......./......./......./......./......s d TWtw",
    ],
)
def test_position_text_round_trips(text):
    pos = Position.from_text(text)
    assert pos.to_text() == text
    assert Position.from_text(pos.to_text()) == pos


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(special_stones=False), Rules(scoring="simple", wraparound=True)],
    ids=str,
)
def test_repr_of_a_position_evaluates_to_it_with_its_rules(rules):
    pos = Position.replay(rules, ["D4", "E4", "A1"])
    text = repr(pos)
    assert text == f"Position.from_text({pos.to_text()!r}, {rules!r})"
    again = eval(text, {"Position": Position, "Rules": Rules})  # our own repr, from the test itself
    assert again == pos and again.rules == rules


def test_history_names_who_played_each_move_and_its_record_text():
    pos = Position.replay(Rules(), ["D4", "E5", "T E4", "W E4"])
    assert [(p.color, str(p.move), p.text) for p in pos.history] == [
        (Color.DARK, "D4", "D4"),
        (Color.LIGHT, "E5", "E5"),
        (Color.DARK, "T E4", "T E4xD4/E5"),
        (Color.LIGHT, "W E4", "W E4"),
    ]
    assert tuple(p.text for p in pos.history) == pos.record
    assert pos.last_played == pos.history[-1]
    assert Position.start().last_played is None


def test_a_position_set_up_from_text_has_no_history_and_light_may_begin():
    pos = Position.from_text("S....../......./......./......./......./......./....... l -")
    assert pos.history == () and pos.record == ()
    after = pos.play("G7").play("G1")
    assert [(p.color, p.text) for p in after.history] == [
        (Color.LIGHT, "G7"),
        (Color.DARK, "G1"),
    ]


def test_position_text_says_side_to_move_and_stones_in_hand():
    pos = Position.from_text("S....../......./......./......./......./......./....... l Tw")
    assert pos.turn is Color.LIGHT
    assert pos.has_special(Color.DARK, Stone.THUNDER)
    assert not pos.has_special(Color.DARK, Stone.WODEN)
    assert not pos.has_special(Color.LIGHT, Stone.THUNDER)
    assert pos.has_special("light", "woden")
    assert pos.stone_at("A1") == (Color.DARK, Stone.STONE)
    assert pos.ply == 0 and pos.record == () and pos.last_move is None


def test_position_text_of_a_played_game():
    pos = Position.start().play("A1").play("T B1")  # removes A1 (west)
    assert pos.to_text() == ".t...../......./......./......./......./......./....... d TWw"


def test_position_text_keeps_its_rules():
    text = EMPTY_ROWS + " d -"
    assert Position.from_text(text, Rules(wraparound=True)).rules == Rules(wraparound=True)
    assert Position.from_text(text, Rules(wraparound=True)) != Position.from_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        EMPTY_ROWS,
        EMPTY_ROWS + " d",
        EMPTY_ROWS + " d TWtw extra",
        "/".join(["......."] * 6) + " d -",  # six rows
        "/".join(["......."] * 8) + " d -",  # eight rows
        "......../" + "/".join(["......."] * 6) + " d -",  # a row of eight
        "....../" + "/".join(["......."] * 6) + " d -",  # a row of six
        "x....../" + "/".join(["......."] * 6) + " d -",  # bad square
        "1....../" + "/".join(["......."] * 6) + " d -",
        "\u00c9....../" + "/".join(["......."] * 6) + " d -",
        EMPTY_ROWS + " x -",  # bad side
        EMPTY_ROWS + " dark -",
        EMPTY_ROWS + " d X",  # bad hand letters
        EMPTY_ROWS + " d TT",
        EMPTY_ROWS + " d T-",
        EMPTY_ROWS + " d S",
        # A1 would have four hinges: two edge sides, B1 and A2.
        "Ss...../S....../......./......./......./......./....... d -",
        # D4 with four neighbours.
        "......./......./...S.../..SsS../...S.../......./....... d -",
        # Two dark thunder-stones on the board, or one on the board and one in hand.
        "T.....T/......./......./......./......./......./....... d -",
        "T....../......./......./......./......./......./....... d T",
        "......w/......./......./......./......./......./.....w. d -",
        "......w/......./......./......./......./......./....... d w",
    ],
)
def test_malformed_position_text_is_an_invalid_position_error(text):
    with pytest.raises(InvalidPositionError):
        Position.from_text(text)


def test_invalid_position_error_is_a_value_error_not_a_move_error():
    assert issubclass(InvalidPositionError, ValueError)
    assert not issubclass(InvalidPositionError, engine.MoveError)
    with pytest.raises(InvalidPositionError):
        Position.from_text(None)


def test_four_hinge_check_of_position_text_follows_the_board_shape():
    # D1 with C1, E1 and D2: on the flat board its north edge makes four hinges; on
    # the torus its north is D7, empty, so three. A stone on D7 makes four there too.
    text = "..sSs../...s.../......./......./......./......./....... d -"
    with pytest.raises(InvalidPositionError, match="D1"):
        Position.from_text(text)
    assert Position.from_text(text, Rules(wraparound=True)).hinges("D1") == 3
    text = "..sSs../...s.../......./......./......./......./...s... d -"
    with pytest.raises(InvalidPositionError, match="D1"):
        Position.from_text(text, Rules(wraparound=True))


# --- Value types ---------------------------------------------------------------------


def test_rules_refuse_an_unknown_scoring():
    with pytest.raises(ValueError, match="bogus"):
        Rules(scoring="bogus")
    with pytest.raises(ValueError):
        Rules(scoring="Standard")
    with pytest.raises(ValueError):
        Rules(special_stones="yes")
    assert Rules(scoring="simple").scoring == "simple"


def test_rules_defaults():
    assert Rules() == Rules(special_stones=True, scoring="standard", wraparound=False)


def test_rules_are_frozen():
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.scoring = "simple"
    with pytest.raises(AttributeError):
        rules.wraparound = True
    assert rules == Rules()
    assert hash(rules) == hash(Rules())


@pytest.mark.parametrize(
    "name", ["turn", "ply", "record", "rules", "is_over", "winner", "last_move", "new_attribute"]
)
def test_position_attributes_cannot_be_set(name):
    pos = Position.start().play("D4")
    before = pos.to_text(), pos.record
    with pytest.raises(AttributeError):
        setattr(pos, name, None)
    assert (pos.to_text(), pos.record) == before


def test_position_is_made_by_its_constructors_only():
    with pytest.raises(TypeError):
        Position()


def test_moves_are_frozen():
    move = parse_move("E4")
    with pytest.raises(AttributeError):
        move.square = 3
    assert str(move) == "E4"


def test_color_and_stone_are_string_enums():
    assert Color.DARK == "dark" and Color.LIGHT == "light"
    assert Stone.STONE == "stone" and Stone.THUNDER == "thunder" and Stone.WODEN == "woden"
    assert Color("dark") is Color.DARK
    assert f"{Color.LIGHT}" == "light"


# --- The moves of a record and lenient position text ---------------------------------------


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("", []),
        ("D4 E4", ["D4", "E4"]),
        ("1. D4 E4\n2. T C3xD3 W E4", ["D4", "E4", "T C3xD3", "W E4"]),
        ("d4,e4;  pass", ["d4", "e4", "pass"]),
        ("1... E4 2. t c3 x d3 / c4", ["E4", "t c3 x d3 / c4"]),
        ("… D4", ["D4"]),
    ],
)
def test_the_moves_of_a_record_are_split_by_the_notation(text, moves):
    assert list(split_moves(text)) == moves
    for move in moves:
        parse_move(move)  # each is a move the engine reads


@pytest.mark.parametrize(
    ("text", "read", "message"),
    [
        ("D4 E4 castles", ["D4", "E4"], "'castles' is not a move"),
        ("D4 H9", ["D4"], "'H9' is not a move"),
        ("D4 A9", ["D4"], "'A9' is not a move: squares run A1 to G7"),
        ("T D4xC4/C4", [], "a removed square is listed twice"),
        ("D4 E4x", ["D4"], "'E4x' is not a move"),
    ],
)
def test_a_record_s_moves_stop_at_the_first_word_that_is_not_one(text, read, message):
    found = []
    with pytest.raises(InvalidMoveError, match=re.escape(message)):
        for move in split_moves(text):
            found.append(move)
    assert found == read


def test_lenient_position_text_gives_every_square_and_no_error():
    text = "T.s..../.S...../......./...w.../..t..../......./W.....s l wT"
    found = read_position_text(text)
    assert found == (text.split()[0].replace("/", ""), "l", "Tw", "")
    assert found.rows[0] == "T.s...." and len(found.rows) == 7
    assert read_position_text(START_TEXT).hand == "TWtw"
    assert read_position_text(START_TEXT.replace("TWtw", "-")).hand == ""


@pytest.mark.parametrize(
    ("text", "board", "side", "error"),
    [
        ("", "", "", "'' is not position text"),
        (EMPTY_ROWS + " d", "", "", "is not position text"),
        (EMPTY_ROWS.replace("/", "", 1) + " d -", "", "", "is not a board"),
        ("x" + EMPTY_ROWS[1:] + " d -", "", "", "'x' on A1 is not a square"),
        (EMPTY_ROWS + " x -", "." * 49, "", "'x' is not a side to move"),
        (EMPTY_ROWS + " d TT", "." * 49, "d", "'TT' is not a list of special stones"),
        (EMPTY_ROWS + " l Tq", "." * 49, "l", "'Tq' is not a list of special stones"),
    ],
)
def test_lenient_position_text_reads_what_it_can_and_names_the_first_error(
    text, board, side, error
):
    found = read_position_text(text)
    assert (found.board, found.side, found.hand) == (board, side, "")
    assert error in found.error
    with pytest.raises(InvalidPositionError) as refused:
        Position.from_text(text, Rules())
    assert str(refused.value) == found.error


def test_position_text_is_written_from_its_parts():
    assert write_position_text("." * 49, "d", "wWtT") == START_TEXT
    assert write_position_text("S" + "." * 48, "l", "") == "S....../" + EMPTY_ROWS[8:] + " l -"


# --- The engine stays pure -----------------------------------------------------------


# The engine's modules: the shared board, the options codec, what lessons and computer
# players share, and
# each game's own folder but for the site's side of it (drawing, pictures, editor:
# game.<name>.site).
ENGINE_MODULES = {
    "game.engine": "game/engine.py",
    "game.surface": "game/surface.py",
    "game.grid": "game/grid.py",
    "game.boards": "game/boards/__init__.py",
    "game.boards.base": "game/boards/base.py",
    "game.boards.square": "game/boards/square.py",
    "game.boards.hexagon": "game/boards/hexagon.py",
    "game.sides": "game/sides.py",
    "game.options": "game/options.py",
    "game.teaching": "game/teaching.py",
    "game.thinking": "game/thinking.py",
    "game.mcts": "game/mcts.py",
    "game.cyngesheall": "game/cyngesheall/__init__.py",
    "game.cyngesheall.engine": "game/cyngesheall/engine.py",
    "game.cyngesheall.notation": "game/cyngesheall/notation.py",
    "game.cyngesheall.rules": "game/cyngesheall/rules.py",
    "game.cyngesheall.lessons": "game/cyngesheall/lessons.py",
    "game.cyngesheall.bots": "game/cyngesheall/bots/__init__.py",
    "game.cyngesheall.bots.levels": "game/cyngesheall/bots/levels.py",
    "game.cyngesheall.bots.policy": "game/cyngesheall/bots/policy.py",
    "game.cyngesheall.bots.search": "game/cyngesheall/bots/search.py",
    "game.cyngesheall.bots.reference": "game/cyngesheall/bots/reference.py",
    "game.cyngesheall.bots.analysis": "game/cyngesheall/bots/analysis.py",
    "game.seven_four": "game/seven_four/__init__.py",
    "game.seven_four.engine": "game/seven_four/engine.py",
    "game.seven_four.notation": "game/seven_four/notation.py",
    "game.seven_four.perft": "game/seven_four/perft.py",
    "game.seven_four.bots": "game/seven_four/bots/__init__.py",
    "game.seven_four.bots.levels": "game/seven_four/bots/levels.py",
    "game.seven_four.bots.policy": "game/seven_four/bots/policy.py",
    "game.seven_four.bots.search": "game/seven_four/bots/search.py",
    "game.seven_four.bots.reference": "game/seven_four/bots/reference.py",
    "game.seven_four.bots.analysis": "game/seven_four/bots/analysis.py",
    "game.parking_lot": "game/parking_lot/__init__.py",
    "game.parking_lot.engine": "game/parking_lot/engine.py",
    "game.parking_lot.notation": "game/parking_lot/notation.py",
    "game.parking_lot.perft": "game/parking_lot/perft.py",
    "game.parking_lot.bots": "game/parking_lot/bots/__init__.py",
    "game.parking_lot.bots.levels": "game/parking_lot/bots/levels.py",
    "game.parking_lot.bots.policy": "game/parking_lot/bots/policy.py",
    "game.parking_lot.bots.search": "game/parking_lot/bots/search.py",
    "game.parking_lot.bots.analysis": "game/parking_lot/bots/analysis.py",
    "game.parking_lot.bots.reference": "game/parking_lot/bots/reference.py",
    "game.land_grab": "game/land_grab/__init__.py",
    "game.land_grab.engine": "game/land_grab/engine.py",
    "game.land_grab.notation": "game/land_grab/notation.py",
    "game.land_grab.perft": "game/land_grab/perft.py",
    "game.land_grab.bots": "game/land_grab/bots/__init__.py",
    "game.land_grab.bots.levels": "game/land_grab/bots/levels.py",
    "game.land_grab.bots.policy": "game/land_grab/bots/policy.py",
    "game.land_grab.bots.search": "game/land_grab/bots/search.py",
    "game.land_grab.bots.reference": "game/land_grab/bots/reference.py",
    "game.land_grab.bots.analysis": "game/land_grab/bots/analysis.py",
    "game.moai": "game/moai/__init__.py",
    "game.moai.engine": "game/moai/engine.py",
    "game.moai.notation": "game/moai/notation.py",
    "game.moai.perft": "game/moai/perft.py",
    "game.moai.turns": "game/moai/turns.py",
    "game.moai.bots": "game/moai/bots/__init__.py",
    "game.moai.bots.levels": "game/moai/bots/levels.py",
    "game.moai.bots.policy": "game/moai/bots/policy.py",
    "game.moai.bots.search": "game/moai/bots/search.py",
    "game.moai.bots.reference": "game/moai/bots/reference.py",
    "game.moai.bots.analysis": "game/moai/bots/analysis.py",
    "game.bots": "game/bots.py",
    "game.maerstanas": "game/maerstanas/__init__.py",
    "game.maerstanas.engine": "game/maerstanas/engine.py",
    "game.maerstanas.notation": "game/maerstanas/notation.py",
    "game.maerstanas.rules": "game/maerstanas/rules.py",
    "game.maerstanas.bitboards": "game/maerstanas/bitboards.py",
    "game.maerstanas.lessons": "game/maerstanas/lessons.py",
    "game.maerstanas.bots": "game/maerstanas/bots/__init__.py",
    "game.maerstanas.bots.levels": "game/maerstanas/bots/levels.py",
    "game.maerstanas.bots.search": "game/maerstanas/bots/search.py",
    "game.maerstanas.bots.reference": "game/maerstanas/bots/reference.py",
    "game.maerstanas.bots.analysis": "game/maerstanas/bots/analysis.py",
}


def _imported_modules(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "the engine imports by absolute names"
            names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            names.add("__import__")
    return names


@pytest.mark.source
@pytest.mark.parametrize("module", sorted(ENGINE_MODULES))
def test_engine_source_imports_only_the_standard_library_and_the_engine(module):
    source = (ROOT / ENGINE_MODULES[module]).read_text(encoding="utf-8")
    modules = _imported_modules(source)
    assert modules, "the parser found the module's imports"
    assert not {m for m in modules if m.split(".")[0] == "django"}
    outside = {m for m in modules if m.split(".")[0] not in sys.stdlib_module_names}
    assert outside <= set(ENGINE_MODULES), f"{module} imports {outside - set(ENGINE_MODULES)}"


def test_importing_the_engine_and_its_players_loads_no_django():
    script = (
        "import sys, game.engine, game.bots, game.maerstanas.lessons\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "[]"
