"""Draw a Moai position: the plain values its board, status and move list show.

The two placements are one step each: every empty square is a button that places
the mover's Moai there. A turn is two: the player picks the square for the counter
(a link, ``?counter=D8``, so it works without JavaScript; the squares in line with
a Moai that could then move light up), and the page comes back with the
destinations of the Moai that may move from that counter as buttons
(``name="move" value="D8:D4-D6"``) and, on every other empty square, why not.
When the counter is in line with both Moai and both could move, each Moai is a
link that picks it (``?counter=D8:D4``), for a square both could reach. The
counter's link puts it back. Templates show; the engine decides: everything here
is asked of ``Position``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from django.templatetags.static import static

from game.boards.base import Board as Layout
from game.drawing import RowNumber, row_numbers
from game.fragments import Fragments, drawn_by
from game.moai.engine import END_MOAI_STUCK, SIDES, WORDS, Position
from game.moai.notation import Move
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.sides import Sides
from game.surface import (
    Color,
    InvalidMoveError,
    Outcome,
)

__all__ = ["Board", "Cell", "Status", "announcement", "describe", "draw_board", "why"]


@cache
def piece_image(piece: str) -> str:
    """The URL of the picture of ``piece``: ``"white"`` or ``"black"`` (a Moai) or
    ``"counter"`` (our own SVGs)."""
    return static(f"moai/{piece}.svg")


def moai_image(color: str, kind: str = "moai") -> str:
    """The picture of a piece of the ``color`` seat (the editor's and the small
    boards' way of asking): the seat's Moai, or a counter."""
    if kind == "counter":
        return piece_image("counter")
    return piece_image(WORDS[Color(color) is Color.LIGHT])


@drawn_by("moai/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it."""

    name: str  # "" for a missing corner
    color: str  # the seat of the Moai here, "dark" (white) or "light" (black); ""
    side: str  # the Moai's side in the rule book's words, "white" or "black"; ""
    kind: str  # "moai", "counter" or ""
    image: str
    label: str  # what a screen reader says
    value: str  # the move its button plays; "" for none
    pick: str  # the query that picks this square for the counter, or this Moai
    picked: bool  # the counter about to go here, or the Moai picked
    reason: str  # why the viewer cannot play here
    is_from: bool  # the last turn's Moai left this square
    is_last: bool  # the last move placed a Moai here, or moved one here
    is_counter: bool  # the last turn's counter is here
    is_hint: bool  # the hint's move puts its counter or a Moai here
    better: str = ""  # looking back before a judged move: the better move, here
    hole: bool = False  # a missing corner of the square board
    # On the hexagon, where the page's grid puts the cell: its row and its first
    # half-cell column, from 1 (``HexBoard.place``); 0 on the square board, whose
    # cells follow each other in reading order.
    row: int = 0
    column: int = 0


ROW_NUMBERS: dict[str, tuple[RowNumber, ...]] = {}


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares, and the counter's square picked
    (with the Moai, when both could move: ``D8:D4``)."""

    squares: Fragments  # row by row, each row's number before its squares
    mover: Color | None  # the side the viewer moves for now; None: they look
    picked: str  # the choice, "" for none
    geometry: Layout  # the board's shape: its columns' letters, its rows
    hint: str = ""  # the hinted move in words
    note: str = ""
    stones: str = ""
    wraparound: bool = False
    wraparound_note: str = ""
    game: str = "moai"  # whose stylesheet lays it out (static/moai/board.css)

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def counter(self) -> str:
        """The square picked for the counter, "" for none."""
        return self.picked.split(":")[0]

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        if self.picked:
            return f"choose where a Moai moves, with the counter on {self.counter}"
        return "choose a square for the counter, or a square for your Moai"

    @property
    def kept(self) -> str:
        """The query that keeps the choice when the page is redrawn."""
        return f"counter={self.picked}" if self.picked else ""

    @property
    def stone(self) -> str:
        """How the pages' class names say a move is made here (``board--tafl``): a
        square picked first, then another."""
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
    """The board of ``position`` for a viewer who may move for ``mover``.

    ``mover`` is None for a viewer who only looks, and is ignored unless it is the side
    to move of a game still going on. ``picked`` is the viewer's choice: the square
    for the counter (``D8``), with the Moai to move when both could (``D8:D4``); a
    choice that is no turn's is ignored. With none picked, a hinted turn's counter is.
    ``here`` is the page's address, to which a pick's link adds ``counter=``.
    ``better`` marks the squares of a better move than the one played from here.
    """
    if mover is not None and (position.is_over or Color(mover) is not position.turn):
        mover = None
    geo = position.geometry
    names = geo.names
    hint = _move_or_none(position, hint)
    better = _move_or_none(position, better)
    moves = position.legal_moves() if mover is not None else []
    by_counter: dict[int, list[Move]] = {}
    for move in moves:
        if move.counter is not None:
            by_counter.setdefault(move.counter, []).append(move)
    counter, moai = _choice(position, picked)
    if counter is None and hint is not None and hint.counter is not None:
        counter = hint.counter
    if counter not in by_counter:
        counter = moai = None
    options = by_counter.get(counter, [])
    movers = {move.origin for move in options}
    if moai not in movers:
        moai = None
    if moai is not None:
        options = [move for move in options if move.origin == moai]
    reaching: dict[int, list[Move]] = {}
    for move in options:
        reaching.setdefault(move.target, []).append(move)
    choice = names[counter] if counter is not None else ""
    if moai is not None:
        choice += f":{names[moai]}"
    last = position.last_move
    hinted = _squares_of(hint)
    bettered = _squares_of(better)
    placing = position.is_placing
    squares: list[Cell | RowNumber] = []
    numbers = _row_numbers(geo.board)
    hexagon = geo.board.shape == "hex"
    # The hexagon's rows keep the places of its rhombus of letters and rows, empty
    # ones too: the page places each cell itself and hides the others, and the small
    # boards lay it out so, sheared into a hexagon.
    cells_of_rows = geo.grid if hexagon else geo._by_row
    for row, number in zip(cells_of_rows, numbers, strict=True):
        if not hexagon:
            squares.append(number)
        for cell in row:
            if cell is None:
                squares.append(_HOLE)
                continue
            piece = position.piece_at(cell)
            color = side = kind = ""
            if piece in ("W", "B"):
                seat = Color.DARK if piece == "W" else Color.LIGHT
                color, side, kind = seat.value, WORDS[seat is Color.LIGHT], "moai"
            elif piece == "o":
                kind = "counter"
            value = pick = reason = ""
            picked_here = False
            if mover is not None:
                if placing:
                    if piece is None:
                        value = names[cell]
                    else:
                        reason = f"{names[cell]} is taken"
                elif counter is None:
                    if cell in by_counter:
                        pick = f"{here}counter={names[cell]}"
                    elif piece is None:
                        reason = _why_no_counter(position, cell)
                    elif kind == "moai":
                        reason = "put a counter in line with a Moai first"
                elif cell == counter:
                    pick, picked_here = here, True
                elif cell in reaching:
                    found = reaching[cell]
                    if len(found) == 1:
                        value = found[0].text
                    else:
                        reason = f"both Moai can reach {names[cell]}: pick the one to move"
                elif kind == "moai" and len(movers) > 1:
                    picked_here = cell == moai
                    pick = f"{here}counter={names[counter]}" + (
                        "" if picked_here else f":{names[cell]}"
                    )
                elif piece is None:
                    reason = _why_not_there(position, counter, movers, moai, cell)
            image = ""
            if kind == "moai":
                image = piece_image(side)
            elif kind == "counter":
                image = piece_image("counter")
            squares.append(
                Cell(
                    name=names[cell],
                    color=color,
                    side=side,
                    kind=kind,
                    image=image,
                    label=_label(names[cell], side, kind, value, pick, reason, picked_here),
                    value=value,
                    pick=pick,
                    picked=picked_here,
                    reason=reason,
                    is_from=last is not None and cell == last.origin,
                    is_last=last is not None and cell == last.target,
                    is_counter=last is not None and cell == last.counter,
                    is_hint=cell in hinted,
                    better=better.text if better is not None and cell in bettered else "",
                    row=geo.board.place(cell)[0] if hexagon else 0,
                    column=geo.board.place(cell)[1] if hexagon else 0,
                )
            )
    return Board(
        squares=Fragments(squares),
        mover=mover,
        picked=choice,
        geometry=geo.board,
        hint=hint_words(position, hint) if hint is not None else "",
    )


_HOLE = Cell("", "", "", "", "", "", "", "", False, "", False, False, False, False, hole=True)


def _row_numbers(board: Layout) -> tuple[RowNumber, ...]:
    found = ROW_NUMBERS.get(repr(board))
    if found is None:
        found = ROW_NUMBERS[repr(board)] = row_numbers(board)
    return found


def _choice(position: Position, picked: str) -> tuple[int | None, int | None]:
    """The counter's square and the Moai's that ``picked`` names, None where it names
    none (or no square of the board)."""
    geo = position.geometry
    parts = (picked or "").split(":")
    found: list[int | None] = []
    for part in parts[:2]:
        try:
            found.append(geo.parse_square(part) if part else None)
        except InvalidMoveError:
            found.append(None)
    found += [None] * (2 - len(found))
    return found[0], found[1]


def _why_no_counter(position: Position, cell: int) -> str:
    """Why the counter may not go on the empty square ``cell``."""
    geo = position.geometry
    name = geo.names[cell]
    if not any(m is not None and geo.lines[m] >> cell & 1 for m in position.moai):
        return f"{name} is in line with neither Moai"
    return f"with a counter on {name}, no Moai in line with it could move"


def _why_not_there(
    position: Position, counter: int, movers: set[int], moai: int | None, cell: int
) -> str:
    """Why no Moai may move to the empty square ``cell`` with the counter on ``counter``."""
    geo = position.geometry
    if moai is None and len(movers) > 1:
        return f"neither Moai can reach {geo.names[cell]} with the counter on {geo.names[counter]}"
    origin = moai if moai is not None else next(iter(movers))
    return position.why_illegal(geo.move(counter, origin, cell)) or ""


def _squares_of(move: Move | None) -> set[int]:
    if move is None:
        return set()
    return {cell for cell in (move.counter, move.target) if cell is not None}


def _move_or_none(position: Position, move: Move | str | None) -> Move | None:
    """A move given as itself or its notation; None for none, or for text no move."""
    if not isinstance(move, str):
        return move
    try:
        return position.geometry.parse_move(move)
    except InvalidMoveError:
        return None


def hint_words(position: Position, hint: Move) -> str:
    """A move in words: "a Moai placed on D4", "a counter on D8, the Moai on D4 to D6"."""
    names = position.geometry.names
    if hint.origin is None:
        return f"a Moai placed on {names[hint.target]}"
    return (
        f"a counter on {names[hint.counter]}, the Moai on {names[hint.origin]} "
        f"to {names[hint.target]}"
    )


def _label(
    name: str, side: str, kind: str, value: str, pick: str, reason: str, picked: bool
) -> str:
    """What a screen reader says of a square."""
    if kind == "moai":
        label = f"{name}, {side} Moai"
    elif kind == "counter":
        label = f"{name}, counter"
    else:
        label = f"{name}, empty"
    if value:
        return f"{label}: {'move' if ':' in value else 'place your Moai'} {value}"
    if picked:
        if kind == "moai":
            return f"{label}: picked to move; pick it again to choose the other"
        return f"{label}: the counter goes here; choose where a Moai moves, or take it back"
    if pick:
        return (
            f"{label}: pick this Moai to move"
            if kind == "moai"
            else f"{label}: put the counter here"
        )
    return f"{label}: {reason}" if reason else label


# The status: whose turn, the Moai, the result ---------------------------------------------


def why(outcome: Outcome, sides: Sides = SIDES) -> str:
    """Why a game ended, in words: "Black Moai stuck"."""
    if said := ended_outside_rules(outcome, sides):
        return said
    if outcome.reason == END_MOAI_STUCK:
        loser = sides.seat(outcome.result).opponent
        return f"{sides.name(loser)} Moai stuck"
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
    turns each Moai has now (``game.moves.describe``), its sides named as ``sides``
    say."""
    score = position.score()
    return status_of(
        position,
        outcome,
        seated,
        waiting,
        why,
        going_on,
        sides,
        dark_hand=_freedom(position.moai[0], score.white),
        light_hand=_freedom(position.moai[1], score.black),
    )


def _freedom(cell: int | None, count: int) -> str:
    if cell is None:
        return "Moai not placed yet"
    return f"Moai has {count} turn{'s' if count != 1 else ''}"


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last move and what now."""
    last = position.last_played
    if last is None:
        return f"The game has started. {status.sides.name(position.turn)} to move."
    played = f"{status.sides.name(last.color)} played {last.text}."
    if status.finished:
        return f"{played} {status.headline}."
    return f"{played} {status.turn_name} to move."
