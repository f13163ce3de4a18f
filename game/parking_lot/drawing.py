"""Draw a Parking Lot position: the plain values its board, status and move list show.

A turn is up to three steps, each a link or a button, so it works without
JavaScript (the page's choice, ``?turn=``, keeps what was chosen so far):

1. the player picks an anchor for the new piece (each place it fits is a link,
   ``?turn=E4``; the squares where it does not say why); when no piece could drive
   after it, the square is a button that plays the placement at once;
2. the page comes back with the new piece shown where it would stand, each piece
   that may then drive a link (``?turn=E4+B2``), and a button that ends the turn
   without a drive (``name="move" value="E4"``);
3. with a piece picked, the anchors it may reach are buttons (``value="E4 B2-B6"``)
   and the other empty squares say why it cannot stop there.

Templates show; the engine decides: everything here is asked of ``Position``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import quote

from game.boards import SquareBoard
from game.drawing import RowNumber, row_numbers
from game.fragments import Fragments, drawn_by
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.parking_lot.engine import BOARD, END_EQUAL, END_LARGEST, SIDES, Position
from game.parking_lot.notation import NAMES, SIZE, Move, parse_square, read_move
from game.sides import Sides
from game.surface import (
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)

__all__ = ["Board", "Cell", "announcement", "describe", "draw_board", "why"]


@drawn_by("parking-lot/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it (a named tuple: 64 are made for every board)."""

    name: str
    color: str  # "dark" (blue) or "light" (red) for a covered square; "" when empty
    part: str  # which end of its piece: "top", "bottom", "left" or "right"; "" when empty
    label: str  # what a screen reader says
    value: str  # the turn its button plays; "" for none
    pick: str  # the link that chooses this square, or puts a choice back; "" for none
    picked: bool  # the piece here is the one picked to drive
    pending: bool  # the new piece would stand here (placement chosen, turn not played)
    reason: str  # why the choice in hand cannot go here
    is_last: bool  # the last turn placed a piece here
    is_from: bool  # the last turn's drive left this square
    is_to: bool  # the last turn's drive arrived here
    is_hint: bool  # the hint's turn places or drives here
    placing: bool = False  # the new piece may be placed with its anchor here
    kind: str = "car"
    better: str = ""  # looking back before a judged turn: the better turn, marked here


ROW_NUMBERS = row_numbers(BOARD)


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares, and what they chose so far."""

    squares: Fragments  # row by row, each row's number before its eight squares
    mover: Color | None  # the side the viewer moves for now; None: they look
    place: str = ""  # the anchor chosen for the new piece, "" for none yet
    picked: str = ""  # the anchor of the piece picked to drive, "" for none
    end_turn: str = ""  # the turn that places without a drive, once a place is chosen
    back: str = ""  # the link that takes the last choice back
    hint: str = ""  # the hinted turn in words
    note: str = ""
    # What a Mǽrstánas board has and this one has not: no stones to choose, no edges
    # that join up.
    stones: str = ""
    wraparound: bool = False
    wraparound_note: str = ""
    geometry: SquareBoard = BOARD
    game: str = "parking-lot"  # whose stylesheet lays it out (its static parking-lot/board.css)

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        if self.picked:
            return f"choose where the piece on {self.picked} drives to"
        if self.place:
            return "pick one of your pieces to drive, or end the turn"
        return "choose where your new piece goes"

    @property
    def kept(self) -> str:
        """The query that keeps the choices made when the page is redrawn."""
        chosen = f"{self.place} {self.picked}".strip()
        return f"turn={quote(chosen)}" if chosen else ""

    @property
    def stone(self) -> str:
        """What the board places, as the pages' class names say it (``board--car``)."""
        return "car"


def _choice(position: Position, mover: Color | None, choice: str) -> tuple[int | None, int | None]:
    """The placement and the piece to drive that ``choice`` names (``E4``, ``E4 B2``),
    each None when not chosen or not playable now."""
    if mover is None or not choice:
        return None, None
    parts = choice.replace("+", " ").split()
    try:
        place = parse_square(parts[0])
        drives = position.drives(place)
    except (InvalidMoveError, IllegalMoveError):
        return None, None
    if len(parts) < 2:
        return place, None
    try:
        origin = parse_square(parts[1])
    except InvalidMoveError:
        return place, None
    return place, origin if origin in drives else None


