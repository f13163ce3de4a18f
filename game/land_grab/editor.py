"""The board editor of the position page for Land Grab (``/p/?game=land-grab``): each
square a link to the same position with that square changed, so it works without
JavaScript, drawn through ``game.editing`` as the other games' editors are.

Every square holds a tile, so the editor's letters are four, each a face and what
stands on it: a black tile (``T``), a black stone on its black tile (``S``), a white
tile (``t``) and a white stone on its white tile (``s``). A palette chooses what a
click puts on a square (``?paint=dark-stone``); with none chosen, a click steps a
square through the four. The ply, the quiet plies and the flipless flag are kept as
the text has them; the side to move changes with the ply, whose parity it follows.
The editor draws any board, even one no game reaches, so the player sees what is
wrong; the page says why, and only a valid one is played.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.templatetags.static import static

from game.editing import Editor, Pieces
from game.land_grab.drawing import stone_image
from game.land_grab.engine import SIDES, Rules
from game.land_grab.notation import (
    BOARD,
    SIDE_CHARS,
    START_TEXT,
    read_position_text,
    write_position_text,
)

__all__ = ["PAINTS", "PIECES", "editor"]

# The position text's letters and the editor's: the shared editor reads upper case as
# the dark seat (black) and lower case as the light one (white).
_TO_EDITOR = str.maketrans("bBwW", "TSts")
_TO_TEXT = str.maketrans("TSts", "bBwW")
PAINTS = {"black-tile": "T", "dark-stone": "S", "white-tile": "t", "light-stone": "s"}


def _image(color: str, kind: str) -> str:
    if kind == "stone":
        return stone_image(color)
    return static(f"land-grab/{'black' if color == 'dark' else 'white'}-tile.svg")


PIECES = Pieces(
    board=BOARD,
    noun="tile",
    kinds={"T": "tile", "S": "stone"},
    image=_image,
    paints=PAINTS,
    cycle="TtSs",
    names={
        "T": "black tile",
        "t": "white tile",
        "S": "black stone on a black tile",
        "s": "white stone on a white tile",
    },
    sides=SIDES,
)


def query_of(text: str, paint: str = "") -> str:
    """The position page's query for ``text`` of Land Grab, keeping the paint chosen."""
    paints = {"paint": paint} if paint else {}
    return urlencode({"game": "land-grab", "text": text, **paints})


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    eight rows of tiles and its counts (the editor then starts afresh).

    ``paint`` is the palette's choice (a key of ``PAINTS``; anything else is none), put
    on the square named ``at`` first: the editor's ``text`` is then the new position,
    or the one given with the ``refusal`` that says why not.
    """
    found = read_position_text(text)
    if found.error:
        return None
    squares, side = found.board.translate(_TO_EDITOR), found.side
    ply, quiet, flipless = found.ply, found.quiet, found.flipless
    paint = paint if paint in PAINTS else ""
    refusal = ""

    def written(new_squares: str, new_side: str, new_ply: int) -> str:
        return write_position_text(
            new_squares.translate(_TO_TEXT), new_side, new_ply, quiet, flipless
        )

    if paint and at:
        try:
            index = BOARD.parse(at)
        except ValueError:
            refusal = f"{at[:10]!r} is not a square: use A1 to H8"
        else:
            squares = squares[:index] + PAINTS[paint] + squares[index + 1 :]
            text = written(squares, side, ply)

    def link(new_squares: str, new_side: str, new_ply: int) -> str:
        return f"{page}?{query_of(written(new_squares, new_side, new_ply), paint)}"

    here = f"{page}?{query_of(text, paint)}"
    other = SIDE_CHARS[side == SIDE_CHARS[0]]
    # The other side moves after one ply more (or, from the start, one ply less).
    other_ply = ply + 1 if ply == 0 or ply % 2 == 0 else ply - 1
    return Editor(
        text=text,
        rules=rules,
        rows=PIECES.rows(squares, paint, here, lambda changed: link(changed, side, ply)),
        turn="dark" if side == SIDE_CHARS[0] else "light",
        turn_url=link(squares, other, other_ply),
        hand=(),
        clear_url=f"{page}?{query_of(START_TEXT, paint)}",
        paint=paint,
        palette=tuple(
            PIECES.choice(value, value == paint, f"{page}?{query_of(text, value)}")
            for value in PAINTS
        ),
        refusal=refusal,
        noun=PIECES.noun,
        cycle=PIECES.cycle_words(),
    )
