"""Draw a Cyngesheall position: the plain values its board, status and move list show.

Moving is two steps. The player picks a piece (each of the mover's pieces that can
move is a link, ``?from=B6``, so it works without JavaScript), and the page comes back
with that piece's reachable squares as buttons (``name="move" value="B6-B2"``) and,
on every other empty square, why the piece cannot go there. Templates show; the
engine decides: everything here is asked of ``Position``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from game.boards import SquareBoard
from game.cyngesheall.engine import GOALS, Position
from game.cyngesheall.notation import MOVES, Move, Piece, parse_move
from game.cyngesheall.rules import (
    BOARD,
    END_KING_CAPTURED,
    END_KING_HOME,
    END_NO_MOVES,
    SIDES,
)
from game.drawing import RowNumber, move_or_none, mover_now, piece_image, row_numbers
from game.fragments import Fragments, drawn_by
from game.grid import (
    SQUARES,
    parse_square,
)
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.sides import Sides
from game.surface import (
    Color,
    InvalidMoveError,
    Outcome,
)

__all__ = ["Board", "Cell", "Status", "announcement", "describe", "draw_board", "why"]

# The runes the rules give the pieces: ós for the king, thorn for the commander.
RUNES = {Piece.KING: "ᚩ", Piece.COMMANDER: "ᚦ", Piece.STONE: ""}
# The corner each side's king races for, by square: the side it is the goal of.
GOAL_OF = {GOALS[0]: "dark", GOALS[1]: "light"}


@drawn_by("cyngesheall/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it (a named tuple: 49 are made for every board)."""

    name: str
    color: str  # "" for an empty square
    kind: str  # the piece: "king", "commander" or "stone"; "" when empty
    image: str
    label: str  # what a screen reader says
    value: str  # the move its button plays (the picked piece to here); "" for none
    pick: str  # the query that picks the piece here ("?from=B6"), or puts it back ("?")
    picked: bool  # the piece here is the one picked
    reason: str  # why the picked piece cannot go here
    is_from: bool  # the last move left this square
    is_last: bool  # the last move arrived here
    was_captured: bool  # the last move captured the piece that stood here
    is_hint: bool  # the hint's move leaves or arrives here
    goal: str  # the side whose king races for this corner; "" elsewhere
    better: str = ""  # looking back before a judged move: the better move, from or to here


