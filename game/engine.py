"""The rules of Mǽrstánas: board, hinge limits, special stones, scoring, notation.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by bots without Django. ``docs/RULES.md`` is the rule book this module
implements; its vocabulary is used throughout.

The board is a 7×7 grid stored as bitboards: one ``int`` per colour and one per
special stone kind, bit ``row * 7 + column`` for a square (``A1`` is bit 0, ``G7``
bit 48). Legal squares are found with a handful of shifts and masks, and every
``Move`` and ``Square`` is interned, so random playouts stay fast.

Typical use::

    pos = Position.start()
    pos = pos.play("D4").play("T E4")
    pos.score()            # Score(dark=0, light=0)
    pos.record             # ('D4', 'T E4xD4')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

__all__ = [
    "PASS",
    "SQUARES",
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "MoveError",
    "Played",
    "Position",
    "Rules",
    "Score",
    "Square",
    "Stone",
    "format_move",
    "move_of",
    "parse_move",
    "parse_square",
]

SIZE = 7
NUM_SQUARES = SIZE * SIZE
COLUMNS = "ABCDEFG"


# --- Errors --------------------------------------------------------------------


class MoveError(ValueError):
    """A move that cannot be played: unreadable text or against the rules."""


class InvalidMoveError(MoveError):
    """Text that is not a move in the rules' notation (``'Z9'``, ``'T'``, ``''``)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(ValueError):
    """Position text that does not describe a possible position."""


# --- Value types -----------------------------------------------------------------


class Color(StrEnum):
    """A side of the game. Dark moves first."""

    DARK = "dark"
    LIGHT = "light"

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.LIGHT if self is Color.DARK else Color.DARK


class Stone(StrEnum):
    """The kind of stone a move puts on the board."""

    STONE = "stone"
    THUNDER = "thunder"
    WODEN = "woden"


SCORINGS = ("standard", "simple")


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of a game (RULES.md, "Options of a game").

    Raises ``ValueError`` when ``scoring`` is not ``"standard"`` or ``"simple"``, or
    when an on/off option is not a bool.
    """

    special_stones: bool = True
    scoring: str = "standard"
    wraparound: bool = False

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be 'standard' or 'simple', not {self.scoring!r}")
        for name in ("special_stones", "wraparound"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")


class Square(int):
    """A square of the board: an ``int`` 0..48 (row-major from A1) that prints as ``E4``.

    Use ``parse_square("E4")`` or ``SQUARES[index]``; both return interned squares.
    """

    __slots__ = ()

    @property
    def column(self) -> int:
        """0 for column A … 6 for column G."""
        return self % SIZE

    @property
    def row(self) -> int:
        """0 for row 1 … 6 for row 7."""
        return self // SIZE

    def __str__(self) -> str:
        return _NAMES[self]

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)

    def __repr__(self) -> str:
        return f"Square({_NAMES[self]!r})"


_NAMES = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(NUM_SQUARES))
SQUARES = tuple(Square(i) for i in range(NUM_SQUARES))
_SQUARE_BY_NAME = {name: SQUARES[i] for i, name in enumerate(_NAMES)}

_STONE_PREFIX = {Stone.STONE: "", Stone.THUNDER: "T ", Stone.WODEN: "W "}


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a stone of some kind on a square, or a pass (``stone`` and ``square`` None).

    ``str(move)`` is the notation (``E4``, ``T E4``, ``W E4``, ``Pass``). Raises
    ``InvalidMoveError`` for a square outside 0..48 or half a pass.
    """

    stone: Stone | None
    square: int | None

    def __post_init__(self) -> None:
        if (self.stone is None) != (self.square is None):
            raise InvalidMoveError("a pass has neither stone nor square; a placement has both")
        if self.stone is not None and (
            not isinstance(self.square, int) or not 0 <= self.square < NUM_SQUARES
        ):
            raise InvalidMoveError(f"{self.square!r} is not a square: squares run 0 to 48")

    @property
    def is_pass(self) -> bool:
        """True for the pass."""
        return self.stone is None

    def __str__(self) -> str:
        return format_move(self)

    def __repr__(self) -> str:
        return f"Move({format_move(self)!r})"


