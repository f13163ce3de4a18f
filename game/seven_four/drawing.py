"""Draw a 7-4-1776 position: the plain values its board, status and move list show.

A drop is one step: each empty square is a button that drops a stone there. A slide
is two: the player picks one of their lone stones that can slide (a link,
``?from=B2``, so it works without JavaScript), and the page comes back with that
stone's landing squares as buttons (``name="move" value="B2-E5"``) and, on every
other empty square, why the stone cannot land there; the picked stone's link puts it
back. Templates show; the engine decides: everything here is asked of ``Position``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from django.templatetags.static import static

from game.boards import SquareBoard
from game.drawing import RowNumber, row_numbers
from game.fragments import Fragments, drawn_by
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.seven_four.engine import END_BOARD_FULL, SIDES, WORDS, Position
from game.seven_four.notation import BOARD, DROPS, NAMES, SLIDES, Move, parse_move, parse_square
from game.sides import Sides
from game.surface import (
    Color,
    InvalidMoveError,
    Outcome,
)

__all__ = ["Board", "Cell", "Status", "announcement", "describe", "draw_board", "why"]


@cache
def stone_image(color: str) -> str:
    """The URL of the picture of a stone of the ``color`` seat: blue for dark, red for
    light (our own SVGs)."""
    return static(f"seven-four/{WORDS[Color(color) is Color.LIGHT]}-stone.svg")


@drawn_by("seven-four/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it (a named tuple: 100 are made for every board)."""

    name: str
    color: str  # the seat of the stone here, "dark" (blue) or "light" (red); "" if empty
    side: str  # the stone's colour in the rule book's words, "blue" or "red"; "" if empty
    image: str
    label: str  # what a screen reader says
    value: str  # the move its button plays (a drop, or the picked stone's slide); "" none
    pick: str  # the query that picks the stone here ("?from=B2"), or puts it back ("?")
    picked: bool  # the stone here is the one picked
    reason: str  # why the viewer cannot play here (or the picked stone cannot land here)
    is_from: bool  # the last slide left this square
    is_last: bool  # the last move dropped or landed here
    was_filled: bool  # the last slide filled this square
    is_hint: bool  # the hint's move starts or ends here
    better: str = ""  # looking back before a judged move: the better move, from or to here


