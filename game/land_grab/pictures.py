"""Pictures of Land Grab positions, drawn with Pillow: for link previews (``og:image``)
and the "picture of this moment" links of games and positions. Engine only, no Django.

The grid of every game's pictures (``game.picturing``), eight squares a side with row
1 at the top, each square filled with its tile's face; black and white stones as
shaded discs; the last move's square framed (and the square it left framed thinly).
Beside the board: each side's claims, whose turn it is or the result and why, and a
caption. The same position always gives the same bytes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from game.land_grab.engine import ENDS, SIDES, Position
from game.land_grab.notation import BOARD
from game.picturing import BACKGROUND, draw_grid, frame, layout, png, side_text, sprite
from game.sides import Sides
from game.surface import Color

__all__ = ["STONE_COLOURS", "TILE_COLOURS", "board_png"]

# Each seat's stone: its rim, body and shine (black for the dark seat, white for light).
STONE_COLOURS = {
    Color.DARK: ((242, 242, 242), (28, 28, 28), (107, 107, 107)),
    Color.LIGHT: ((17, 17, 17), (236, 236, 236), (255, 255, 255)),
}
# The tiles' faces, black then white.
TILE_COLOURS = ((59, 63, 70), (238, 234, 224))


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
    half = place.cell // 2 - place.line
    for square, (tile, stone) in enumerate(position.board()):
        x, y = place.centre(square)
        draw.rectangle((x - half, y - half, x + half, y + half), TILE_COLOURS[tile is Color.LIGHT])
        if stone is not None:
            disc = _stone(place.cell, stone)
            image.paste(disc, place.corner(square), disc)
    last = position.last_move
    if last is not None and last.target is not None:
        frame(draw, place, last.target, place.line * 4)
        if last.origin is not None:
            frame(draw, place, last.origin, place.line)
    outcome = position.outcome()
    score = position.score()
    if outcome is not None:
        status = f"Game over: {sides.verdict(sides.seat(outcome.result))}"
        notes = [ENDS[outcome.reason]]
    else:
        status, notes = f"{sides.name(position.turn)} to move", []
    counts = [
        f"{sides.name(Color.DARK)}: {' '.join(map(str, score.claims[0][:6]))}",
        f"{sides.name(Color.LIGHT)}: {' '.join(map(str, score.claims[1][:6]))}",
    ]
    side_text(draw, place, "Land Grab", (), status, [*counts, *notes], caption)
    return png(image)


@lru_cache(maxsize=16)
def _stone(cell: int, color: Color) -> Image.Image:
    rim, body, shine = STONE_COLOURS[color]

    def paint(draw: ImageDraw.ImageDraw, big: int) -> None:
        middle, radius = big // 2, int(big * 0.36)
        draw.ellipse((middle - radius, middle - radius, middle + radius, middle + radius), rim)
        inner = radius - max(1, big // 25)
        draw.ellipse((middle - inner, middle - inner, middle + inner, middle + inner), body)
        glint = inner // 3
        x, y = middle - inner // 3, middle - inner // 3
        draw.ellipse((x - glint, y - glint, x + glint, y + glint), shine)

    return sprite(cell, paint)
