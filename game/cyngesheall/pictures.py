"""Pictures of Cyngesheall positions, drawn with Pillow: for link previews (``og:image``)
and the "picture of this moment" links of games and positions. Engine only, no Django.

The picture looks like Mǽrstánas's (``game.maerstanas.pictures``, whose colours, layout,
fonts and sprite helpers it shares): the wooden grid with row 1 at the top and the
pieces of ``static/img`` (a shaded disc; a commander carries the thorn rune ᚦ, a king
the ós rune ᚩ). Each king's goal corner has a small triangle in that king's colour
(dark's king races for G1, light's for A7), the last move's origin and target are
framed and the squares it captured on are ringed. Beside the board: the pieces each
side has left, whose turn it is or the result and why, and a caption. The same
position always gives the same bytes, so a response can carry an ETag, and the site
keeps what it drew by that ETag (Django's cache).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from game.cyngesheall.engine import GOALS, Position
from game.cyngesheall.notation import Move, Piece
from game.cyngesheall.rules import ENDS, QUIET_LIMIT
from game.grid import COLORS, COLUMNS, SQUARES, Color
from game.maerstanas.notation import Stone
from game.maerstanas.pictures import (
    ACCENT,
    BACKGROUND,
    BOARD,
    BOARD_LINE,
    INK,
    LAST,
    MUTED,
    PNG_LEVEL,
    RUNE_COLOURS,
    STONE_COLOURS,
    Layout,
    draw_stone,
    layout,
    load_font,
    ring_sprite,
    sprite,
    wrap,
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
    position: Position, caption: str = "", *, width: int = 1200, height: int = 630
) -> bytes:
    """The PNG picture of ``position``, ``width`` × ``height`` pixels, with ``caption``.

    Raises ``ValueError`` for a size it does not draw (200–2400 × 100–1260 pixels).
    """
    if not (200 <= width <= 2400 and 100 <= height <= 1260):
        raise ValueError(f"{width}×{height} is not a picture size this draws")
    place = layout(width, height)
    image = Image.new("RGB", (place.width, place.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _board(image, draw, place, position, position.last_move, position.last_captured)
    _text(draw, place, position, caption)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def _board(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    place: Layout,
    position: Position,
    last: Move | None,
    captured: Sequence[int],
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
    for color, goal in zip(COLORS, GOALS, strict=True):
        _goal(draw, place, goal, color, line)
    board = position.board()
    for square in SQUARES:
        if board[square]:
            x, y = place.centre(square)
            piece = _piece_sprite(cell, *board[square])
            image.paste(piece, (x - cell // 2, y - cell // 2), piece)
    for square in captured:
        x, y = place.centre(square)
        ring = ring_sprite(cell, line)
        image.paste(ring, (x - cell // 2, y - cell // 2), ring)
    if last is not None:
        # The target is framed as Mǽrstánas frames a placed stone; the origin more thinly.
        for square, width in ((last.origin, line * 2), (last.target, line * 4)):
            x, y = place.centre(square)
            half = cell // 2 - 2 * line
            draw.rounded_rectangle(
                (x - half, y - half, x + half, y + half), cell // 10, outline=LAST, width=width
            )


def _goal(draw: ImageDraw.ImageDraw, place: Layout, goal: int, color: Color, line: int) -> None:
    """A triangle in the board's corner at ``goal``, in the colour of the king aiming there."""
    x, y = place.centre(goal)
    half = place.cell // 2
    # The corner of the square that is the board's corner: up for row 1, left for column A.
    dx = half if goal % 7 == 6 else -half
    dy = -half if goal // 7 == 0 else half
    corner = (x + dx, y + dy)
    leg = int(place.cell * GOAL_SIZE)
    inward_x, inward_y = -leg if dx > 0 else leg, -leg if dy > 0 else leg
    points = [corner, (corner[0] + inward_x, corner[1]), (corner[0], corner[1] + inward_y)]
    fill, outline = GOAL_COLOURS[color]
    draw.polygon(points, fill=fill, outline=outline, width=2 * line)


@lru_cache(maxsize=64)
def _piece_sprite(cell: int, color: Color, piece: Piece) -> Image.Image:
    """A piece, ``cell`` pixels square, drawn large and scaled down, to paste."""
    return sprite(cell, lambda draw, big: _piece(draw, big // 2, big // 2, big, color, piece))


def _piece(
    draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, color: Color, piece: Piece
) -> None:
    """A piece as the site's pictures draw it: Mǽrstánas's stone, with its rune on it
    for a king or a commander."""
    draw_stone(draw, x, y, cell, color, Stone.STONE)
    if piece not in RUNES:
        return
    radius = int(cell * 0.38)  # the stone's, as _stone draws it
    unit = 2 * radius / 88  # the pictures' disc is 88 units across
    width = max(2, int(7 * unit))
    ink = RUNE_COLOURS[color]
    for stroke in RUNES[piece]:
        points = [(x + (px - 50) * unit, y + (py - 50) * unit) for px, py in stroke]
        draw.line(points, ink, width, joint="curve")
        for point in (points[0], points[-1]):  # round caps
            cap = width / 2
            draw.ellipse((point[0] - cap, point[1] - cap, point[0] + cap, point[1] + cap), ink)


def _text(draw: ImageDraw.ImageDraw, place: Layout, position: Position, caption: str) -> None:
    """The title, pieces left, turn or result and caption, to the right of the board."""
    x = place.left + 7 * place.cell + place.cell
    right = place.width - place.cell // 2
    room = right - x
    if room < place.cell * 2:  # too narrow a picture for text beside the board
        return
    y = place.top
    size = min(place.cell // 1.4, room / 7)
    title = load_font(int(size), serif=True)
    draw.text((x, y), "Cyngesheall", INK, title)
    y += int(size * 1.6)
    body = load_font(int(size * 0.6))
    score = position.score()
    for color, pieces in ((Color.DARK, score.dark), (Color.LIGHT, score.light)):
        radius = int(size * 0.3)
        _piece(draw, x + radius, y + radius, int(radius / 0.38), color, Piece.STONE)
        words = f"{color.value.capitalize()}  {pieces} piece{'' if pieces == 1 else 's'}"
        draw.text((x + 3 * radius, y + radius), words, INK, body, "lm")
        y += int(size * 0.9)
    y += int(size * 0.3)
    small = load_font(int(size * 0.45))
    outcome = position.outcome()
    if outcome is not None:
        verdict = "a draw" if outcome.result == "draw" else f"{outcome.result.capitalize()} wins"
        draw.text((x, y), f"Game over: {verdict}", ACCENT, body)
        y += int(size * 0.8)
        draw.text((x, y), ENDS.get(outcome.reason, outcome.reason), MUTED, small)
    else:
        draw.text((x, y), f"{position.turn.value.capitalize()} to move", ACCENT, body)
        y += int(size * 0.8)
        quiet = f"{position.quiet} of {QUIET_LIMIT} plies without capture"
        draw.text((x, y), quiet, MUTED, small)
    y += int(size * 0.9)
    for line in wrap(caption, small, room):
        draw.text((x, y), line, MUTED, small)
        y += int(size * 0.6)