ROW_NUMBERS = row_numbers(BOARD)


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares, and the stone they picked."""

    squares: Fragments  # row by row, each row's number before its ten squares
    mover: Color | None  # the side the viewer moves for now; None: they look
    picked: str  # the square of the stone picked, "" for none
    hint: str = ""  # the hinted move in words
    note: str = ""
    # What a Mǽrstánas board has and this one has not: no stones to choose, no edges
    # that join up.
    stones: str = ""
    wraparound: bool = False
    wraparound_note: str = ""
    geometry: SquareBoard = BOARD  # the board's shape: its columns' letters, its rows
    game: str = "seven-four"  # whose stylesheet lays it out (static/seven-four/board.css)

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        if self.picked:
            return f"choose where the stone on {self.picked} slides"
        return "drop a stone on an empty square, or pick a lone stone to slide"

    @property
    def kept(self) -> str:
        """The query that keeps the stone picked when the page is redrawn."""
        return f"from={self.picked}" if self.picked else ""

    @property
    def stone(self) -> str:
        """How the pages' class names say a move is made here (``board--tafl``): a piece
        picked, then its square, as for a slide."""
        return "tafl"


def draw_board(
    position: Position,
    mover: Color | None = None,
    picked: str = "",
    hint: Move | str | None = None,
    hinges: bool = False,  # noqa: ARG001 (Mǽrstánas's hinges: none here)
    target: str = "#game",  # noqa: ARG001 (the part a pick redraws is the form's target)
    held_only: bool = False,  # noqa: ARG001 (Mǽrstánas's stones in hand: none here)
    here: str = "?",
    better: Move | str | None = None,
) -> Board:
    """The board of ``position`` for a viewer who may move ``mover``'s stones.

    ``mover`` is None for a viewer who only looks, and is ignored unless it is the side
    to move of a game still going on. ``picked`` names the square of the lone stone the
    viewer picked to slide (``?from=B2``); one that cannot slide is ignored. With none
    picked, a hinted slide's stone is, so its marked square plays it. ``here`` is the
    page's address, to which a pick's link adds ``from=``. ``better`` marks the
    squares of a better move than the one played from here (the review's).
    """
    if mover is not None and (position.is_over or Color(mover) is not position.turn):
        mover = None
    hint = _move_or_none(hint)
    better = _move_or_none(better)
    origin = _square_or_none(picked)
    if origin is None and hint is not None:
        origin = hint.origin
    landings = position.landings(origin) if mover is not None and origin is not None else ()
    if not landings:
        origin = None
    reachable = set(landings)
    sliding = {square for square in position.lone() if position.landings(square)}
    if mover is None:
        sliding = set()
    last = position.last_move
    filled = set(position.last_filled)
    hinted = _squares_of(hint)
    bettered = _squares_of(better)
    board = position.board()
    who = WORDS[position._turn]
    squares: list[Cell | RowNumber] = []
    width = BOARD.width
    for row, number in enumerate(ROW_NUMBERS):
        squares.append(number)
        for square in range(row * width, (row + 1) * width):
            on = board[square]
            color = on.value if on is not None else ""
            side = WORDS[on is Color.LIGHT] if on is not None else ""
            value = pick = reason = ""
            if mover is not None:
                if origin is not None and square in reachable:
                    value = str(SLIDES[origin][square])
                elif square in sliding:
                    pick = here if square == origin else f"{here}from={NAMES[square]}"
                elif origin is not None and not color:
                    reason = position.why_illegal(SLIDES[origin][square]) or ""
                elif not color:
                    value = str(DROPS[square])
                elif on is position.turn:
                    reason = _why_it_stays(position, square, who)
            squares.append(
                Cell(
                    name=NAMES[square],
                    color=color,
                    side=side,
                    image=stone_image(color) if color else "",
                    label=_label(NAMES[square], side, value, pick, reason, square == origin),
                    value=value,
                    pick=pick,
                    picked=square == origin,
                    reason=reason,
                    is_from=last is not None and square == last.origin,
                    is_last=last is not None and square == last.target,
                    was_filled=square in filled,
                    is_hint=square in hinted,
                    better=str(better) if square in bettered else "",
                )
            )
    return Board(
        squares=Fragments(squares),
        mover=mover,
        picked=NAMES[origin] if origin is not None else "",
        hint=hint_words(hint) if hint is not None else "",
    )


def _why_it_stays(position: Position, square: int, who: str) -> str:
    """Why a stone of the side to move cannot be picked to slide."""
    if square not in position.lone():
        return f"this {who} stone touches another {who} stone, so it cannot slide"
    return f"no square this stone reaches is next to another lone {who} stone"


def _squares_of(move: Move | None) -> set[int]:
    if move is None:
        return set()
    return {move.target} if move.origin is None else {move.origin, move.target}


def _move_or_none(move: Move | str | None) -> Move | None:
    """A move given as itself or its notation; None for none, or for text no move."""
    if not isinstance(move, str):
        return move
    try:
        return parse_move(move)
    except InvalidMoveError:
        return None


def _square_or_none(text: str) -> int | None:
    try:
        return parse_square(text) if text else None
    except InvalidMoveError:
        return None


def hint_words(hint: Move) -> str:
    """A move in words: "a stone dropped on E5", "the stone on B2 slid to E5"."""
    if hint.origin is None:
        return f"a stone dropped on {NAMES[hint.target]}"
    return f"the stone on {NAMES[hint.origin]} slid to {NAMES[hint.target]}"


def _label(name: str, side: str, value: str, pick: str, reason: str, picked: bool) -> str:
    """What a screen reader says of a square."""
    label = f"{name}, {side} stone" if side else f"{name}, empty"
    if value:
        return f"{label}: {'slide' if '-' in value else 'drop'} {value}"
    if picked:
        return f"{label}: picked; choose where it slides, or put it back"
    if pick:
        return f"{label}: pick it to slide it"
    return f"{label}: {reason}" if reason else label


# The status: whose turn, the stones, the result -------------------------------------------


def why(outcome: Outcome, sides: Sides = SIDES) -> str:
    """Why a game ended, in words: "Board full, red cannot move"."""
    if said := ended_outside_rules(outcome, sides):
        return said
    if outcome.reason == END_BOARD_FULL:
        loser = sides.seat(outcome.result).opponent
        return f"Board full, {sides.word(loser)} cannot move"
    return outcome.reason  # pragma: no cover (the rules end a game one way only)


def describe(
    position: Position,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool = False,
    going_on: bool = True,
    sides: Sides = SIDES,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours, with the
    stones each side has on the board (``game.moves.describe``), its sides named as
    ``sides`` say."""
    blue, red = position.score()
    return status_of(
        position,
        outcome,
        seated,
        waiting,
        why,
        going_on,
        sides,
        dark_hand=_stones(blue),
        light_hand=_stones(red),
    )


def _stones(count: int) -> str:
    return f"{count} stone{'s' if count != 1 else ''} on the board"


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last move and what now."""
    last = position.last_played
    if last is None:
        return f"The game has started. {status.sides.name(position.turn)} to move."
    played = f"{status.sides.name(last.color)} played {last.text}."
    if position.last_filled:
        count = len(position.last_filled)
        played += f" It filled {count} square{'s' if count != 1 else ''}."
    if status.finished:
        return f"{played} {status.headline}."
    return f"{played} {status.turn_name} to move."
