"""Pictures of Cyngesheall positions, drawn with Pillow: for link previews (``og:image``)
and the "picture of this moment" links of games and positions. Engine only, no Django.

The picture looks like Mǽrstánas's (``game.picturing`` draws what every game's pictures
share): the wooden grid with row 1 at the top and the
pieces of ``static/img`` (a shaded disc; a commander carries the thorn rune ᚦ, a king
the ós rune ᚩ). Each king's goal corner has a small triangle in that king's colour
(dark's king races for G1, light's for A7), the last move's origin and target are
framed and the squares it captured on are ringed. Beside the board: the pieces each
side has left, whose turn it is or the result and why, and a caption. The same
position always gives the same bytes, so a response can carry an ETag, and the site
keeps what it drew by that ETag (Django's cache).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from game.cyngesheall.engine import GOALS, Position
from game.cyngesheall.notation import Move, Piece
from game.cyngesheall.rules import BOARD, ENDS, QUIET_LIMIT, SIDES
from game.grid import (
    SQUARES,
)
from game.picturing import (
    BOARD_LINE,
    STONE_COLOURS,
    Layout,
    canvas,
    counted,
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
    Color,
)

__all__ = ["GOAL_COLOURS", "RUNES", "board_png"]

# The runes of the marked pieces, as strokes in a 100-unit box (static/img/*.svg): the
# thorn ᚦ (a stave and its bowl) on the commander, the ós ᚩ (a stave and two chevrons
# hanging from it) on the king.
RUNES = {
    Piece.COMMANDER: (((43, 24), (43, 76)), ((43, 35), (61, 50), (43, 65))),
    Piece.KING: (
        ((39, 24), (39, 76)),
        ((39, 25), (51, 37), (63, 25)),
        ((39, 45), (51, 57), (63, 45)),
    ),
}
# The triangle in a goal corner takes the colour of the king racing for it (a stone's
# body), edged with the grid's brown so the light one shows on the wood.
GOAL_COLOURS = {color: (STONE_COLOURS[color][2], BOARD_LINE) for color in COLORS}
# A goal triangle's legs, as a share of a square: small enough to stay clear of a piece.
GOAL_SIZE = 0.36


def board_png(
    position: Position,
    caption: str = "",
    *,
    width: int = 1200,
    height: int = 630,
    sides: Sides = SIDES,
) -> bytes:
    """The PNG picture of ``position``, ``width`` × ``height`` pixels, with ``caption``,
    its sides named as ``sides`` say.

    Raises ``ValueError`` for a size it does not draw (200–2400 × 100–1260 pixels).
    """
    place, image, draw = canvas(width, height, BOARD)
    _board(image, draw, place, position, position.last_move, position.last_captured)
    outcome = position.outcome()
    if outcome is not None:
        status = status_text(sides, position.turn, outcome.result)
        note = ENDS.get(outcome.reason, outcome.reason)
    else:
        status = status_text(sides, position.turn)
        note = f"{position.quiet} of {QUIET_LIMIT} plies without capture"
    lines = counted(sides, position.score(), "piece")
    side_text(draw, place, "Cyngesheall", lines, status, [note], caption)
    return png(image)


def _board(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    place: Layout,
    position: Position,
    last: Move | None,
    captured: Sequence[int],
) -> None:
    draw_grid(draw, place)
    for color, goal in zip(COLORS, GOALS, strict=True):
        _goal(draw, place, goal, color, place.line)
    board = position.board()
    for square in SQUARES:
        if board[square]:
            color, piece = board[square]
            paste(image, place, square, stone_sprite(place.cell, color, RUNES.get(piece, ())))
    for square in captured:
        paste(image, place, square, ring_sprite(place.cell, place.line))
    if last is not None:
        # The target is framed as Mǽrstánas frames a placed stone; the origin more thinly.
        frame(draw, place, last.origin, place.line * 2)
        frame(draw, place, last.target, place.line * 4)


def _goal(draw: ImageDraw.ImageDraw, place: Layout, goal: int, color: Color, line: int) -> None:
    """A triangle in the board's corner at ``goal``, in the colour of the king aiming there."""
    x, y = place.centre(goal)
    half = place.cell // 2
    # The corner of the square that is the board's corner: up for row 1, left for column A.
    column, row = BOARD.positions[goal]
    dx = half if column == BOARD.width - 1 else -half
    dy = -half if row == 0 else half
    corner = (x + dx, y + dy)
    leg = int(place.cell * GOAL_SIZE)
    inward_x, inward_y = -leg if dx > 0 else leg, -leg if dy > 0 else leg
    points = [corner, (corner[0] + inward_x, corner[1]), (corner[0], corner[1] + inward_y)]
    fill, outline = GOAL_COLOURS[color]
    draw.polygon(points, fill=fill, outline=outline, width=2 * line)