def draw_board(
    position: Position,
    mover: Color | None = None,
    choice: str = "",
    hint: Move | str | None = None,
    hinges: bool = False,  # noqa: ARG001 (Mǽrstánas's hinges: none here)
    target: str = "#game",  # noqa: ARG001 (the part a choice redraws is the form's target)
    held_only: bool = False,  # noqa: ARG001 (Mǽrstánas's stones in hand: none here)
    here: str = "?",
    better: Move | str | None = None,
) -> Board:
    """The board of ``position`` for a viewer who may play ``mover``'s turn.

    ``mover`` is None for a viewer who only looks, and is ignored unless it is the side
    to move of a game still going on. ``choice`` is what they chose so far (``E4``: the
    new piece's anchor; ``E4 B2``: and the piece to drive); what cannot be played is
    ignored. ``here`` is the page's address, to which a choice's link adds ``turn=``.
    ``better`` marks a better turn than the one played from here (the review's).
    """
    if mover is not None and (position.is_over or Color(mover) is not position.turn):
        mover = None
    hint, better = _move_or_none(hint), _move_or_none(better)
    place, origin = _choice(position, mover, choice)
    side = position.turn
    drives = position.drives(place) if place is not None else {}
    targets = set(drives.get(origin, ())) if origin is not None else set()
    placements = set(position.placements()) if mover is not None and place is None else set()
    pending = set()
    if place is not None:
        pending = {place, place + (1 if side is Color.DARK else SIZE)}
    last = position.last_move
    marks = {
        "last": _piece_squares(last.place, position, played=True) if last is not None else set(),
        "from": set(),
        "to": set(),
    }
    if last is not None and last.origin is not None:
        mover_then = side.opponent
        span = 1 if mover_then is Color.DARK else SIZE
        marks["from"] = {last.origin, last.origin + span}
        marks["to"] = {last.target, last.target + span}
    hinted = _turn_squares(hint) if hint is not None else set()
    bettered = _turn_squares(better) if better is not None else set()
    squares: list[Cell | RowNumber] = []
    for row, number in enumerate(ROW_NUMBERS):
        squares.append(number)
        for column in range(SIZE):
            square = column * SIZE + row
            name = NAMES[square]
            found = position.piece_at(square)
            color = part = value = pick = reason = ""
            if found is not None:
                color = found[0].value
                part = _part(found[0], found[1], square)
            elif square in pending:
                color = side.value
                part = _part(side, place, square)
            if mover is not None:
                value, pick, reason = _action(
                    position, square, found, place, origin, drives, targets, placements, here
                )
            squares.append(
                Cell(
                    name=name,
                    color=color,
                    part=part,
                    label=_label(name, color, value, pick, reason, square in pending, origin),
                    value=value,
                    pick=pick,
                    picked=origin is not None and found is not None and found[1] == origin,
                    pending=square in pending,
                    reason=reason,
                    is_last=square in marks["last"],
                    is_from=square in marks["from"],
                    is_to=square in marks["to"],
                    is_hint=square in hinted,
                    placing=square in placements,
                    better=str(better) if square in bettered else "",
                )
            )
    back = ""
    if origin is not None:
        back = f"{here}turn={quote(NAMES[place])}"
    elif place is not None:
        back = here
    return Board(
        squares=Fragments(squares),
        mover=mover,
        place=NAMES[place] if place is not None else "",
        picked=NAMES[origin] if origin is not None else "",
        end_turn=NAMES[place] if place is not None else "",
        back=back,
        hint=hint_words(hint) if hint is not None else "",
    )


