"""The board editor of the position page (``/p/?text=``): each square a link to the
same position with that square's stone changed, so it works without JavaScript.

A palette chooses what a click puts on a square (``?paint=light-woden``); the square's
link then asks for that paint there (``&square=E4``), and the editor applies it,
keeping the hand in step: a special stone placed leaves its side's hand, and one taken
off goes back to it. With no paint chosen, a click changes the square to the next
stone of ``CYCLE``.

The editor draws the text's characters even when they make no position the rules
can reach (a stone with four hinges), so that the player sees what is wrong, and
says why; only a valid position can be continued as a game or pictured.
"""

from __future__ import annotations

from urllib.parse import urlencode

from game.drawing import piece_image
from game.editing import Editor, HandToggle, PaintRefused, Pieces
from game.grid import (
    NAMES,
)
from game.maerstanas.engine import Rules
from game.maerstanas.notation import (
    EMPTY_TEXT,
    HAND_LETTERS,
    read_position_text,
    write_position_text,
)
from game.maerstanas.rules import BOARD, SIDES

__all__ = [
    "CYCLE",
    "EMPTY_TEXT",
    "PAINTS",
    "PIECES",
    "PaintRefused",
    "editor",
    "painted",
    "query_of",
]

# With no paint chosen, a click on a square changes it to the next of these, round and round.
CYCLE = ".SsTtWw"
_STONES = {"S": "stone", "T": "thunder", "W": "woden"}
# The palette: each paint's value in a query and the square's character it puts down.
PAINTS = {
    "empty": ".",
    "dark-stone": "S",
    "light-stone": "s",
    "dark-thunder": "T",
    "light-thunder": "t",
    "dark-woden": "W",
    "light-woden": "w",
}
# What the special stones are called, as things to place.
_NAMES = {
    "T": "dark thunder-stone",
    "t": "light thunder-stone",
    "W": "dark Woden-stone",
    "w": "light Woden-stone",
}
PIECES = Pieces(
    board=BOARD,
    noun="stone",
    kinds=_STONES,
    image=piece_image,
    paints=PAINTS,
    cycle=CYCLE,
    names=_NAMES,
    sides=SIDES,
)


def query_of(text: str, rules: Rules, paint: str = "") -> str:
    """The query string of the position page for ``text`` under ``rules``, keeping the
    palette's ``paint`` when one is chosen."""
    paints = {"paint": paint} if paint else {}
    return urlencode({"text": text, **paints, **rules.to_query()})


def painted(
    board: str, held: set[str], index: int, char: str, rules: Rules
) -> tuple[str, set[str]]:
    """The board's 49 characters and the hand with ``char`` put on square ``index``.

    A special stone put down leaves its side's hand; one taken off (or covered) goes
    back to it. Raises ``PaintRefused`` for a special stone under rules without them,
    and for a side's second thunder- or Woden-stone on the board.
    """
    old = board[index]
    if old == char:
        return board, set(held)
    if char in HAND_LETTERS:
        if not rules.special_stones:
            raise PaintRefused(
                f"these rules have no special stones: "
                f"a {PIECES.name(char)} cannot go on {NAMES[index]}"
            )
        other = board.find(char)
        if other >= 0:
            side, kind = PIECES.name(char).split(" ", 1)
            raise PaintRefused(
                f"{side}'s {kind} is already on {NAMES[other]}, and each side has only one: "
                f"take it off {NAMES[other]} first to put it on {NAMES[index]}"
            )
    new_held = set(held)
    if old in HAND_LETTERS:
        new_held.add(old)
    new_held.discard(char)
    return board[:index] + char + board[index + 1 :], new_held


def editor(text: str, rules: Rules, page: str, paint: str = "", at: str = "") -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    seven rows of seven squares, a side and a hand (the editor then starts afresh).

    ``paint`` is the palette's choice (a key of ``PAINTS``; anything else is none), and
    ``at`` the name of the square to put it on first: the editor's ``text`` is then the new
    position, or the one given with the ``refusal`` that says why not.
    """
    found = read_position_text(text)
    if found.error:
        return None
    squares, side, held = found.board, found.side, set(found.hand)
    paint = paint if paint in PAINTS else ""
    refusal = ""
    if paint and at:
        try:
            index = PIECES.square(at)
            new_squares, new_held = painted(squares, held, index, PAINTS[paint], rules)
        except PaintRefused as error:
            refusal = str(error)
        else:
            if (new_squares, new_held) != (squares, held):
                squares, held = new_squares, new_held
                # The hand is read letter by letter: what joins the letters does not matter.
                text = write_position_text(squares, side, "".join(held))  # pragma: no mutate

    def link(new_squares: str, new_side: str, new_held: set[str]) -> str:
        # The hand is read letter by letter: what joins the letters does not matter.
        hand = "".join(new_held)  # pragma: no mutate
        new_text = write_position_text(new_squares, new_side, hand)
        return f"{page}?{query_of(new_text, rules, paint)}"

    here = f"{page}?{query_of(text, rules, paint)}"
    rows = PIECES.rows(squares, paint, here, lambda changed: link(changed, side, held))
    names = {"T": "dark's thunder-stone", "W": "dark's Woden-stone"}
    names |= {"t": "light's thunder-stone", "w": "light's Woden-stone"}
    hand_toggles = tuple(
        HandToggle(letter, names[letter], letter in held, link(squares, side, held ^ {letter}))
        for letter in HAND_LETTERS
    )
    return Editor(
        text=text,
        rules=rules,
        rows=rows,
        turn="dark" if side == "d" else "light",
        turn_url=link(squares, "l" if side == "d" else "d", held),
        hand=hand_toggles if rules.special_stones else (),
        clear_url=f"{page}?{query_of(EMPTY_TEXT, rules, paint)}",
        paint=paint,
        palette=PIECES.palette(
            paint,
            lambda value: f"{page}?{query_of(text, rules, value)}",
            lambda char: rules.special_stones or char not in HAND_LETTERS,
        ),
        refusal=refusal,
        noun=PIECES.noun,
        cycle=PIECES.cycle_words(),
    )
