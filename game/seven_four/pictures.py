"""Pictures of 7-4-1776 positions, drawn with Pillow: for link previews (``og:image``)
and the "picture of this moment" links of games and positions. Engine only, no Django.

The wooden grid of every game's pictures (``game.picturing``), ten squares a side with
row 1 at the top; blue and red stones as shaded discs; the last move's square framed
(and, for a slide, the square it left framed thinly and the squares it filled ringed).
Beside the board: each side's stones, whose turn it is or the result and why, and a
caption. The same position always gives the same bytes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from game.picturing import (
    BACKGROUND,
    draw_grid,
    frame,
    layout,
    png,
    ring_sprite,
    side_text,
    sprite,
)
from game.seven_four.engine import ENDS, SIDES, Position
from game.seven_four.notation import BOARD
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
)

__all__ = ["STONE_COLOURS", "board_png"]

# Each seat's stone: its rim, body and shine (blue for the dark seat, red for light).
STONE_COLOURS = {
    Color.DARK: ((18, 46, 99), (37, 99, 201), (147, 190, 250)),
    Color.LIGHT: ((110, 20, 20), (204, 45, 45), (250, 170, 160)),
}


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
    place = layout(width, height, BOARD)
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_grid(draw, place)
    for square, on in enumerate(position.board()):
        if on is not None:
            stone = _stone(place.cell, on)
            image.paste(stone, place.corner(square), stone)
    last = position.last_move
    if last is not None:
        frame(draw, place, last.target, place.line * 4)
        if last.origin is not None and position.stone_at(last.origin) is None:
            frame(draw, place, last.origin, place.line)
        ring = ring_sprite(place.cell, place.line)
        for square in position.last_filled:
            image.paste(ring, place.corner(square), ring)
    outcome = position.outcome()
    if outcome is not None:
        loser = sides.word(sides.seat(outcome.result).opponent)
        status = f"Game over: {sides.verdict(sides.seat(outcome.result))}"
        notes = [f"{ENDS[outcome.reason]}: {loser} cannot move"]
    else:
        status, notes = f"{sides.name(position.turn)} to move", []
    counts = [
        f"{sides.name(color)}: {count} stone{'' if count == 1 else 's'}"
        for color, count in zip(COLORS, position.score(), strict=True)
    ]
    side_text(draw, place, "7-4-1776", (), status, [*counts, *notes], caption)
    return png(image)


@lru_cache(maxsize=16)
def _stone(cell: int, color: Color) -> Image.Image:
    rim, body, shine = STONE_COLOURS[color]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        middle, radius = big // 2, int(big * 0.38)
        draw.ellipse((middle - radius, middle - radius, middle + radius, middle + radius), rim)
        inner = radius - max(1, big // 30)
        draw.ellipse((middle - inner, middle - inner, middle + inner, middle + inner), body)
        glint = inner // 3
        x, y = middle - inner // 3, middle - inner // 3
        draw.ellipse((x - glint, y - glint, x + glint, y + glint), shine)

    return sprite(cell, paint)
