"""Pictures of Parking Lot positions, drawn on ``game.picturing``: the 8×8 wooden
grid, each piece a rounded bar over its two squares (blue's upright, red's flat), the
last piece placed framed, and beside the board each side's groups and whose turn it
is or the result. Engine only, no Django."""

from __future__ import annotations

from PIL import Image, ImageDraw

from game.parking_lot.engine import BOARD, ENDS, SIDES, Position
from game.parking_lot.notation import SIZE, cell_of
from game.picturing import (
    BACKGROUND,
    draw_grid,
    frame,
    layout,
    png,
    side_text,
)
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
)

__all__ = ["board_png"]

FILL = {Color.DARK: (37, 99, 184), Color.LIGHT: (200, 55, 45)}
EDGE = {Color.DARK: (18, 58, 112), Color.LIGHT: (122, 28, 22)}


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
    inset = max(2, place.cell // 10)
    for color in COLORS:
        span = 1 if color is Color.DARK else SIZE
        for anchor in position.anchors(color):
            x0, y0 = place.corner(cell_of(anchor))
            x1, y1 = place.corner(cell_of(anchor + span))
            draw.rounded_rectangle(
                (x0 + inset, y0 + inset, x1 + place.cell - inset, y1 + place.cell - inset),
                place.cell // 5,
                fill=FILL[color],
                outline=EDGE[color],
                width=place.line * 2,
            )
    last = position.last_move
    if last is not None:
        frame(draw, place, cell_of(last.place), place.line * 4)
    outcome = position.outcome()
    if outcome is not None:
        result = outcome.result
        verdict = f"a {result}" if result == sides.no_winner else sides.result_text(result)
        status, notes = f"Game over: {verdict}", [ENDS[outcome.reason]]
    else:
        status, notes = f"{sides.name(position.turn)} to move", []
    score = position.score()
    lines = [
        (Color.DARK, f"{sides.name(Color.DARK)}  groups {score.blue}"),
        (Color.LIGHT, f"{sides.name(Color.LIGHT)}  groups {score.red}"),
    ]
    side_text(draw, place, "Parking Lot", lines, status, notes, caption)
    return png(image)
