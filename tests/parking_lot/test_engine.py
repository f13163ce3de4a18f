"""Parking Lot's engine against its rule book (docs/PARKING-LOT.md): one test per rule
and per refusal on pictures of the board, the rule book's perft figures and random
games, the notation's forgiving forms and errors, and position text both ways."""

from __future__ import annotations

from textwrap import dedent

import pytest

from game.parking_lot import (
    NAMES,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Outcome,
    Position,
    parse_square,
)
from game.parking_lot.engine import judge, score_line

MID_GAME = "D4 | E4 | B2 | B1 | F2 D4-D6 | A8 | G5 | F8 B1-D2"


def board(picture: str, side: str = "b") -> Position:
    """The position a picture shows: eight lines of ``B``, ``R`` and ``.`` (spaces
    between squares allowed), top row first, and the side to move."""
    rows = ["".join(line.split()) for line in dedent(picture).strip().splitlines()]
    return Position.from_text("/".join(rows) + f" {side}")


def texts(position: Position) -> list[str]:
    return [str(move) for move in position.legal_moves()]


def drives_from(position: Position, place: str, origin: str) -> set[str]:
    """Where the piece on ``origin`` may drive after a placement on ``place``."""
    found = position.drives(place).get(parse_square(origin), ())
    return {NAMES[target] for target in found}


def perft(position: Position, depth: int) -> int:
    if depth == 1:
        return position.count_moves()
    return sum(perft(position.play(move), depth - 1) for move in position.legal_moves())


# --- The board and a placement ---------------------------------------------------------


def test_the_game_starts_on_an_empty_board_blue_to_place_with_eight_pieces_each() -> None:
    start = Position.start()
    assert start.to_text() == "/".join(["........"] * 8) + " b"
    assert start.turn is Color.DARK
    assert start.in_hand(Color.DARK) == start.in_hand(Color.LIGHT) == 8
    assert start.outcome() is None and not start.is_over
    assert texts(start) == sorted(texts(start))
    assert len(texts(start)) == 56  # seven anchors in each of the eight columns


def test_a_blue_piece_stands_upright_from_its_anchor() -> None:
    after = Position.start().play("E4")
    assert after.piece_at("E4") == (Color.DARK, parse_square("E4"))
    assert after.piece_at("E5") == (Color.DARK, parse_square("E4"))
    assert after.piece_at("F4") is None and after.piece_at("E3") is None
    assert after.turn is Color.LIGHT and after.in_hand(Color.DARK) == 7


def test_a_red_piece_lies_flat_from_its_anchor() -> None:
    after = Position.replay(["A1", "E4"])
    assert after.piece_at("E4") == (Color.LIGHT, parse_square("E4"))
    assert after.piece_at("F4") == (Color.LIGHT, parse_square("E4"))
    assert after.piece_at("E5") is None


def test_a_piece_may_not_leave_the_board() -> None:
    with pytest.raises(IllegalMoveError, match="blue's pieces stand upright: one on C8"):
        Position.start().play("C8")
    with pytest.raises(IllegalMoveError, match="red's pieces lie flat: one on H3"):
        Position.start().play("A1").play("H3")
    assert Position.start().play("H7").piece_at("H8") is not None


def test_a_piece_may_not_be_placed_on_a_taken_square() -> None:
    pos = Position.start().play("D4")
    with pytest.raises(IllegalMoveError, match="red's piece on C5 needs D5, which is taken"):
        pos.play("C5")
    both = Position.replay(["D4", "A8", "E4"])
    with pytest.raises(IllegalMoveError, match="on D4 needs D4 and E4, which are taken"):
        both.play("D4")


def test_the_placement_comes_first_and_is_compulsory() -> None:
    with pytest.raises(InvalidMoveError, match="is not a turn"):
        Position.replay(["B3", "G8"]).play("B3-B5")  # a drive alone is no turn


# --- Drives ------------------------------------------------------------------------------


def test_a_piece_placed_this_turn_may_not_drive() -> None:
    pos = Position.start()
    with pytest.raises(IllegalMoveError, match="the piece just placed cannot drive"):
        pos.play("E4 E4-E6")
    assert all(not move.drives for move in pos.legal_moves())
    assert all(not move.drives for move in pos.play("E4").legal_moves())


def test_a_piece_drives_straight_any_number_of_squares() -> None:
    pos = Position.replay(["D4", "A8"])
    after = pos.play("A1 D4-D1")
    assert after.piece_at("D1") == (Color.DARK, parse_square("D1"))
    assert after.piece_at("D4") is None and after.piece_at("D5") is None
    assert "D7" in drives_from(pos, "A1", "D4")  # down to the bottom edge
    assert "D8" not in drives_from(pos, "A1", "D4")  # its lower square would be off


