"""Parking Lot's notation and position text (docs/PARKING-LOT.md, "Notation" and
"Position text"): every forgiving form the rule book lists, every error, a record's
turns, and position text both ways with its refusals."""

from __future__ import annotations

import random

import pytest

from game.parking_lot import (
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    parse_square,
    read_move,
    split_moves,
)

E4_B2_B6 = Move(parse_square("E4"), parse_square("B2"), parse_square("B6"))
EMPTY_ROW = "........"


@pytest.mark.parametrize(
    "text",
    [
        "E4 B2-B6",
        "e4 b2-b6",
        " E4  b2 - b6 ",
        "E4 B2 B6",
        "E4, B2-B6",
        "E4;B2-B6",
        "E4B2B6",
        "E4 ,B2-B6",
        "E4 ; b2 b6",
        "E4B2-B6",
    ],
)
def test_a_turn_with_a_drive_is_read_forgivingly(text: str) -> None:
    assert read_move(text) == E4_B2_B6


@pytest.mark.parametrize("text", ["E4", "e4", "  E4 ", "\tE4\n"])
def test_a_placement_is_read_forgivingly(text: str) -> None:
    assert read_move(text) == Move(parse_square("E4"))


def test_a_turn_prints_as_the_record_writes_it() -> None:
    assert str(E4_B2_B6) == "E4 B2-B6"
    assert str(Move(parse_square("H7"))) == "H7"
    assert read_move(str(E4_B2_B6)) == E4_B2_B6
    assert not Move(0).is_pass and not Move(0).drives and E4_B2_B6.drives


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("E 4", "is not a turn"),
        ("E4 B 2-B6", "is not a turn"),
        ("E4 B2", "is not a turn"),
        ("E4,", "is not a turn"),
        ("E4,,B2-B6", "is not a turn"),
        ("E4 B2--B6", "is not a turn"),
        ("E4 B2-B6 C1", "is not a turn"),
        ("", "is not a turn"),
        ("pass", "is not a turn"),
        ("I1", "'I1' is not a square"),
        ("A9", "'A9' is not a square"),
        ("A0", "'A0' is not a square"),
        ("E4 B2-B10", "'B10' is not a square"),
        ("E4" + " " * 80, "that is not a turn"),
    ],
)
def test_what_is_not_a_turn_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        read_move(text)
    with pytest.raises(InvalidMoveError):
        Position.start().play(text)


def test_what_is_not_text_is_no_turn() -> None:
    with pytest.raises(InvalidMoveError):
        Position.start().play(42)  # type: ignore[arg-type]
    assert not Position.start().is_legal("E 4")


def test_a_record_splits_into_turns() -> None:
    record = "1. D4 2. E4\n3. B2 4. b1 5. F2 D4-D6 6. A8, 7. G5; 8. F8, B1 - D2"
    assert list(split_moves(record)) == [
        "D4",
        "E4",
        "B2",
        "b1",
        "F2 D4-D6",
        "A8",
        "G5",
        "F8, B1 - D2",
    ]
    # Without numbers, a drive needs its dash: two squares are two placements.
    assert list(split_moves("D4 E4 B2 B1 F2 D4-D6")) == ["D4", "E4", "B2", "B1", "F2 D4-D6"]
    with pytest.raises(InvalidMoveError, match="'Z9' is not a square"):
        list(split_moves("1. D4 2. Z9"))


# --- Position text ------------------------------------------------------------------------


def test_the_start_is_eight_empty_rows_and_blue_to_move() -> None:
    assert Position.start().to_text() == "/".join([EMPTY_ROW] * 8) + " b"
    assert Position.from_text(Position.start().to_text()) == Position.start()


def test_position_text_round_trips_along_random_games() -> None:
    rng = random.Random(36)
    for _ in range(30):
        pos = Position.start()
        while True:
            again = Position.from_text(pos.to_text())
            assert again == pos and again.to_text() == pos.to_text()
            assert [str(m) for m in again.legal_moves()] == [str(m) for m in pos.legal_moves()]
            assert again.outcome() == pos.outcome()
            if pos.is_over:
                break
            pos = pos.play(pos.random_move(rng))


def test_runs_split_into_pieces_from_the_top_and_from_the_left() -> None:
    rows = ["B.RRRR..", "B.......", "B.......", "B.......", *[EMPTY_ROW] * 4]
    pos = Position.from_text("/".join(rows) + " b")
    assert [sq for sq in pos.anchors("dark")] == [parse_square("A1"), parse_square("A3")]
    assert list(pos.anchors("light")) == [parse_square("C1"), parse_square("E1")]
    assert pos.ply == 0 and pos.history == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the rows, separated by /, then b or r"),
        ("/".join([EMPTY_ROW] * 8), "the rows, separated by /, then b or r"),
        ("/".join([EMPTY_ROW] * 7) + " b", "the board needs 8 rows"),
        ("/".join([EMPTY_ROW] * 7 + [".......", ""]) + " b", "the board needs 8 rows"),
        ("/".join([EMPTY_ROW] * 7 + ["......."]) + " b", "row 8 needs 8 squares, not 7"),
        ("/".join([EMPTY_ROW] * 7 + ["...x...."]) + " b", "row 8: 'x' is not a square"),
        ("/".join([EMPTY_ROW] * 7 + ["...b...."]) + " b", "row 8: 'b' is not a square"),
        ("/".join([EMPTY_ROW] * 8) + " d", "the side to move is b or r, not 'd'"),
        ("/".join([EMPTY_ROW] * 8) + " B", "the side to move is b or r, not 'B'"),
        ("/".join(["B......."] + [EMPTY_ROW] * 7) + " r", "blue's squares in the column of A1"),
        (
            "/".join(["BR......"] + ["B......."] + [EMPTY_ROW] * 6) + " r",
            "red's squares in the row of B1",
        ),
        ("/".join(["RRR....."] + [EMPTY_ROW] * 7) + " b", "red's squares in the row of C1"),
        ("/".join([EMPTY_ROW] * 7 + ["...B...."]) + " r", "blue's squares in the column of D8"),
        ("/".join([EMPTY_ROW] * 7 + [".......R"]) + " b", "red's squares in the row of H8"),
        (
            "/".join(["BBBBBBBB", "BBBBBBBB", "B.......", "B.......", *[EMPTY_ROW] * 4]) + " r",
            "blue has 9 pieces; each side has 8",
        ),
        (
            "/".join(["B.......", "B.......", *[EMPTY_ROW] * 6]) + " b",
            "1 blue and 0 red pieces: blue places first, so red is to move, not blue",
        ),
        ("/".join(["RR......", *[EMPTY_ROW] * 7]) + " b", "the sides place in turn"),
        ("/".join(["RR......", *[EMPTY_ROW] * 7]) + " r", "the sides place in turn"),
        (
            "/".join([EMPTY_ROW] * 8) + " r",
            "0 blue and 0 red pieces: blue places first, so blue is to move, not red",
        ),
        ("x" * 200, "eight rows and the side to move"),
    ],
)
def test_position_text_that_describes_no_position_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_text(text)
