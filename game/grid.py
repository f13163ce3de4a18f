"""The 7×7 board that John Beers's games share, and what their engines have in common.

Pure Python, standard library only. A square is an ``int`` 0..48, row-major from
``A1`` (bit ``row * 7 + column`` of a bitboard), that prints as its name. The
neighbour tables of the flat board and of the wraparound one (a torus) are built
once, here; so are the masks of its edges. Each game's engine builds its rules on
these (``game.maerstanas``), and says in the same words how a game ended
(``Outcome``) and what was played (``Played``), with the same errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Any, Generic, NamedTuple, TypeVar

__all__ = [
    "COLUMNS",
    "NUM_SQUARES",
    "SIZE",
    "SQUARES",
    "Color",
    "Grid",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "MoveError",
    "Outcome",
    "Played",
    "PositionBase",
    "Square",
    "lister",
    "move_splitter",
    "parse_square",
    "square_list",
    "to_square",
]

SIZE = 7
NUM_SQUARES = SIZE * SIZE
COLUMNS = "ABCDEFG"


# --- Errors ----------------------------------------------------------------------


class MoveError(ValueError):
    """A move that cannot be played: unreadable text or against the rules."""


class InvalidMoveError(MoveError):
    """Text that is not a move in the game's notation (``'Z9'``, ``'T'``, ``''``)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(ValueError):
    """Position text that does not describe a possible position."""


# --- Sides, outcomes, history ------------------------------------------------------


class Color(StrEnum):
    """A side of the game. Dark moves first."""

    DARK = "dark"
    LIGHT = "light"

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.LIGHT if self is Color.DARK else Color.DARK


COLORS = (Color.DARK, Color.LIGHT)


class Outcome(NamedTuple):
    """How a game ended by its rules, as ``Position.outcome()`` says (python-chess's
    ``Outcome``): ``result`` is ``"dark"``, ``"light"``, ``"tie"`` (Mǽrstánas) or ``"draw"``
    (Cyngesheall); ``reason`` is
    the game's own name for the end (``"no-moves"`` in Mǽrstánas)."""

    result: str
    reason: str

    @property
    def winner(self) -> Color | None:
        """The side that won, or None on a tie or a draw."""
        return Color(self.result) if self.result in COLORS else None


M = TypeVar("M")


class Played(NamedTuple, Generic[M]):
    """One move of a game's history: who played it, the move, and its record text
    (in Mǽrstánas a thunder move with its removals, ``T E4xE3/D4``)."""

    color: Color
    move: M
    text: str


class PositionBase:
    """What every engine's ``Position`` has alike: the moves that led to it, legality in
    a word, and equality of what is on the board (``_key()``), not of the history.

    A position keeps the one before it (``_parent``) and says how it was reached
    (``last_played``, its engine's); positions are immutable, so a copy is itself.
    """

    __slots__ = ()

    # Each engine's slots: its options, the side to move (0 dark, 1 light), the moves
    # played to reach it, and the move that did.
    _rules: Any
    _turn: int
    _ply: int
    _last: Any

    @property
    def rules(self) -> Any:
        """The rules this game is played by."""
        return self._rules

    @property
    def turn(self) -> Color:
        """The side to move (also once the game is over: the side that would move next)."""
        return COLORS[self._turn]

    @property
    def ply(self) -> int:
        """How many moves have been played to reach this position."""
        return self._ply

    @property
    def last_move(self) -> Any:
        """The move that led here, or None at the start or a set-up position."""
        return self._last

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

    @property
    def record(self) -> tuple[str, ...]:
        """The moves played, as the record writes them: with what they removed or
        captured (``T E4xE3/D4``, ``C7-C3xC2/D3``)."""
        return tuple(played.text for played in self.history)

    def is_legal(self, move: object) -> bool:
        """True if ``move`` may be played now (text that is not a move is not legal)."""
        try:
            return self.why_illegal(move) is None
        except MoveError:
            return False

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        # Evaluates back to an equal position (the history is not part of equality).
        return f"Position.from_text({self.to_text()!r}, {self._rules!r})"

    def __copy__(self) -> PositionBase:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> PositionBase:
        return self


# --- Squares -----------------------------------------------------------------------


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
        return NAMES[self]

    def __format__(self, spec: str) -> str:
        return format(NAMES[self], spec)

    def __repr__(self) -> str:
        return f"Square({NAMES[self]!r})"


NAMES = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(NUM_SQUARES))
SQUARES = tuple(Square(i) for i in range(NUM_SQUARES))
SQUARE_BY_NAME = {name: SQUARES[i] for i, name in enumerate(NAMES)}


def parse_square(text: str) -> Square:
    """Read a square name such as ``E4`` (any case, spaces around ignored).

    Raises ``InvalidMoveError`` when the text is not a square of the board.
    """
    name = text.strip().upper() if isinstance(text, str) else ""
    square = SQUARE_BY_NAME.get(name)
    if square is None:
        raise InvalidMoveError(f"{text!r} is not a square: squares run A1 to G7")
    return square


