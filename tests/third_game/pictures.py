"""Pictures of Three in a row positions, drawn on ``game.picturing``: the 5×4 wooden
grid, the stones, the last move framed, and beside the board each side's stones and
whose turn it is or the result. Engine only, no Django."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from game.picturing import (
    BACKGROUND,
    draw_grid,
    draw_stone,
    frame,
    layout,
    png,
    side_text,
    sprite,
)
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
)
from tests.third_game.engine import BOARD, ENDS, SIDE_NAMES, Position

__all__ = ["board_png"]


def board_png(
    position: Position,
    caption: str = "",
    *,
    width: int = 1200,
    height: int = 630,
    sides: Sides = SIDE_NAMES,
) -> bytes:
    """The PNG picture of ``position``, ``width`` × ``height`` pixels, with ``caption``.

    Raises ``ValueError`` for a size it does not draw (200–2400 × 100–1260 pixels).
    """
    place = layout(width, height, BOARD)
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_grid(draw, place)
    for cell in BOARD.cells:
        on = position.stone_at(cell)
        if on is not None:
            stone = _stone(place.cell, on)
            image.paste(stone, place.corner(cell), stone)
    if position.last_move is not None:
        frame(draw, place, position.last_move.square, place.line * 4)
    outcome = position.outcome()
    if outcome is not None:
        result = outcome.result
        verdict = f"a {result}" if result == sides.no_winner else sides.result_text(result)
        status, notes = f"Game over: {verdict}", [ENDS[outcome.reason]]
    else:
        status, notes = f"{sides.name(position.turn)} to move", []
    lines = [
        (color, f"{sides.name(color)}  {count} stone{'' if count == 1 else 's'}")
        for color, count in zip(COLORS, position.score(), strict=True)
    ]
    side_text(draw, place, "Three in a row", lines, status, notes, caption)
    return png(image)


@lru_cache(maxsize=16)
def _stone(cell: int, color: Color) -> Image.Image:
    return sprite(cell, lambda draw, big: draw_stone(draw, big // 2, big // 2, big, color))
