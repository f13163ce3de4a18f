"""Pictures of Cyngesheall positions (game/cyngesheall/pictures.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from game.cyngesheall import Position
from game.cyngesheall.pictures import GOAL_COLOURS, board_png
from game.cyngesheall.rules import BOARD as SEVEN
from game.picturing import BOARD, LAST, layout
from game.surface import (
    Color,
)

# Dark's commander lands diagonally on D4 between four light stones, each with a dark
# piece beyond it: all four are taken (B2-D4xD3/C4/E4/D5).
SANDWICH = "......k/.C.S.../...s.../.Ss.sS./...s.../...S.../K...... d 0"
SIZE = (1200, 630)


def picture(position: Position, caption: str = "", **size) -> Image.Image:
    data = board_png(position, caption=caption, **size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).convert("RGB")


def centre(square: str, size=SIZE) -> tuple[int, int]:
    return layout(*size, SEVEN).centre("ABCDEFG".index(square[0]) + 7 * (int(square[1]) - 1))


def colour_at(image: Image.Image, square: str, dx: int = 0, dy: int = 0) -> tuple[int, int, int]:
    x, y = centre(square, image.size)
    return image.getpixel((x + dx, y + dy))


def frame_pixel(image: Image.Image, square: str) -> tuple[int, int, int]:
    """A pixel on the frame of the last move, were ``square`` framed: inside its left
    edge, at mid height."""
    place = layout(*image.size, SEVEN)
    x, y = centre(square, image.size)
    line = max(1, place.cell // 40)
    return image.getpixel((x - place.cell // 2 + 2 * line + 1, y))


def test_a_picture_is_a_png_of_the_size_asked():
    position = Position.start()
    assert picture(position).size == SIZE
    assert picture(position, width=600, height=315).size == (600, 315)
    with pytest.raises(ValueError, match="not a picture size"):
        board_png(position, width=100, height=50)


def test_the_caption_can_be_given_by_place_or_by_name():
    position = Position.start()
    assert board_png(position, "a caption") == board_png(position, caption="a caption")


def test_the_same_position_gives_the_same_bytes_and_another_other_bytes():
    position = Position.start().play("D7-D4")
    assert board_png(position) == board_png(Position.start().play("D7-D4"))
    assert board_png(position) != board_png(Position.start())
    assert board_png(position) != board_png(Position.start().play("D7-D5"))


def test_a_caption_changes_the_picture():
    position = Position.start()
    assert board_png(position, caption="after move 3") != board_png(position)
    assert board_png(position, caption="after move 3") != board_png(position, caption="move 4")


def test_pieces_show_in_their_colours_on_their_squares():
    image = picture(Position.start())
    off = layout(*SIZE, SEVEN).cell // 5  # down and right of the middle, clear of any rune
    for square in ("A7", "B6", "A4", "D7", "C6"):  # dark's king, commander, stones
        assert sum(colour_at(image, square, off, off)) < 250, square
    for square in ("G1", "F2", "D1", "G4", "F3"):  # light's
        assert sum(colour_at(image, square, off, off)) > 500, square  # the wood is 450
    for square in ("D4", "A1", "G7", "C3", "E5"):
        assert colour_at(image, square) == BOARD, square


def test_kings_and_commanders_carry_their_runes():
    image = picture(Position.start())
    # The rune's stave runs left of the middle, where a plain stone is one colour.
    stave = {square: colour_at(image, square, dx=-6) for square in ("A7", "B6", "C6")}
    assert sum(stave["A7"]) > 500 and sum(stave["B6"]) > 500  # pale ink on a dark stone
    assert sum(stave["C6"]) < 250  # a plain dark stone
    light = {square: colour_at(image, square, dx=-6) for square in ("G1", "F2", "F1")}
    assert sum(light["G1"]) < 300 and sum(light["F2"]) < 300  # dark ink on a light stone
    assert sum(light["F1"]) > 600


def test_each_kings_goal_corner_is_marked_in_its_colour():
    image = picture(Position.start().play("D7-D4"))
    cell = layout(*SIZE, SEVEN).cell
    inside = cell // 2 - cell // 12  # near the board's corner, inside the triangle
    assert colour_at(image, "G1", dx=inside, dy=-inside) == GOAL_COLOURS[Color.DARK][0]
    assert colour_at(image, "A7", dx=-inside, dy=inside) == GOAL_COLOURS[Color.LIGHT][0]
    # The other corners are plain wood.
    assert colour_at(image, "A1", dx=-inside, dy=-inside) == BOARD
    assert colour_at(image, "G7", dx=inside, dy=inside) == BOARD


def test_the_last_move_is_framed_at_both_ends():
    start = picture(Position.start())
    moved = picture(Position.start().play("D7-D4"))
    for square in ("D7", "D4"):
        assert frame_pixel(moved, square) == LAST, square
        assert frame_pixel(start, square) != LAST, square
    assert frame_pixel(moved, "G7") == BOARD  # an unmarked square


def test_captured_squares_are_ringed_and_empty():
    position = Position.from_text(SANDWICH).play("B2-D4")
    assert position.record == ("B2-D4xD3/C4/E4/D5",)
    image = picture(position)
    radius = layout(*SIZE, SEVEN).cell * 4 // 24  # the ring's, as the sprite draws it
    for square in ("D3", "C4", "E4", "D5"):
        assert colour_at(image, square) == BOARD, square  # the piece is gone
        ring = colour_at(image, square, dx=radius - 1)
        assert ring != BOARD and ring[0] > ring[1] + 60, square  # a red ring
    assert colour_at(image, "C3", dx=radius - 1) == BOARD  # no capture there


def test_the_picture_says_whose_turn_or_the_result(monkeypatch):
    written: list[str] = []
    drawing = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        written.append(words)
        return drawing(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    board_png(Position.start(), caption="a caption")
    assert "Cyngesheall" in written and "Dark to move" in written and "a caption" in written
    assert "Dark  10 pieces" in written and "Light  10 pieces" in written
    written.clear()
    # Dark's commander takes light's king between itself and a dark stone.
    taken = Position.from_text("......./......./...S.../...k.../......./......./KC....s d 0")
    board_png(taken.play("B7-D5"))
    assert "Game over: Dark wins" in written and "King captured" in written