def test_a_drive_may_turn_once_by_a_right_angle() -> None:
    pos = Position.replay(["D4", "A8"])
    assert pos.is_legal("A1 D4-G2")  # up, then right
    assert pos.is_legal("A1 D4-A6")  # down, then left


BOXED = """
    . . . . . . . .
    . . . . . . . .
    . . R R . . . .
    . . . B R R . .
    . . . B . . . .
    . . R R . . . .
    . . . . B . B .
    . . . . B . B .
"""


def test_a_drive_may_not_turn_twice() -> None:
    pos = board(BOXED)
    # Above, below and to the right of D4 stand red pieces: it must go left first.
    reach = drives_from(pos, "H1", "D4")
    assert {"C4", "A4", "B1", "A7", "B6"} <= reach
    assert {"D1", "E1", "C1"}.isdisjoint(reach)  # left, up, then right: two turns
    with pytest.raises(IllegalMoveError, match="no open road from D4 to E1 with at most one"):
        pos.play("H1 D4-E1")


def test_a_drive_jumps_nothing() -> None:
    pos = board(BOXED)
    assert "G4" not in drives_from(pos, "H1", "D4")  # red's E4 bars the way
    with pytest.raises(IllegalMoveError, match="no open road from D4 to G4"):
        pos.play("H1 D4-G4")


def test_every_step_of_a_drive_must_be_open() -> None:
    pos = board(
        """
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . B . . . .
        . . . B . . . .
        . . . R R . . .
        . . . . . . . .
        . . . . . . . .
        """
    )
    # Down is barred at once by red's D6, so the bottom rows are reached only round
    # it: left or right, then down; D7 itself would need a second turn.
    reach = drives_from(pos, "A1", "D4")
    assert "D7" not in reach
    assert {"C7", "F7", "C6"} <= reach
    with pytest.raises(IllegalMoveError, match="no open road from D4 to D7"):
        pos.play("A1 D4-D7")


def test_a_piece_may_slide_onto_its_own_starting_squares() -> None:
    pos = Position.replay(["D4", "A8"])
    assert pos.is_legal("A1 D4-D5") and pos.is_legal("A1 D4-D3")
    red = Position.replay(["D4", "A8", "H1"])
    assert red.is_legal("C1 A8-B8") and red.is_legal("C1 A8-A7")


def test_a_drive_stops_where_the_piece_fits() -> None:
    pos = Position.replay(["D4", "A8"])
    with pytest.raises(IllegalMoveError, match="the piece does not fit on A7: A8 is taken"):
        pos.play("B1 D4-A7")
    with pytest.raises(IllegalMoveError, match="blue's piece would leave the board on D8"):
        pos.play("B1 D4-D8")


def test_the_new_piece_stands_in_the_way_of_the_drive() -> None:
    pos = Position.replay(["D4", "A8"])
    assert pos.is_legal("A1 D4-G4") and pos.is_legal("A1 D4-D2")
    with pytest.raises(IllegalMoveError, match="no open road from D4 to G4"):
        pos.play("F3 D4-G4")
    with pytest.raises(IllegalMoveError, match="does not fit on D2: D2 is taken"):
        pos.play("D1 D4-D2")


def test_a_piece_touching_a_friend_is_parked() -> None:
    pos = Position.replay(["D4", "A8", "E4", "G1"])
    assert not pos.drives("A1")  # D4 and E4 side by side: both frozen
    with pytest.raises(IllegalMoveError, match="touches another of blue's at E4: it is parked"):
        pos.play("A1 D4-D1")


def test_a_new_piece_placed_against_a_friend_freezes_it() -> None:
    pos = Position.replay(["D4", "A8"])
    assert parse_square("D4") in pos.drives("A1")
    assert parse_square("D4") not in pos.drives("E4")  # side by side
    with pytest.raises(IllegalMoveError, match="it is parked"):
        pos.play("D2 D4-A4")  # end to end: D2 covers D3, which touches D4


def test_enemy_contact_and_corners_do_not_freeze() -> None:
    pos = board(
        """
        . . . . . . . .
        . . . . . . . .
        . . B . . . . .
        . . B R R . . .
        . . . B . . . .
        . . . B . . . .
        . . . . . . . .
        . . . . . . R R
        """
    )
    # C3 and D5 meet only at a corner; red's D4 lies against both.
    assert {parse_square("C3"), parse_square("D5")} <= set(pos.drives("A1"))


def test_a_drive_names_a_piece_by_its_anchor() -> None:
    pos = Position.replay(["B2", "G8"])
    with pytest.raises(IllegalMoveError, match="name a piece by its top square: B2, not B3"):
        pos.play("E4 B3-B6")
    red = Position.replay(["B2", "G8", "A1"])
    with pytest.raises(IllegalMoveError, match="name a piece by its left square: G8, not H8"):
        red.play("E4 H8-A8")


