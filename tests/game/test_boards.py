"""The boards games declare (``game.boards``): square ones of any size, flat or
wrapping round, with squares cut away, and the hexagon, as the rule books draw them."""

from __future__ import annotations

import pytest

from game import grid
from game.boards import HexBoard, SquareBoard
from game.boards.square import DIAGONAL, EIGHT, ORTHOGONAL
from game.surface import (
    InvalidMoveError,
)

MOAI_CORNERS = ("A1", "H1", "A8", "H8")


def names(board, cells) -> list[str]:
    return [board.name(cell) for cell in cells]


# Square boards --------------------------------------------------------------------------


@pytest.mark.parametrize("wraparound", [False, True])
def test_the_seven_by_seven_board_is_mǽrstánas_own(wraparound: bool):
    """Names, numbers and neighbours (in the rules' order) as the engines' 7×7 tables."""
    board = SquareBoard(7, 7, wraparound=wraparound)
    table = grid.TORUS if wraparound else grid.FLAT
    assert board.names == grid.NAMES
    for cell in board.cells:
        assert board.neighbours(cell, ORTHOGONAL) == table.neighbours[cell]
    assert board.parse("e4") == grid.parse_square("E4")


def test_a_square_is_read_forgivingly_and_refused_in_words():
    board = SquareBoard(7, 7)
    assert board.parse(" g7 ") == 48
    for text in ("Z9", "H1", "A0", "A8", "", "E"):
        with pytest.raises(InvalidMoveError) as refused:
            board.parse(text)
        assert str(refused.value) == f"{text!r} is not a square: squares run A1 to G7"


def test_seven_four_s_ten_by_ten_board_runs_a1_top_left_to_j10():
    board = SquareBoard(10, 10)
    assert (len(board), board.columns, board.rows[-1]) == (100, "ABCDEFGHIJ", "10")
    assert board.parse("J10") == 99 and board.name(10) == "A2"
    assert names(board, board.neighbours(board.parse("A1"))) == ["B1", "A2", "B2"]
    with pytest.raises(InvalidMoveError, match="squares run A1 to J10"):
        board.parse("K1")
    assert board.place(board.parse("C2")) == (2, 3)  # grid row 2, column 3


def test_moai_s_board_has_its_corners_cut_away():
    board = SquareBoard(8, 8, holes=MOAI_CORNERS)
    assert len(board) == 60  # the rule book's perft at depth 1: a counter on any square
    assert "A1" not in board.names and board.name(0) == "B1"
    with pytest.raises(InvalidMoveError, match="A1, H1, A8, H8 are cut away"):
        board.parse("h8")
    b2 = board.parse("B2")
    assert names(board, board.neighbours(b2, DIAGONAL)) == ["C1", "A3", "C3"]
    assert names(board, board.neighbours(b2, ORTHOGONAL)) == ["B1", "A2", "C2", "B3"]
    # A line stops at the edge and at a corner cut away.
    assert names(board, board.ray(board.parse("D4"), board.direction("north"))) == [
        "D3",
        "D2",
        "D1",
    ]
    assert names(board, board.ray(board.parse("D4"), board.direction("north-west"))) == [
        "C3",
        "B2",
    ]


def test_a_board_that_wraps_round_walks_a_line_once_round():
    board = SquareBoard(7, 7, wraparound=True)
    east = list(board.ray(board.parse("E4"), board.direction("east")))
    assert names(board, east) == ["F4", "G4", "A4", "B4", "C4", "D4"]
    assert len(board.neighbours(board.parse("A1"), EIGHT)) == 8


def test_a_board_refuses_what_it_cannot_be():
    with pytest.raises(ValueError):
        SquareBoard(27, 3)
    with pytest.raises(ValueError, match="'I1' is not a square"):
        SquareBoard(8, 8, holes=["I1"])


# The hexagon ----------------------------------------------------------------------------


def test_the_hexagon_has_91_cells_in_rows_of_six_to_eleven():
    board = HexBoard(6)
    assert len(board) == 91  # the rule book's perft at depth 1
    rows: dict[int, list[str]] = {}
    for cell in board.cells:
        rows.setdefault(board.positions[cell][1], []).append(board.name(cell))
    assert [len(row) for row in rows.values()] == [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
    assert rows[0] == ["F1", "G1", "H1", "I1", "J1", "K1"]
    assert rows[5][0] == "A6" and rows[5][-1] == "K6"
    assert rows[10] == ["A11", "B11", "C11", "D11", "E11", "F11"]
    with pytest.raises(InvalidMoveError, match="'E1' is not a square"):
        board.parse("E1")


def test_the_hexagon_s_six_directions_run_clockwise_from_east():
    board = HexBoard(6)
    centre = board.parse("F6")
    assert names(board, board.neighbours(centre)) == ["G6", "F7", "E7", "E6", "F5", "G5"]
    assert names(board, board.neighbours(board.parse("F1"))) == ["G1", "F2", "E2"]
    # Each step has its way back: the opposite direction, three along.
    for cell in board.cells:
        for direction in range(6):
            near = board.step(cell, direction)
            if near is not None:
                assert board.step(near, (direction + 3) % 6) == cell


def test_the_hexagon_is_laid_out_centred_with_rows_half_a_cell_apart():
    board = HexBoard(6)
    places = [board.place(cell) for cell in board.cells]
    assert len(set(places)) == 91
    assert board.place(board.parse("A6")) == (6, 1)  # the widest row starts the grid
    # The first and last rows, six cells each, sit under the middle of the widest.
    assert board.place(board.parse("F1")) == (1, 6) and board.place(board.parse("A11")) == (11, 6)
    assert board.place(board.parse("K6")) == (6, 21)  # a cell spans two half-columns
    assert max(column for _, column in places) + 1 == board.grid_columns


# Pictures ----------------------------------------------------------------------------------


def test_a_picture_lays_out_the_board_it_is_given():
    from PIL import Image, ImageDraw

    from game.picturing import BACKGROUND, BOARD, draw_grid, layout

    board = SquareBoard(8, 8, holes=MOAI_CORNERS)
    place = layout(1200, 630, board)
    assert place.right == place.left + 8 * place.cell
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    draw_grid(ImageDraw.Draw(image), place)
    off = place.cell // 4  # inside the square, clear of its lines
    top_left = (place.left + off, place.top + off)
    assert image.getpixel(top_left) == BACKGROUND  # A1 is cut away
    assert image.getpixel((top_left[0] + place.cell, top_left[1])) == BOARD  # B1 is not
    ten = layout(1200, 630, SquareBoard(10, 10))
    assert ten.centre(99) == (ten.right - ten.cell // 2, ten.top + 9 * ten.cell + ten.cell // 2)
