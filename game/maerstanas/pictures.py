"""Pictures of positions, drawn with Pillow: for link previews (``og:image``) and the
"picture of this moment" links of games and positions. Engine only, no Django.

The picture follows the site's board: the wooden grid with row 1 at the top, the
stones of ``static/img`` (a shaded disc; a thunder-stone carries the rune ᚦ, a
Woden-stone ᚨ), a frame on the last move and a dotted ring where its thunder-stone
cleared. Beside the board: the score, whose turn it is or the result, and a
caption. The same position always gives the same bytes, so a response can carry
an ETag, and the site keeps what it drew by that ETag (Django's cache).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from game.grid import COLUMNS, SQUARES, Color
from game.maerstanas.engine import Position
from game.maerstanas.notation import Stone

# The site's light theme (static/css/site.css).
BACKGROUND = (246, 241, 231)
INK = (35, 29, 20)
MUTED = (107, 97, 82)
BOARD = (201, 157, 92)
BOARD_LINE = (110, 79, 34)
LAST = (217, 72, 15)
CLEARED = (201, 42, 42)
ACCENT = (138, 90, 22)
# The stones' colours: rim, shadow, body, light (static/img/*.svg).
STONE_COLOURS = {
    Color.DARK: ((5, 6, 8), (13, 15, 18), (43, 47, 54), (107, 114, 128)),
    Color.LIGHT: ((168, 150, 107), (201, 187, 152), (239, 230, 210), (255, 255, 255)),
}
RUNE_COLOURS = {Color.DARK: (243, 233, 210), Color.LIGHT: (58, 42, 18)}
# The runes of the special stones, as strokes in a 100-unit box (static/img/*.svg).
RUNES = {
    Stone.THUNDER: (((43, 24), (43, 76)), ((43, 35), (61, 50), (43, 65))),
    Stone.WODEN: (((42, 24), (42, 76)), ((42, 25), (60, 38)), ((42, 41), (60, 54))),
}
# The round things (stones, rings) are drawn this many times larger, once for each
# size, then scaled down to be pasted: smooth edges without antialiasing. The picture
# itself is drawn at its own size: scaling a whole picture down took two thirds of
# the 100 ms a picture cost.
SUPERSAMPLE = 4
# Flat colours compress well at once; harder work would shrink the file little.
PNG_LEVEL = 1


class Layout(NamedTuple):
    """Where the board goes in a picture of ``width`` × ``height`` pixels."""

    width: int
    height: int
    cell: int  # a square's side
    left: int  # the grid's top left corner (labels lie outside it)
    top: int

    def centre(self, square: int) -> tuple[int, int]:
        """The pixel at the middle of ``square``."""
        column, row = square % 7, square // 7
        return self.left + column * self.cell + self.cell // 2, self.top + row * self.cell + (
            self.cell // 2
        )


def layout(width: int, height: int) -> Layout:
    """The board's place in a picture: as tall as the picture allows, at the left,
    with room for its labels; the text goes to its right."""
    margin = max(8, height // 16)
    label = max(10, height // 24)
    cell = (height - 2 * margin - label) // 7
    return Layout(width, height, cell, margin + label, margin + label)


def board_png(
    position: Position, *, caption: str = "", width: int = 1200, height: int = 630
) -> bytes:
    """The PNG picture of ``position``, ``width`` × ``height`` pixels, with ``caption``."""
    if not (200 <= width <= 2400 and 100 <= height <= 1260):
        raise ValueError(f"{width}×{height} is not a picture size this draws")
    return _draw(position, position.last_move, position.last_removed, caption, width, height)


def _draw(
    position: Position,
    last: object,
    cleared: tuple[int, ...],
    caption: str,
    width: int,
    height: int,
) -> bytes:
    """The picture's bytes. Keyed by the position (its text and rules), the last move
    and what it cleared (which the position's equality leaves out), and the rest."""
    place = layout(width, height)
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _board(image, draw, place, position, last, set(cleared))
    _text(draw, place, position, caption)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def _board(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    place: Layout,
    position: Position,
    last,
    cleared: set[int],
) -> None:
    cell, left, top = place.cell, place.left, place.top
    line = max(1, cell // 40)
    draw.rectangle((left, top, left + 7 * cell, top + 7 * cell), fill=BOARD, outline=BOARD_LINE)
    for index in range(8):
        draw.line((left + index * cell, top, left + index * cell, top + 7 * cell), BOARD_LINE, line)
        draw.line((left, top + index * cell, left + 7 * cell, top + index * cell), BOARD_LINE, line)
    font = load_font(max(8, cell // 3))
    for index in range(7):
        draw.text(
            (left + index * cell + cell // 2, top - cell // 5), COLUMNS[index], MUTED, font, "ms"
        )
        draw.text(
            (left - cell // 5, top + index * cell + cell // 2), str(index + 1), MUTED, font, "rm"
        )
    board = position.board()
    for square in SQUARES:
        x, y = place.centre(square)
        corner = (x - cell // 2, y - cell // 2)
        if board[square]:
            stone = _stone_sprite(cell, *board[square])
            image.paste(stone, corner, stone)
        if square in cleared:
            ring = ring_sprite(cell, line)
            image.paste(ring, corner, ring)
    if last is not None and last.square is not None:
        x, y = place.centre(last.square)
        half = cell // 2 - 2 * line
        draw.rounded_rectangle(
            (x - half, y - half, x + half, y + half), cell // 10, outline=LAST, width=line * 4
        )


@lru_cache(maxsize=64)
def _stone_sprite(cell: int, color: Color, kind: Stone) -> Image.Image:
    """A stone, ``cell`` pixels square, drawn large and scaled down, to paste."""
    return sprite(cell, lambda draw, big: draw_stone(draw, big // 2, big // 2, big, color, kind))


@lru_cache(maxsize=16)
def ring_sprite(cell: int, line: int) -> Image.Image:
    """The ring on a square the last thunder-stone cleared, to paste."""

    def ring(draw: ImageDraw.ImageDraw, big: int) -> None:
        radius, width = big // 6, line * 2 * SUPERSAMPLE
        middle = big // 2
        box = (middle - radius, middle - radius, middle + radius, middle + radius)
        draw.ellipse(box, outline=CLEARED, width=width)

    return sprite(cell, ring)


def sprite(cell: int, paint) -> Image.Image:  # noqa: ANN001
    big = cell * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    paint(ImageDraw.Draw(image), big)
    return image.resize((cell, cell), Image.Resampling.LANCZOS)


def draw_stone(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, color: Color, kind: Stone):
    """A stone as the site's pictures draw it: a disc shaded towards its upper left,
    with its rune for a special stone."""
    rim, shadow, body, shine = STONE_COLOURS[color]
    radius = int(cell * 0.38)
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=rim)
    for step, colour in enumerate((shadow, body, _mix(body, shine))):
        inner = radius - max(1, cell // 40) - step * radius // 5
        dx = dy = -step * radius // 9  # the light comes from the upper left
        draw.ellipse((x + dx - inner, y + dy - inner, x + dx + inner, y + dy + inner), fill=colour)
    if kind in RUNES:
        unit = 2 * radius / 88  # the pictures' disc is 88 units across
        width = max(2, int(7 * unit))
        for stroke in RUNES[kind]:
            points = [(x + (px - 50) * unit, y + (py - 50) * unit) for px, py in stroke]
            draw.line(points, RUNE_COLOURS[color], width, joint="curve")
            for point in (points[0], points[-1]):  # round caps
                cap = width / 2
                draw.ellipse(
                    (point[0] - cap, point[1] - cap, point[0] + cap, point[1] + cap),
                    fill=RUNE_COLOURS[color],
                )


def _mix(one: tuple[int, int, int], other: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple((a + b) // 2 for a, b in zip(one, other, strict=True))  # type: ignore[return-value]


def _text(draw: ImageDraw.ImageDraw, place: Layout, position: Position, caption: str) -> None:
    """The title, score, turn or result and caption, to the right of the board."""
    x = place.left + 7 * place.cell + place.cell
    right = place.width - place.cell // 2
    room = right - x
    if room < place.cell * 2:  # too narrow a picture for text beside the board
        return
    y = place.top
    size = min(place.cell // 1.4, room / 7)
    title = load_font(int(size), serif=True)
    draw.text((x, y), "Mǽrstánas", INK, title)
    y += int(size * 1.6)
    body = load_font(int(size * 0.6))
    score = position.score()
    for color, points in ((Color.DARK, score.dark), (Color.LIGHT, score.light)):
        radius = int(size * 0.3)
        draw_stone(draw, x + radius, y + radius, int(radius / 0.38), color, Stone.STONE)
        draw.text(
            (x + 3 * radius, y + radius), f"{color.value.capitalize()}  {points}", INK, body, "lm"
        )
        y += int(size * 0.9)
    y += int(size * 0.3)
    if position.is_over:
        result = position.result
        verdict = "a tie" if result == "tie" else f"{result.capitalize()} wins"
        status = f"Game over: {verdict}"
    else:
        status = f"{position.turn.value.capitalize()} to move"
    draw.text((x, y), status, ACCENT, body)
    y += int(size * 0.9)
    small = load_font(int(size * 0.45))
    for line in wrap(caption, small, room):
        draw.text((x, y), line, MUTED, small)
        y += int(size * 0.6)
    if position.rules.wraparound:
        draw.text((x, y), "Wraparound board", MUTED, small)


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` in lines no wider than ``width``."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines[:3]


# DejaVu, cut down to the Latin letters ("Mǽrstánas" needs ǽ, which Pillow's own font
# lacks), shipped with the code for every game's pictures: no font of the system is needed.
FONTS = Path(__file__).parent.parent / "fonts"


@lru_cache(maxsize=32)
def load_font(size: int, serif: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSerif.ttf" if serif else "DejaVuSans.ttf"
    return ImageFont.truetype(FONTS / name, max(6, size))
