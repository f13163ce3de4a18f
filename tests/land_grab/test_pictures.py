"""Pictures of Land Grab positions (game/land_grab/pictures.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from game.land_grab import BOARD, Position, parse_square
from game.land_grab.pictures import TILE_COLOURS, board_png
from game.picturing import layout

SIZE = (1200, 630)


def picture(position: Position, caption: str = "", **size) -> Image.Image:
    data = board_png(position, caption=caption, **size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).convert("RGB")


def colour_at(image: Image.Image, name: str, offset: int = 4) -> tuple[int, int, int]:
    x, y = layout(*image.size, BOARD).centre(parse_square(name))
    return image.getpixel((x + offset, y + offset))


def test_a_picture_is_a_png_of_the_size_asked():
    position = Position.start()
    assert picture(position).size == SIZE
    assert picture(position, width=600, height=315).size == (600, 315)
    with pytest.raises(ValueError, match="not a picture size"):
        board_png(position, width=100, height=50)


def test_each_tile_shows_its_face_and_a_flip_turns_it():
    before = Position.replay(["D4", "C4", "F2", "D3"])
    image = picture(before)
    assert colour_at(image, "A1") == TILE_COLOURS[0]
    assert colour_at(image, "B1") == TILE_COLOURS[1]
    flipped = before.play("D4-D5")
    assert colour_at(picture(flipped), "D5", offset=-20) == TILE_COLOURS[0]


def test_stones_are_drawn_on_their_tiles_and_the_bytes_repeat():
    position = Position.replay(["D4", "C4"])
    image = picture(position)
    black, white = colour_at(image, "D4"), colour_at(image, "C4")
    assert sum(black) < 200 and sum(white) > 600
    assert black != TILE_COLOURS[0] and white != TILE_COLOURS[1]
    assert board_png(position) == board_png(Position.replay(["D4", "C4"]))
    assert board_png(position) != board_png(Position.replay(["D4", "E4"]))
