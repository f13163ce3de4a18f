# Long: one Position, whose rules are the hot loops of every playout (targets, legal
# moves, play) on its bitboards, and the lines of the board they look up, built once.
"""The rules of Cyngesheall: sliding pieces, captures by sandwich, the kings' race.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by the computer players without Django. ``docs/CYNGESHEALL.md`` is the rule book
this module implements; the board it is played on (squares, colours, errors, how a
game ended) is ``game.grid``'s, the same as Mǽrstánas's, and so is the shape of a
position: ``start``, ``play``, ``legal_moves``, ``record``, ``outcome()``.

The position is four bitboards (dark's pieces, light's, the kings, the commanders;
bit ``row * 7 + column``). What a move needs is looked up, not searched: the squares
strictly between any two squares on a line (``BETWEEN``), and, for each square, the
pairs (neighbour, square beyond) that a piece landing there may sandwich.

Typical use::

    pos = Position.start()
    pos = pos.play("B6-B2")
    pos.legal_moves()[0]   # Move(D1, D2): D1-D2
    pos.outcome()          # None: the game goes on
"""

from __future__ import annotations

from collections.abc import Iterable

from game.cyngesheall.notation import (
    MOVES,
    START_TEXT,
    Move,
    Piece,
    read_move,
    read_position_text,
    write_position_text,
)
from game.cyngesheall.rules import (
    END_KING_CAPTURED,
    END_KING_HOME,
    END_NO_MOVES,
    END_REPETITION,
    END_SIXTY_PLIES,
    ENDS,
    QUIET_LIMIT,
    Rules,
    Score,
)
from game.grid import (
    NAMES,
    NUM_SQUARES,
    SIZE,
    SQUARES,
    Square,
    square_list,
    to_square,
)
from game.surface import (
    COLORS,
    Color,
    IllegalMoveError,
    InvalidPositionError,
    Outcome,
    PositionBase,
)

# The lines of the board (``ROOK_RAYS``, ``QUEEN_RAYS``, ``BETWEEN``, ``PINCERS``) are
# the computer players' too.
__all__ = [
    "BETWEEN",
    "ENDS",
    "GOALS",
    "PINCERS",
    "QUEEN_RAYS",
    "ROOK_RAYS",
    "Position",
    "Rules",
    "Score",
]

# --- Lines of the board, built once -------------------------------------------------

# Directions as (row step, column step): the rook's four in the rules' order (north,
# west, east, south), then the four diagonals the commander adds.
_ROOK = ((-1, 0), (0, -1), (0, 1), (1, 0))
_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _ray(square: int, dr: int, dc: int) -> tuple[Square, ...]:
    row, col = divmod(square, SIZE)
    found = []
    row, col = row + dr, col + dc
    while 0 <= row < SIZE and 0 <= col < SIZE:
        found.append(SQUARES[row * SIZE + col])
        row, col = row + dr, col + dc
    return tuple(found)


ROOK_RAYS = tuple(tuple(_ray(sq, dr, dc) for dr, dc in _ROOK) for sq in range(NUM_SQUARES))
QUEEN_RAYS = tuple(
    rays + tuple(_ray(sq, dr, dc) for dr, dc in _DIAGONAL) for sq, rays in enumerate(ROOK_RAYS)
)


def _between_table() -> tuple[tuple[int | None, ...], ...]:
    """``[a][b]``: the mask of squares strictly between a and b when they share a row,
    column or diagonal, else None; a diagonal's mask has bit 49 set, marking it."""
    table = [[None] * NUM_SQUARES for _ in range(NUM_SQUARES)]
    for origin in range(NUM_SQUARES):
        for index, ray in enumerate(QUEEN_RAYS[origin]):
            passed = 0
            for target in ray:
                table[origin][target] = passed | (_DIAGONAL_MARK if index >= 4 else 0)
                passed |= 1 << target
    return tuple(tuple(row) for row in table)


_DIAGONAL_MARK = 1 << NUM_SQUARES
_BOARD = _DIAGONAL_MARK - 1
BETWEEN = _between_table()

# For each square, the (neighbour bit, beyond bit) pairs a piece landing there may
# sandwich, north, west, east, south: the board's edge never helps.
PINCERS = tuple(
    tuple(
        (1 << ray[0], 1 << ray[1])
        for ray in ROOK_RAYS[square]
        if len(ray) >= 2  # pragma: no mutate (a one-square ray has no square beyond)
    )
    for square in range(NUM_SQUARES)
)

# The corner each side's king races for: the enemy king's starting corner.
GOALS = (SQUARES[6], SQUARES[42])  # dark's king for G1, light's for A7
_GOAL_BITS = (1 << 6, 1 << 42)