def _action(
    position: Position,
    square: int,
    found: tuple[Color, int] | None,
    place: int | None,
    origin: int | None,
    drives: dict[int, tuple[int, ...]],
    targets: set[int],
    placements: set[int],
    here: str,
) -> tuple[str, str, str]:
    """What the square does for the mover now: the turn its button plays, the link
    that chooses it, or why the choice in hand cannot go there."""
    if place is None:
        if square in placements:
            if position.drives(square):
                return "", f"{here}turn={NAMES[square]}", ""
            return NAMES[square], "", ""
        if found is None:
            return "", "", position.why_illegal(Move(square)) or ""
        return "", "", ""
    if origin is None:
        if found is not None and found[1] in drives and found[0] is position.turn:
            return "", f"{here}turn={quote(f'{NAMES[place]} {NAMES[found[1]]}')}", ""
        return "", "", ""
    if square in targets:
        return str(Move(place, origin, square)), "", ""
    if found is not None and found[1] == origin:
        return "", f"{here}turn={quote(NAMES[place])}", ""
    if found is None:
        return "", "", position.why_illegal(Move(place, origin, square)) or ""
    return "", "", ""


def _part(color: Color, anchor: int, square: int) -> str:
    if color is Color.DARK:
        return "top" if square == anchor else "bottom"
    return "left" if square == anchor else "right"


def _piece_squares(anchor: int, position: Position, played: bool) -> set[int]:
    """The two squares of the piece the last turn placed on ``anchor``."""
    mover = position.turn.opponent if played else position.turn
    return {anchor, anchor + (1 if mover is Color.DARK else SIZE)}


def _turn_squares(move: Move) -> set[int]:
    """The anchors a turn names: where it places, and where it drives from and to."""
    return {square for square in move if square is not None}


def _move_or_none(move: Move | str | None) -> Move | None:
    """A turn given as itself or its notation; None for none, or for text no turn."""
    if not isinstance(move, str):
        return move
    try:
        return read_move(move)
    except InvalidMoveError:
        return None


def hint_words(move: Move) -> str:
    """A turn in words: "a piece on E4, then the piece on B2 to B6"."""
    words = f"a piece on {NAMES[move.place]}"
    if move.origin is not None:
        words += f", then the piece on {NAMES[move.origin]} to {NAMES[move.target]}"
    return words


def _label(
    name: str, color: str, value: str, pick: str, reason: str, pending: bool, origin: int | None
) -> str:
    """What a screen reader says of a square."""
    who = SIDES.word(color) if color else ""
    label = f"{name}, {who} piece" if color else f"{name}, empty"
    if pending:
        label = f"{name}, your new piece"
    if value:
        return f"{label}: play {value}"
    if pick:
        if origin is not None and color and not pending:
            return f"{label}: picked; choose where it drives, or put it back"
        if color:
            return f"{label}: pick it to drive it"
        return f"{label}: place your piece here"
    return f"{label}: {reason}" if reason else label


# The status: whose turn, the pieces in hand, the result -------------------------------------


def why(outcome: Outcome, sides: Sides = SIDES) -> str:
    """Why a game ended, in words: "Largest group", "Next largest group"."""
    if said := ended_outside_rules(outcome, sides):
        return said
    if outcome.reason == END_LARGEST:
        return "Largest group"
    if outcome.reason == END_EQUAL:
        return "Equal groups"
    return "Next largest group"


def describe(
    position: Position,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool = False,
    going_on: bool = True,
    sides: Sides = SIDES,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours, with the
    pieces each side has still to place (``game.moves.describe``)."""
    return status_of(
        position,
        outcome,
        seated,
        waiting,
        why,
        going_on,
        sides,
        dark_hand=_in_hand(position.in_hand(Color.DARK)),
        light_hand=_in_hand(position.in_hand(Color.LIGHT)),
    )


def _in_hand(count: int) -> str:
    return f"{count} piece{'s' if count != 1 else ''} in hand"


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last turn and what now."""
    last = position.last_played
    if last is None:
        return f"The game has started. {status.sides.name(position.turn)} to move."
    played = f"{status.sides.name(last.color)} played {last.text}."
    if status.finished:
        return f"{played} {status.headline}."
    return f"{played} {status.turn_name} to move."
