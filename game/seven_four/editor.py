"""The board editor of the position page for 7-4-1776 (``/p/?game=seven-four``): each
square a link to the same position with that square changed, so it works without
JavaScript, drawn through ``game.editing`` as the other games' editors are.

A palette chooses what a click puts on a square (``?paint=dark-stone`` for a blue
stone); with none chosen, a click changes a square from empty to blue, to red, and
empty again. The editor draws any ten rows of stones, even a board no game reaches,
so the player sees what is wrong; the page says why, and only a valid one is played.
"""

from __future__ import annotations

from urllib.parse import urlencode

from game.editing import Editor, Pieces
from game.seven_four.drawing import stone_image
from game.seven_four.engine import SIDES, Rules
from game.seven_four.notation import (
    BOARD,
    SIDE_CHARS,
    START_TEXT,
    read_position_text,
    write_position_text,
)

__all__ = ["PAINTS", "PIECES", "editor"]

# The editor's letters are the shared ones (a dark, that is blue, stone upper case, a
# light, red, one lower case); the position text's are the rule book's B and R.
_TO_EDITOR = str.maketrans("BR", "Ss")
_TO_TEXT = str.maketrans("Ss", "BR")
PAINTS = {"empty": ".", "dark-stone": "S", "light-stone": "s"}
PIECES = Pieces(
    board=BOARD,
    noun="stone",
    kinds={"S": "stone"},
    image=lambda color, kind: stone_image(color),
    paints=PAINTS,
    cycle=".Ss",
    names={},
    sides=SIDES,
)


def query_of(text: str, paint: str = "") -> str:
    """The position page's query for ``text`` of 7-4-1776, keeping the paint chosen."""
    paints = {"paint": paint} if paint else {}
    return urlencode({"game": "seven-four", "text": text, **paints})


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not ten
    rows of stones and a side (the editor then starts afresh).

    ``paint`` is the palette's choice (a key of ``PAINTS``; anything else is none), put
    on the square named ``at`` first: the editor's ``text`` is then the new position,
    or the one given with the ``refusal`` that says why not.
    """
    found = read_position_text(text)
    if found.error:
        return None
    squares, side = found.board.translate(_TO_EDITOR), found.side
    paint = paint if paint in PAINTS else ""
    refusal = ""

    def written(new_squares: str, new_side: str) -> str:
        return write_position_text(new_squares.translate(_TO_TEXT), new_side)

    if paint and at:
        try:
            index = BOARD.parse(at)
        except ValueError:
            refusal = f"{at[:10]!r} is not a square: use A1 to J10"
        else:
            squares = squares[:index] + PAINTS[paint] + squares[index + 1 :]
            text = written(squares, side)

    def link(new_squares: str, new_side: str) -> str:
        return f"{page}?{query_of(written(new_squares, new_side), paint)}"

    here = f"{page}?{query_of(text, paint)}"
    other = SIDE_CHARS[side == SIDE_CHARS[0]]
    return Editor(
        text=text,
        rules=rules,
        rows=PIECES.rows(squares, paint, here, lambda changed: link(changed, side)),
        turn="dark" if side == SIDE_CHARS[0] else "light",
        turn_url=link(squares, other),
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
