"""What every game's drawing of its board shares (``game.<name>.drawing``): the number
at the start of each row of a square board, drawn by its own small template; the
pictures of the pieces; the side a viewer moves for now; and a move given as itself
or as its notation."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple, TypeVar

from django.templatetags.static import static

from game.boards.base import Board
from game.fragments import drawn_by
from game.surface import (
    Color,
    InvalidMoveError,
)

__all__ = ["RowNumber", "move_or_none", "mover_now", "piece_image", "row_numbers"]


@drawn_by("game/_row_number.html", "row")
class RowNumber(NamedTuple):
    """The number at the start of a row of the board."""

    number: int


def row_numbers(board: Board) -> tuple[RowNumber, ...]:
    """The numbers of ``board``'s rows, top to bottom: made once per board."""
    return tuple(RowNumber(int(row)) for row in board.rows)


@cache
def piece_image(color: str, kind: str) -> str:
    """The URL of a piece's picture, ``static/img/<color>-<kind>.svg`` (our own SVGs,
    hashed by the static files storage)."""
    return static(f"img/{color}-{kind}.svg")


def mover_now(position: Any, mover: Color | str | None) -> Any:
    """``mover``, the side a viewer may move for, while it is that side's turn in a game
    going on; else None: the viewer only looks."""
    if mover is not None and (position.is_over or Color(mover) is not position.turn):
        return None
    return mover


Move = TypeVar("Move")


def move_or_none(move: Move | str | None, parse: Callable[[str], Move]) -> Move | None:
    """A move given as itself or as its notation (read by ``parse``); None for none, or
    for text that is no move."""
    if not isinstance(move, str):
        return move
    try:
        return parse(move)
    except InvalidMoveError:
        return None
