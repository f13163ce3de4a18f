"""The rules of Moai: two placements, then turns of a counter and a Moai's move, on
the cornerless 8×8 board or the 91-cell hexagon.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by the computer players without Django. ``docs/MOAI.md`` is the rule book this
module implements; the shape of a position (``start``, ``play``, ``legal_moves``,
``record``, ``outcome()``) is every game's (``game.surface``).

The position is a bitboard of the counters (bit = the cell's number in reading
order) and the two Moai's cells. A turn is found from each Moai's rays: the
counter goes on any empty cell of a ray, the Moai then goes straight along that
line (away from the counter, or toward it but short of it) or, from a row or a
column (any line on the hexagon), runs along it and ends with one step turned
45° (60°).

Typical use::

    pos = Position.start()
    pos = pos.play("D4").play("E5")
    str(pos.legal_moves()[0])   # the turns come in the order of their texts
    pos.play("D8:D4-D6")        # the counter on D8, the white Moai pushed to D6
    pos.outcome()               # None: the game goes on
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.moai.notation import (
    BOARDS,
    COUNTER_CHAR,
    EMPTY_CHAR,
    MOAI_CHARS,
    SIDE_CHARS,
    Geometry,
    Move,
)
from game.moai.turns import can_move, is_turn, turns
from game.options import Choice, OnOff, Options
from game.sides import Sides
from game.surface import (
    Color,
    IllegalMoveError,
    InvalidPositionError,
    MoveError,
    PositionBase,
)
from game.surface import Outcome as SurfaceOutcome

__all__ = [
    "END_MOAI_STUCK",
    "ENDS",
    "SIDES",
    "WORDS",
    "Outcome",
    "Position",
    "Rules",
    "Score",
    "can_move",
    "is_turn",
    "turns",
]

# White moves first; nobody ever draws, but the site asks every kind for the word.
SIDES = Sides(
    first="White",
    second="Black",
    no_winner="draw",
    first_image="moai/white.svg",
    second_image="moai/black.svg",
)
# The sides inside a sentence, white then black (the seats dark then light).
WORDS = ("white", "black")

# How a game ends by its rules (``Outcome.reason``): the only way, and in words.
END_MOAI_STUCK = "moai-stuck"
ENDS = {END_MOAI_STUCK: "Moai stuck"}


class Outcome(SurfaceOutcome):
    """How a game ended: ``("white", "moai-stuck")`` or ``("black", "moai-stuck")``."""

    __slots__ = ()
    FIRST, SECOND = WORDS


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game of Moai: its board, ``"square"`` (8×8 without its
    corners, the default) or ``"hex"`` (the 91-cell hexagon).

    Raises ``ValueError`` for any other board.
    """

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = (
        Choice(
            "board",
            "Board",
            "Board",
            "square",
            (("square", "Square, corners cut"), ("hex", "Hexagon")),
            ("s", "h"),
        ),
    )

    board: str = "square"

    def __post_init__(self) -> None:
        if self.board not in BOARDS:
            raise ValueError(f"board must be 'square' or 'hex', not {self.board!r}")

    @property
    def geometry(self) -> Geometry:
        """The board's cells, lines and moves."""
        return BOARDS[self.board]

    @property
    def summary(self) -> str:
        """The rules in a few words: "Square board" or "Hex board"."""
        return "Hex board" if self.board == "hex" else "Square board"


class Score(NamedTuple):
    """How many turns each Moai has now, what the game is about (a Moai with none to
    move is stuck); ``str(score)`` is ``White: 30 turns, Black: 4 turns``."""

    white: int
    black: int

    def __str__(self) -> str:
        return f"White: {self.white} turns, Black: {self.black} turns"


# --- Position ----------------------------------------------------------------------------


