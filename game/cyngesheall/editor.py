"""The board editor of the position page for Cyngesheall (``/p/?game=cyngesheall``):
each square a link to the same position with that square changed, so it works
without JavaScript, as Mǽrstánas's editor does; both draw through ``game.editing``.

A palette chooses what a click puts on a square (``?paint=dark-king``); with none
chosen, a click changes the square to the next piece of ``CYCLE``. The editor draws
any seven rows of pieces, even a set-up the rules refuse (two kings a side), so the
player sees what is wrong; the page says why, and only a valid one can be played on.
"""

from __future__ import annotations

from urllib.parse import urlencode

from game.cyngesheall.notation import read_position_text, write_position_text
from game.cyngesheall.rules import BOARD, SIDES, Rules
from game.drawing import piece_image
from game.editing import Editor, PaintRefused, Pieces

__all__ = ["CYCLE", "EMPTY_TEXT", "PAINTS", "PIECES", "editor"]

# A board with the kings alone, where a set-up starts from scratch.
EMPTY_TEXT = "......k/......./......./......./......./......./K...... d 0"
# With no paint chosen, a click changes a square to the next of these, round and round.
CYCLE = ".SsCcKk"
_PIECES = {"K": "king", "C": "commander", "S": "stone"}
PAINTS = {
    "empty": ".",
    "dark-stone": "S",
    "light-stone": "s",
    "dark-commander": "C",
    "light-commander": "c",
    "dark-king": "K",
    "light-king": "k",
}
PIECES = Pieces(
    board=BOARD,
    noun="piece",
    kinds=_PIECES,
    image=piece_image,
    paints=PAINTS,
    cycle=CYCLE,
    names={},
    sides=SIDES,
)


def query_of(text: str, paint: str = "") -> str:
    """The position page's query for ``text`` of Cyngesheall, keeping the paint chosen."""
    paints = {"paint": paint} if paint else {}
    return urlencode({"game": "cyngesheall", "text": text, **paints})


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    seven rows of pieces, a side and a count (the editor then starts afresh).

    ``paint`` is the palette's choice (a key of ``PAINTS``; anything else is none), put
    on the square named ``at`` first: the editor's ``text`` is then the new position,
    or the one given with the ``refusal`` that says why not.
    """
    found = read_position_text(text)
    if found.error:
        return None
    squares, side, quiet = found.board, found.side, found.quiet
    paint = paint if paint in PAINTS else ""
    refusal = ""
    if paint and at:
        try:
            index = PIECES.square(at)
        except PaintRefused as error:
            refusal = str(error)
        else:
            squares = squares[:index] + PAINTS[paint] + squares[index + 1 :]
            text = write_position_text(squares, side, quiet)

    def link(new_squares: str, new_side: str) -> str:
        return f"{page}?{query_of(write_position_text(new_squares, new_side, quiet), paint)}"

    here = f"{page}?{query_of(text, paint)}"
    rows = PIECES.rows(squares, paint, here, lambda changed: link(changed, side))
    return Editor(
        text=text,
        rules=rules,
        rows=rows,
        turn="dark" if side == "d" else "light",
        turn_url=link(squares, "l" if side == "d" else "d"),
        hand=(),
        clear_url=f"{page}?{query_of(EMPTY_TEXT, paint)}",
        paint=paint,
        palette=PIECES.palette(paint, lambda value: f"{page}?{query_of(text, value)}"),
        refusal=refusal,
        noun=PIECES.noun,
        cycle=PIECES.cycle_words(),
    )
