"""The board editor of the position page for Moai (``/p/?game=moai``): each square a
link to the same position with that square changed, so it works without JavaScript,
drawn through ``game.editing`` as the other games' editors are.

A palette chooses what a click puts on a square (``?paint=counter``); with none
chosen, a click changes a square from empty to a counter, to the white Moai, to the
black Moai, and empty again. The editor draws any board of Moai and counters, even
one no game reaches, so the player sees what is wrong; the page says why, and only
a valid one is played.
"""

from __future__ import annotations

from urllib.parse import urlencode

from game.editing import Editor, Pieces
from game.moai.drawing import moai_image
from game.moai.engine import SIDES, Rules
from game.moai.notation import SIDE_CHARS, Geometry

__all__ = ["PAINTS", "editor", "pieces"]

# The editor's letters are the shared ones (dark upper case, light lower case): the
# white Moai ``W``, the black one ``w``; a counter, which is nobody's, ``C``. The
# position text's are the rule book's ``W``, ``B`` and ``o``.
_TO_EDITOR = str.maketrans("WBo", "WwC")
_TO_TEXT = str.maketrans("WwC", "WBo")
PAINTS = {"empty": ".", "counter": "C", "dark-moai": "W", "light-moai": "w"}


def pieces(geo: Geometry) -> Pieces:
    """What the editor puts on the squares of ``geo``'s board."""
    return Pieces(
        board=geo.board,
        noun="piece",
        kinds={"W": "moai", "C": "counter"},
        image=moai_image,
        paints=PAINTS,
        cycle=".CWw",
        names={"C": "counter", "W": "white Moai", "w": "black Moai"},
        sides=SIDES,
    )


def query_of(text: str, rules: Rules, paint: str = "") -> str:
    """The position page's query for ``text`` of Moai, keeping the board and the paint."""
    paints = {"paint": paint} if paint else {}
    return urlencode({"game": "moai", "board": rules.board, "text": text, **paints})


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not the
    board's rows and a side (the editor then starts afresh).

    ``paint`` is the palette's choice (a key of ``PAINTS``; anything else is none), put
    on the square named ``at`` first: the editor's ``text`` is then the new position,
    or the one given with the ``refusal`` that says why not.
    """
    geo = rules.geometry
    found = geo.read(text)
    if found.error:
        return None
    squares, side = found.cells.translate(_TO_EDITOR), found.side
    paint = paint if paint in PAINTS else ""
    refusal = ""
    drawn = pieces(geo)

    def written(new_squares: str, new_side: str) -> str:
        return geo.write(list(new_squares.translate(_TO_TEXT)), new_side)

    if paint and at:
        try:
            index = geo.board.parse(at)
        except ValueError:
            refusal = f"{at[:10]!r} is not a square: use {geo.board.span}"
        else:
            squares = squares[:index] + PAINTS[paint] + squares[index + 1 :]
            text = written(squares, side)

    def link(new_squares: str, new_side: str) -> str:
        return f"{page}?{query_of(written(new_squares, new_side), rules, paint)}"

    here = f"{page}?{query_of(text, rules, paint)}"
    other = SIDE_CHARS[side == SIDE_CHARS[0]]
    return Editor(
        text=text,
        rules=rules,
        rows=drawn.rows(squares, paint, here, lambda changed: link(changed, side)),
        turn="dark" if side == SIDE_CHARS[0] else "light",
        turn_url=link(squares, other),
        hand=(),
        clear_url=f"{page}?{query_of(geo.start_text, rules, paint)}",
        paint=paint,
        palette=tuple(
            drawn.choice(value, value == paint, f"{page}?{query_of(text, rules, value)}")
            for value in PAINTS
        ),
        refusal=refusal,
        noun=drawn.noun,
        cycle=drawn.cycle_words(),
        board=geo.board,
    )