PASS = Move(None, None)
_STONE_MOVES = tuple(Move(Stone.STONE, sq) for sq in SQUARES)
_THUNDER_MOVES = tuple(Move(Stone.THUNDER, sq) for sq in SQUARES)
_WODEN_MOVES = tuple(Move(Stone.WODEN, sq) for sq in SQUARES)
_MOVES_OF = {Stone.STONE: _STONE_MOVES, Stone.THUNDER: _THUNDER_MOVES, Stone.WODEN: _WODEN_MOVES}


class Played(NamedTuple):
    """One move of a game's history: who played it, the move, and its record text
    (a thunder move with its removals, ``T E4xE3/D4``)."""

    color: Color
    move: Move
    text: str


class Score(NamedTuple):
    """Points of each side; ``str(score)`` is the rules' score line ``Dark: 42, Light: 39``."""

    dark: int
    light: int

    def __str__(self) -> str:
        return f"Dark: {self.dark}, Light: {self.light}"


# --- Notation --------------------------------------------------------------------

_SQUARE_RE = r"([a-z])\s*(\d+)"
_MOVE_RE = re.compile(
    rf"(?:(?P<kind>[tw])\s*)?{_SQUARE_RE}(?:\s*x\s*(?P<removed>.*))?",
    re.IGNORECASE,
)
_REMOVED_RE = re.compile(rf"{_SQUARE_RE}(?:\s*/\s*{_SQUARE_RE})*", re.IGNORECASE)
_HINT = "write a square like E4, or T E4, W E4, Pass"


def parse_square(text: str) -> Square:
    """Read a square name such as ``E4`` (any case, spaces around ignored).

    Raises ``InvalidMoveError`` when the text is not a square of the board.
    """
    name = text.strip().upper() if isinstance(text, str) else ""
    square = _SQUARE_BY_NAME.get(name)
    if square is None:
        raise InvalidMoveError(f"{text!r} is not a square: squares run A1 to G7")
    return square


def _square_of(column: str, row: str, text: str) -> Square:
    square = _SQUARE_BY_NAME.get(f"{column.upper()}{row}")
    if square is None:
        raise InvalidMoveError(f"{text!r} is not a move: squares run A1 to G7")
    return square


def _parse(text: str) -> tuple[Move, frozenset[Square] | None]:
    """Read move text; also return the removal list of a thunder move when one is given."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"{text!r} is not a move: {_HINT}")
    move = _MOVE_BY_TEXT.get(text)  # text as the engine writes it: no regex needed
    if move is not None:
        return move, None
    stripped = text.strip()
    if stripped.lower() == "pass":
        return PASS, None
    if len(stripped) > 64:
        raise InvalidMoveError(f"{stripped[:20] + '…'!r} is not a move: {_HINT}")
    match = _MOVE_RE.fullmatch(stripped)
    if match is None:
        raise InvalidMoveError(f"{text!r} is not a move: {_HINT}")
    kind = {None: Stone.STONE, "t": Stone.THUNDER, "w": Stone.WODEN}[
        match["kind"] and match["kind"].lower()
    ]
    square = _square_of(match[2], match[3], text)
    removed_text = match["removed"]
    if removed_text is None:
        return _MOVES_OF[kind][square], None
    if kind is not Stone.THUNDER:
        raise InvalidMoveError(f"{text!r} is not a move: only a thunder-stone removes stones")
    if _REMOVED_RE.fullmatch(removed_text) is None:
        raise InvalidMoveError(
            f"{text!r} is not a move: write the removed stones as squares separated by /"
        )
    names = re.findall(_SQUARE_RE, removed_text, re.IGNORECASE)
    removed = [_square_of(column, row, text) for column, row in names]
    if len(set(removed)) != len(removed):
        raise InvalidMoveError(f"{text!r} is not a move: a removed square is listed twice")
    return _THUNDER_MOVES[square], frozenset(removed)


def parse_move(text: str) -> Move:
    """Read a move in the rules' notation: ``E4``, ``T E4``, ``T E4xE3/D4``, ``W E4``, ``Pass``.

    Forgiving: any case, extra spaces, and a thunder move with or without its removal
    list (the list is checked against the position when the move is played).
    Raises ``InvalidMoveError`` for text that is not a move.
    """
    return _parse(text)[0]


def move_of(stone: Stone | str, square: str | int) -> Move:
    """The (interned) move putting ``stone`` on ``square``; no text to parse.

    Raises ``InvalidMoveError`` for a square off the board and ``ValueError`` for an
    unknown stone kind.
    """
    return _MOVES_OF[Stone(stone)][_to_square(square)]


def format_move(move: Move) -> str:
    """The notation of a move: ``E4``, ``T E4``, ``W E4`` or ``Pass``."""
    if move.stone is None:
        return "Pass"
    return _STONE_PREFIX[move.stone] + _NAMES[move.square]


_MOVE_BY_TEXT = {
    format_move(move): move for move in (PASS, *_STONE_MOVES, *_THUNDER_MOVES, *_WODEN_MOVES)
}


# --- Geometry ------------------------------------------------------------------

FULL = (1 << NUM_SQUARES) - 1
ROW_1 = (1 << SIZE) - 1
ROW_7 = ROW_1 << (SIZE * (SIZE - 1))
COL_A = sum(1 << (r * SIZE) for r in range(SIZE))
COL_G = COL_A << (SIZE - 1)
NOT_A = FULL ^ COL_A
NOT_G = FULL ^ COL_G
_WRAP_SHIFT = SIZE * (SIZE - 1)  # 42: from row 1 to row 7


def _neighbours(square: int, wraparound: bool) -> tuple[Square, ...]:
    """Neighbours in the rules' order: north, west, east, south (off-board ones left out)."""
    row, col = divmod(square, SIZE)
    steps = ((-1, 0), (0, -1), (0, 1), (1, 0))
    found = []
    for dr, dc in steps:
        r, c = row + dr, col + dc
        if wraparound:
            r, c = r % SIZE, c % SIZE
        elif not (0 <= r < SIZE and 0 <= c < SIZE):
            continue
        found.append(SQUARES[r * SIZE + c])
    return tuple(found)