def test_only_your_own_piece_drives_and_only_a_piece() -> None:
    pos = Position.replay(["B2", "G8"])
    with pytest.raises(IllegalMoveError, match="the piece on G8 is red's"):
        pos.play("E4 G8-A8")
    with pytest.raises(IllegalMoveError, match="there is no piece on C2"):
        pos.play("E4 C2-C5")


def test_a_drive_must_move() -> None:
    pos = Position.replay(["B2", "G8"])
    with pytest.raises(IllegalMoveError, match="B2-B2 does not move"):
        pos.play("E4 B2-B2")


def test_one_placement_and_one_drive_make_a_turn() -> None:
    pos = Position.replay(["B2", "G8"]).play("E4 B2-B6")
    assert pos.record == ("B2", "G8", "E4 B2-B6")
    assert pos.turn is Color.LIGHT
    assert pos.last_move == Move(parse_square("E4"), parse_square("B2"), parse_square("B6"))
    assert pos.piece_at("B6") == (Color.DARK, parse_square("B6"))


# --- The end -------------------------------------------------------------------------------

NEARLY_OVER = """
    B B B B B B B B
    B B B B B B B B
    . . . . . . . .
    R R . R R . R R
    . . . . . . . .
    R R . R R . R R
    . . . . . . . .
    R R . . . . . .
"""


def test_the_game_ends_when_the_last_piece_is_down_without_a_drive() -> None:
    pos = board(NEARLY_OVER, "r")
    assert pos.is_last_turn and pos.outcome() is None
    assert all(not move.drives for move in pos.legal_moves())
    with pytest.raises(IllegalMoveError, match="no drive after it"):
        pos.play("E8 A4-A3")
    over = pos.play("E8")
    assert over.is_over and over.legal_moves() == [] and over.count_moves() == 0
    assert over.placements() == ()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.play("C8")


def test_the_largest_group_wins() -> None:
    over = board(NEARLY_OVER, "r").play("E8")
    assert over.score().blue.sizes == (8,)
    assert over.score().red.sizes == (1,) * 8
    assert tuple(over.score()) == (8, 1)  # the largest groups, as the site keeps them
    assert (over.score().dark, over.score().light) == (8, 1)
    assert tuple(Position.start().score()) == (0, 0)
    assert over.outcome() == Outcome("blue", "largest-group")
    assert over.winner is Color.DARK and over.result == "blue"


def test_pieces_join_a_group_by_a_side_never_by_a_corner_or_an_enemy() -> None:
    over = board(
        """
        B R R B . . . B
        B . . B . . . B
        B . B . R R . .
        B . B . . . . .
        . . . . . B . B
        R R R R . B . B
        R R R R . B . .
        R R R R . B . .
        """
    )
    # A1 and A3 touch end to end; A1 and D1 only through red's B1; C3 meets D1's
    # piece at a corner.
    assert over.score().blue.sizes == (2, 2, 1, 1, 1, 1)
    assert over.score().red.sizes == (6, 1, 1)
    assert over.outcome() == Outcome("red", "largest-group")
    assert over.winner is Color.LIGHT


def test_a_tie_for_largest_is_decided_by_the_next_group() -> None:
    assert judge((4, 4), (4, 3, 1)) == Outcome("blue", "next-group")
    assert judge((3, 2, 2, 1), (3, 3, 2)) == Outcome("red", "next-group")
    assert judge((5, 3), (6, 1, 1)) == Outcome("red", "largest-group")


def test_an_outcome_names_its_winners_seat() -> None:
    assert Outcome("blue", "next-group").winner is Color.DARK
    assert Outcome("red", "largest-group").winner is Color.LIGHT
    assert Outcome("draw", "equal-groups").winner is None


def test_equal_groups_all_the_way_down_draw() -> None:
    assert judge((4, 2, 1, 1), (4, 2, 1, 1)) == Outcome("draw", "equal-groups")
    assert Outcome("draw", "equal-groups").winner is None
    assert Outcome("blue", "board-full").winner is Color.DARK
    assert Outcome("red", "largest-group").winner is Color.LIGHT


def test_the_score_line_says_the_sizes_and_the_result() -> None:
    over = board(NEARLY_OVER, "r").play("E8")
    assert score_line(over.score(), over.outcome()) == (
        "Blue 8, Red 1+1+1+1+1+1+1+1 — Blue wins: largest group"
    )
    assert score_line(Position.start().play("D4").score(), None) == "Blue 1, Red 0"
    drawn = Outcome("draw", "equal-groups")
    assert score_line(over.score(), drawn).endswith(" — Draw: equal groups")
    blue_next = Outcome("blue", "next-group")
    assert score_line(over.score(), blue_next).endswith(" — Blue wins: next largest group")
