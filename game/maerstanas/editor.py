"""The board editor of the position page (``/p/?text=``): each square a link to the
same position with that square's stone changed, so it works without JavaScript.

The editor draws the text's characters even when they make no position the rules
can reach (a stone with four hinges), so that the player sees what is wrong, and
says why; only a valid position can be continued as a game or pictured.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from game.grid import COLORS, SIZE, SQUARES
from game.maerstanas.drawing import stone_image
from game.maerstanas.engine import Rules
from game.maerstanas.notation import (
    EMPTY_TEXT,
    HAND_LETTERS,
    read_position_text,
    write_position_text,
)

__all__ = ["CYCLE", "EMPTY_TEXT", "Editor", "editor", "query_of"]

# A click on a square changes it to the next of these, round and round.
CYCLE = ".SsTtWw"
_STONES = {"S": "stone", "T": "thunder", "W": "woden"}


@dataclass(frozen=True, slots=True)
class EditCell:
    """A square of the editor: what is on it and the link that changes it."""

    name: str
    color: str
    kind: str
    image: str
    url: str
    label: str


@dataclass(frozen=True, slots=True)
class HandToggle:
    letter: str
    label: str
    held: bool
    url: str


@dataclass(frozen=True, slots=True)
class Editor:
    """The editor for one text: its squares row by row, and its other links."""

    text: str
    rules: Rules
    rows: tuple[tuple[int, tuple[EditCell, ...]], ...]
    turn: str
    turn_url: str
    hand: tuple[HandToggle, ...]
    clear_url: str


def query_of(text: str, rules: Rules) -> str:
    """The query string of the position page for ``text`` under ``rules``."""
    return urlencode({"text": text, **rules.to_query()})


def editor(text: str, rules: Rules, page: str) -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    seven rows of seven squares, a side and a hand (the editor then starts afresh)."""
    found = read_position_text(text)
    if found.error:
        return None
    squares, side, held = found.board, found.side, set(found.hand)

    def link(new_squares: str, new_side: str, new_held: set[str]) -> str:
        # The hand is read letter by letter: what joins the letters does not matter.
        hand = "".join(new_held)  # pragma: no mutate
        new_text = write_position_text(new_squares, new_side, hand)
        return f"{page}?{query_of(new_text, rules)}"

    cells = []
    for index, square in enumerate(SQUARES):
        char = squares[index]
        # Each character is once in CYCLE: its first place is its last.
        following = CYCLE[(CYCLE.index(char) + 1) % len(CYCLE)]  # pragma: no mutate
        color = "" if char == "." else COLORS[char.islower()].value
        kind = _STONES.get(char.upper(), "")
        state = f"{color} {_STONES[char.upper()]}" if color else "empty"
        cells.append(
            EditCell(
                name=str(square),
                color=color,
                kind=kind,
                image=stone_image(color, kind) if color else "",
                url=link(squares[:index] + following + squares[index + 1 :], side, held),
                label=f"{square}, {state}: change it",
            )
        )
    rows = tuple((row + 1, tuple(cells[row * SIZE : row * SIZE + SIZE])) for row in range(SIZE))
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
        clear_url=f"{page}?{query_of(EMPTY_TEXT, rules)}",
    )