class Position(PositionBase):
    """A moment of a game: the counters, where each Moai stands (None before it is
    placed) and the side to move.

    Immutable: ``play`` returns a new position and leaves this one as it was. Make one
    with ``Position.start``, ``Position.replay`` or ``Position.from_text``. Positions
    compare equal when board, pieces and side to move agree, however they were reached.
    """

    __slots__ = (
        "_counters",
        "_end",
        "_geo",
        "_last",
        "_moai",
        "_parent",
        "_ply",
        "_rules",
        "_turn",
    )

    _counters: int
    _moai: tuple[int | None, int | None]
    _turn: int
    _ply: int
    _rules: Rules
    _geo: Geometry
    _parent: Position | None
    _last: Move | None
    _end: Outcome | None

    def __init__(self) -> None:
        raise TypeError("use Position.start(), Position.replay() or Position.from_text()")

    # Construction ----------------------------------------------------------------------

    @classmethod
    def _make(
        cls,
        counters: int,
        moai: tuple[int | None, int | None],
        turn: int,
        rules: Rules,
        parent: Position | None = None,
        last: Move | None = None,
    ) -> Position:
        pos = object.__new__(cls)
        pos._counters = counters
        pos._moai = moai
        pos._turn = turn
        pos._rules = rules
        pos._geo = rules.geometry
        pos._parent = parent
        pos._last = last
        pos._ply = parent._ply + 1 if parent is not None else 0
        pos._end = None
        own, other = moai[turn], moai[1 - turn]
        if own is not None and other is not None:
            occupied = counters | 1 << own | 1 << other
            # The side to move loses when his own Moai has no whole turn.
            if not can_move(pos._geo, own, occupied):
                pos._end = Outcome(WORDS[1 - turn], END_MOAI_STUCK)
        return pos

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The empty board, white to place his Moai."""
        return cls._make(0, (None, None), 0, rules if rules is not None else Rules())

    @classmethod
    def replay(
        cls,
        rules: Rules | Iterable[Move | str] | str | None = None,
        record: Iterable[Move | str] | str | None = None,
        start: Position | None = None,
    ) -> Position:
        """Play a record (notation strings or moves) from the start, or from ``start``:
        ``Position.replay(rules, record)`` or ``Position.replay(record)``. A record given
        as one string is read by ``split_moves`` (spaces, commas, lines between moves).

        Raises ``InvalidMoveError``/``IllegalMoveError`` naming the move number that failed.
        """
        if record is None and not isinstance(rules, Rules | None):
            rules, record = None, rules
        pos = start if start is not None else cls.start(rules)
        if isinstance(record, str):
            record = pos._geo.split_moves(record)
        for number, move in enumerate(record or (), start=1):
            try:
                pos = pos.play(move)
            except MoveError as exc:
                raise type(exc)(f"move {number}: {exc}") from exc
        return pos

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """Set up the position that position text describes (docs/MOAI.md, "Position
        text"). A side to move whose Moai is stuck has lost.

        Raises ``InvalidPositionError`` for malformed text, and for a position no game
        reaches: white places first, so no black Moai without a white one; counters
        come only after both Moai; each turn adds one counter, so the side to move
        follows from their number.
        """
        rules = rules if rules is not None else Rules()
        geo = rules.geometry
        found = geo.read(text)
        if found.error:
            raise InvalidPositionError(found.error)
        counters = 0
        moai: list[int | None] = [None, None]
        for cell, char in enumerate(found.cells):
            if char == COUNTER_CHAR:
                counters |= 1 << cell
            elif char in MOAI_CHARS:
                seat = MOAI_CHARS.index(char)
                if moai[seat] is not None:
                    raise InvalidPositionError(f"there is one {WORDS[seat]} Moai, not two")
                moai[seat] = cell
        turn = SIDE_CHARS.index(found.side)
        white, black = moai
        if white is None:
            if black is not None:
                raise InvalidPositionError("white places first: no black Moai before the white")
            if counters:
                raise InvalidPositionError("counters come only after both Moai are placed")
            if turn:
                raise InvalidPositionError("on the empty board white is to move")
        elif black is None:
            if counters:
                raise InvalidPositionError("counters come only after both Moai are placed")
            if not turn:
                raise InvalidPositionError("white has placed his Moai: black is to move")
        elif counters.bit_count() % 2 != turn:
            down = counters.bit_count()
            raise InvalidPositionError(
                f"with {down} counter{'s' * (down != 1)} down it is {WORDS[down % 2]}'s turn"
            )
        return cls._make(counters, (white, black), turn, rules)

    # Reading the position ----------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        """The board this game is played on, with its lines."""
        return self._geo

    @property
    def counters(self) -> int:
        """The counters, as a bitboard (bit = the cell's number in reading order)."""
        return self._counters

    @property
    def moai(self) -> tuple[int | None, int | None]:
        """The cells of the white and the black Moai, None before one is placed."""
        return self._moai

    def piece_at(self, square: str | int) -> str | None:
        """What stands on ``square``: ``"W"`` or ``"B"`` (a Moai), ``"o"`` (a counter)
        or None.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        cell = self._geo.parse_square(square) if isinstance(square, str) else square
        if self._moai[0] == cell:
            return MOAI_CHARS[0]
        if self._moai[1] == cell:
            return MOAI_CHARS[1]
        return COUNTER_CHAR if self._counters >> cell & 1 else None

    @property
    def occupied(self) -> int:
        """Every cell a counter or a Moai stands on, as a bitboard."""
        occupied = self._counters
        for cell in self._moai:
            if cell is not None:
                occupied |= 1 << cell
        return occupied

    def score(self) -> Score:
        """Each Moai's turns now (none before it is placed)."""
        occupied = self.occupied
        counts = [
            0 if cell is None else len(turns(self._geo, cell, occupied)) for cell in self._moai
        ]
        return Score(counts[0], counts[1])

    # Moves -----------------------------------------------------------------------

    @property
    def is_placing(self) -> bool:
        """True while a Moai is still to be placed (the first two plies)."""
        return self._moai[self._turn] is None

    def counter_cells(self) -> tuple[int, ...]:
        """The cells where a counter may go now, in cell order: those in line with
        a Moai from which it may then move; none while placing or once over."""
        return tuple(sorted({move.counter for move in self.moves()} - {None}))

    def moves(self) -> list[Move]:
        """Every move the side to move may play, in no promised order (the search's
        list; ``legal_moves`` sorts it); [] once the game is over."""
        if self._end is not None:
            return []
        geo = self._geo
        white, black = self._moai
        if self._moai[self._turn] is None:
            taken = -1 if white is None else white
            return [move for move in geo.placements if move.target != taken]
        occupied = self._counters | 1 << white | 1 << black
        return turns(geo, white, occupied) + turns(geo, black, occupied)

    def legal_moves(self) -> list[Move]:
        """Every move the side to move may play, in the order of their texts (plain
        ``sorted()``, as the rule book's figures need); [] once the game is over."""
        moves = self.moves()
        moves.sort()
        return moves

    @property
    def is_over(self) -> bool:
        """True once the side to move's Moai is stuck."""
        return self._end is not None

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a move may not be played now, in a player's words, or None if it may.

        Raises ``InvalidMoveError`` for text that is not a move.
        """
        geo = self._geo
        if not isinstance(move, Move):
            move = geo.parse_move(move)
        if self._end is not None:
            return "the game is over"
        names = geo.names
        occupied = self.occupied
        target = move.target
        who = WORDS[self._turn]
        if self.is_placing:
            if move.origin is not None:
                return f"{who} places his Moai first: write only its square"
            if occupied >> target & 1:
                return f"{names[target]} is taken"
            return None
        if move.origin is None:
            return "a turn puts a counter, then moves a Moai: write it like D8:D4-D6"
        counter, origin = move.counter, move.origin
        if origin not in self._moai:
            return f"there is no Moai on {names[origin]}"
        whose = WORDS[self._moai.index(origin)]
        if occupied >> counter & 1:
            return f"the counter cannot go on {names[counter]}: it is taken"
        if not geo.lines[origin] >> counter & 1:
            return f"{names[counter]} is not in line with the {whose} Moai on {names[origin]}"
        if origin == target:
            return f"the {whose} Moai must move"
        if is_turn(geo, counter, origin, target, occupied):
            return None
        d = next(d for d, mask in enumerate(geo.ray_masks[origin]) if mask >> counter & 1)
        line = geo.rays[origin][d] + geo.rays[origin][geo.opposite[d]]
        after = occupied | 1 << counter
        if target in line:
            ray = geo.rays[origin][d] if target in geo.rays[origin][d] else None
            ray = ray or geo.rays[origin][geo.opposite[d]]
            for cell in ray:
                if cell == target:
                    break
                if after >> cell & 1:
                    return f"the Moai cannot pass {names[cell]}"
            return f"{names[target]} is taken"
        if not geo.turns[d]:
            return (
                f"{names[target]} is off the line from {names[counter]}: a counter on a "
                "diagonal allows straight moves only"
            )
        if occupied >> target & 1:
            return f"{names[target]} is taken"
        return (
            f"the Moai cannot reach {names[target]}: it goes straight along the line "
            f"through {names[counter]}, or runs along it and turns one step aside"
        )

    # Playing -----------------------------------------------------------------------

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or notation text); this one is unchanged.

        Raises ``InvalidMoveError`` for text that is not a move and ``IllegalMoveError``
        (saying why) for a move the rules forbid here.
        """
        geo = self._geo
        if move.__class__ is not Move:
            move = geo.parse_move(move)
        elif not geo.interned(move):
            # A move made for another board is read again by its text on this one.
            move = geo.parse_move(move.text)
        turn = self._turn
        moai = self._moai
        if self._end is not None:
            raise IllegalMoveError(f"illegal move {move.text!r}: the game is over")
        if moai[turn] is None:
            if move.origin is not None or moai[0] == move.target:
                raise IllegalMoveError(f"illegal move {move.text!r}: {self.why_illegal(move)}")
            placed = (move.target, None) if turn == 0 else (moai[0], move.target)
            return Position._make(0, placed, 1 - turn, self._rules, self, move)
        origin = move.origin
        if origin is None or origin not in moai:
            raise IllegalMoveError(f"illegal move {move.text!r}: {self.why_illegal(move)}")
        occupied = self._counters | 1 << moai[0] | 1 << moai[1]
        if not is_turn(geo, move.counter, origin, move.target, occupied):
            raise IllegalMoveError(f"illegal move {move.text!r}: {self.why_illegal(move)}")
        return self._after(move)

    def _after(self, move: Move) -> Position:
        """The position after a turn already known to be legal."""
        white, black = self._moai
        placed = (move.target, black) if move.origin == white else (white, move.target)
        counters = self._counters | 1 << move.counter
        return Position._make(counters, placed, 1 - self._turn, self._rules, self, move)

    def play_unchecked(self, move: Move) -> Position:
        """The position after ``move``, one of ``moves()``, without checking it again
        (the search's and the random games' fast path)."""
        if move.origin is None:
            turn = self._turn
            placed = (move.target, None) if turn == 0 else (self._moai[0], move.target)
            return Position._make(0, placed, 1 - turn, self._rules, self, move)
        return self._after(move)

    # Result ----------------------------------------------------------------------------

    @property
    def result(self) -> str | None:
        """``"white"`` or ``"black"`` once the game is over, else None."""
        return self._end.result if self._end is not None else None

    @property
    def winner(self) -> Color | None:
        """The seat that won (``Color.DARK`` white), or None while the game runs."""
        return self._end.winner if self._end is not None else None

    def outcome(self) -> Outcome | None:
        """How the rules ended the game (``Outcome("white", "moai-stuck")``), or None."""
        return self._end

    # Text ------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of docs/MOAI.md: the rows top to bottom, separated by
        ``/`` (``#`` a missing corner, ``.`` empty, ``o`` a counter, ``W`` and ``B``
        the Moai), then ``w`` or ``b``."""
        chars = [
            COUNTER_CHAR if self._counters >> cell & 1 else EMPTY_CHAR
            for cell in range(self._geo.size)
        ]
        for seat, cell in enumerate(self._moai):
            if cell is not None:
                chars[cell] = MOAI_CHARS[seat]
        return self._geo.write(chars, SIDE_CHARS[self._turn])

    def _key(self) -> tuple[object, ...]:
        return (self._rules, self._counters, self._moai, self._turn)