ROW_NUMBERS = row_numbers(BOARD)


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares, and the piece they picked."""

    squares: Fragments  # row by row, each row's number before its seven squares
    mover: Color | None  # the side the viewer moves for now; None: they look
    picked: str  # the square of the piece picked, "" for none
    hint: str = ""  # the hinted move in words
    note: str = ""
    # What a Mǽrstánas board has and this one has not: no stones to choose, no edges
    # that join up.
    stones: str = ""
    wraparound: bool = False
    wraparound_note: str = ""
    geometry: SquareBoard = BOARD  # the board's shape: its columns' letters, its rows
    game: str = "cyngesheall"  # whose stylesheet lays it out (static/cyngesheall/board.css)

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        if self.picked:
            return f"choose where the piece on {self.picked} goes"
        return f"pick a piece for {self.mover.value if self.mover is not None else ''} to move"

    @property
    def kept(self) -> str:
        """The query that keeps the piece picked when the page is redrawn."""
        return f"from={self.picked}" if self.picked else ""

    @property
    def stone(self) -> str:
        """What the board places, as the pages' class names say it (``board--tafl``):
        no stone, a piece moved."""
        return "tafl"


def draw_board(
    position: Position,
    mover: Color | None = None,
    picked: str = "",
    hint: Move | str | None = None,
    hinges: bool = False,  # noqa: ARG001 (Mǽrstánas's hinges: a tafl board has none)
    target: str = "#game",  # noqa: ARG001 (the part a pick redraws is the form's target)
    held_only: bool = False,  # noqa: ARG001 (Mǽrstánas's stones in hand: none here)
    here: str = "?",
    better: Move | str | None = None,
) -> Board:
    """The board of ``position`` for a viewer who may move ``mover``'s pieces.

    ``mover`` is None for a viewer who only looks, and is ignored unless it is the side
    to move of a game still going on. ``picked`` names the square of the piece the
    viewer picked (``?from=B6``); one that is not theirs to move is ignored. With none
    picked, the hint's piece is, so its marked square plays it. ``here`` is the page's
    address, to which a pick's link adds ``from=``: "?" for a page whose query holds
    nothing else, the line's address and "&" on a board of a line tried. ``better``
    marks the squares a better move than one played from here leaves and reaches (the
    review's, looking back at the moment before a mistake).
    """
    mover = mover_now(position, mover)
    hint = move_or_none(hint, parse_move)
    better = move_or_none(better, parse_move)
    origin = _square_or_none(picked)
    if origin is None and hint is not None:
        origin = hint.origin
    targets = position.targets(origin) if mover is not None and origin is not None else ()
    if not targets:
        origin = None
    reachable = set(targets)
    last = position.last_move
    captured = set(position.last_captured)
    hinted = {hint.origin, hint.target} if hint is not None else set()
    bettered = {better.origin, better.target} if better is not None else set()
    board = position.board()
    squares: list[Cell | RowNumber] = []
    width = BOARD.width
    for row, number in enumerate(ROW_NUMBERS):
        squares.append(number)
        for square in SQUARES[row * width : (row + 1) * width]:
            on = board[square]
            color, piece = on if on else ("", "")
            value = pick = reason = ""
            if square in reachable:
                value = str(MOVES[origin][square])
            elif mover is not None and color == mover.value and position.targets(square):
                pick = here if square == origin else f"{here}from={square}"
            elif origin is not None and not color:
                reason = position.why_illegal(MOVES[origin][square]) or ""
            squares.append(
                Cell(
                    name=str(square),
                    color=color,
                    kind=piece,
                    image=piece_image(color, piece) if color else "",
                    label=_label(square, color, piece, value, pick, reason, square == origin),
                    value=value,
                    pick=pick,
                    picked=square == origin,
                    reason=reason,
                    is_from=last is not None and square == last.origin,
                    is_last=last is not None and square == last.target,
                    was_captured=square in captured,
                    is_hint=square in hinted,
                    goal=GOAL_OF.get(square, ""),
                    better=str(better) if square in bettered else "",
                )
            )
    return Board(
        squares=Fragments(squares),
        mover=mover,
        picked=str(SQUARES[origin]) if origin is not None else "",
        hint=hint_words(position, hint) if hint is not None else "",
    )


def _square_or_none(text: str) -> int | None:
    try:
        return parse_square(text) if text else None
    except InvalidMoveError:
        return None


def hint_words(position: Position, hint: Move) -> str:
    """A move in words: "the commander from B6 to B2, capturing C2"."""
    found = position.piece_at(hint.origin)
    name = found[1].value if found else "piece"
    words = f"the {name} from {SQUARES[hint.origin]} to {SQUARES[hint.target]}"
    if position.is_legal(hint):
        taken = position.play(hint).last_captured
        if taken:
            words += ", capturing " + " and ".join(str(square) for square in taken)
    return words


def _label(
    square: object, color: str, piece: str, value: str, pick: str, reason: str, picked: bool
) -> str:
    """What a screen reader says of a square."""
    rune = f" {RUNES[Piece(piece)]}" if piece and RUNES[Piece(piece)] else ""
    label = f"{square}, {color} {piece}{rune}" if color else f"{square}, empty"
    if value:
        return f"{label}: move {value}"
    if picked:
        return f"{label}: picked; choose where it goes, or put it back"
    if pick:
        return f"{label}: pick it to move it"
    return f"{label}: {reason}" if reason else label


# The status: whose turn, the pieces, the result -----------------------------------------------


def why(outcome: Outcome, sides: Sides = SIDES) -> str:
    """Why a game ended, in words: "Light's king was captured", "Threefold repetition"."""
    if said := ended_outside_rules(outcome, sides):
        return said
    if outcome.reason == END_KING_CAPTURED:
        return f"{sides.name(Color(outcome.result).opponent)}'s king was captured"
    if outcome.reason == END_KING_HOME:
        return f"{sides.name(outcome.result)}'s king reached home"
    if outcome.reason == END_NO_MOVES:
        return f"{sides.name(Color(outcome.result).opponent)} cannot move"
    return {"repetition": "Threefold repetition", "sixty-plies": "60 plies without a capture"}[
        outcome.reason
    ]


def describe(
    position: Position,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool = False,
    going_on: bool = True,
    sides: Sides = SIDES,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours, with the
    pieces each side has left (``game.moves.describe``), its sides named as ``sides``
    say."""
    dark, light = position.score()
    return status_of(
        position,
        outcome,
        seated,
        waiting,
        why,
        going_on,
        sides,
        dark_hand=_pieces(dark),
        light_hand=_pieces(light),
    )


def _pieces(count: int) -> str:
    return f"{count} piece{'s' if count != 1 else ''} left"


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last move and what now."""
    last = position.last_played
    if last is None:
        return f"The game has started. {status.sides.name(position.turn)} to move."
    played = f"{status.sides.name(last.color)} played {last.text}."
    if status.finished:
        return f"{played} {status.headline}."
    return f"{played} {status.turn_name} to move."
