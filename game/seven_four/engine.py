"""The rules of 7-4-1776: drops, slides of lone stones and the squares a slide fills.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by the computer players without Django. ``docs/SEVEN-FOUR.md`` is the rule book
this module implements; the shape of a position (``start``, ``play``,
``legal_moves``, ``record``, ``outcome()``) is every game's (``game.surface``).

The position is two bitboards, blue's stones and red's (bit ``row * 10 + column``,
``A1`` bit 0). What a turn needs is a few shifts and ands: the squares next to a
set of stones (``neighbours``), a side's lone stones (``lone_stones``: its stones
that no stone of its own touches), and, for each square, its eight rays, nearest
square first, which a slide walks until a stone blocks it.

Typical use::

    pos = Position.start()
    pos = pos.play("D4")
    str(pos.legal_moves()[0])   # "A1": the moves come in the order of their texts
    pos.play("B2-E5")           # IllegalMoveError: there is no stone on B2
    pos.outcome()               # None: the game goes on
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.options import Choice, OnOff, Options
from game.seven_four.notation import (
    BOARD,
    DROPS,
    NAMES,
    ORDER,
    SIDE_CHARS,
    SIZE,
    SLIDES,
    STONE_CHARS,
    Move,
    parse_move,
    parse_square,
    read_position_text,
    write_position_text,
)
from game.sides import Sides
from game.surface import (
    COLORS,
    Color,
    IllegalMoveError,
    InvalidPositionError,
    MoveError,
    Played,
    PositionBase,
)
from game.surface import Outcome as SurfaceOutcome

__all__ = [
    "END_BOARD_FULL",
    "ENDS",
    "FULL",
    "NEIGHBOURS",
    "RAYS",
    "SIDES",
    "WORDS",
    "Outcome",
    "Position",
    "Rules",
    "Score",
    "landings",
    "lone_stones",
    "neighbours",
]

# Blue moves first; nobody ever draws, but the site asks every kind for the word.
SIDES = Sides(
    first="Blue",
    second="Red",
    no_winner="draw",
    first_image="seven-four/blue-stone.svg",
    second_image="seven-four/red-stone.svg",
)
# The sides inside a sentence, blue then red (the seats dark then light).
WORDS = ("blue", "red")

# How a game ends by its rules (``Outcome.reason``): the only way, and in words.
END_BOARD_FULL = "board-full"
ENDS = {END_BOARD_FULL: "Board full"}


class Outcome(SurfaceOutcome):
    """How a game ended: ``("blue", "board-full")`` or ``("red", "board-full")``."""

    __slots__ = ()
    FIRST, SECOND = WORDS


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game of 7-4-1776: none, so every game is played alike."""

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = ()

    @property
    def summary(self) -> str:
        """The rules in a few words."""
        return "Standard rules"


class Score(NamedTuple):
    """Each side's stones on the board; ``str(score)`` is ``Blue: 12, Red: 9``."""

    blue: int
    red: int

    def __str__(self) -> str:
        return f"Blue: {self.blue}, Red: {self.red}"


# --- The board's lines, built once ---------------------------------------------------

FULL = (1 << SIZE * SIZE) - 1
_COLUMN_A = sum(1 << row * SIZE for row in range(SIZE))
_NOT_A = FULL ^ _COLUMN_A
_NOT_J = FULL ^ (_COLUMN_A << SIZE - 1)


def neighbours(stones: int) -> int:
    """The squares adjacent (along a side or at a corner) to any of ``stones``; a
    stone is among them when another of ``stones`` touches it."""
    across = ((stones & _NOT_J) << 1) | ((stones & _NOT_A) >> 1)
    column = across | stones
    return (across | (column << SIZE) | (column >> SIZE)) & FULL


def lone_stones(stones: int) -> int:
    """The rule book's single stones: those of ``stones`` that none of the others
    touches. Only they may slide."""
    return stones & ~neighbours(stones)