_COL_A = sum(1 << (r * SIZE) for r in range(SIZE))
_NOT_A = _BOARD ^ _COL_A
_NOT_G = _BOARD ^ (_COL_A << (SIZE - 1))


def _steps(pieces: int, diagonal: bool) -> int:
    """The squares one step from ``pieces``: orthogonally, and diagonally if asked."""
    west, east = (pieces & _NOT_A) >> 1, (pieces & _NOT_G) << 1
    near = (pieces >> SIZE) | (pieces << SIZE) | west | east
    if diagonal:
        near |= (west >> SIZE) | (west << SIZE) | (east >> SIZE) | (east << SIZE)
    return near & _BOARD


def _squares(mask: int) -> Iterable[Square]:
    while mask:
        low = mask & -mask
        yield SQUARES[low.bit_length() - 1]
        mask ^= low


_PIECE_CHARS = {Piece.KING: "K", Piece.COMMANDER: "C", Piece.STONE: "S"}


# --- Position ---------------------------------------------------------------------------


class Position(PositionBase):
    """A moment of a game: the pieces, the side to move, the plies since a capture.

    Immutable: ``play`` returns a new position and leaves this one as it was. Make one
    with ``Position.start``, ``Position.replay`` or ``Position.from_text``. Positions
    compare equal when pieces, side to move and the plies since a capture agree, however
    they were reached; the positions before (which the repetition rule counts) are the
    history a position was played from.
    """

    __slots__ = (
        "_captured",
        "_commanders",
        "_dark",
        "_end",
        "_kings",
        "_last",
        "_light",
        "_parent",
        "_ply",
        "_quiet",
        "_rules",
        "_turn",
    )

    _dark: int
    _light: int
    _kings: int
    _commanders: int
    _turn: int
    _quiet: int
    _ply: int
    _rules: Rules
    _parent: Position | None
    _last: Move | None
    _captured: int
    _end: Outcome | None

    def __init__(self) -> None:
        raise TypeError("use Position.start(), Position.replay() or Position.from_text()")

    # Construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The starting position: each side's ten pieces in its corner, dark to move."""
        return cls.from_text(START_TEXT, rules)

    @classmethod
    def replay(
        cls,
        rules: Rules | None | Iterable[str | Move] | str = None,
        record: Iterable[str | Move] | str | None = None,
        start: Position | None = None,
    ) -> Position:
        """Play a record (notation strings or moves) from the start, or from ``start``:
        ``Position.replay(rules, record)`` as Mǽrstánas's, or ``Position.replay(record)``.

        Raises ``InvalidMoveError``/``IllegalMoveError`` naming the move number that failed.
        """
        if record is None and not isinstance(rules, Rules | None):
            rules, record = None, rules
        return (start if start is not None else cls.start(rules)).play_record(record or ())

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """Set up the position that position text describes (docs/CYNGESHEALL.md).

        A side to move with no legal move has lost (``no-moves``). Raises
        ``InvalidPositionError`` for malformed text, a side without its one king, more
        than one commander or eight stones a side, a king on its goal corner already,
        or 60 or more plies since a capture.
        """
        found = read_position_text(text)
        if found.error:
            raise InvalidPositionError(found.error)
        dark = light = kings = commanders = 0
        for index, char in enumerate(found.board):
            if char == ".":
                continue
            bit = 1 << index
            if char.isupper():
                dark |= bit
            else:
                light |= bit
            if char in "Kk":
                kings |= bit
            elif char in "Cc":
                commanders |= bit
        for color, pieces in zip(COLORS, (dark, light), strict=True):
            for piece, mask, most in (
                ("king", kings, 1),
                ("commander", commanders, 1),
                ("stone", _BOARD & ~(kings | commanders), 8),
            ):
                count = (pieces & mask).bit_count()
                if count > most:
                    raise InvalidPositionError(
                        f"{color} has {count} {piece}s; each side has at most {most}"
                    )
            if not pieces & kings:
                raise InvalidPositionError(f"{color} has no king")
        for side, goal in enumerate(_GOAL_BITS):
            if (dark, light)[side] & kings & goal:
                raise InvalidPositionError(
                    f"{COLORS[side]}'s king is on {NAMES[goal.bit_length() - 1]}, "
                    "its goal: that game is over"
                )
        if found.quiet >= QUIET_LIMIT:
            raise InvalidPositionError(
                f"{found.quiet} plies without capture: the game ended at {QUIET_LIMIT}"
            )
        pos = object.__new__(cls)
        pos._rules = rules or Rules()
        pos._dark, pos._light, pos._kings, pos._commanders = dark, light, kings, commanders
        pos._turn = 0 if found.side == "d" else 1
        pos._quiet = found.quiet
        pos._ply = 0
        pos._parent = None
        pos._last = None
        pos._captured = 0
        pos._end = None
        if not pos._can_move():
            pos._end = Outcome(COLORS[1 - pos._turn].value, END_NO_MOVES)
        return pos

    # Reading the position ----------------------------------------------------------

    # ``rules``, ``turn``, ``ply`` and ``last_move`` are PositionBase's.

    @property
    def quiet(self) -> int:
        """Plies in a row without a capture: since the last one, or the start."""
        return self._quiet

    @property
    def last_captured(self) -> tuple[Square, ...]:
        """The squares the last move captured on, north, west, east, south of it."""
        if not self._captured or self._last is None:
            return ()
        target = self._last.target
        return tuple(ray[0] for ray in ROOK_RAYS[target] if ray and self._captured >> ray[0] & 1)

    def _last_text(self) -> str:
        text = str(self._last)
        if self._captured:
            text += "x" + square_list(self.last_captured)
        return text

    def piece_at(self, square: str | int) -> tuple[Color, Piece] | None:
        """The colour and kind of the piece on ``square``, or None when it is empty.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        bit = 1 << to_square(square)
        if not (self._dark | self._light) & bit:
            return None
        color = Color.DARK if self._dark & bit else Color.LIGHT
        if self._kings & bit:
            return color, Piece.KING
        return color, Piece.COMMANDER if self._commanders & bit else Piece.STONE

    def board(self) -> tuple[tuple[Color, Piece] | None, ...]:
        """Every square's piece, ``A1`` to ``G7``, as ``piece_at`` gives it."""
        return tuple(self.piece_at(square) for square in SQUARES)

    def king(self, color: Color | str) -> Square | None:
        """The square of ``color``'s king, or None once it is captured."""
        pieces = self._dark if Color(color) is Color.DARK else self._light
        found = pieces & self._kings
        return SQUARES[found.bit_length() - 1] if found else None

    def score(self) -> Score:
        """Each side's pieces on the board."""
        return Score(self._dark.bit_count(), self._light.bit_count())

    # Moves -----------------------------------------------------------------------

    def _can_move(self) -> bool:
        own = self._light if self._turn else self._dark
        empty = _BOARD & ~(self._dark | self._light)
        return bool(
            _steps(own & ~self._commanders, False) & empty
            or _steps(own & self._commanders, True) & empty
        )

    def targets(self, square: str | int) -> tuple[Square, ...]:
        """The squares the piece on ``square`` may move to now, in square order: none
        when the square is empty, holds the other side's piece, or the game is over."""
        origin = to_square(square)
        own = self._light if self._turn else self._dark
        if self._end is not None or not own >> origin & 1:
            return ()
        occupied = self._dark | self._light
        rays = QUEEN_RAYS[origin] if self._commanders >> origin & 1 else ROOK_RAYS[origin]
        found = []
        for ray in rays:
            for target in ray:
                if occupied >> target & 1:
                    break
                found.append(target)
        found.sort()
        return tuple(found)

    def legal_moves(self) -> list[Move]:
        """Every move the side to move may play, by origin then target square; [] once over."""
        if self._end is not None:
            return []
        own = self._light if self._turn else self._dark
        occupied = self._dark | self._light
        commanders = self._commanders
        moves = []
        while own:
            low = own & -own
            own ^= low
            origin = low.bit_length() - 1
            row = MOVES[origin]
            for ray in QUEEN_RAYS[origin] if commanders & low else ROOK_RAYS[origin]:
                for target in ray:
                    if occupied >> target & 1:
                        break
                    moves.append(row[target])
        moves.sort()
        return moves

    @property
    def is_over(self) -> bool:
        """True once the rules have ended the game."""
        return self._end is not None

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a move may not be played now, in a player's words, or None if it may.

        Raises ``InvalidMoveError`` for text that is not a move.
        """
        if isinstance(move, Move):
            return self._reason(move, None)
        return self._reason(*read_move(move))

    def _reason(self, move: Move, captures: frozenset[Square] | None) -> str | None:
        if self._end is not None:
            return "the game is over"
        origin, target = move
        name, goal = NAMES[origin], NAMES[target]
        own, other = (self._light, self._dark) if self._turn else (self._dark, self._light)
        who = COLORS[self._turn]
        if not (own | other) >> origin & 1:
            return f"there is no piece on {name}"
        if other >> origin & 1:
            return f"the piece on {name} is {who.opponent}'s: {who} is to move"
        if origin == target:
            return f"{name}-{goal} does not move"
        between = BETWEEN[origin][target]
        piece = self.piece_at(origin)[1]
        if between is None or (between & _DIAGONAL_MARK and piece is not Piece.COMMANDER):
            how = "in a straight line" if piece is Piece.COMMANDER else "along a row or a column"
            return f"the {piece} on {name} moves {how}: it cannot reach {goal}"
        if (own | other) >> target & 1:
            return f"{goal} is taken"
        blocked = between & (own | other)
        if blocked:
            nearest = min(_squares(blocked), key=lambda sq: _distance(origin, sq))
            return f"{name} cannot move through {nearest}"
        if captures is not None:
            actual = self.play(move).last_captured
            if captures != frozenset(actual):
                return (
                    f"{name}-{goal} captures {square_list(actual)}, "
                    f"not {square_list(sorted(captures))}"
                )
        return None

    # Playing -----------------------------------------------------------------------

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or notation text); this one is unchanged.

        Raises ``InvalidMoveError`` for text that is not a move and ``IllegalMoveError``
        (saying why) for a move the rules forbid here.
        """
        captures = None
        if move.__class__ is not Move:
            move, captures = read_move(move)
        origin, target = move
        turn = self._turn
        own, other = (self._light, self._dark) if turn else (self._dark, self._light)
        occupied = own | other
        between = BETWEEN[origin][target]
        origin_bit, target_bit = 1 << origin, 1 << target
        commanders = self._commanders
        if (
            captures is not None
            or self._end is not None
            or not own & origin_bit
            or between is None
            or between & occupied
            or occupied & target_bit
            or (between & _DIAGONAL_MARK and not commanders & origin_bit)
        ):
            reason = self._reason(move, captures)
            if reason is not None:
                raise IllegalMoveError(reason)
            return self.play(move)  # the captures named were the right ones
        own ^= origin_bit | target_bit
        kings = self._kings
        if kings & origin_bit:
            kings ^= origin_bit | target_bit
        elif commanders & origin_bit:
            commanders ^= origin_bit | target_bit
        captured = 0
        for near, beyond in PINCERS[target]:
            if other & near and own & beyond:
                captured |= near
        child = object.__new__(Position)
        if captured:
            other &= ~captured
            kings_taken = kings & captured
            kings &= ~captured
            commanders &= ~captured
            child._quiet = 0
        else:
            kings_taken = 0
            child._quiet = self._quiet + 1
        if turn:
            child._dark, child._light = other, own
        else:
            child._dark, child._light = own, other
        child._kings = kings
        child._commanders = commanders
        child._turn = 1 - turn
        child._ply = self._ply + 1
        child._rules = self._rules
        child._parent = self
        child._last = move
        child._captured = captured
        child._end = None
        mover = COLORS[turn].value
        if kings_taken:
            child._end = Outcome(mover, END_KING_CAPTURED)
        elif kings & target_bit & _GOAL_BITS[turn]:
            child._end = Outcome(mover, END_KING_HOME)
        elif not captured and child._repeated():
            child._end = Outcome("draw", END_REPETITION)
        elif child._quiet >= QUIET_LIMIT:
            child._end = Outcome("draw", END_SIXTY_PLIES)
        elif not child._can_move():
            child._end = Outcome(mover, END_NO_MOVES)
        return child

    def _repeated(self) -> bool:
        """True when this board, with this side to move, stands for the third time:
        among the positions since the last capture (earlier ones had more pieces)."""
        seen = 1
        key = (self._dark, self._light, self._kings, self._commanders)
        pos = self
        while pos._quiet >= 2 and pos._parent is not None and pos._parent._parent is not None:
            pos = pos._parent._parent
            if (pos._dark, pos._light, pos._kings, pos._commanders) == key:
                seen += 1
                if seen == 3:
                    return True
        return False

    # Result ----------------------------------------------------------------------------

    @property
    def result(self) -> str | None:
        """``"dark"``, ``"light"`` or ``"draw"`` once the game is over, else None."""
        return self._end.result if self._end is not None else None

    @property
    def winner(self) -> Color | None:
        """The side that won, or None while the game runs or after a draw."""
        return self._end.winner if self._end is not None else None

    def outcome(self) -> Outcome | None:
        """How the rules ended the game (``Outcome(result, reason)``), or None."""
        return self._end

    # Text ------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of docs/CYNGESHEALL.md, e.g. ``...sssk/…/KSSS... d 0``."""
        chars = []
        for square in SQUARES:
            found = self.piece_at(square)
            if found is None:
                chars.append(".")
                continue
            char = _PIECE_CHARS[found[1]]
            chars.append(char if found[0] is Color.DARK else char.lower())
        return write_position_text("".join(chars), "dl"[self._turn], self._quiet)

    def _key(self) -> tuple[object, ...]:
        return (
            self._rules,
            self._dark,
            self._light,
            self._kings,
            self._commanders,
            self._turn,
            self._quiet,
        )


def _distance(a: int, b: int) -> int:
    return max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE))