def to_square(square: str | int) -> Square:
    """The square named or numbered ``square``.

    Raises ``InvalidMoveError`` for one that is not on the board.
    """
    if isinstance(square, str):
        return parse_square(square)
    if isinstance(square, int) and not isinstance(square, bool) and 0 <= square < NUM_SQUARES:
        return SQUARES[square]
    raise InvalidMoveError(f"{square!r} is not a square: squares run A1 to G7")


def square_list(squares: Iterable[int]) -> str:
    """Squares as a record writes them, ``E3/D4``; ``nothing`` for none."""
    return "/".join(NAMES[sq] for sq in squares) or "nothing"


# --- Bitboards ---------------------------------------------------------------------

FULL = (1 << NUM_SQUARES) - 1
ROW_1 = (1 << SIZE) - 1
ROW_7 = ROW_1 << (SIZE * (SIZE - 1))
COL_A = sum(1 << (r * SIZE) for r in range(SIZE))
COL_G = COL_A << (SIZE - 1)
NOT_A = FULL ^ COL_A
NOT_G = FULL ^ COL_G
WRAP_SHIFT = SIZE * (SIZE - 1)  # 42: from row 1 to row 7

# The four directions in the rules' order: north, west, east, south; with row 1 at
# the top of the board, north is the row before.
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
SIDES = "nwes"


def _neighbours(square: int, wraparound: bool) -> tuple[Square, ...]:
    """Neighbours in the rules' order: north, west, east, south (off-board ones left out)."""
    row, col = divmod(square, SIZE)
    found = []
    for dr, dc in STEPS:
        r, c = row + dr, col + dc
        if wraparound:
            r, c = r % SIZE, c % SIZE
        elif not (0 <= r < SIZE and 0 <= c < SIZE):
            continue
        found.append(SQUARES[r * SIZE + c])
    return tuple(found)


class Grid:
    """The neighbour tables of one shape of the board, flat or wraparound, built once."""

    __slots__ = ("edge_sides", "neighbour_masks", "neighbours", "wraparound")

    def __init__(self, wraparound: bool) -> None:
        self.wraparound = wraparound
        self.neighbours = tuple(_neighbours(sq, wraparound) for sq in range(NUM_SQUARES))
        self.neighbour_masks = tuple(sum(1 << n for n in near) for near in self.neighbours)
        # A side on the board's edge: a corner has two such sides, the torus none.
        self.edge_sides = tuple(4 - len(near) for near in self.neighbours)

    def __repr__(self) -> str:
        return "TORUS" if self.wraparound else "FLAT"


FLAT = Grid(wraparound=False)
TORUS = Grid(wraparound=True)

T = TypeVar("T")


def lister(items: Sequence[T]) -> Callable[[int], list[T]]:
    """A function listing ``items[square]`` for the set bits of a mask, in square order,
    seven squares (a row) at a time: the hot loops list moves this way."""
    r0, r1, r2, r3, r4, r5, r6 = (
        tuple(
            tuple(items[row * SIZE + c] for c in range(SIZE) if bits >> c & 1)
            for bits in range(1 << SIZE)
        )
        for row in range(SIZE)
    )

    def list_items(mask: int) -> list[T]:
        return [
            *r0[mask & 127],
            *r1[mask >> 7 & 127],
            *r2[mask >> 14 & 127],
            *r3[mask >> 21 & 127],
            *r4[mask >> 28 & 127],
            *r5[mask >> 35 & 127],
            *r6[mask >> 42],
        ]

    return list_items


# --- Records -------------------------------------------------------------------------

# Move numbers (``12.``, ``1...``, ``…``) and what separates moves are skipped.
_NUMBER = re.compile(r"\d+\s*\.+|\.\.\.|…")
_SEPARATOR = re.compile(r"[\s,;]+")
_WORD = re.compile(r"\S+")


def move_splitter(
    record_move: re.Pattern[str], read_move: Callable[[str], object]
) -> Callable[[str], Iterator[str]]:
    """A game's ``split_moves``: its moves are what ``record_move`` matches, each checked
    by its ``read_move`` (a square off the board, a square listed twice)."""

    def split_moves(text: str) -> Iterator[str]:
        """The moves written in ``text``, in order: numbered or not, separated by spaces,
        commas, semicolons or lines, in any case (a record's moves, or a bare list).

        Raises ``InvalidMoveError`` at the first word that is not a move, once the moves
        before it have been given, so a reader can say which move it was.
        """
        at = 0
        while at < len(text):
            skipped = _SEPARATOR.match(text, at) or _NUMBER.match(text, at)
            if skipped:
                at = skipped.end()
                continue
            found = record_move.match(text, at)
            if found is None:
                word = _WORD.match(text, at)[0]
                raise InvalidMoveError(f"{word[:30]!r} is not a move")
            read_move(found[0])
            yield found[0]
            at = found.end()

    return split_moves
