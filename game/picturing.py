"""What every game's pictures share, drawn with Pillow (``game.<name>.pictures``): the
site's colours, the board's place in a picture and its blank canvas, the wooden grid
and its labels, the shaded stone with a rune on it, the frame of a last move, the ring
of a square it cleared, the text beside the board (its sides' lines and whose turn it
is or the result), and the PNG's bytes. Engine only, no Django.

A picture follows the site's board: row 1 at the top, the pieces of ``static/img``.
The same position always gives the same bytes, so a response can carry an ETag.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from game.boards.base import Board
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
)

__all__ = [
    "ACCENT",
    "BACKGROUND",
    "BOARD",
    "BOARD_LINE",
    "LAST",
    "STONE_COLOURS",
    "Layout",
    "canvas",
    "counted",
    "draw_grid",
    "draw_stone",
    "frame",
    "layout",
    "load_font",
    "paste",
    "png",
    "ring_sprite",
    "side_text",
    "sprite",
    "status_text",
    "stone_sprite",
    "wrap",
]

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
# A rune: strokes, each a line through points of a 100-unit box (static/img/*.svg),
# drawn 7 units wide.
Rune = Sequence[Sequence[tuple[int, int]]]
RUNE_WIDTH = 7
# The title beside the board is at most the room there over this many.
TITLE_WIDTH = 7
# The round things (stones, rings) are drawn this many times larger, once for each
# size, then scaled down to be pasted: smooth edges without antialiasing. The picture
# itself is drawn at its own size: scaling a whole picture down took two thirds of
# the 100 ms a picture cost.
SUPERSAMPLE = 4
# Flat colours compress well at once; harder work would shrink the file little.
PNG_LEVEL = 1
# The sizes drawn, in pixels: wide enough for the board, no larger than a big preview.
WIDTHS, HEIGHTS = range(200, 2401), range(100, 1261)


class Layout(NamedTuple):
    """Where ``board`` goes in a picture of ``width`` × ``height`` pixels."""

    width: int
    height: int
    cell: int  # a square's side
    left: int  # the grid's top left corner (labels lie outside it)
    top: int
    board: Board

    def centre(self, square: int) -> tuple[int, int]:
        """The pixel at the middle of ``square``. A board laid out in half cells (the
        hexagon, whose rows are shifted half a cell) steps half a cell a column."""
        row, column = self.board.place(square)
        across = (column - 1) * self.cell * self.board.width // self.board.grid_columns
        return self.left + across + self.cell // 2, self.top + (row - 1) * self.cell + (
            self.cell // 2
        )

    @property
    def right(self) -> int:
        """The grid's right edge."""
        return self.left + self.board.width * self.cell

    def corner(self, square: int) -> tuple[int, int]:
        """The top left pixel of ``square``, where a square's sprite is pasted."""
        x, y = self.centre(square)
        return x - self.cell // 2, y - self.cell // 2

    @property
    def line(self) -> int:
        """The grid's line width, which the marks drawn on it scale by."""
        return max(1, self.cell // 40)


def layout(width: int, height: int, board: Board) -> Layout:
    """The place of ``board`` (a square one) in a picture: as tall as the picture allows,
    at the left, with room for its labels; the text goes to its right. Raises
    ``ValueError`` for a size it does not draw (200–2400 × 100–1260 pixels)."""
    if width not in WIDTHS or height not in HEIGHTS:
        raise ValueError(f"{width}×{height} is not a picture size this draws")
    margin = max(8, height // 16)
    label = max(10, height // 24)
    cell = (height - 2 * margin - label) // board.height
    return Layout(width, height, cell, margin + label, margin + label, board)


def canvas(
    width: int, height: int, board: Board
) -> tuple[Layout, Image.Image, ImageDraw.ImageDraw]:
    """A blank picture of ``width`` × ``height`` pixels for ``board``: its layout, the
    image and what draws on it. Raises ``ValueError`` as ``layout`` does."""
    place = layout(width, height, board)
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    return place, image, ImageDraw.Draw(image)


def draw_grid(draw: ImageDraw.ImageDraw, place: Layout) -> None:
    """The wooden board, its lines and its column letters and row numbers; a square
    cut away is left as the background."""
    cell, left, top, line, board = place.cell, place.left, place.top, place.line, place.board
    if board.shape == "hex":
        _draw_cells(draw, place)
        return
    right, bottom = place.right, top + board.height * cell
    draw.rectangle((left, top, right, bottom), fill=BOARD, outline=BOARD_LINE)
    for index in range(board.width + 1):
        draw.line((left + index * cell, top, left + index * cell, bottom), BOARD_LINE, line)
    for index in range(board.height + 1):
        draw.line((left, top + index * cell, right, top + index * cell), BOARD_LINE, line)
    for hole in getattr(board, "holes", ()):
        x, y = left + board.columns.index(hole[0]) * cell, top + (int(hole[1:]) - 1) * cell
        draw.rectangle((x, y, x + cell, y + cell), fill=BACKGROUND)
    font = load_font(max(8, cell // 3))
    for index, letter in enumerate(board.columns):
        draw.text((left + index * cell + cell // 2, top - cell // 5), letter, MUTED, font, "ms")
    for index, number in enumerate(board.rows):
        draw.text((left - cell // 5, top + index * cell + cell // 2), number, MUTED, font, "rm")


def _draw_cells(draw: ImageDraw.ImageDraw, place: Layout) -> None:
    """A board of separate cells (the hexagon): each cell a wooden hexagon, and each
    row's number before its first cell."""
    cell, line, board = place.cell, place.line, place.board
    half = cell // 2
    font = load_font(max(8, cell // 3))
    first_of_row: dict[int, int] = {}
    for square in board.cells:
        x, y = place.centre(square)
        corners = [
            (x, y - half),
            (x + half, y - half // 2),
            (x + half, y + half // 2),
            (x, y + half),
            (x - half, y + half // 2),
            (x - half, y - half // 2),
        ]
        draw.polygon(corners, fill=BOARD, outline=BOARD_LINE, width=line)
        row = board.place(square)[0]
        first_of_row.setdefault(row, square)
    for row, square in first_of_row.items():
        x, y = place.centre(square)
        draw.text((x - half - cell // 5, y), board.rows[row - 1], MUTED, font, "rm")


def frame(draw: ImageDraw.ImageDraw, place: Layout, square: int, width: int) -> None:
    """The last move's frame round ``square``, ``width`` pixels thick."""
    x, y = place.centre(square)
    half = place.cell // 2 - 2 * place.line
    draw.rounded_rectangle(
        (x - half, y - half, x + half, y + half), place.cell // 10, outline=LAST, width=width
    )


def sprite(cell: int, paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """A ``cell``-pixel square to paste, painted ``SUPERSAMPLE`` times larger by
    ``paint(draw, big)`` and scaled down."""
    big = cell * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    paint(ImageDraw.Draw(image), big)
    return image.resize((cell, cell), Image.Resampling.LANCZOS)


def paste(image: Image.Image, place: Layout, square: int, piece: Image.Image) -> None:
    """``piece`` (a sprite) pasted on ``square``, its transparent corners left see-through."""
    image.paste(piece, place.corner(square), piece)


@lru_cache(maxsize=128)
def stone_sprite(cell: int, color: Color, rune: Rune = ()) -> Image.Image:
    """A stone, ``cell`` pixels square, drawn large and scaled down, to paste: the site's
    stone, with ``rune`` on it (a game's marked pieces)."""
    return sprite(cell, lambda draw, big: draw_stone(draw, big // 2, big // 2, big, color, rune))


@lru_cache(maxsize=16)
def ring_sprite(cell: int, line: int) -> Image.Image:
    """The ring on a square the last move cleared or captured, to paste."""

    def ring(draw: ImageDraw.ImageDraw, big: int) -> None:
        radius, width = big // 6, line * 2 * SUPERSAMPLE
        middle = big // 2
        box = (middle - radius, middle - radius, middle + radius, middle + radius)
        draw.ellipse(box, outline=CLEARED, width=width)

    return sprite(cell, ring)


def draw_stone(
    draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, color: Color, rune: Rune = ()
) -> None:
    """A stone as the site's pictures draw it, centred on (``x``, ``y``) in a square of
    ``cell`` pixels: a disc shaded towards its upper left, with ``rune`` on it."""
    rim, shadow, body, shine = STONE_COLOURS[color]
    radius = int(cell * 0.38)
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=rim)
    for step, colour in enumerate((shadow, body, _mix(body, shine))):
        inner = radius - max(1, cell // 40) - step * radius // 5
        dx = dy = -step * radius // 9  # the light comes from the upper left
        draw.ellipse((x + dx - inner, y + dy - inner, x + dx + inner, y + dy + inner), fill=colour)
    unit = 2 * radius / 88  # the pictures' disc is 88 units across
    width = max(2, int(RUNE_WIDTH * unit))
    ink = RUNE_COLOURS[color]
    for stroke in rune:
        points = [(x + (px - 50) * unit, y + (py - 50) * unit) for px, py in stroke]
        draw.line(points, ink, width, joint="curve")
        for point in (points[0], points[-1]):  # round caps
            cap = width / 2
            draw.ellipse((point[0] - cap, point[1] - cap, point[0] + cap, point[1] + cap), ink)


def _mix(one: tuple[int, int, int], other: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple((a + b) // 2 for a, b in zip(one, other, strict=True))  # type: ignore[return-value]


def status_text(sides: Sides, turn: Color, result: str | None = None) -> str:
    """The line of the text beside the board that says whose turn it is, or once
    ``result`` is known (a winner's colour or a no-winner word) how the game ended."""
    if result is None:
        return f"{sides.name(turn)} to move"
    verdict = f"a {result}" if result == sides.no_winner else sides.result_text(result)
    return f"Game over: {verdict}"


def counted(sides: Sides, counts: Sequence[int], noun: str) -> list[tuple[Color, str]]:
    """Each side's line beside the board, what it has left: "Dark  3 pieces"."""
    return [
        (color, f"{sides.name(color)}  {count} {noun}{'' if count == 1 else 's'}")
        for color, count in zip(COLORS, counts, strict=True)
    ]


def side_text(
    draw: ImageDraw.ImageDraw,
    place: Layout,
    title: str,
    sides: Sequence[tuple[Color, str]],
    status: str,
    notes: Sequence[str],
    caption: str,
) -> None:
    """The text to the right of the board: the game's ``title``, a line for each side
    beside a stone of its colour (its score, its pieces left), the ``status`` (whose
    turn, or the result), ``notes`` under it, and the ``caption`` in up to three lines.
    Nothing when the picture is too narrow for text beside the board."""
    x = place.right + place.cell
    room = place.width - place.cell // 2 - x
    if room < place.cell * 2:
        return
    y = place.top
    size = min(place.cell // 1.4, room / TITLE_WIDTH)
    draw.text((x, y), title, INK, load_font(int(size), serif=True))
    y += int(size * 1.6)
    body = load_font(int(size * 0.6))
    radius = int(size * 0.3)
    for color, words in sides:
        draw_stone(draw, x + radius, y + radius, int(radius / 0.38), color)
        draw.text((x + 3 * radius, y + radius), words, INK, body, "lm")
        y += int(size * 0.9)
    y += int(size * 0.3)
    draw.text((x, y), status, ACCENT, body)
    y += int(size * 0.8)
    small = load_font(int(size * 0.45))
    for line in [*notes, *wrap(caption, small, room)]:
        draw.text((x, y), line, MUTED, small)
        y += int(size * 0.6)


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` in lines no wider than ``width``, three at the most."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines[:3]


def png(image: Image.Image) -> bytes:
    """The picture's PNG bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


# DejaVu, cut down to the Latin letters ("Mǽrstánas" needs ǽ, which Pillow's own font
# lacks), shipped with the code for every game's pictures: no font of the system is needed.
FONTS = Path(__file__).parent / "fonts"


@lru_cache(maxsize=32)
def load_font(size: int, serif: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSerif.ttf" if serif else "DejaVuSans.ttf"
    return ImageFont.truetype(FONTS / name, max(6, size))
