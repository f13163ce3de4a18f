"""The board editor of the position page for Parking Lot (``/p/?game=parking-lot``):
each square a link to the same position with that square changed (empty, blue or
red), drawn through ``game.editing`` as the other games' editors are. A blue piece
is two blue squares one above the other, a red one two red squares side by side:
position text splits the runs into pieces (docs/PARKING-LOT.md, "Position text")."""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

from django.templatetags.static import static

from game.editing import Editor, Pieces
from game.parking_lot.engine import BOARD, Rules

__all__ = ["car_image", "editor"]

PAINTS = {"empty": ".", "dark-car": "B", "light-car": "R"}
SIDES = ("b", "r")


@cache
def car_image(color: str) -> str:
    """The URL of a square of a piece of ``color`` ("dark" blue, "light" red)."""
    return static(f"parking-lot/{color}-car.svg")


PIECES = Pieces(
    board=BOARD,
    noun="square",
    kinds={"B": "car", "R": "car"},
    image=lambda color, kind: car_image(color),
    paints=PAINTS,
    cycle=".BR",
    names={},
)


def _text(squares: str, side: str) -> str:
    width = BOARD.width
    return "/".join(squares[at : at + width] for at in range(0, len(squares), width)) + f" {side}"


def _query(text: str, paint: str) -> str:
    return urlencode({"game": "parking-lot", "text": text, **({"paint": paint} if paint else {})})


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    eight rows of eight squares and a side. ``paint`` (a key of ``PAINTS``) is put on
    the square named ``at`` first, or refused, saying why."""
    rows, _, side = text.strip().partition(" ")
    side = side.strip()
    squares = rows.replace("/", "")
    if len(squares) != len(BOARD) or set(squares) - set(".BR") or side not in SIDES:
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
        turn="dark" if side == "b" else "light",
        turn_url=link(squares, "r" if side == "b" else "b"),
        hand=(),
        clear_url=link("." * len(BOARD), "b"),
        paint=paint,
        palette=tuple(
            PIECES.choice(value, value == paint, f"{page}?{_query(text, value)}")
            for value in PAINTS
        ),
        refusal=refusal,
        noun=PIECES.noun,
        cycle=PIECES.cycle_words(),
    )