class _Geometry:
    """Neighbour tables of one board shape (flat or wraparound), computed once."""

    __slots__ = ("edge_sides", "neighbour_masks", "neighbours", "open_squares", "wraparound")

    def __init__(self, wraparound: bool) -> None:
        self.wraparound = wraparound
        self.neighbours = tuple(_neighbours(sq, wraparound) for sq in range(NUM_SQUARES))
        self.neighbour_masks = tuple(sum(1 << n for n in near) for near in self.neighbours)
        # A side on the board's edge is a hinge; a corner has two such sides.
        self.edge_sides = tuple(4 - len(near) for near in self.neighbours)
        self.open_squares = _open_squares_wrap if wraparound else _open_squares_flat


def _open_squares_flat(occupied: int) -> int:
    """Empty squares where a normal stone may go on the flat board.

    A side is hinged when the neighbour across it is occupied or it is an edge; a
    square is closed when all four of its sides are hinged, or when a neighbouring
    stone already has three hinges and would get a fourth.
    """
    north = ((occupied << SIZE) & FULL) | ROW_1
    south = (occupied >> SIZE) | ROW_7
    west = ((occupied << 1) & NOT_A) | COL_A
    east = ((occupied >> 1) & NOT_G) | COL_G
    north_south = north & south
    west_east = west & east
    full = (north_south & (west | east)) | (west_east & (north | south))
    saturated = occupied & full
    closed = occupied | (north_south & west_east)
    if saturated:
        closed |= (
            ((saturated << SIZE) & FULL)
            | (saturated >> SIZE)
            | ((saturated << 1) & NOT_A)
            | ((saturated >> 1) & NOT_G)
        )
    return FULL & ~closed


def _open_squares_wrap(occupied: int) -> int:
    """Empty squares where a normal stone may go on the wraparound (torus) board."""
    north = ((occupied << SIZE) | (occupied >> _WRAP_SHIFT)) & FULL
    south = (occupied >> SIZE) | ((occupied & ROW_1) << _WRAP_SHIFT)
    west = ((occupied << 1) & NOT_A) | ((occupied >> (SIZE - 1)) & COL_A)
    east = ((occupied >> 1) & NOT_G) | ((occupied << (SIZE - 1)) & COL_G)
    north_south = north & south
    west_east = west & east
    full = (north_south & (west | east)) | (west_east & (north | south))
    saturated = occupied & full
    closed = occupied | (north_south & west_east)
    if saturated:
        closed |= (
            ((saturated << SIZE) | (saturated >> _WRAP_SHIFT)) & FULL
            | (saturated >> SIZE)
            | ((saturated & ROW_1) << _WRAP_SHIFT)
            | ((saturated << 1) & NOT_A)
            | ((saturated >> (SIZE - 1)) & COL_A)
            | ((saturated >> 1) & NOT_G)
            | ((saturated << (SIZE - 1)) & COL_G)
        )
    return FULL & ~closed