# Each square's neighbours, and its eight rays (the board's directions, nearest square
# first, to the edge).
NEIGHBOURS = tuple(neighbours(1 << square) for square in BOARD.cells)
RAYS = tuple(
    tuple(tuple(BOARD.ray(square, direction)) for direction in range(len(BOARD.directions)))
    for square in BOARD.cells
)


_SQUARES = range(SIZE * SIZE)


def landings(origin: int, own: int, occupied: int) -> int:
    """Where the lone stone on ``origin`` may slide: the empty squares it reaches along
    a line over empty squares only, next to another lone stone of ``own``.

    ``origin`` must hold a lone stone of ``own``; ``occupied`` is every stone.
    """
    near = neighbours(lone_stones(own) & ~(1 << origin))
    if not near:
        return 0
    found = 0
    for ray in RAYS[origin]:
        for square in ray:
            if occupied >> square & 1:
                break
            if near >> square & 1:
                found |= 1 << square
    return found


def squares_of(mask: int) -> Iterator[int]:
    """The squares of a bitboard, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --- Position ---------------------------------------------------------------------------


class Position(PositionBase):
    """A moment of a game: each side's stones and the side to move.

    Immutable: ``play`` returns a new position and leaves this one as it was. Make one
    with ``Position.start``, ``Position.replay`` or ``Position.from_text``. Positions
    compare equal when stones and side to move agree, however they were reached.
    """

    __slots__ = (
        "_blue",
        "_end",
        "_filled",
        "_last",
        "_parent",
        "_ply",
        "_red",
        "_rules",
        "_turn",
    )

    _blue: int
    _red: int
    _turn: int
    _ply: int
    _rules: Rules
    _parent: Position | None
    _last: Move | None
    _filled: int
    _end: Outcome | None

    def __init__(self) -> None:
        raise TypeError("use Position.start(), Position.replay() or Position.from_text()")

    # Construction ----------------------------------------------------------------------

    @classmethod
    def _make(cls, blue: int, red: int, turn: int, rules: Rules | None) -> Position:
        pos = object.__new__(cls)
        pos._blue, pos._red, pos._turn = blue, red, turn
        pos._rules = rules if rules is not None else Rules()
        pos._ply = 0
        pos._parent = None
        pos._last = None
        pos._filled = 0
        # A full board is a finished game, which the side to move has lost.
        pos._end = Outcome(WORDS[1 - turn], END_BOARD_FULL) if blue | red == FULL else None
        return pos

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The empty board, blue to move."""
        return cls._make(0, 0, 0, rules)

    @classmethod
    def replay(
        cls,
        rules: Rules | Iterable[Move | str] | str | None = None,
        record: Iterable[Move | str] | str | None = None,
        start: Position | None = None,
    ) -> Position:
        """Play a record (notation strings or moves) from the start, or from ``start``:
        ``Position.replay(rules, record)`` or ``Position.replay(record)``. A record given
        as one string is split at commas, semicolons and line ends, never at spaces:
        ``"B2 E5"`` is the slide B2-E5 (``split_moves`` reads a whole record's text).

        Raises ``InvalidMoveError``/``IllegalMoveError`` naming the move number that failed.
        """
        if record is None and not isinstance(rules, Rules | None):
            rules, record = None, rules
        pos = start if start is not None else cls.start(rules)
        if isinstance(record, str):
            record = [part for part in re.split(r"[,;\n]", record) if part.strip()]
        for number, move in enumerate(record or (), start=1):
            try:
                pos = pos.play(move)
            except MoveError as exc:
                raise type(exc)(f"move {number}: {exc}") from exc
        return pos

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """Set up the position that position text describes (docs/SEVEN-FOUR.md,
        "Position text"). A full board is a finished game, which the side to move lost.

        Raises ``InvalidPositionError`` for malformed text, and for a board no game
        reaches: stones are never taken and blue moves first, so red has no stone
        before blue has one, blue's turn comes back only once red has moved, and the
        empty board is blue's to move.
        """
        found = read_position_text(text)
        if found.error:
            raise InvalidPositionError(found.error)
        blue = red = 0
        for square, char in enumerate(found.board):
            if char == STONE_CHARS[0]:
                blue |= 1 << square
            elif char == STONE_CHARS[1]:
                red |= 1 << square
        turn = SIDE_CHARS.index(found.side)
        if not blue and (red or turn):
            raise InvalidPositionError("blue moves first: red cannot have moved before blue has")
        if blue and not red and not turn:
            raise InvalidPositionError("blue has moved and red has not: it is red's turn")
        return cls._make(blue, red, turn, rules)

    # Reading the position ----------------------------------------------------------

    # ``rules``, ``turn``, ``ply``, ``last_move``, ``history`` and ``record`` are
    # PositionBase's.

    @property
    def stones(self) -> tuple[int, int]:
        """Blue's and red's stones, as bitboards (bit ``row * 10 + column``)."""
        return self._blue, self._red

    @property
    def last_played(self) -> Played | None:
        """The last move of ``history``, or None when it is empty."""
        if self._parent is None:
            return None
        return Played(COLORS[self._parent._turn], self._last, str(self._last))

    @property
    def last_filled(self) -> tuple[int, ...]:
        """The squares the last move filled around its landing square (none for a drop)."""
        return tuple(squares_of(self._filled))

    def stone_at(self, square: str | int) -> Color | None:
        """The seat whose stone is on ``square`` (``Color.DARK`` blue), or None if empty.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        at = parse_square(square.strip()) if isinstance(square, str) else square
        if self._blue >> at & 1:
            return Color.DARK
        if self._red >> at & 1:
            return Color.LIGHT
        return None

    def board(self) -> tuple[Color | None, ...]:
        """Every square's stone, ``A1`` to ``J10``, as ``stone_at`` gives it."""
        return tuple(self.stone_at(square) for square in BOARD.cells)

    def score(self) -> Score:
        """Each side's stones on the board."""
        return Score(self._blue.bit_count(), self._red.bit_count())

    def lone(self, color: Color | str | None = None) -> tuple[int, ...]:
        """The squares of the lone stones of ``color`` (the side to move by default):
        those no stone of their own colour touches, which alone may slide."""
        seat = self._turn if color is None else COLORS.index(Color(color))
        return tuple(squares_of(lone_stones((self._blue, self._red)[seat])))

    # Moves -----------------------------------------------------------------------

    def landings(self, square: str | int) -> tuple[int, ...]:
        """The squares the stone on ``square`` may slide to now, in square order: none
        when it is not a lone stone of the side to move, or the game is over."""
        origin = parse_square(square.strip()) if isinstance(square, str) else square
        own = self._red if self._turn else self._blue
        if self._end is not None or not lone_stones(own) >> origin & 1:
            return ()
        return tuple(squares_of(landings(origin, own, self._blue | self._red)))

    def moves(self) -> list[Move]:
        """Every move the side to move may play, drops first, in no promised order
        (the search's list; ``legal_moves`` sorts it); [] once the game is over."""
        if self._end is not None:
            return []
        occupied = self._blue | self._red
        moves = [DROPS[square] for square in _SQUARES if not occupied >> square & 1]
        own = self._red if self._turn else self._blue
        lone = lone_stones(own)
        if lone & (lone - 1):  # a slide needs two lone stones
            rest = lone
            while rest:
                low = rest & -rest
                rest ^= low
                origin = low.bit_length() - 1
                near = neighbours(lone ^ low)
                row = SLIDES[origin]
                for ray in RAYS[origin]:
                    for target in ray:
                        if occupied >> target & 1:
                            break
                        if near >> target & 1:
                            moves.append(row[target])
        return moves

    def legal_moves(self) -> list[Move]:
        """Every move the side to move may play, in the order of their texts (``sorted()``:
        ``A10`` before ``A2``, as the rule book lists them); [] once the game is over."""
        moves = self.moves()
        moves.sort(key=ORDER.__getitem__)
        return moves

    @property
    def is_over(self) -> bool:
        """True once the board is full."""
        return self._end is not None

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a move may not be played now, in a player's words, or None if it may.

        Raises ``InvalidMoveError`` for text that is not a move.
        """
        if not isinstance(move, Move):
            move = parse_move(move)
        if self._end is not None:
            return "the game is over"
        target, origin = move
        goal = NAMES[target]
        occupied = self._blue | self._red
        if origin is None:
            return f"{goal} is taken" if occupied >> target & 1 else None
        name = NAMES[origin]
        own, other = (self._red, self._blue) if self._turn else (self._blue, self._red)
        who, whose = WORDS[self._turn], WORDS[1 - self._turn]
        if not occupied >> origin & 1:
            return f"there is no stone on {name}"
        if other >> origin & 1:
            return f"the stone on {name} is {whose}: {who} is to move"
        if not lone_stones(own) >> origin & 1:
            return f"the {who} stone on {name} touches another {who} stone, so it cannot slide"
        if origin == target:
            return f"{name}-{goal} does not move"
        ray = next((ray for ray in RAYS[origin] if target in ray), None)
        if ray is None:
            return f"{goal} is not on a line from {name}: a stone slides like a queen"
        if occupied >> target & 1:
            return f"{goal} is taken"
        blocked = next((square for square in ray if occupied >> square & 1), None)
        if blocked is not None and ray.index(blocked) < ray.index(target):
            return f"{name} cannot slide over {NAMES[blocked]}"
        if not landings(origin, own, occupied) >> target & 1:
            return f"no lone {who} stone is next to {goal}, other than the one on {name}"
        return None

    # Playing -----------------------------------------------------------------------

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or notation text); this one is unchanged.

        Raises ``InvalidMoveError`` for text that is not a move and ``IllegalMoveError``
        (saying why) for a move the rules forbid here.
        """
        if move.__class__ is not Move:
            move = parse_move(move)
        target, origin = move
        turn = self._turn
        blue, red = self._blue, self._red
        occupied = blue | red
        own = red if turn else blue
        target_bit = 1 << target
        filled = 0
        if self._end is not None or occupied & target_bit:
            raise IllegalMoveError(f"illegal move {str(move)!r}: {self.why_illegal(move)}")
        if origin is None:
            own |= target_bit
        else:
            origin_bit = 1 << origin
            if not (lone_stones(own) & origin_bit and landings(origin, own, occupied) & target_bit):
                raise IllegalMoveError(f"illegal move {str(move)!r}: {self.why_illegal(move)}")
            # Every empty square around the landing square fills, the one just left too.
            filled = NEIGHBOURS[target] & ~(occupied ^ origin_bit)
            own = own ^ origin_bit | target_bit | filled
        child = object.__new__(Position)
        if turn:
            child._blue, child._red = blue, own
        else:
            child._blue, child._red = own, red
        child._turn = 1 - turn
        child._ply = self._ply + 1
        child._rules = self._rules
        child._parent = self
        child._last = move
        child._filled = filled
        # Whoever fills the last square wins: the side to move then has no move.
        child._end = (
            Outcome(WORDS[turn], END_BOARD_FULL) if child._blue | child._red == FULL else None
        )
        return child

    # Result ----------------------------------------------------------------------------

    @property
    def result(self) -> str | None:
        """``"blue"`` or ``"red"`` once the game is over, else None."""
        return self._end.result if self._end is not None else None

    @property
    def winner(self) -> Color | None:
        """The seat that won (``Color.DARK`` blue), or None while the game runs."""
        return self._end.winner if self._end is not None else None

    def outcome(self) -> Outcome | None:
        """How the rules ended the game (``Outcome("blue", "board-full")``), or None."""
        return self._end

    # Text ------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of docs/SEVEN-FOUR.md: ten rows of ``B``, ``R`` and ``.``,
        top to bottom, separated by ``/``, then ``b`` or ``r``."""
        blue, red = self._blue, self._red
        chars = [
            "B" if blue >> square & 1 else "R" if red >> square & 1 else "."
            for square in BOARD.cells
        ]
        return write_position_text("".join(chars), SIDE_CHARS[self._turn])

    def _key(self) -> tuple[object, ...]:
        return (self._rules, self._blue, self._red, self._turn)
