# Long: one Position, whose rules are the hot loops of every playout (legal squares, play)
# on its bitboards; its tables are bitboards.py already, the rest is the class itself.
"""The rules of Mǽrstánas: hinge limits, special stones, scoring, the end of a game.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by the computer players without Django. ``docs/RULES.md`` is the rule book this
module implements; its vocabulary is used throughout. The board it is played on
(squares, neighbours, colours, errors) is ``game.grid``'s; how moves and positions
are written is ``game.maerstanas.notation``'s.

The position is stored as bitboards: one ``int`` per colour and one per special
stone kind, bit ``row * 7 + column`` for a square (``A1`` is bit 0, ``G7`` bit 48).
Legal squares are found with a handful of shifts and masks, and every ``Move`` is
interned, so random playouts stay fast.

Typical use::

    pos = Position.start()
    pos = pos.play("D4").play("T E4")
    pos.score()            # Score(dark=0, light=0)
    pos.record             # ('D4', 'T E4xD4')
    pos.outcome()          # None: the game goes on
"""

from __future__ import annotations

from collections.abc import Iterable

from game.grid import (
    FULL,
    NAMES,
    NUM_SQUARES,
    SIDES,
    SIZE,
    SQUARES,
    STEPS,
    Square,
    lister,
    square_list,
    to_square,
)
from game.maerstanas.bitboards import (
    ALL_SPECIALS,
    FLAT_GEOMETRY,
    HAND_BITS,
    THUNDER_BIT,
    WODEN_BIT,
    WRAP_GEOMETRY,
    Geometry,
    points,
)
from game.maerstanas.notation import (
    HAND_LETTERS,
    PASS,
    STONE_MOVES,
    THUNDER_MOVES,
    WODEN_MOVES,
    Move,
    Stone,
    format_move,
    read_move,
    read_position_text,
    write_position_text,
)
from game.maerstanas.rules import END_NO_MOVES, ENDS, SCORINGS, Rules, Score
from game.surface import (
    COLORS,
    Color,
    IllegalMoveError,
    InvalidPositionError,
    Outcome,
    PositionBase,
)

__all__ = ["END_NO_MOVES", "ENDS", "SCORINGS", "Position", "Rules", "Score"]

_list_stones = lister(STONE_MOVES)
_list_thunders = lister(THUNDER_MOVES)
_list_wodens = lister(WODEN_MOVES)


_PLAYING, _MUST_PASS, _OVER = 0, 1, 2
_STONE, _THUNDER, _WODEN = Stone.STONE, Stone.THUNDER, Stone.WODEN


# --- Position ------------------------------------------------------------------


