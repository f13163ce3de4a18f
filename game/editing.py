"""The position page's board editor, whatever the game: its squares, each a link that
changes it, the palette of things to put down, and the words the page says of them.

Each kind's editor (``game.maerstanas.editor``, ``game.cyngesheall.editor``) reads its
own position text and knows what may stand where; it describes its pieces once
(``Pieces``) and leaves the drawing of the squares and the palette to this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from game.boards.base import Board
from game.sides import DARK_AND_LIGHT, Sides
from game.surface import (
    COLORS,
)

__all__ = ["EditCell", "Editor", "HandToggle", "PaintChoice", "PaintRefused", "Pieces"]


class PaintRefused(ValueError):
    """A paint the editor will not put on a square, and why."""


@dataclass(frozen=True, slots=True)
class EditCell:
    """A square of the editor: what is on it and the link that changes it."""

    name: str
    color: str
    kind: str
    image: str
    url: str
    label: str
    # Where the page's grid puts the cell when it is laid out in half cells (the
    # hexagon): its row and first column, from 1; 0 when cells follow in reading order.
    row: int = 0
    column: int = 0
    hole: bool = False  # a square cut away from the board, kept so the columns line up


@dataclass(frozen=True, slots=True)
class HandToggle:
    """A piece a side may hold off the board (Mǽrstánas's special stones), and the
    link that gives or takes it."""

    letter: str
    label: str
    held: bool
    url: str


@dataclass(frozen=True, slots=True)
class PaintChoice:
    """A choice of the palette: what a click on a square puts there once it is chosen."""

    value: str
    label: str
    color: str
    kind: str
    image: str
    selected: bool
    url: str


@dataclass(frozen=True, slots=True)
class Editor:
    """The editor for one text: its squares row by row, and its other links.

    ``text`` is the position after the square asked for was painted; ``refusal`` says
    why it was not (the text is then the one given). ``noun`` is what the game calls
    the things on its board ("stone"), and ``cycle`` says in words what a click puts on
    a square when no paint is chosen."""

    text: str
    rules: object
    rows: tuple[tuple[int, tuple[EditCell, ...]], ...]
    turn: str
    turn_url: str
    hand: tuple[HandToggle, ...]
    clear_url: str
    paint: str = ""
    palette: tuple[PaintChoice, ...] = ()
    refusal: str = ""
    noun: str = "stone"
    cycle: str = ""
    # The board drawn, when a kind's options change it (Moai's hexagon); None: the
    # kind's own (``GameKind.board``).
    board: Board | None = None


@dataclass(frozen=True, slots=True)
class Pieces:
    """What a kind's editor puts on squares, by the letters of its position text: dark
    pieces upper case, light ones lower, an empty square ``.``.

    ``kinds`` names each dark letter's kind (``"T": "thunder"``), which picks its
    ``image(color, kind)``; ``names`` says a letter as a thing to place where
    "<colour> <kind>" would not ("dark thunder-stone"). ``paints`` are the palette's
    choices (``"light-woden": "w"``), and ``cycle`` the letters a click steps through
    when none is chosen, round and round. ``board`` is the board's shape, its cells
    in the order the position text lists them. ``sides`` name the colours in words
    (the kind's, ``GameKind.sides``).
    """

    board: Board
    noun: str
    kinds: Mapping[str, str]
    image: Callable[[str, str], str]
    paints: Mapping[str, str]
    cycle: str
    names: Mapping[str, str]
    sides: Sides = DARK_AND_LIGHT

    def color(self, char: str) -> str:
        """``"dark"``, ``"light"`` or ``""`` for an empty square."""
        return "" if char == "." else COLORS[char.islower()].value

    def name(self, char: str) -> str:
        """The letter ``char`` as a thing to place: "dark stone", "empty"."""
        if char == ".":
            return "empty"
        side = self.sides.word(self.color(char))
        return self.names.get(char) or f"{side} {self.kinds[char.upper()]}"

    def following(self, char: str) -> str:
        """The letter a click puts where ``char`` is, with no paint chosen."""
        # Each letter is once in the cycle: its first place is its last.
        return self.cycle[(self.cycle.index(char) + 1) % len(self.cycle)]  # pragma: no mutate

    def cycle_words(self) -> str:
        """What a click does with no paint chosen, in words."""
        names = [self.name(char) for char in self.cycle if char != "."]
        return (
            f"Choose a {self.noun} above, then click squares to place it. With none chosen, "
            f"a click changes a square to the next {self.noun}: "
            f"{', '.join(names)}, and empty again."
        )

    def rows(
        self, squares: str, paint: str, here: str, changed: Callable[[str], str]
    ) -> tuple[tuple[int, tuple[EditCell, ...]], ...]:
        """The editor's squares, row by row, for the letters ``squares``, one a cell.

        With a ``paint`` chosen, each links to ``here`` (the page as it is) asking for it
        on that square; with none, to ``changed(new_squares)``, the page of the board with
        that square's letter stepped on through the cycle.
        """
        cells = []
        for index, square in enumerate(self.board.names):
            char = squares[index]
            color = self.color(char)
            kind = self.kinds.get(char.upper(), "")
            if paint:
                url = f"{here}&{urlencode({'square': str(square)})}"
                action = (
                    "empty it"
                    if paint == "empty"
                    else f"put a {self.name(self.paints[paint])} here"
                )
            else:
                following = self.following(char)
                url = changed(squares[:index] + following + squares[index + 1 :])
                action = "change it"
            state = f"{self.sides.word(color)} {kind}" if color else "empty"
            image = self.image(color, kind) if color else ""
            cells.append(
                EditCell(str(square), color, kind, image, url, f"{square}, {state}: {action}")
            )
        board = self.board
        rows: dict[int, list[EditCell]] = {}
        halves = board.grid_columns != board.width
        for index, cell in enumerate(cells):
            row, column = board.place(index)
            if halves:
                cell = replace(cell, row=row, column=column)
            rows.setdefault(row, []).append(cell)
        # A square board's cut-away squares keep their places in its rows.
        for hole in getattr(board, "holes", ()):
            row, column = int(hole[1:]), board.columns.index(hole[0].upper())
            rows.setdefault(row, []).insert(column, EditCell("", "", "", "", "", "", hole=True))
        return tuple((row, tuple(rows[row])) for row in sorted(rows))

    def square(self, at: str) -> int:
        """The index of the square named ``at`` (any case, spaces around ignored), where
        a paint goes. Raises ``PaintRefused`` naming the squares there are."""
        name = at.strip().upper()
        if name not in self.board.names:
            raise PaintRefused(f"{at[:10]!r} is not a square: use {self.board.span}")
        return self.board.names.index(name)

    def palette(
        self, paint: str, url: Callable[[str], str], keep: Callable[[str], bool] | None = None
    ) -> tuple[PaintChoice, ...]:
        """The palette: a choice for each paint whose letter ``keep`` allows (each, with
        no ``keep``), ``paint`` the one selected, each linking to ``url(value)``."""
        return tuple(
            self.choice(value, value == paint, url(value))
            for value, char in self.paints.items()
            if keep is None or keep(char)
        )

    def choice(self, value: str, selected: bool, url: str) -> PaintChoice:
        """The palette's choice of the paint ``value``."""
        char = self.paints[value]
        if char == ".":
            return PaintChoice(value, "Empty square", "", "", "", selected, url)
        color, kind = self.color(char), self.kinds[char.upper()]
        label = self.name(char)
        label = label[0].upper() + label[1:]
        return PaintChoice(value, label, color, kind, self.image(color, kind), selected, url)
