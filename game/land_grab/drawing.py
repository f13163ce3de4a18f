"""Draw a Land Grab position: the plain values its board, status and move list show.

Every square shows its tile's face, black or white, and the stone on it. A drop is
one step: each empty tile of the mover's colour is a button. A move is two: the
player picks one of their stones (a link, ``?from=D4``, so it works without
JavaScript), and the page comes back with that stone's targets as buttons (``name=
"move" value="D4-D2"``): the enemy tiles it may flip, the tiles of its own claim it
may shift to, and a capture's target, whose button names the stone it takes, which
is marked on the board before the move is confirmed. Every other square says why the
stone cannot go there ("that claim holds a white stone"). The claims can be outlined,
each with its size (``?hinges=on``, the toggle every kind's page keeps). A pass is
never chosen: the site plays it when nothing else is legal (``site.settle``).
Templates show; the engine decides: everything here is asked of ``Position``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple

from django.templatetags.static import static

from game.boards import SquareBoard
from game.drawing import RowNumber, row_numbers
from game.fragments import Fragments, drawn_by
from game.land_grab.engine import ENDS, SIDES, WORDS, Position, Score
from game.land_grab.notation import BOARD, DROPS, NAMES, STEPS, Move, parse_move, parse_square
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.sides import Sides
from game.surface import Color, InvalidMoveError, Outcome

__all__ = ["Board", "Cell", "Status", "announcement", "describe", "draw_board", "why"]

SIZE = BOARD.width


@cache
def stone_image(color: str) -> str:
    """The URL of the picture of a stone of the ``color`` seat: black for dark, white
    for light (our own SVGs)."""
    return static(f"land-grab/{WORDS[Color(color) is Color.LIGHT]}-stone.svg")


@drawn_by("land-grab/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it (a named tuple: 64 are made for every board)."""

    name: str
    tile: str  # the tile's face, "black" or "white"
    color: str  # the seat of the stone here, "dark" (black) or "light" (white); "" if none
    side: str  # the stone's colour in the rule book's words; "" if empty
    image: str
    label: str  # what a screen reader says
    value: str  # the move its button plays (a drop, or the picked stone's move); "" none
    pick: str  # the query that picks the stone here ("?from=D4"), or puts it back ("?")
    picked: bool  # the stone here is the one picked
    reason: str  # why the viewer cannot play here (or the picked stone cannot go here)
    is_from: bool  # the last move left this square
    is_last: bool  # the last move dropped or arrived here
    was_taken: bool  # the last move captured the stone that stood here
    takes: bool  # a move of the picked stone would capture the stone here
    is_hint: bool  # the hint's move starts or ends here
    edges: str = ""  # with the claims shown: the sides where this square's claim ends
    size: str = ""  # with the claims shown: its claim's size, on the claim's first square
    better: str = ""  # looking back before a judged move: the better move, from or to here


