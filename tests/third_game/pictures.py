"""Pictures of Three in a row positions, drawn on ``game.picturing``: the 5×4 wooden
grid, the stones, the last move framed, and beside the board each side's stones and
whose turn it is or the result. Engine only, no Django."""

from __future__ import annotations

from game.picturing import (
    canvas,
    counted,
    draw_grid,
    frame,
    paste,
    png,
    side_text,
    status_text,
    stone_sprite,
)
from game.sides import Sides
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
    place, image, draw = canvas(width, height, BOARD)
    draw_grid(draw, place)
    for cell in BOARD.cells:
        on = position.stone_at(cell)
        if on is not None:
            paste(image, place, cell, stone_sprite(place.cell, on))
    if position.last_move is not None:
        frame(draw, place, position.last_move.square, place.line * 4)
    outcome = position.outcome()
    if outcome is not None:
        status, notes = status_text(sides, position.turn, outcome.result), [ENDS[outcome.reason]]
    else:
        status, notes = status_text(sides, position.turn), []
    lines = counted(sides, position.score(), "stone")
    side_text(draw, place, "Three in a row", lines, status, notes, caption)
    return png(image)
