"""The board editor of the position page for Three in a row (``/p/?game=threeinrow``):
each square a link to the same position with that square changed, drawn through
``game.editing`` as the other games' editors are."""

from __future__ import annotations

from urllib.parse import urlencode

from game.drawing import piece_image
from game.editing import Editor, Pieces
from tests.third_game.engine import BOARD, SIDES, Rules

__all__ = ["editor"]

PAINTS = {"empty": ".", "dark-stone": "S", "light-stone": "s"}
PIECES = Pieces(
    board=BOARD,
    noun="stone",
    kinds={"S": "stone"},
    image=piece_image,
    paints=PAINTS,
    cycle=".Ss",
    names={},
)


def _text(squares: str, side: str) -> str:
    width = BOARD.width
    return "/".join(squares[at : at + width] for at in range(0, len(squares), width)) + f" {side}"


def _query(text: str, paint: str) -> str:
    return urlencode({"game": "threeinrow", "text": text, **({"paint": paint} if paint else {})})


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    four rows of five squares and a side. ``paint`` (a key of ``PAINTS``) is put on the
    square named ``at`` first, or refused, saying why."""
    rows, _, side = text.strip().partition(" ")
    squares = rows.replace("/", "")
    if len(squares) != len(BOARD) or set(squares) - set(".Ss") or side not in SIDES:
        return None
    paint = paint if paint in PAINTS else ""
    refusal = ""
    if paint and at:
        try:
            cell = BOARD.parse(at)
        except ValueError as error:
            refusal = str(error)
        else:
            squares = squares[:cell] + PAINTS[paint] + squares[cell + 1 :]
            text = _text(squares, side)

    def link(new_squares: str, new_side: str) -> str:
        return f"{page}?{_query(_text(new_squares, new_side), paint)}"

    return Editor(
        text=text,
        rules=rules,
        rows=PIECES.rows(squares, paint, f"{page}?{_query(text, paint)}", lambda s: link(s, side)),
        turn="dark" if side == "d" else "light",
        turn_url=link(squares, "l" if side == "d" else "d"),
        hand=(),
        clear_url=link("." * len(BOARD), "d"),
        paint=paint,
        palette=PIECES.palette(paint, lambda value: f"{page}?{_query(text, value)}"),
        refusal=refusal,
        noun=PIECES.noun,
        cycle=PIECES.cycle_words(),
    )