ROW_NUMBERS = row_numbers(BOARD)


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares, and the stone they picked."""

    squares: Fragments  # row by row, each row's number before its eight squares
    mover: Color | None  # the side the viewer moves for now; None: they look
    picked: str  # the square of the stone picked, "" for none
    dropping: bool = False  # the four drops are being played
    claims: bool = False  # each claim is outlined with its size
    hint: str = ""  # the hinted move in words
    note: str = ""
    # What a Mǽrstánas board has and this one has not: no stones to choose, no edges
    # that join up.
    stones: str = ""
    wraparound: bool = False
    wraparound_note: str = ""
    geometry: SquareBoard = BOARD
    game: str = "land-grab"  # whose stylesheet lays it out (static/land-grab/board.css)

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        if self.dropping:
            return "drop a stone on an empty tile of your colour"
        if self.picked:
            return f"choose where the stone on {self.picked} goes"
        return "pick one of your stones to move it"

    @property
    def kept(self) -> str:
        """The query that keeps the stone picked when the page is redrawn."""
        return f"from={self.picked}" if self.picked else ""

    @property
    def stone(self) -> str:
        """How the pages' class names say a move is made here (``board--tafl``): a piece
        picked, then its square."""
        return "tafl"


def draw_board(
    position: Position,
    mover: Color | None = None,
    picked: str = "",
    hint: Move | str | None = None,
    hinges: bool = False,
    target: str = "#game",  # noqa: ARG001 (the part a pick redraws is the form's target)
    held_only: bool = False,  # noqa: ARG001 (Mǽrstánas's stones in hand: none here)
    here: str = "?",
    better: Move | str | None = None,
) -> Board:
    """The board of ``position`` for a viewer who may move ``mover``'s stones.

    ``mover`` is None for a viewer who only looks, and is ignored unless it is the side
    to move of a game still going on. ``picked`` names the square of the stone the
    viewer picked (``?from=D4``); one that cannot move is ignored. With none picked, a
    hinted move's stone is, so its marked square plays it. ``hinges`` (the page's
    toggle) outlines each claim with its size. ``here`` is the page's address, to
    which a pick's link adds ``from=``. ``better`` marks the squares of a better move
    than the one played from here (the review's).
    """
    if mover is not None and (position.is_over or Color(mover) is not position.turn):
        mover = None
    hint = _move_or_none(hint)
    better = _move_or_none(better)
    dropping = position.is_dropping
    origin = _square_or_none(picked)
    if origin is None and hint is not None and not dropping:
        origin = hint.origin
    targets = {}
    if origin is not None:
        targets = {move.target: move for move in position.targets(origin)}
    if mover is None or origin is None or not targets:
        origin, targets = None, {}
    taken = {move.capture for move in targets.values() if move.capture is not None}
    movable = set()
    if mover is not None and not dropping:
        movable = {move.origin for move in position.moves() if move.origin is not None}
    last = position.last_move
    hinted = _squares_of(hint)
    bettered = _squares_of(better)
    edges, sizes = _claim_marks(position) if hinges else ({}, {})
    black, white = position.stones
    tiles = position.tiles
    who = WORDS[position._turn]
    squares: list[Cell | RowNumber] = []
    for row, number in enumerate(ROW_NUMBERS):
        squares.append(number)
        for square in range(row * SIZE, (row + 1) * SIZE):
            tile = "black" if tiles >> square & 1 else "white"
            color = "dark" if black >> square & 1 else "light" if white >> square & 1 else ""
            side = WORDS[color == "light"] if color else ""
            value = pick = reason = ""
            if mover is not None:
                if dropping:
                    if position.is_legal(DROPS[square]):
                        value = str(DROPS[square])
                    else:
                        reason = position.why_illegal(DROPS[square]) or ""
                elif square in targets:
                    value = str(targets[square])
                elif square in movable:
                    pick = here if square == origin else f"{here}from={NAMES[square]}"
                elif origin is not None and square != origin:
                    reason = position.why_illegal(STEPS[origin][square]) or ""
                elif color == mover.value:
                    reason = f"this {who} stone has no move"
            squares.append(
                Cell(
                    name=NAMES[square],
                    tile=tile,
                    color=color,
                    side=side,
                    image=stone_image(color) if color else "",
                    label=_label(NAMES[square], tile, side, value, pick, reason, square == origin),
                    value=value,
                    pick=pick,
                    picked=square == origin,
                    reason=reason,
                    is_from=last is not None and square == last.origin,
                    is_last=last is not None and square == last.target,
                    was_taken=last is not None and square == last.capture,
                    takes=square in taken,
                    is_hint=square in hinted,
                    edges=edges.get(square, ""),
                    size=sizes.get(square, ""),
                    better=str(better) if square in bettered else "",
                )
            )
    return Board(
        squares=Fragments(squares),
        mover=mover,
        picked=NAMES[origin] if origin is not None else "",
        dropping=dropping and mover is not None,
        claims=hinges,
        hint=hint_words(hint) if hint is not None else "",
    )


def _claim_marks(position: Position) -> tuple[dict[int, str], dict[int, str]]:
    """Each square's sides where its claim ends (``"n e"``…), and each claim's size on
    its first square."""
    claim_of = {}
    sizes = {}
    for number, squares in enumerate(position.claims()):
        for square in squares:
            claim_of[square] = number
        sizes[squares[0]] = str(len(squares))
    edges = {}
    for square in BOARD.cells:
        row, column = divmod(square, SIZE)
        sides = []
        for name, near, on_board in (
            ("n", square - SIZE, row > 0),
            ("e", square + 1, column < SIZE - 1),
            ("s", square + SIZE, row < SIZE - 1),
            ("w", square - 1, column > 0),
        ):
            if not on_board or claim_of[near] != claim_of[square]:
                sides.append(name)
        edges[square] = " ".join(sides)
    return edges, sizes


def _squares_of(move: Move | None) -> set[int]:
    if move is None or move.target is None:
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
    """A move in words: "a stone dropped on D4", "the stone on A1 to C3, taking D4"."""
    if hint.target is None:
        return "a pass"
    if hint.origin is None:
        return f"a stone dropped on {NAMES[hint.target]}"
    words = f"the stone on {NAMES[hint.origin]} to {NAMES[hint.target]}"
    if hint.capture is not None:
        words += f", taking the stone on {NAMES[hint.capture]}"
    return words


def _label(
    name: str, tile: str, side: str, value: str, pick: str, reason: str, picked: bool
) -> str:
    """What a screen reader says of a square."""
    label = f"{name}, {tile} tile" + (f", {side} stone" if side else "")
    if value:
        if "x" in value:
            return f"{label}: capture {value}, taking the stone on {value.split('x')[1]}"
        return f"{label}: {'move' if '-' in value else 'drop'} {value}"
    if picked:
        return f"{label}: picked; choose where it goes, or put it back"
    if pick:
        return f"{label}: pick it to move it"
    return f"{label}: {reason}" if reason else label


# The status: whose turn, the claims, the result ----------------------------------------


class Claims(NamedTuple):
    """The status bar's count: each side's claims by size, largest first, as text;
    ``str()`` is the rule book's line, ``Black: 24 1 1, White: 15 14 6``."""

    dark: str
    light: str
    line: str

    def __str__(self) -> str:
        return self.line


def why(outcome: Outcome, sides: Sides = SIDES) -> str:
    """Why a game ended, in words: "On claims, no flips left", "All stones captured"."""
    if said := ended_outside_rules(outcome, sides):
        return said
    words = ENDS.get(outcome.reason, outcome.reason)
    if outcome.reason == "all-captured":
        return words.capitalize()
    return f"On claims, {words}"


def describe(
    position: Position,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool = False,
    going_on: bool = True,
    sides: Sides = SIDES,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours: each
    side's claims and stones left (``game.moves.describe``), its sides named as
    ``sides`` say."""
    status = status_of(
        position,
        outcome,
        seated,
        waiting,
        why,
        going_on,
        sides,
        dark_hand=_stones(position.stones[0].bit_count()),
        light_hand=_stones(position.stones[1].bit_count()),
    )
    score: Score = position.score()
    black, white = score.claims
    claims = Claims(_sizes(black), _sizes(white), str(score))
    return replace(status, score=claims)


def _sizes(sizes: tuple[int, ...]) -> str:
    return " ".join(map(str, sizes[:4])) + (" …" if len(sizes) > 4 else "")


def _stones(count: int) -> str:
    return f"{count} stone{'s' if count != 1 else ''} left"


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last move and what now."""
    last = position.last_played
    if last is None:
        return f"The game has started. {status.sides.name(position.turn)} to move."
    played = f"{status.sides.name(last.color)} played {last.text}."
    if last.move.capture is not None:
        played += f" It took the stone on {NAMES[last.move.capture]}."
    if status.finished:
        return f"{played} {status.headline}."
    return f"{played} {status.turn_name} to move."