_FLAT = _Geometry(wraparound=False)
_WRAP = _Geometry(wraparound=True)


def _points(stones: int, rules: Rules) -> int:
    """Friendly hinges of one side's stones: adjacent pairs once each, plus scoring edges."""
    points = (stones & (stones >> 1) & NOT_G).bit_count() + (stones & (stones >> SIZE)).bit_count()
    if rules.wraparound:
        points += (stones & (stones >> (SIZE - 1)) & COL_A).bit_count()
        points += (stones & (stones >> _WRAP_SHIFT)).bit_count()
    elif rules.scoring == "standard":
        points += (
            (stones & ROW_1).bit_count()
            + (stones & ROW_7).bit_count()
            + (stones & COL_A).bit_count()
            + (stones & COL_G).bit_count()
        )
    return points


def _lister(moves: tuple[Move, ...]) -> Callable[[int], list[Move]]:
    """A function listing the moves of a mask's set bits, seven squares (a row) at a time."""
    r0, r1, r2, r3, r4, r5, r6 = (
        tuple(
            tuple(moves[row * SIZE + c] for c in range(SIZE) if bits >> c & 1)
            for bits in range(1 << SIZE)
        )
        for row in range(SIZE)
    )

    def list_moves(mask: int) -> list[Move]:
        return [
            *r0[mask & 127],
            *r1[mask >> 7 & 127],
            *r2[mask >> 14 & 127],
            *r3[mask >> 21 & 127],
            *r4[mask >> 28 & 127],
            *r5[mask >> 35 & 127],
            *r6[mask >> 42],
        ]

    return list_moves


_list_stones = _lister(_STONE_MOVES)
_list_thunders = _lister(_THUNDER_MOVES)
_list_wodens = _lister(_WODEN_MOVES)


# Special stones in hand, one bit each: dark T, dark W, light T, light W.
_THUNDER_BIT = (1, 4)
_WODEN_BIT = (2, 8)
_HAND_LETTERS = ((1, "T"), (2, "W"), (4, "t"), (8, "w"))
_ALL_SPECIALS = 15

_PLAYING, _MUST_PASS, _OVER = 0, 1, 2
_STONE, _THUNDER, _WODEN = Stone.STONE, Stone.THUNDER, Stone.WODEN
_COLORS = (Color.DARK, Color.LIGHT)


# --- Position ------------------------------------------------------------------


