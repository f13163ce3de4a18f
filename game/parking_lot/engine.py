# Long: one Position, whose rules are the hot loops of every playout (placements,
# drives, their counts and a random turn) on its bitboards, and the masks they use.
"""The rules of Parking Lot: place a two-square piece, then perhaps drive one.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by the computer players without Django. ``docs/PARKING-LOT.md`` is the rule
book this module implements: an 8×8 board, blue's pieces standing vertically and
red's lying horizontally, sixteen turns, and the largest connected block of a
colour wins.

A position is two bitboards of anchors, one a side (a blue piece's top square, a
red piece's left square); bit ``column * 8 + row``, so that the bits run in the
order of the squares' names, the order a sorted record lists turns in. Where a
piece may drive is found by filling along the free anchors a direction at a time,
all the squares at once (occluded fills), once for the first leg and once for the
turn.

Typical use::

    pos = Position.start()
    pos = pos.play("D4")
    pos.legal_moves()[0]   # Move(place=0): A1
    pos.outcome()          # None: the game goes on
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.boards import SquareBoard
from game.options import Choice, OnOff, Options
from game.parking_lot.notation import NAMES, SIZE, Move, parse_square, read_move
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    MoveError,
    Played,
    PositionBase,
)
from game.surface import Outcome as _SurfaceOutcome

__all__ = [
    "BOARD",
    "END_EQUAL",
    "END_LARGEST",
    "END_NEXT",
    "ENDS",
    "PIECES",
    "RESULT_WORDS",
    "SIDES",
    "Groups",
    "Outcome",
    "Position",
    "Rules",
    "Score",
    "groups",
    "judge",
    "score_line",
]

# The board as pages and pictures lay it out: 8×8, A1 top left (cells in reading
# order, not the engine's squares: ``notation.cell_of`` turns one into the other).
BOARD = SquareBoard(SIZE, SIZE)
# Blue places first; a game nobody wins is a draw.
SIDES = Sides(
    first="Blue",
    second="Red",
    no_winner="draw",
    first_image="parking-lot/dark-car.svg",
    second_image="parking-lot/light-car.svg",
)

# Each side's pieces, and the turns of a game: every turn places one.
PIECES = 8
TURNS = 2 * PIECES

# How a game ends (``Outcome.reason``) and in words.
END_LARGEST = "largest-group"
END_NEXT = "next-group"
END_EQUAL = "equal-groups"
ENDS = {
    END_LARGEST: "Largest group",
    END_NEXT: "Next largest group",
    END_EQUAL: "Equal groups",
}
BLUE, RED, DRAW = "blue", "red", "draw"


class Outcome(_SurfaceOutcome):
    """How a game ended, in the rule book's words: ``Outcome("blue", "next-group")``,
    ``Outcome("draw", "equal-groups")``; blue is the seat that moves first."""

    __slots__ = ()
    FIRST, SECOND = BLUE, RED


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game of Parking Lot: none, so every game is played alike."""

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = ()

    @property
    def summary(self) -> str:
        """The rules in a few words."""
        return "Standard rules"


# --- Masks of the board, built once -------------------------------------------------

_FULL = (1 << SIZE * SIZE) - 1
_ROW = tuple(sum(1 << (column * SIZE + row) for column in range(SIZE)) for row in range(SIZE))
_NOT_TOP = _FULL ^ _ROW[0]
_NOT_BOTTOM = _FULL ^ _ROW[SIZE - 1]
_LAST_COLUMN = sum(1 << ((SIZE - 1) * SIZE + row) for row in range(SIZE))
# The anchors a piece may stand on: blue's not on the bottom row (it covers the square
# below), red's not in the last column (it covers the square to the right).
_ANCHORS = (_NOT_BOTTOM, _FULL ^ _LAST_COLUMN)
# From an anchor to the piece's other square: one row down (blue), one column right (red).
_SPAN = (1, SIZE)


