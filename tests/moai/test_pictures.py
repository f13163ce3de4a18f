"""Pictures of Moai positions on both boards (game/moai/pictures.py), and the shared
layout of a hexagon's cells in pictures (game/picturing.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from game.moai import HEX, SQUARE, Position, Rules
from game.moai.perft import MID_GAMES
from game.moai.pictures import board_png
from game.picturing import BACKGROUND, BOARD, layout

SIZE = (1200, 630)


def picture(position: Position, caption: str = "", **size) -> Image.Image:
    data = board_png(position, caption=caption, **size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).convert("RGB")


def colour_at(image: Image.Image, position: Position, name: str, dx: int = 0, dy: int = 0):
    geo = position.geometry
    x, y = layout(*image.size, geo.board).centre(geo.parse_square(name))
    return image.getpixel((x + dx, y + dy))


@pytest.mark.parametrize("board", ["square", "hex"])
def test_a_picture_is_a_png_of_the_size_asked(board):
    position = Position.start(Rules(board))
    assert picture(position).size == SIZE
    assert picture(position, width=600, height=315).size == (600, 315)
    with pytest.raises(ValueError, match="not a picture size"):
        board_png(position, width=100, height=50)


def test_the_missing_corners_are_left_as_the_background():
    image = picture(Position.start())
    assert colour_at(image, Position.start(), "B1") == BOARD
    place = layout(*image.size, SQUARE.board)
    x, y = place.left + place.cell // 2, place.top + place.cell // 2  # where A1 would be
    assert image.getpixel((x, y)) == BACKGROUND


def test_the_moai_are_drawn_in_their_sides_colours():
    position = Position.replay(["D4", "G7"])
    image = picture(position)
    # The figure's body, below its face's lines (three tenths of a square down).
    below = layout(*image.size, SQUARE.board).cell * 3 // 10
    white = colour_at(image, position, "D4", dy=below)
    black = colour_at(image, position, "G7", dy=below)
    assert sum(white) > 600 and sum(black) < 200


def test_the_hexagon_is_drawn_cell_by_cell_half_a_cell_apart():
    position = Position.start(Rules("hex"))
    image = picture(position)
    place = layout(*image.size, HEX.board)
    f6, g6 = (place.centre(HEX.parse_square(name)) for name in ("F6", "G6"))
    f7 = place.centre(HEX.parse_square("F7"))
    assert g6[0] - f6[0] == place.cell and g6[1] == f6[1]
    # Down a slanting column is half a cell to the right, a row lower.
    assert f7[0] - f6[0] in (place.cell // 2, place.cell // 2 + 1)
    assert f7[1] - f6[1] == place.cell
    assert image.getpixel(f6) == BOARD
    # Left of A6, the widest row's first cell, is no board.
    a6 = place.centre(HEX.parse_square("A6"))
    assert image.getpixel((a6[0] - place.cell, a6[1])) == BACKGROUND


def test_the_same_position_gives_the_same_bytes_and_a_move_changes_them():
    for name, record in MID_GAMES.items():
        rules = Rules(name)
        before = Position.replay(rules, record)
        assert board_png(before) == board_png(Position.replay(rules, record))
        moves = before.legal_moves()
        assert board_png(before.play(moves[0])) != board_png(before.play(moves[-1]))