class Position:
    """A moment of a game: the board, the side to move, the special stones in hand.

    Immutable: ``play`` returns a new position and leaves this one as it was. Make
    one with ``Position.start``, ``Position.replay`` or ``Position.from_text``.
    Positions compare equal when board, side to move, stones in hand and rules
    agree, however they were reached.
    """

    __slots__ = (
        "_dark",
        "_geometry",
        "_hand",
        "_last",
        "_legal",
        "_light",
        "_parent",
        "_ply",
        "_removed",
        "_rules",
        "_thunder",
        "_turn",
        "_woden",
    )

    _dark: int
    _light: int
    _thunder: int
    _woden: int
    _turn: int
    _hand: int
    _rules: Rules
    _geometry: _Geometry
    _parent: Position | None
    _last: Move | None
    _removed: int
    _ply: int
    _legal: tuple[int, int, int, int] | None

    def __init__(self) -> None:
        raise TypeError("use Position.start(), Position.replay() or Position.from_text()")

    # Construction ------------------------------------------------------------

    @classmethod
    def _make(
        cls,
        rules: Rules,
        dark: int,
        light: int,
        thunder: int,
        woden: int,
        turn: int,
        hand: int,
    ) -> Position:
        pos = object.__new__(cls)
        pos._rules = rules
        pos._geometry = _WRAP if rules.wraparound else _FLAT
        pos._dark = dark
        pos._light = light
        pos._thunder = thunder
        pos._woden = woden
        pos._turn = turn
        pos._hand = hand
        pos._parent = None
        pos._last = None
        pos._removed = 0
        pos._ply = 0
        pos._legal = None
        return pos

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The empty board, dark to move, each side holding its special stones if they are on."""
        rules = rules or Rules()
        return cls._make(rules, 0, 0, 0, 0, 0, _ALL_SPECIALS if rules.special_stones else 0)

    @classmethod
    def replay(
        cls, rules: Rules | None, record: Iterable[str | Move], start: Position | None = None
    ) -> Position:
        """Play a record (notation strings or moves) from the start, or from ``start``.

        Raises ``InvalidMoveError``/``IllegalMoveError`` naming the move number that failed.
        """
        pos = start if start is not None else cls.start(rules)
        if isinstance(record, str):
            record = [part for part in re.split(r"[,;\n]", record) if part.strip()]
        for number, move in enumerate(record, start=1):
            try:
                pos = pos.play(move)
            except MoveError as exc:
                raise type(exc)(f"move {number}: {exc}") from exc
        return pos

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """Set up the position described by position text (RULES.md, "Position text").

        With special stones off, stones in hand are ignored. Raises
        ``InvalidPositionError`` for text that is malformed or describes a position
        the rules cannot reach (a stone with four hinges, two thunder-stones of a side).
        """
        rules = rules or Rules()
        parts = text.split() if isinstance(text, str) else []
        if len(parts) != 3:
            raise InvalidPositionError(
                f"{text!r} is not position text: expected the board, the side to move "
                "and the special stones in hand, separated by spaces"
            )
        board, side, hand_text = parts
        rows = board.split("/")
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise InvalidPositionError(
                f"{board!r} is not a board: expected seven rows of seven squares separated by /"
            )
        dark = light = thunder = woden = 0
        for index, char in enumerate("".join(rows)):
            bit = 1 << index
            if char == ".":
                continue
            if char not in "STWstw":
                raise InvalidPositionError(
                    f"{char!r} on {_NAMES[index]} is not a square: use . S T W s t w"
                )
            if char.isupper():
                dark |= bit
            else:
                light |= bit
            if char in "Tt":
                thunder |= bit
            elif char in "Ww":
                woden |= bit
        if side not in ("d", "l"):
            raise InvalidPositionError(f"{side!r} is not a side to move: use d or l")
        hand = 0
        if hand_text != "-":
            letters = [letter for _, letter in _HAND_LETTERS]
            if any(c not in letters for c in hand_text) or len(set(hand_text)) != len(hand_text):
                raise InvalidPositionError(
                    f"{hand_text!r} is not a list of special stones in hand: use T W t w or -"
                )
            hand = sum(bit for bit, letter in _HAND_LETTERS if letter in hand_text)
        if not rules.special_stones:
            hand = 0
        pos = cls._make(rules, dark, light, thunder, woden, 0 if side == "d" else 1, hand)
        pos._check_reachable()
        return pos

    def _check_reachable(self) -> None:
        for color, stones in ((0, self._dark), (1, self._light)):
            name = _COLORS[color]
            for kind, mask, bit in (
                (Stone.THUNDER, self._thunder, _THUNDER_BIT[color]),
                (Stone.WODEN, self._woden, _WODEN_BIT[color]),
            ):
                count = (stones & mask).bit_count() + bool(self._hand & bit)
                if count > 1:
                    raise InvalidPositionError(
                        f"{name} has {count} {kind}-stones on the board and in hand; "
                        "each side has one"
                    )
        for square in SQUARES:
            if self._occupied >> square & 1 and self.hinges(square) > 3:
                raise InvalidPositionError(f"the stone on {square} has four hinges")

    # Reading the position ----------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules this game is played by."""
        return self._rules

    @property
    def turn(self) -> Color:
        """The side to move (also once the game is over: the side that would move next)."""
        return _COLORS[self._turn]

    @property
    def ply(self) -> int:
        """How many moves (passes included) have been played to reach this position."""
        return self._ply

    @property
    def last_move(self) -> Move | None:
        """The move that led here, or None at the start or a set-up position."""
        return self._last

    @property
    def last_removed(self) -> tuple[Square, ...]:
        """The squares the last move's thunder-stone cleared, north, west, east, south."""
        if not self._removed or self._last is None:
            return ()
        return tuple(
            n for n in self._geometry.neighbours[self._last.square] if self._removed >> n & 1
        )

    @property
    def record(self) -> tuple[str, ...]:
        """The moves played, in notation, thunder moves with their removals (``T E4xE3/D4``)."""
        return tuple(played.text for played in self.history)

    @property
    def last_played(self) -> Played | None:
        """The last move of ``history``, or None when it is empty."""
        if self._parent is None:
            return None
        return Played(_COLORS[self._parent._turn], self._last, self._last_text())

    @property
    def history(self) -> tuple[Played, ...]:
        """The moves that led here, oldest first: since the start, or since the position
        text this one was set up from (``from_text`` positions have no history)."""
        moves = []
        pos = self
        while (played := pos.last_played) is not None:
            moves.append(played)
            pos = pos._parent
        return tuple(reversed(moves))

    def _last_text(self) -> str:
        text = format_move(self._last)
        removed = self.last_removed
        if removed:
            text += "x" + "/".join(_NAMES[sq] for sq in removed)
        return text

    @property
    def _occupied(self) -> int:
        return self._dark | self._light

    def stone_at(self, square: str | int) -> tuple[Color, Stone] | None:
        """The colour and kind of the stone on a square, or None if it is empty.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        sq = _to_square(square)
        bit = 1 << sq
        if self._dark & bit:
            color = Color.DARK
        elif self._light & bit:
            color = Color.LIGHT
        else:
            return None
        if self._thunder & bit:
            return color, Stone.THUNDER
        if self._woden & bit:
            return color, Stone.WODEN
        return color, Stone.STONE

    def board(self) -> tuple[tuple[Color, Stone] | None, ...]:
        """Every square's stone (colour, kind) or None, from A1 to G7, row by row."""
        cells: list[tuple[Color, Stone] | None] = []
        for square in range(NUM_SQUARES):
            bit = 1 << square
            if (self._dark | self._light) & bit:
                color = Color.DARK if self._dark & bit else Color.LIGHT
                kind = (
                    Stone.THUNDER
                    if self._thunder & bit
                    else Stone.WODEN
                    if self._woden & bit
                    else Stone.STONE
                )
                cells.append((color, kind))
            else:
                cells.append(None)
        return tuple(cells)

    def hinges(self, square: str | int) -> int:
        """How many hinges the square has now: neighbouring stones plus edge sides.

        Counts the same whether the square is empty or not. Raises ``InvalidMoveError``
        for a square that is not on the board.
        """
        sq = _to_square(square)
        geometry = self._geometry
        edges = 0 if geometry.wraparound else geometry.edge_sides[sq]
        return edges + (geometry.neighbour_masks[sq] & self._occupied).bit_count()

    def scoring_sides(self, square: str | int) -> str:
        """The sides of the stone on ``square`` that score for its owner, as the letters
        ``n`` ``w`` ``e`` ``s`` (north, west, east, south): each side facing a friendly
        stone and, in standard scoring on the flat board, each side on the edge. A
        pair of friendly stones shows on both, and scores once. "" for an empty square.
        """
        sq = _to_square(square)
        if not self._occupied >> sq & 1:
            return ""
        mine = self._dark if self._dark >> sq & 1 else self._light
        row, col = divmod(sq, SIZE)
        sides = []
        for letter, (dr, dc) in zip("nwes", ((-1, 0), (0, -1), (0, 1), (1, 0)), strict=True):
            r, c = row + dr, col + dc
            if self._rules.wraparound:
                r, c = r % SIZE, c % SIZE
            elif not (0 <= r < SIZE and 0 <= c < SIZE):
                if self._rules.scoring == "standard":
                    sides.append(letter)
                continue
            if mine >> (r * SIZE + c) & 1:
                sides.append(letter)
        return "".join(sides)

    def has_special(self, color: Color | str, stone: Stone | str) -> bool:
        """True if ``color`` still holds its thunder- or Woden-stone to play."""
        side = _COLORS.index(Color(color))
        bits = {Stone.THUNDER: _THUNDER_BIT, Stone.WODEN: _WODEN_BIT}.get(Stone(stone))
        return bool(bits and self._hand & bits[side])

    def thunder_clears(self, square: str | int) -> tuple[Square, ...]:
        """The stones a thunder-stone on ``square`` would remove, north, west, east, south."""
        sq = _to_square(square)
        occupied = self._occupied
        return tuple(n for n in self._geometry.neighbours[sq] if occupied >> n & 1)

    # Legal moves -------------------------------------------------------------

    def _legal_masks(self) -> tuple[int, int, int, int]:
        """(stone squares, thunder squares, Woden squares, state), computed once."""
        legal = self._legal
        if legal is not None:
            return legal
        dark, light = self._dark, self._light
        occupied = dark | light
        stones = self._geometry.open_squares(occupied)
        hand = self._hand
        turn = self._turn
        empty = FULL ^ occupied
        thunder = empty if hand & _THUNDER_BIT[turn] else 0
        woden = (light if turn == 0 else dark) if hand & _WODEN_BIT[turn] else 0
        if stones or thunder or woden:
            state = _PLAYING
        elif (
            stones
            or (empty and hand & _THUNDER_BIT[1 - turn])
            or ((dark if turn == 0 else light) and hand & _WODEN_BIT[1 - turn])
        ):
            # Normal stones obey the same limits for both sides, so only the
            # opponent's special stones can leave them a move when we have none.
            state = _MUST_PASS
        else:
            state = _OVER
        legal = self._legal = (stones, thunder, woden, state)
        return legal

    def legal_moves(self) -> list[Move]:
        """Every move the side to move may play: ``[PASS]`` when it must pass, ``[]`` when over.

        Stones first, then thunder-stones, then Woden-stones, each from A1 to G7.
        """
        stones, thunder, woden, state = self._legal or self._legal_masks()
        if state == _PLAYING:
            moves = _list_stones(stones)
            if thunder:
                moves += _list_thunders(thunder)
            if woden:
                moves += _list_wodens(woden)
            return moves
        return [PASS] if state == _MUST_PASS else []

    @property
    def is_over(self) -> bool:
        """True when neither side has a legal move."""
        return (self._legal or self._legal_masks())[3] == _OVER

    @property
    def must_pass(self) -> bool:
        """True when the side to move has no move but the opponent has one."""
        return self._legal_masks()[3] == _MUST_PASS

    def is_legal(self, move: Move | str) -> bool:
        """True if ``move`` may be played now (text that is not a move is not legal)."""
        try:
            return self.why_illegal(move) is None
        except InvalidMoveError:
            return False

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a move may not be played now, in a player's words, or None if it may.

        The site uses this to say why a square is closed. Raises ``InvalidMoveError``
        for text that is not a move.
        """
        if isinstance(move, Move):
            return self._reason(move, None)
        return self._reason(*_parse(move))

    def _reason(self, move: Move, removals: frozenset[Square] | None) -> str | None:
        stones, thunder, woden, state = self._legal_masks()
        if state == _OVER:
            return "the game is over"
        who = _COLORS[self._turn]
        if move.stone is None:
            return None if state == _MUST_PASS else f"{who} cannot pass while it has a legal move"
        if state == _MUST_PASS:
            return f"{who} must pass"
        sq = move.square
        name = _NAMES[sq]
        bit = 1 << sq
        occupied = self._occupied
        if move.stone is Stone.STONE:
            if stones & bit:
                return None
            if occupied & bit:
                return f"{name} is taken"
            if self.hinges(sq) >= 4:
                return f"{name} would have four hinges"
            for near in self._geometry.neighbours[sq]:
                if occupied >> near & 1 and self.hinges(near) >= 3:
                    return f"{name} would give {near} a fourth hinge"
            raise AssertionError(f"no reason found for closed square {name}")  # pragma: no cover
        if not self._rules.special_stones:
            return "special stones are off in this game"
        if move.stone is Stone.THUNDER:
            if not self._hand & _THUNDER_BIT[self._turn]:
                return "you have no thunder-stone left"
            if not thunder & bit:
                return f"{name} is taken"
            if removals is not None:
                actual = self.thunder_clears(sq)
                if removals != frozenset(actual):
                    return (
                        f"T {name} removes {_square_list(actual)}, "
                        f"not {_square_list(sorted(removals))}"
                    )
            return None
        if not self._hand & _WODEN_BIT[self._turn]:
            return "you have no Woden-stone left"
        if not woden & bit:
            return f"W {name}: {name} is not your opponent's stone"
        return None

    # Playing -----------------------------------------------------------------

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or notation text); this one is unchanged.

        Raises ``InvalidMoveError`` for text that is not a move and ``IllegalMoveError``
        (saying why) for a move the rules forbid here.
        """
        removals = None
        if move.__class__ is not Move:
            move, removals = _parse(move)
        stones, thunder, woden, state = self._legal or self._legal_masks()
        kind = move.stone
        turn = self._turn
        dark, light = self._dark, self._light
        thunder_stones, woden_stones, hand = self._thunder, self._woden, self._hand
        removed = 0
        # A set bit in a legal mask means the game is on and the move is allowed. A pass
        # matches no branch below: when it is due, nothing on the board changes, and only
        # the side to move flips; when it is not, the last branch reports why.
        if kind is _STONE and stones >> move.square & 1:
            if turn == 0:
                dark |= 1 << move.square
            else:
                light |= 1 << move.square
        elif kind is _THUNDER and thunder >> move.square & 1 and removals is None:
            bit = 1 << move.square
            removed = self._geometry.neighbour_masks[move.square] & (dark | light)
            keep = ~removed
            if turn == 0:
                dark = (dark & keep) | bit
                light &= keep
            else:
                light = (light & keep) | bit
                dark &= keep
            thunder_stones = (thunder_stones & keep) | bit
            woden_stones &= keep
            hand &= ~_THUNDER_BIT[turn]
        elif kind is _WODEN and woden >> move.square & 1:
            bit = 1 << move.square
            dark ^= bit
            light ^= bit
            thunder_stones &= ~bit
            woden_stones |= bit
            hand &= ~_WODEN_BIT[turn]
        elif not (kind is None and state == _MUST_PASS):
            reason = self._reason(move, removals)
            if reason is not None:
                raise IllegalMoveError(reason)
            # Only a thunder move written with its removal list gets here legal: the
            # list matched what the stone clears, so play the bare move (it takes the
            # fast branch above and records the removals itself).
            return self.play(move)
        child = object.__new__(Position)
        child._rules = self._rules
        child._geometry = self._geometry
        child._dark = dark
        child._light = light
        child._thunder = thunder_stones
        child._woden = woden_stones
        child._turn = 1 - turn
        child._hand = hand
        child._parent = self
        child._last = move
        child._removed = removed
        child._ply = self._ply + 1
        child._legal = None
        return child

    # Result --------------------------------------------------------------------

    def score(self) -> Score:
        """Each side's friendly hinges under this game's scoring (RULES.md, "Scoring")."""
        return Score(_points(self._dark, self._rules), _points(self._light, self._rules))

    @property
    def winner(self) -> Color | None:
        """The side with more points once the game is over; None while it runs or on a tie."""
        if not self.is_over:
            return None
        dark, light = self.score()
        if dark == light:
            return None
        return Color.DARK if dark > light else Color.LIGHT

    @property
    def result(self) -> str | None:
        """``"dark"``, ``"light"`` or ``"tie"`` once the game is over, else None."""
        if not self.is_over:
            return None
        winner = self.winner
        return str(winner) if winner else "tie"

    # Text ------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of RULES.md, e.g. ``......./…/....... d TWtw``."""
        rows = []
        for row in range(SIZE):
            chars = []
            for col in range(SIZE):
                bit = 1 << (row * SIZE + col)
                if not (self._dark | self._light) & bit:
                    chars.append(".")
                    continue
                char = "T" if self._thunder & bit else "W" if self._woden & bit else "S"
                chars.append(char if self._dark & bit else char.lower())
            rows.append("".join(chars))
        hand = "".join(letter for bit, letter in _HAND_LETTERS if self._hand & bit) or "-"
        return f"{'/'.join(rows)} {'dl'[self._turn]} {hand}"

    def _key(self) -> tuple[object, ...]:
        return (
            self._rules,
            self._dark,
            self._light,
            self._thunder,
            self._woden,
            self._turn,
            self._hand,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        # Evaluates back to an equal position (the history is not part of equality).
        return f"Position.from_text({self.to_text()!r}, {self._rules!r})"

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self


def _to_square(square: str | int) -> Square:
    if isinstance(square, str):
        return parse_square(square)
    if isinstance(square, int) and not isinstance(square, bool) and 0 <= square < NUM_SQUARES:
        return SQUARES[square]
    raise InvalidMoveError(f"{square!r} is not a square: squares run A1 to G7")


def _square_list(squares: Iterable[int]) -> str:
    return "/".join(_NAMES[sq] for sq in squares) or "nothing"