def _cover(anchors: int, side: int) -> int:
    """The squares that ``side``'s pieces on ``anchors`` cover."""
    return anchors | anchors << _SPAN[side]


def _near(squares: int) -> int:
    """The squares next to ``squares`` (sharing a side), ``squares`` left out."""
    return (
        ((squares >> 1) & _NOT_BOTTOM)
        | ((squares << 1) & _NOT_TOP)
        | (squares >> SIZE)
        | ((squares << SIZE) & _FULL)
    ) & ~squares


# Each anchor's piece for each side, and the squares next to it.
_PIECE = tuple(tuple(_cover(1 << a, side) for a in range(SIZE * SIZE)) for side in (0, 1))
_TOUCH = tuple(tuple(_near(piece) for piece in _PIECE[side]) for side in (0, 1))


def _free(empty: int, side: int) -> int:
    """The anchors where a piece of ``side`` fits on ``empty`` squares."""
    return empty & (empty >> _SPAN[side]) & _ANCHORS[side]


# Occluded fills: the squares reached from ``g`` by steps in one direction through
# ``p``, ``g`` included (Kogge and Stone's parallel prefix, as chess engines slide).
def _fill_down(g: int, p: int) -> int:
    p &= _NOT_TOP
    g |= p & (g << 1)
    p &= p << 1
    g |= p & (g << 2)
    p &= p << 2
    return g | (p & (g << 4))


def _fill_up(g: int, p: int) -> int:
    p &= _NOT_BOTTOM
    g |= p & (g >> 1)
    p &= p >> 1
    g |= p & (g >> 2)
    p &= p >> 2
    return g | (p & (g >> 4))


def _fill_right(g: int, p: int) -> int:
    g |= p & (g << 8)
    p &= p << 8
    g |= p & (g << 16)
    p &= p << 16
    return g | (p & (g << 32))


def _fill_left(g: int, p: int) -> int:
    g |= p & (g >> 8)
    p &= p >> 8
    g |= p & (g >> 16)
    p &= p >> 16
    return g | (p & (g >> 32))


def _reach(anchor: int, free: int) -> int:
    """The anchors a piece on ``anchor`` may drive to through ``free`` anchors: one leg,
    or two at a right angle, each of one square or more."""
    column = _fill_up(anchor, free) | _fill_down(anchor, free)
    row = _fill_left(anchor, free) | _fill_right(anchor, free)
    return (
        _fill_left(column, free)
        | _fill_right(column, free)
        | _fill_up(row, free)
        | _fill_down(row, free)
    ) & ~anchor


def _bits(mask: int) -> Iterator[int]:
    """The squares of ``mask``, in the order of their names."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --- Groups and the result ------------------------------------------------------------


class Groups(NamedTuple):
    """A side's groups, their sizes in pieces, largest first: ``(4, 3, 1)``."""

    sizes: tuple[int, ...]

    def __str__(self) -> str:
        return "+".join(str(size) for size in self.sizes) or "0"


def groups(squares: int) -> tuple[int, ...]:
    """The groups of one side's ``squares`` (blocks connected by sides shared), each as
    its squares, largest first; ties in the order of their first square."""
    found = []
    while squares:
        group = squares & -squares
        while True:
            grown = group | (_near(group) & squares)
            if grown == group:
                break
            group = grown
        found.append(group)
        squares &= ~group
    found.sort(key=lambda group: -group.bit_count())
    return tuple(found)


