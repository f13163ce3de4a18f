"""Any position, set up from the rules' position text (``/p/?text=``), and the
board editor that makes one by clicking: each square a link to the same position
with that square's stone changed, so it works without JavaScript.

The editor draws the text's characters even when they make no position the rules
can reach (a stone with four hinges), so that the player sees what is wrong, and
says why; only a valid position can be continued as a game or pictured.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from game.board import stone_image
from game.engine import SQUARES, Color, InvalidPositionError, Position, Rules

EMPTY_TEXT = "......./......./......./......./......./......./....... d TWtw"
# A click on a square changes it to the next of these, round and round.
CYCLE = ".SsTtWw"
_STONES = {"S": "stone", "T": "thunder", "W": "woden"}
_HAND = "TWtw"


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


def rules_from(query: dict[str, str]) -> Rules:
    """The rules named by a query's ``special_stones``, ``scoring`` and ``wraparound``,
    each defaulting to the game's default. Raises ``ValueError`` naming a bad one."""

    def on_off(name: str, default: bool) -> bool:
        value = query.get(name, "").strip().lower()
        if value == "":
            return default
        if value in ("on", "1", "true", "yes"):
            return True
        if value in ("off", "0", "false", "no"):
            return False
        raise ValueError(f"{name.replace('_', ' ')}: {value[:20]!r} is neither on nor off")

    scoring = query.get("scoring", "") or "standard"
    if scoring not in ("standard", "simple"):
        raise ValueError(f"scoring: {scoring[:20]!r} is not standard or simple")
    return Rules(
        special_stones=on_off("special_stones", True),
        scoring=scoring,
        wraparound=on_off("wraparound", False),
    )


def query_of(text: str, rules: Rules) -> str:
    """The query string of the position page for ``text`` under ``rules``."""
    return urlencode(
        {
            "text": text,
            "special_stones": "on" if rules.special_stones else "off",
            "scoring": rules.scoring,
            "wraparound": "on" if rules.wraparound else "off",
        }
    )


def read(text: str, rules: Rules) -> tuple[Position | None, str]:
    """The position of ``text`` and "", or None and why it is not one."""
    try:
        return Position.from_text(text, rules), ""
    except InvalidPositionError as error:
        return None, str(error)


def editor(text: str, rules: Rules, page: str) -> Editor | None:
    """The editor of ``text``, whose links go to ``page``; None when the text is not
    seven rows of seven squares, a side and a hand (the editor then starts afresh)."""
    parts = text.split()
    if len(parts) != 3:
        return None
    board, side, hand = parts
    squares = board.replace("/", "")
    if len(board.split("/")) != 7 or len(squares) != 49 or any(c not in CYCLE for c in squares):
        return None
    if side not in ("d", "l") or any(c not in _HAND for c in hand.replace("-", "")):
        return None
    held = set(hand.replace("-", ""))

    def link(new_squares: str, new_side: str, new_held: set[str]) -> str:
        rows = "/".join(new_squares[i : i + 7] for i in range(0, 49, 7))
        hand_text = "".join(letter for letter in _HAND if letter in new_held) or "-"
        return f"{page}?{query_of(f'{rows} {new_side} {hand_text}', rules)}"

    cells = []
    for index, square in enumerate(SQUARES):
        char = squares[index]
        following = CYCLE[(CYCLE.index(char) + 1) % len(CYCLE)]
        color = "" if char == "." else (Color.DARK if char.isupper() else Color.LIGHT).value
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
    rows = tuple((row + 1, tuple(cells[row * 7 : row * 7 + 7])) for row in range(7))
    names = {"T": "dark's thunder-stone", "W": "dark's Woden-stone"}
    names |= {"t": "light's thunder-stone", "w": "light's Woden-stone"}
    hand_toggles = tuple(
        HandToggle(letter, names[letter], letter in held, link(squares, side, held ^ {letter}))
        for letter in _HAND
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
