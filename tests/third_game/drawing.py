"""Draw a Three in a row position: its board (each empty square a button that places
a stone there, so it works without JavaScript), status bar and screen reader's words.
Templates show; the engine decides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from game.boards import SquareBoard
from game.drawing import RowNumber, move_or_none, mover_now, piece_image, row_numbers
from game.fragments import Fragments, drawn_by
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.sides import Sides
from game.surface import (
    Color,
    Outcome,
)
from tests.third_game.engine import BOARD, END_LINE, SIDE_NAMES, Move, Position, parse_move

__all__ = ["Board", "Cell", "announcement", "describe", "draw_board", "why"]


@drawn_by("threeinrow/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it."""

    name: str
    color: str  # "" for an empty square
    image: str
    label: str  # what a screen reader says
    value: str  # the move its button plays; "" when it cannot be played
    is_last: bool
    is_hint: bool
    better: str = ""


ROW_NUMBERS = row_numbers(BOARD)


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares, row by row."""

    squares: Fragments  # each row's number before its squares
    mover: Color | None  # the side the viewer moves for now; None: they look
    hint: str = ""
    # What the shared pages ask of every board and this one has not: nothing picked,
    # no stones to choose, no edges that join up.
    picked: str = ""
    kept: str = ""
    note: str = ""
    stones: str = ""
    wraparound: bool = False
    wraparound_note: str = ""
    geometry: SquareBoard = BOARD
    game: str = "threeinrow"  # whose stylesheet lays it out (static/threeinrow/board.css)
    stone: str = "stone"

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        return "choose a square for your stone"


def draw_board(
    position: Position,
    mover: Color | None = None,
    choice: str = "",  # noqa: ARG001 (nothing to choose before a move)
    hint: Move | str | None = None,
    hinges: bool = False,  # noqa: ARG001 (Mǽrstánas's marks: none here)
    target: str = "#game",  # noqa: ARG001
    held_only: bool = False,  # noqa: ARG001
    here: str = "?",  # noqa: ARG001
    better: Move | str | None = None,
) -> Board:
    """The board of ``position`` for a viewer who may place ``mover``'s stones (None:
    they only look; ignored unless it is that side's turn in a game going on)."""
    mover = mover_now(position, mover)
    hint, better = move_or_none(hint, parse_move), move_or_none(better, parse_move)
    last = position.last_move
    squares: list[Cell | RowNumber] = []
    for row, number in enumerate(ROW_NUMBERS):
        squares.append(number)
        for cell in range(row * BOARD.width, (row + 1) * BOARD.width):
            name = BOARD.name(cell)
            on = position.stone_at(cell)
            color = on.value if on is not None else ""
            value = name if mover is not None and on is None else ""
            squares.append(
                Cell(
                    name=name,
                    color=color,
                    image=piece_image(color, "stone") if color else "",
                    label=f"{name}, {color} stone" if color else f"{name}, empty",
                    value=value,
                    is_last=last is not None and last.square == cell,
                    is_hint=hint is not None and hint.square == cell,
                    better=str(better) if better is not None and better.square == cell else "",
                )
            )
    return Board(
        squares=Fragments(squares), mover=mover, hint=str(hint) if hint is not None else ""
    )


def why(outcome: Outcome, sides: Sides = SIDE_NAMES) -> str:
    """Why a game ended, in words: "Three in a row", "The board is full"."""
    if said := ended_outside_rules(outcome, sides):
        return said
    return "Three in a row" if outcome.reason == END_LINE else "The board is full"


def describe(
    position: Position,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool = False,
    going_on: bool = True,
    sides: Sides = SIDE_NAMES,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours."""
    return status_of(position, outcome, seated, waiting, why, going_on, sides)


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last move and what now."""
    last = position.last_played
    if last is None:
        return f"The game has started. {position.turn.value.capitalize()} to move."
    played = f"{last.color.value.capitalize()} played {last.text}."
    if status.finished:
        return f"{played} {status.headline}."
    return f"{played} {status.turn.capitalize()} to move."