def _sizes(squares: int) -> tuple[int, ...]:
    return tuple(group.bit_count() // 2 for group in groups(squares))


def judge(blue: tuple[int, ...], red: tuple[int, ...]) -> Outcome:
    """The result of groups of these sizes (pieces, largest first): the first size that
    differs decides; all equal, a draw. Both sides have placed all their pieces, so
    one list cannot run out while the sizes before are equal."""
    for place, (mine, theirs) in enumerate(zip(blue, red, strict=False)):
        if mine != theirs:
            reason = END_LARGEST if place == 0 else END_NEXT
            return Outcome(BLUE if mine > theirs else RED, reason)
    return Outcome(DRAW, END_EQUAL)


@dataclass(frozen=True, slots=True)
class Score:
    """Each side's group sizes, largest first; ``str(score)`` is ``Blue 4+4, Red 4+3+1``.
    As a pair (``blue, red = score``) it is each side's largest group, the count the
    site keeps of a game."""

    blue: Groups
    red: Groups

    @property
    def dark(self) -> int:
        """Blue's (the dark seat's) largest group, in pieces: the count a status shows."""
        return self.blue.sizes[0] if self.blue.sizes else 0

    @property
    def light(self) -> int:
        """Red's (the light seat's) largest group, in pieces."""
        return self.red.sizes[0] if self.red.sizes else 0

    def __iter__(self) -> Iterator[int]:
        yield self.dark
        yield self.light

    def __str__(self) -> str:
        return f"Blue {self.blue}, Red {self.red}"


# The reasons as the score line says them (docs/PARKING-LOT.md, "Notation").
RESULT_WORDS = {
    END_LARGEST: "largest group",
    END_NEXT: "next largest group",
    END_EQUAL: "equal groups",
}


def score_line(score: Score, outcome: Outcome | None) -> str:
    """The line that ends a record: the group sizes, and the result once the game is
    over: ``Blue 4+4, Red 4+3+1 — Blue wins: next largest group``, or
    ``… — Draw: equal groups``."""
    if outcome is None:
        return str(score)
    verdict = "Draw" if outcome.winner is None else f"{outcome.result.capitalize()} wins"
    return f"{score} — {verdict}: {RESULT_WORDS[outcome.reason]}"


# --- Position ----------------------------------------------------------------------


class Position(PositionBase):
    """A moment of a game: each side's pieces (by anchor) and the side to move.

    Immutable: ``play`` returns a new position and leaves this one as it was. Make one
    with ``Position.start``, ``Position.replay`` or ``Position.from_text``. Positions
    compare equal when their pieces and side to move agree, however they were reached.
    """

    __slots__ = ("_end", "_last", "_parent", "_pieces", "_ply", "_rules", "_turn")

    _pieces: tuple[int, int]
    _turn: int
    _ply: int
    _rules: Rules
    _parent: Position | None
    _last: Move | None
    _end: Outcome | None

    def __init__(self) -> None:
        raise TypeError("use Position.start(), Position.replay() or Position.from_text()")

    @classmethod
    def _make(
        cls,
        blue: int,
        red: int,
        turn: int,
        rules: Rules,
        ply: int = 0,
        parent: Position | None = None,
        last: Move | None = None,
    ) -> Position:
        pos = object.__new__(cls)
        pos._pieces = (blue, red)
        pos._turn = turn
        pos._rules = rules
        pos._ply = ply
        pos._parent = parent
        pos._last = last
        pos._end = None
        if blue.bit_count() + red.bit_count() == TURNS:
            pos._end = judge(_sizes(_cover(blue, 0)), _sizes(_cover(red, 1)))
        return pos

    # Construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The empty board, blue to move, eight pieces in each hand."""
        return cls._make(0, 0, 0, rules or Rules())

    @classmethod
    def replay(
        cls,
        rules: Rules | None | Iterable[str | Move] | str = None,
        record: Iterable[str | Move] | str | None = None,
        start: Position | None = None,
    ) -> Position:
        """Play a record (turn texts or moves) from the start, or from ``start``:
        ``Position.replay(rules, record)``, or ``Position.replay(record)``; a record as
        one text has its turns separated by ``|`` or lines.

        Raises ``InvalidMoveError``/``IllegalMoveError`` naming the turn that failed.
        """
        if record is None and not isinstance(rules, Rules | None):
            rules, record = None, rules
        pos = start if start is not None else cls.start(rules)
        if isinstance(record, str):
            record = [part for part in re.split(r"[|\n]", record) if part.strip()]
        for number, move in enumerate(record or (), start=1):
            try:
                pos = pos.play(move)
            except MoveError as exc:
                raise type(exc)(f"move {number}: {exc}") from exc
        return pos

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """Set up the position that position text describes (docs/PARKING-LOT.md,
        "Position text"): eight rows of ``B``, ``R`` and ``.``, top to bottom,
        separated by ``/``, a space, then ``b`` or ``r``.

        Raises ``InvalidPositionError`` for malformed text, a blue run in a column or
        a red run in a row of odd length, more than eight pieces a side, or counts of
        pieces that disagree with the side to move.
        """
        if not isinstance(text, str) or len(text) > 120:
            raise InvalidPositionError("position text is eight rows and the side to move")
        parts = text.split()
        if len(parts) != 2:
            raise InvalidPositionError(
                "position text is the rows, separated by /, then b or r for the side to move"
            )
        rows_text, side = parts
        rows = rows_text.split("/")
        if len(rows) != SIZE:
            raise InvalidPositionError(f"the board needs {SIZE} rows separated by /")
        squares = [0, 0]
        for row, line in enumerate(rows):
            if len(line) != SIZE:
                raise InvalidPositionError(f"row {row + 1} needs {SIZE} squares, not {len(line)}")
            for column, char in enumerate(line):
                if char not in "BR.":
                    raise InvalidPositionError(
                        f"row {row + 1}: {char!r} is not a square (use B, R or .)"
                    )
                if char != ".":
                    squares["BR".index(char)] |= 1 << (column * SIZE + row)
        if side not in ("b", "r"):
            raise InvalidPositionError(f"the side to move is b or r, not {side[:5]!r}")
        anchors = [_split_runs(squares[0], 0), _split_runs(squares[1], 1)]
        counts = [anchors[0].bit_count(), anchors[1].bit_count()]
        for index, count in enumerate(counts):
            if count > PIECES:
                raise InvalidPositionError(
                    f"{(BLUE, RED)[index]} has {count} pieces; each side has {PIECES}"
                )
        turn = "br".index(side)
        if counts[0] - counts[1] != turn:
            to_move = BLUE if counts[0] == counts[1] else RED
            raise InvalidPositionError(
                f"{counts[0]} blue and {counts[1]} red pieces: blue places first, so "
                f"{to_move} is to move, not {(BLUE, RED)[turn]}"
                if counts[0] - counts[1] in (0, 1)
                else f"{counts[0]} blue and {counts[1]} red pieces: the sides place in "
                "turn, so no game reaches this"
            )
        return cls._make(anchors[0], anchors[1], turn, rules or Rules())

    # Reading the position ----------------------------------------------------------

    # ``rules``, ``turn``, ``ply`` and ``last_move`` are PositionBase's.

    @property
    def last_played(self) -> Played | None:
        """The last turn of ``history``, or None when it is empty."""
        if self._parent is None:
            return None
        return Played(COLORS[self._parent._turn], self._last, str(self._last))

    def anchors(self, color: Color | str) -> tuple[int, ...]:
        """The anchors of ``color``'s pieces on the board, in the order of their names."""
        return tuple(_bits(self._pieces[0 if Color(color) is Color.DARK else 1]))

    def piece_at(self, square: str | int) -> tuple[Color, int] | None:
        """The side and anchor of the piece covering ``square``, or None when empty.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        at = _square(square)
        blue, red = self._pieces
        bit = 1 << at
        if _cover(blue, 0) & bit:
            return Color.DARK, at if blue & bit else at - 1
        if _cover(red, 1) & bit:
            return Color.LIGHT, at if red & bit else at - SIZE
        return None

    def in_hand(self, color: Color | str) -> int:
        """How many pieces ``color`` has still to place."""
        return PIECES - self._pieces[0 if Color(color) is Color.DARK else 1].bit_count()

    def squares(self, color: Color | str) -> int:
        """The squares ``color``'s pieces cover, as a bitboard (bit ``column * 8 + row``)."""
        side = 0 if Color(color) is Color.DARK else 1
        return _cover(self._pieces[side], side)

    def score(self) -> Score:
        """Each side's group sizes in pieces, largest first."""
        blue, red = self._pieces
        return Score(Groups(_sizes(_cover(blue, 0))), Groups(_sizes(_cover(red, 1))))

    @property
    def is_last_turn(self) -> bool:
        """True when the piece the side to move places is the game's last: no drive."""
        blue, red = self._pieces
        return blue.bit_count() + red.bit_count() == TURNS - 1

    # Moves -------------------------------------------------------------------------

    def placements(self) -> tuple[int, ...]:
        """The anchors the side to move may place a piece on, in name order."""
        if self._end is not None:
            return ()
        blue, red = self._pieces
        empty = _FULL & ~(_cover(blue, 0) | _cover(red, 1))
        return tuple(_bits(_free(empty, self._turn)))

    def drives(self, place: int | str) -> dict[int, tuple[int, ...]]:
        """After a placement on ``place`` (an anchor the side to move may place on):
        each piece that may then drive, by anchor, and the anchors it may drive to, in
        name order; {} on the last turn. Raises ``IllegalMoveError`` for a placement
        the rules forbid."""
        place = _square(place)
        reason = self._placement_reason(place)
        if reason is not None:
            raise IllegalMoveError(reason)
        return {origin: tuple(_bits(targets)) for origin, targets in self._drives(place) if targets}

    def _drives(self, place: int) -> Iterator[tuple[int, int]]:
        """Each piece that stood when the turn began and is not frozen after a
        placement on ``place``, and the anchors it may reach (possibly none)."""
        side = self._turn
        own, other = self._pieces[side], self._pieces[1 - side]
        placed = _PIECE[side][place]
        if own.bit_count() + other.bit_count() + 1 == TURNS:
            return
        own_squares = _cover(own, side) | placed
        empty = _FULL & ~(own_squares | _cover(other, 1 - side))
        pieces, touch = _PIECE[side], _TOUCH[side]
        for origin in _bits(own):
            piece = pieces[origin]
            if touch[origin] & own_squares & ~piece:
                continue
            yield origin, _reach(1 << origin, _free(empty | piece, side))

    def legal_moves(self) -> list[Move]:
        """Every turn the side to move may play, in the order ``sorted()`` gives their
        texts (``E4`` before ``E4 A1-A2``); [] once over."""
        if self._end is not None:
            return []
        moves = []
        append = moves.append
        for place in self.placements():
            append(Move(place))
            for origin, targets in self._drives(place):
                for target in _bits(targets):
                    append(Move(place, origin, target))
        return moves

    def count_moves(self) -> int:
        """How many turns ``legal_moves`` lists, counted without listing them."""
        if self._end is not None:
            return 0
        return sum(self._placement_counts()[1])

    def _placement_counts(self) -> tuple[list[int], list[int]]:
        """The placements, in name order, and how many turns each begins (itself, then
        its drives). A piece's drives are found again only where the placement lands on
        a square its drives pass through; elsewhere they are those found without it."""
        side = self._turn
        own, other = self._pieces
        if side:
            own, other = other, own
        own_squares = _cover(own, side)
        occupied = own_squares | _cover(other, 1 - side)
        empty = _FULL & ~occupied
        placements = list(_bits(_free(empty, side)))
        if own.bit_count() + other.bit_count() + 1 == TURNS or not own:
            return placements, [1] * len(placements)
        pieces, touch = _PIECE[side], _TOUCH[side]
        # Each piece: its squares, its neighbours, its reach without the placement, and
        # the squares that reach covers (where a placement may cut it short).
        cars = []
        for origin in _bits(own):
            piece = pieces[origin]
            reach = _reach(1 << origin, _free(empty | piece, side))
            cars.append((origin, piece, touch[origin], reach, _cover(reach, side)))
        counts = []
        for place in placements:
            placed = pieces[place]
            after = own_squares | placed
            total = 1
            for origin, piece, near, reach, covered in cars:
                if near & after & ~piece:
                    continue
                if covered & placed:
                    free = _free((empty & ~placed) | piece, side)
                    total += _reach(1 << origin, free).bit_count()
                else:
                    total += reach.bit_count()
            counts.append(total)
        return placements, counts

    def random_move(self, rng: random.Random) -> Move:
        """The turn ``rng.choice(self.legal_moves())`` would give, the same draw from
        ``rng``, found without listing every turn.

        Raises ``IndexError`` once the game is over (no turn to choose)."""
        if self._end is not None:
            raise IndexError("the game is over: there is no turn to choose")
        placements, counts = self._placement_counts()
        index = rng.choice(range(sum(counts)))
        chosen = 0
        while index >= counts[chosen]:
            index -= counts[chosen]
            chosen += 1
        place = placements[chosen]
        if index == 0:
            return Move(place)
        index -= 1
        for origin, targets in self._drives(place):
            reached = targets.bit_count()
            if index < reached:
                for target in _bits(targets):
                    if not index:
                        return Move(place, origin, target)
                    index -= 1
            index -= reached
        raise AssertionError("the counts and the drives disagree")  # pragma: no cover

    @property
    def is_over(self) -> bool:
        """True once the sixteenth piece is down."""
        return self._end is not None

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a turn may not be played now, in a player's words, or None if it may.

        Raises ``InvalidMoveError`` for text that is not a turn.
        """
        if not isinstance(move, Move):
            if not isinstance(move, str):
                raise InvalidMoveError(f"{move!r} is not a turn")
            move = read_move(move)
        if self._end is not None:
            return "the game is over"
        reason = self._placement_reason(move.place)
        if reason is not None or move.origin is None:
            return reason
        return self._drive_reason(move)

    def _placement_reason(self, place: int) -> str | None:
        side = self._turn
        who = (BLUE, RED)[side]
        name = NAMES[place]
        if not _ANCHORS[side] >> place & 1:
            if side == 0:
                return f"blue's pieces stand upright: one on {name} would leave the board"
            return f"red's pieces lie flat: one on {name} would leave the board"
        blue, red = self._pieces
        taken = _PIECE[side][place] & (_cover(blue, 0) | _cover(red, 1))
        if taken:
            squares = " and ".join(NAMES[at] for at in _bits(taken))
            return f"{who}'s piece on {name} needs {squares}, which {_is_are(taken)} taken"
        return None

    def _drive_reason(self, move: Move) -> str | None:
        side = self._turn
        who = (BLUE, RED)[side]
        place, origin, target = move
        own = self._pieces[side]
        if self.is_last_turn:
            return "the last piece placed ends the game: there is no drive after it"
        if origin == place:
            return "the piece just placed cannot drive this turn"
        if not own >> origin & 1:
            found = self.piece_at(origin)
            if found is None:
                return f"there is no piece on {NAMES[origin]}"
            color, anchor = found
            if color is not COLORS[side]:
                return f"the piece on {NAMES[origin]} is {(BLUE, RED)[1 - side]}'s"
            end = "top" if side == 0 else "left"
            return f"name a piece by its {end} square: {NAMES[anchor]}, not {NAMES[origin]}"
        piece = _PIECE[side][origin]
        own_squares = _cover(own, side) | _PIECE[side][place]
        friends = _TOUCH[side][origin] & own_squares & ~piece
        if friends:
            return (
                f"{who}'s piece on {NAMES[origin]} touches another of {who}'s "
                f"at {NAMES[next(_bits(friends))]}: it is parked"
            )
        if target == origin:
            return f"{NAMES[origin]}-{NAMES[target]} does not move"
        if not _ANCHORS[side] >> target & 1:
            return f"{who}'s piece would leave the board on {NAMES[target]}"
        blue, red = self._pieces
        empty = _FULL & ~(_cover(blue, 0) | _cover(red, 1) | _PIECE[side][place])
        free = _free(empty | piece, side)
        if not free >> target & 1:
            blocked = _PIECE[side][target] & ~(empty | piece)
            squares = " and ".join(NAMES[at] for at in _bits(blocked))
            return f"the piece does not fit on {NAMES[target]}: {squares} {_is_are(blocked)} taken"
        if not _reach(1 << origin, free) >> target & 1:
            return f"no open road from {NAMES[origin]} to {NAMES[target]} with at most one turn"
        return None

    # Playing -----------------------------------------------------------------------

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or its text); this one is unchanged.

        Raises ``InvalidMoveError`` for text that is not a turn and ``IllegalMoveError``
        (saying why) for a turn the rules forbid here.
        """
        if move.__class__ is not Move:
            if not isinstance(move, str):
                raise InvalidMoveError(f"{move!r} is not a turn")
            text = move
            move = read_move(move)
        else:
            text = str(move)
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal turn {text.strip()!r}: {reason}")
        return self._after(move)

    def _after(self, move: Move) -> Position:
        """The position after a legal ``move``, unchecked."""
        side = self._turn
        pieces = list(self._pieces)
        pieces[side] |= 1 << move.place
        if move.origin is not None:
            pieces[side] ^= (1 << move.origin) | (1 << move.target)
        return Position._make(
            pieces[0], pieces[1], 1 - side, self._rules, self._ply + 1, self, move
        )

    # Result ----------------------------------------------------------------------------

    @property
    def result(self) -> str | None:
        """``"blue"``, ``"red"`` or ``"draw"`` once the game is over, else None."""
        return self._end.result if self._end is not None else None

    @property
    def winner(self) -> Color | None:
        """The seat that won, or None while the game runs or after a draw."""
        return self._end.winner if self._end is not None else None

    def outcome(self) -> Outcome | None:
        """How the game ended (``Outcome(result, reason)``), or None until the
        sixteenth piece is down."""
        return self._end

    # Text ------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of docs/PARKING-LOT.md: ``......../…/........ b``."""
        blue, red = self._pieces
        blue_squares, red_squares = _cover(blue, 0), _cover(red, 1)
        rows = []
        for row in range(SIZE):
            line = []
            for column in range(SIZE):
                bit = 1 << (column * SIZE + row)
                line.append("B" if blue_squares & bit else "R" if red_squares & bit else ".")
            rows.append("".join(line))
        return f"{'/'.join(rows)} {'br'[self._turn]}"

    def _key(self) -> tuple[object, ...]:
        return (self._rules, self._pieces, self._turn)


def _split_runs(squares: int, side: int) -> int:
    """The anchors of ``side``'s pieces covering ``squares``: blue's column runs split
    into pieces from the top, red's row runs from the left.

    Raises ``InvalidPositionError`` for a run of odd length."""
    anchors = 0
    span = _SPAN[side]
    left = squares
    while left:
        anchor = left & -left  # the first square of a run, in name order
        partner = anchor << span
        if not left & partner or not _ANCHORS[side] & anchor:
            at = anchor.bit_length() - 1
            run = "column" if side == 0 else "row"
            raise InvalidPositionError(
                f"{(BLUE, RED)[side]}'s squares in the {run} of {NAMES[at]} make a run of "
                f"odd length: a piece covers two"
            )
        anchors |= anchor
        left &= ~(anchor | partner)
    return anchors


def _square(square: str | int) -> int:
    if isinstance(square, int) and 0 <= square < SIZE * SIZE:
        return square
    if isinstance(square, str):
        return parse_square(square)
    raise InvalidMoveError(f"{square!r} is not a square")


def _is_are(mask: int) -> str:
    return "is" if mask.bit_count() == 1 else "are"
