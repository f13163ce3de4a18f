"""Pictures of 7-4-1776 positions (game/seven_four/pictures.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from game.picturing import layout
from game.seven_four import BOARD, Position, parse_square
from game.seven_four.pictures import STONE_COLOURS, board_png
from game.surface import Color

SIZE = (1200, 630)


def picture(position: Position, caption: str = "", **size) -> Image.Image:
    data = board_png(position, caption=caption, **size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).convert("RGB")


def colour_at(image: Image.Image, name: str) -> tuple[int, int, int]:
    x, y = layout(*image.size, BOARD).centre(parse_square(name))
    return image.getpixel((x + 4, y + 4))


def test_a_picture_is_a_png_of_the_size_asked():
    position = Position.start()
    assert picture(position).size == SIZE
    assert picture(position, width=600, height=315).size == (600, 315)
    with pytest.raises(ValueError, match="not a picture size"):
        board_png(position, width=100, height=50)


def test_blue_and_red_stones_are_drawn_in_their_colours():
    image = picture(Position.replay(["D4", "G7"]))
    blue, red = colour_at(image, "D4"), colour_at(image, "G7")
    assert blue[2] > blue[0] + 60  # blue
    assert red[0] > red[2] + 60  # red
    assert colour_at(image, "E5") not in (blue, red)
    assert STONE_COLOURS[Color.DARK] != STONE_COLOURS[Color.LIGHT]


def test_the_same_position_gives_the_same_bytes_and_a_slide_changes_them():
    before = Position.replay(["D4", "G7", "F4", "C8"])
    assert board_png(before) == board_png(Position.replay(["D4", "G7", "F4", "C8"]))
    assert board_png(before.play("D4-E5")) != board_png(before.play("E5"))
