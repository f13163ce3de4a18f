"""A small picture of a position in markup, for any game: each cell's piece as a class,
laid out by the board's columns (``--board-columns`` of the kind's stylesheet), with a
sentence that says what is on it for those who cannot see it.

The watch list shows each game's board so, and the choices of game (the home page's,
the lobby's, the import form's) each game's showcase, a position that tells at a
glance which game is which (``GameKind.showcase``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from game.fragments import drawn_by
from game.kinds import GameKind
from game.options import Options
from game.registry import find_kind
from game.surface import Color

__all__ = ["MiniBoard", "game_choices", "mini_board", "showcase"]


@drawn_by("game/_mini_board.html", "board")
class MiniBoard(NamedTuple):
    """A small picture of a position in markup: each square's piece as a class
    (``dark-stone``, ``light-thunder``; "" for an empty one), read as ``label``."""

    squares: tuple[str, ...]
    label: str
    game: str  # whose stylesheet lays it out


@lru_cache(maxsize=1024)
def mini_board(kind_name: str, rules: Options, text: str) -> MiniBoard:
    """The small board of the position ``text`` of a game of that kind and rules."""
    kind = find_kind(kind_name)
    position = kind.from_text(text, rules)
    squares, pieces = [], {Color.DARK.value: 0, Color.LIGHT.value: 0}
    for cell in kind.drawing.draw_board(position).squares:
        if hasattr(cell, "color"):  # not a row's number
            # A game with one kind of piece need not name it on each square.
            piece = getattr(cell, "kind", "") or kind.noun
            if cell.color:
                squares.append(f"{cell.color}-{piece}")
                pieces[cell.color] += 1
            elif getattr(cell, "hole", False):
                squares.append("hole")  # a square cut away, kept so the columns line up
            elif getattr(cell, "kind", ""):
                squares.append(f"neutral-{cell.kind}")  # nobody's piece (Moai's counters)
            else:
                squares.append("")
    dark, light = (
        f"{n} {kind.sides.word(side)} {kind.noun if n == 1 else kind.nouns}"
        for side, n in pieces.items()
    )
    return MiniBoard(tuple(squares), f"The board: {dark}, {light}", kind.name)


def showcase(kind: GameKind) -> MiniBoard:
    """The small board that shows ``kind`` among the games: its showcase position, or
    its start on the default rules."""
    rules = kind.rules()
    text = kind.showcase or kind.start(rules).to_text()
    return mini_board(kind.name, rules, text)


def game_choices(field: Any) -> list[tuple[Any, GameKind, MiniBoard]]:
    """The choices of a form's ``game`` field (a bound field), each with its kind and its
    small board: what a page offering every game lists (``game/_game_choices.html``)."""
    kinds = [find_kind(choice.data["value"]) for choice in field]
    return [(choice, kind, showcase(kind)) for choice, kind in zip(field, kinds, strict=True)]
