"""Pictures of Moai positions, drawn with Pillow: for link previews (``og:image``)
and the "picture of this moment" links of games and positions. Engine only, no Django.

The wooden board of every game's pictures (``game.picturing``): the square board
with its corners cut away, or the hexagon of cells; counters as grey discs, each
Moai as a standing figure in its side's colour; the last move's Moai framed, the
square it left framed thinly and its counter ringed. Beside the board: each Moai's
turns, whose turn it is or the result and why, and a caption. The same position
always gives the same bytes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from game.moai.engine import ENDS, SIDES, Position
from game.picturing import (
    BACKGROUND,
    draw_grid,
    frame,
    layout,
    png,
    ring_sprite,
    side_text,
    sprite,
    status_text,
)
from game.sides import Sides
from game.surface import Color

__all__ = ["MOAI_COLOURS", "board_png"]

# Each Moai's stone and its lines: white for the dark seat, black for the light one.
MOAI_COLOURS = {
    Color.DARK: ((243, 238, 226), (58, 51, 38)),
    Color.LIGHT: ((43, 47, 54), (201, 187, 152)),
}
COUNTER_COLOURS = ((63, 52, 36), (138, 122, 92), (199, 181, 142))


def board_png(
    position: Position,
    caption: str = "",
    *,
    width: int = 1200,
    height: int = 630,
    sides: Sides = SIDES,
) -> bytes:
    """The PNG picture of ``position``, ``width`` × ``height`` pixels, with ``caption``.

    Raises ``ValueError`` for a size it does not draw (200–2400 × 100–1260 pixels).
    """
    place = layout(width, height, position.geometry.board)
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_grid(draw, place)
    counters = position.counters
    for cell in range(position.geometry.size):
        if counters >> cell & 1:
            piece = _counter(place.cell)
            image.paste(piece, place.corner(cell), piece)
    for seat, cell in zip((Color.DARK, Color.LIGHT), position.moai, strict=True):
        if cell is not None:
            piece = _moai(place.cell, seat)
            image.paste(piece, place.corner(cell), piece)
    last = position.last_move
    if last is not None:
        frame(draw, place, last.target, place.line * 4)
        if last.origin is not None:
            frame(draw, place, last.origin, place.line)
            ring = ring_sprite(place.cell, place.line)
            image.paste(ring, place.corner(last.counter), ring)
    outcome = position.outcome()
    score = position.score()
    if outcome is not None:
        loser = sides.word(sides.seat(outcome.result).opponent)
        status = status_text(sides, position.turn, sides.seat(outcome.result).value)
        notes = [f"{ENDS[outcome.reason]}: the {loser} Moai cannot move"]
    else:
        status, notes = status_text(sides, position.turn), []
    # Each Moai's turns in words: the shared lines beside a stone would draw the white
    # side's as the dark seat's stone.
    turns = [
        f"{sides.name(seat)} Moai: {count} turn{'' if count == 1 else 's'}"
        for seat, count in ((Color.DARK, score.white), (Color.LIGHT, score.black))
    ]
    down = position.counters.bit_count()
    notes = [*turns, f"{down} counter{'' if down == 1 else 's'} down", *notes]
    side_text(draw, place, "Moai", (), status, notes, caption)
    return png(image)


@lru_cache(maxsize=16)
def _counter(cell: int) -> Image.Image:
    rim, body, shine = COUNTER_COLOURS

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        middle, radius = big // 2, int(big * 0.3)
        draw.ellipse((middle - radius, middle - radius, middle + radius, middle + radius), rim)
        inner = radius - max(1, big // 25)
        draw.ellipse((middle - inner, middle - inner, middle + inner, middle + inner), body)
        ring = inner // 2
        draw.ellipse(
            (middle - ring, middle - ring, middle + ring, middle + ring),
            outline=shine,
            width=max(1, big // 40),
        )

    return sprite(cell, paint)


@lru_cache(maxsize=16)
def _moai(cell: int, color: Color) -> Image.Image:
    stone, ink = MOAI_COLOURS[color]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        # The head and body of a standing figure, as the page's SVG draws it.
        unit = big / 100
        outline = [
            (34, 92),
            (32, 60),
            (28, 50),
            (30, 40),
            (33, 22),
            (42, 13),
            (50, 10),
            (58, 13),
            (67, 22),
            (70, 40),
            (72, 50),
            (68, 60),
            (66, 92),
        ]
        points = [(x * unit, y * unit) for x, y in outline]
        draw.polygon(points, fill=stone, outline=ink, width=max(1, int(4 * unit)))
        width = max(1, int(4 * unit))
        draw.line([(38 * unit, 34 * unit), (62 * unit, 34 * unit)], ink, width)
        draw.line([(50 * unit, 36 * unit), (50 * unit, 58 * unit)], ink, width)
        draw.line([(42 * unit, 66 * unit), (58 * unit, 66 * unit)], ink, width)

    return sprite(cell, paint)
