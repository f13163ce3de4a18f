"""Pictures of positions (game/maerstanas/pictures.py)."""

from __future__ import annotations

import io

from PIL import Image

from game.engine import Position, Rules
from game.maerstanas.pictures import board_png
from game.maerstanas.rules import BOARD as SEVEN
from game.picturing import BOARD, layout

MOVES = ["D4", "E4", "T E5", "A7", "W A7", "C3"]


def picture(position: Position, **size) -> Image.Image:
    data = board_png(position, caption="Mǽrstánas · move 6", **size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).convert("RGB")


def colour_at(image: Image.Image, square: str, size=(1200, 630)) -> tuple[int, int, int]:
    index = "ABCDEFG".index(square[0]) + 7 * (int(square[1]) - 1)
    return image.getpixel(layout(*size, SEVEN).centre(index))


def test_a_picture_is_a_png_of_the_size_asked():
    position = Position.replay(Rules(), MOVES)
    assert picture(position).size == (1200, 630)
    assert picture(position, width=600, height=315).size == (600, 315)


def test_the_same_position_gives_the_same_bytes_and_another_other_bytes():
    position = Position.replay(Rules(), MOVES)
    again = Position.replay(Rules(), MOVES)
    assert board_png(position) == board_png(again)
    assert board_png(position) != board_png(Position.replay(Rules(), MOVES[:-1]))


def test_stones_show_in_their_colours_on_the_board():
    image = picture(Position.replay(Rules(), MOVES))
    empty, dark, light = colour_at(image, "G1"), colour_at(image, "D4"), colour_at(image, "C3")
    assert empty == BOARD
    assert sum(dark) < 250 and sum(light) > 600  # a dark disc, a light one
    assert colour_at(image, "E4") == BOARD  # cleared by the thunder-stone


def test_the_last_move_is_framed():
    position = Position.replay(Rules(), MOVES)
    image = picture(position)
    place = layout(1200, 630, SEVEN)
    x, y = place.centre("ABCDEFG".index("C") + 14)
    edge = image.getpixel((x - place.cell // 2 + 4, y))
    x2, y2 = place.centre(48)  # G7, unmarked
    assert edge != image.getpixel((x2 - place.cell // 2 + 4, y2))


def test_the_picture_says_whose_turn_or_the_result(monkeypatch):
    import random

    from PIL import ImageDraw

    written: list[str] = []
    drawing = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        written.append(words)
        return drawing(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    board_png(Position.replay(Rules(), MOVES), caption="a caption")
    assert "Dark to move" in written and "Mǽrstánas" in written and "a caption" in written
    rng = random.Random(2)
    position = Position.start()
    while not position.is_over:
        position = position.play(rng.choice(position.legal_moves()))
    written.clear()
    board_png(position)
    verdict = "a tie" if position.result == "tie" else f"{position.result.capitalize()} wins"
    assert f"Game over: {verdict}" in written