class Position(PositionBase):
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
    _geometry: Geometry
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
        pos._geometry = WRAP_GEOMETRY if rules.wraparound else FLAT_GEOMETRY
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
        return cls._make(rules, 0, 0, 0, 0, 0, ALL_SPECIALS if rules.special_stones else 0)

    @classmethod
    def replay(
        cls, rules: Rules | None, record: Iterable[str | Move], start: Position | None = None
    ) -> Position:
        """Play a record (notation strings or moves) from the start, or from ``start``.

        Raises ``InvalidMoveError``/``IllegalMoveError`` naming the move number that failed.
        """
        return (start if start is not None else cls.start(rules)).play_record(record)

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Position:
        """Set up the position described by position text (RULES.md, "Position text").

        With special stones off, stones in hand are ignored. Raises
        ``InvalidPositionError`` for text that is malformed or describes a position
        the rules cannot reach (a stone with four hinges, two thunder-stones of a side).
        """
        rules = rules or Rules()
        found = read_position_text(text)
        if found.error:
            raise InvalidPositionError(found.error)
        dark = light = thunder = woden = 0
        for index, char in enumerate(found.board):
            bit = 1 << index
            if char == ".":
                continue
            if char.isupper():
                dark |= bit
            else:
                light |= bit
            if char in "Tt":
                thunder |= bit
            elif char in "Ww":
                woden |= bit
        side = found.side
        hand = sum(
            bit for bit, letter in zip(HAND_BITS, HAND_LETTERS, strict=True) if letter in found.hand
        )
        if not rules.special_stones:
            hand = 0
        pos = cls._make(rules, dark, light, thunder, woden, 0 if side == "d" else 1, hand)
        pos._check_reachable()
        return pos

    def _check_reachable(self) -> None:
        for color, stones in ((0, self._dark), (1, self._light)):
            name = COLORS[color]
            for kind, mask, bit in (
                (Stone.THUNDER, self._thunder, THUNDER_BIT[color]),
                (Stone.WODEN, self._woden, WODEN_BIT[color]),
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

    # ``rules``, ``turn``, ``ply`` (passes included) and ``last_move`` are PositionBase's.

    @property
    def last_removed(self) -> tuple[Square, ...]:
        """The squares the last move's thunder-stone cleared, north, west, east, south."""
        if not self._removed or self._last is None:
            return ()
        return tuple(
            n for n in self._geometry.neighbours[self._last.square] if self._removed >> n & 1
        )

    def _last_text(self) -> str:
        text = format_move(self._last)
        removed = self.last_removed
        if removed:
            text += "x" + "/".join(NAMES[sq] for sq in removed)
        return text

    @property
    def _occupied(self) -> int:
        return self._dark | self._light

    def stone_at(self, square: str | int) -> tuple[Color, Stone] | None:
        """The colour and kind of the stone on a square, or None if it is empty.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        sq = to_square(square)
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
        sq = to_square(square)
        geometry = self._geometry
        edges = 0 if geometry.wraparound else geometry.edge_sides[sq]
        return edges + (geometry.neighbour_masks[sq] & self._occupied).bit_count()

    def scoring_sides(self, square: str | int) -> str:
        """The sides of the stone on ``square`` that score for its owner, as the letters
        ``n`` ``w`` ``e`` ``s`` (north, west, east, south): each side facing a friendly
        stone and, in standard scoring on the flat board, each side on the edge. A
        pair of friendly stones shows on both, and scores once. "" for an empty square.
        """
        sq = to_square(square)
        if not self._occupied >> sq & 1:
            return ""
        mine = self._dark if self._dark >> sq & 1 else self._light
        row, col = divmod(sq, SIZE)
        sides = []
        for letter, (dr, dc) in zip(SIDES, STEPS, strict=True):
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
        side = COLORS.index(Color(color))
        bits = {Stone.THUNDER: THUNDER_BIT, Stone.WODEN: WODEN_BIT}.get(Stone(stone))
        return bool(bits and self._hand & bits[side])

    def thunder_clears(self, square: str | int) -> tuple[Square, ...]:
        """The stones a thunder-stone on ``square`` would remove, north, west, east, south."""
        sq = to_square(square)
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
        thunder = empty if hand & THUNDER_BIT[turn] else 0
        woden = (light if turn == 0 else dark) if hand & WODEN_BIT[turn] else 0
        if stones or thunder or woden:
            state = _PLAYING
        elif (
            stones
            or (empty and hand & THUNDER_BIT[1 - turn])
            or ((dark if turn == 0 else light) and hand & WODEN_BIT[1 - turn])
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

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a move may not be played now, in a player's words, or None if it may.

        The site uses this to say why a square is closed. Raises ``InvalidMoveError``
        for text that is not a move.
        """
        if isinstance(move, Move):
            return self._reason(move, None)
        return self._reason(*read_move(move))

    def _reason(self, move: Move, removals: frozenset[Square] | None) -> str | None:
        stones, thunder, woden, state = self._legal_masks()
        if state == _OVER:
            return "the game is over"
        who = COLORS[self._turn]
        if move.stone is None:
            return None if state == _MUST_PASS else f"{who} cannot pass while it has a legal move"
        if state == _MUST_PASS:
            return f"{who} must pass"
        sq = move.square
        name = NAMES[sq]
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
            if not self._hand & THUNDER_BIT[self._turn]:
                return "you have no thunder-stone left"
            if not thunder & bit:
                return f"{name} is taken"
            if removals is not None:
                actual = self.thunder_clears(sq)
                if removals != frozenset(actual):
                    return (
                        f"T {name} removes {square_list(actual)}, "
                        f"not {square_list(sorted(removals))}"
                    )
            return None
        if not self._hand & WODEN_BIT[self._turn]:
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
            move, removals = read_move(move)
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
            hand &= ~THUNDER_BIT[turn]
        elif kind is _WODEN and woden >> move.square & 1:
            bit = 1 << move.square
            dark ^= bit
            light ^= bit
            thunder_stones &= ~bit
            woden_stones |= bit
            hand &= ~WODEN_BIT[turn]
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
        return Score(points(self._dark, self._rules), points(self._light, self._rules))

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

    def outcome(self) -> Outcome | None:
        """How the game ended by the rules, ``Outcome(result, "no-moves")``, once neither
        side can move; None while it goes on."""
        if not self.is_over:
            return None
        return Outcome(self.result, END_NO_MOVES)

    # Text ------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of RULES.md, e.g. ``......./…/....... d TWtw``."""
        occupied, dark, thunder, woden = self._occupied, self._dark, self._thunder, self._woden
        chars = []
        for square in range(NUM_SQUARES):
            bit = 1 << square
            if not occupied & bit:
                chars.append(".")
                continue
            char = "T" if thunder & bit else "W" if woden & bit else "S"
            chars.append(char if dark & bit else char.lower())
        hand = "".join(
            letter for bit, letter in zip(HAND_BITS, HAND_LETTERS, strict=True) if self._hand & bit
        )
        return write_position_text("".join(chars), "dl"[self._turn], hand)

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
