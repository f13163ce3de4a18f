"""Pictures of Mǽrstánas positions, drawn with Pillow: for link previews (``og:image``)
and the "picture of this moment" links of games and positions. Engine only, no Django.

The picture follows the site's board (``game.picturing`` draws what every game's
pictures share): the wooden grid with row 1 at the top, the stones of ``static/img``
(a shaded disc; a thunder-stone carries the rune ᚦ, a Woden-stone ᚨ), a frame on the
last move and a dotted ring where its thunder-stone cleared. Beside the board: the
score, whose turn it is or the result, and a caption. The same position always gives
the same bytes, so a response can carry an ETag, and the site keeps what it drew by
that ETag (Django's cache).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from game.grid import (
    SQUARES,
)
from game.maerstanas.engine import Position
from game.maerstanas.notation import Move, Stone
from game.maerstanas.rules import BOARD, SIDES
from game.picturing import (
    Layout,
    canvas,
    draw_grid,
    frame,
    paste,
    png,
    ring_sprite,
    side_text,
    status_text,
    stone_sprite,
)
from game.sides import Sides
from game.surface import (
    COLORS,
)

__all__ = ["RUNES", "board_png"]

# The runes of the special stones, as strokes in a 100-unit box (static/img/*.svg).
RUNES = {
    Stone.THUNDER: (((43, 24), (43, 76)), ((43, 35), (61, 50), (43, 65))),
    Stone.WODEN: (((42, 24), (42, 76)), ((42, 25), (60, 38)), ((42, 41), (60, 54))),
}


def board_png(
    position: Position,
    *,
    caption: str = "",
    width: int = 1200,
    height: int = 630,
    sides: Sides = SIDES,
) -> bytes:
    """The PNG picture of ``position``, ``width`` × ``height`` pixels, with ``caption``,
    its sides named as ``sides`` say.

    Raises ``ValueError`` for a size it does not draw (200–2400 × 100–1260 pixels).
    """
    place, image, draw = canvas(width, height, BOARD)
    _board(image, draw, place, position, position.last_move, set(position.last_removed))
    status = status_text(sides, position.turn, position.result)
    lines = [
        (color, f"{sides.name(color)}  {points}")
        for color, points in zip(COLORS, position.score(), strict=True)
    ]
    notes = ["Wraparound board"] if position.rules.wraparound else []
    side_text(draw, place, "Mǽrstánas", lines, status, notes, caption)
    return png(image)


def _board(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    place: Layout,
    position: Position,
    last: Move | None,
    cleared: set[int],
) -> None:
    draw_grid(draw, place)
    board = position.board()
    for square in SQUARES:
        if board[square]:
            color, stone = board[square]
            paste(image, place, square, stone_sprite(place.cell, color, RUNES.get(stone, ())))
        if square in cleared:
            paste(image, place, square, ring_sprite(place.cell, place.line))
    if last is not None and last.square is not None:
        frame(draw, place, last.square, place.line * 4)
