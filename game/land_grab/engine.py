# Long: one Position, whose rules are the hot loops of every playout (flip moves,
# claims, the five ends), beside the flood fills and the refusals in words.
"""The rules of Land Grab: drops, flip moves, captures by approach, shifts within a
claim, and the claims that decide the game.

Pure Python and standard library only, so the engine can be tested, benchmarked and
used by the computer players without Django. ``docs/LAND-GRAB.md`` is the rule book
this module implements; the shape of a position (``start``, ``play``,
``legal_moves``, ``record``, ``outcome()``) is every game's (``game.surface``).

The position is three bitboards (bit ``row * 8 + column``, ``A1`` bit 0): the black
tiles (every other tile is white), black's stones and white's. A claim is a flood
fill over one colour's tiles by orthogonal shifts; the claims a flip may not enter
are the enemy's claims that hold an enemy stone, one flood from the enemy stones.

Typical use::

    pos = Position.start()
    pos = pos.play("D4")
    str(pos.legal_moves()[0])   # "A2": white's drops, in the order of their texts
    pos.play("D4-D2")           # IllegalMoveError: the first four plies are drops
    pos.outcome()               # None: the game goes on
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from game.land_grab.notation import (
    BOARD,
    DROPS,
    NAMES,
    PASS,
    SIDE_CHARS,
    SIZE,
    STEPS,
    Move,
    parse_move,
    parse_square,
    read_position_text,
    write_position_text,
)
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
    "CAPTURES",
    "DROP_PLIES",
    "END_ALL_CAPTURED",
    "END_NO_FLIPS",
    "END_PLY_LIMIT",
    "END_QUIET_PLIES",
    "END_REPETITION",
    "ENDS",
    "FULL",
    "PLY_LIMIT",
    "QUIET_LIMIT",
    "SIDES",
    "START_TILES",
    "WORDS",
    "Outcome",
    "Position",
    "Rules",
    "Score",
    "claim_of",
    "claims",
    "compare_claims",
    "squares_of",
]

# Black moves first; identical claims are a draw.
SIDES = Sides(
    first="Black",
    second="White",
    no_winner="draw",
    first_image="land-grab/black-stone.svg",
    second_image="land-grab/white-stone.svg",
)
WORDS = ("black", "white")

END_ALL_CAPTURED = "all-captured"
END_NO_FLIPS = "no-flips"
END_REPETITION = "repetition"
END_QUIET_PLIES = "quiet-plies"
END_PLY_LIMIT = "ply-limit"
# How a game ends (``Outcome.reason``), in the words the record's last line uses.
ENDS = {
    END_ALL_CAPTURED: "all stones captured",
    END_NO_FLIPS: "no flips left",
    END_REPETITION: "threefold repetition",
    END_QUIET_PLIES: "20 plies without a flip",
    END_PLY_LIMIT: "200 plies",
}

# Plies 1 to 4 are the drops; 20 plies in a row without a flip, or 200 in all, end it.
DROP_PLIES = 4
QUIET_LIMIT = 20
PLY_LIMIT = 200


class Outcome(SurfaceOutcome):
    """How a game ended: ``("white", "all-captured")``, ``("draw", "no-flips")``…"""

    __slots__ = ()
    FIRST, SECOND = WORDS


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The options of a game of Land Grab: none, so every game is played alike."""

    OPTIONS: ClassVar[tuple[OnOff | Choice, ...]] = ()

    @property
    def summary(self) -> str:
        """The rules in a few words."""
        return "Standard rules"


class _Largest(NamedTuple):
    black: int
    white: int


class Score(_Largest):
    """Each side's largest claim (``black``, ``white``: the pair the site's pages and
    cache show), with every claim of each side by size, largest first (``claims``);
    ``str(score)`` is the rule book's ``Black: 24 1 1 1 1 1, White: 15 14 6``."""

    claims: tuple[tuple[int, ...], tuple[int, ...]]

    def __new__(cls, black: tuple[int, ...], white: tuple[int, ...]) -> Score:
        score = super().__new__(cls, black[0] if black else 0, white[0] if white else 0)
        score.claims = (black, white)
        return score

    def __str__(self) -> str:
        black, white = self.claims
        return f"Black: {' '.join(map(str, black))}, White: {' '.join(map(str, white))}"


# --- The board, built once -------------------------------------------------------------

FULL = (1 << SIZE * SIZE) - 1
_COLUMN_A = sum(1 << row * SIZE for row in range(SIZE))
_NOT_A = FULL ^ _COLUMN_A
_NOT_H = FULL ^ (_COLUMN_A << SIZE - 1)
# The start's checkerboard: black where column plus row (from 1) is even, A1 black.
START_TILES = sum(
    1 << row * SIZE + column
    for row in range(SIZE)
    for column in range(SIZE)
    if (row + column) % 2 == 0
)

# Each square's eight rays, nearest square first, to the edge.
RAYS = tuple(
    tuple(tuple(BOARD.ray(square, direction)) for direction in range(len(BOARD.directions)))
    for square in BOARD.cells
)


def _flip_table() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each square, every (direction, target, the square beyond it or -1) along its
    rays, a ray's squares together and nearest first: the flip moves' walk."""
    table = []
    for square in BOARD.cells:
        walks = []
        for ray in RAYS[square]:
            walk = []
            for at, target in enumerate(ray):
                beyond = ray[at + 1] if at + 1 < len(ray) else -1
                walk.append((target, 1 << target, beyond))
            walks.append(tuple(walk))
        table.append(tuple(walks))
    return tuple(table)


# ``WALKS[origin]``: one tuple per direction of (target, target's bit, beyond or -1).
WALKS = _flip_table()

# Every capture, interned: ``CAPTURES[(origin, target)]`` takes the stone just beyond.
CAPTURES = {
    (origin, target): Move(target, origin, beyond)
    for origin in BOARD.cells
    for walk in WALKS[origin]
    for target, _, beyond in walk
    if beyond >= 0
}


def grow(region: int) -> int:
    """``region`` with every square orthogonally next to it."""
    return (
        region
        | ((region & _NOT_H) << 1)
        | ((region & _NOT_A) >> 1)
        | ((region << SIZE) & FULL)
        | (region >> SIZE)
    )


def claim_of(seed: int, tiles: int) -> int:
    """The squares of ``tiles`` joined orthogonally to ``seed`` (a bitboard within
    ``tiles``): the claim, or the claims, that ``seed`` lies in."""
    region = seed
    while True:
        larger = grow(region) & tiles
        if larger == region:
            return region
        region = larger


def claims(tiles: int) -> list[int]:
    """The sizes of the claims of ``tiles``, largest first."""
    sizes = []
    while tiles:
        claim = claim_of(tiles & -tiles, tiles)
        sizes.append(claim.bit_count())
        tiles ^= claim
    sizes.sort(reverse=True)
    return sizes


def compare_claims(black: list[int], white: list[int]) -> int:
    """1 when black's claims win, -1 when white's do, 0 when the lists are the same:
    the largest against the largest, then the next, a missing claim counting 0."""
    # Every claim has at least one tile, so a shorter list loses to a longer one
    # that agrees with it as far as it goes, as a list padded with 0 would.
    return (black > white) - (black < white)


def squares_of(mask: int) -> Iterator[int]:
    """The squares of a bitboard, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def flip_moves(own: int, enemy: int, enemy_tiles: int, first: bool = False) -> list[Move]:
    """The flip moves (and captures) of the stones ``own`` against the stones ``enemy``
    on a board whose mover's enemy tiles are ``enemy_tiles``; with ``first``, at most
    one, as soon as one is found (whether the mover has a flip at all)."""
    occupied = own | enemy
    # The enemy's claims that hold an enemy stone: no plain flip may enter them.
    guarded = claim_of(enemy, enemy_tiles)
    found = []
    for origin in squares_of(own):
        row = STEPS[origin]
        for walk in WALKS[origin]:
            for target, bit, beyond in walk:
                if occupied & bit:
                    break
                if enemy_tiles & bit:
                    if beyond >= 0 and enemy >> beyond & 1:
                        found.append(CAPTURES[origin, target])
                    elif not guarded & bit:
                        found.append(row[target])
                    else:
                        continue
                    if first:
                        return found
    return found


def shifts(own: int, occupied: int, own_tiles: int) -> list[Move]:
    """The shifts of the stones ``own``: orthogonal steps over the empty tiles of a
    stone's own claim, to any other tile of it."""
    found = []
    for origin in squares_of(own):
        bit = 1 << origin
        reach = claim_of(bit, own_tiles & ~(occupied ^ bit)) ^ bit
        row = STEPS[origin]
        found.extend(row[target] for target in squares_of(reach))
    return found


# --- Position ---------------------------------------------------------------------------


class Position(PositionBase):
    """A moment of a game: the tiles' faces, each side's stones, the side to move, and
    the counts the ends need (plies, plies since a flip, whether the last turn was
    flipless).

    Immutable: ``play`` returns a new position and leaves this one as it was. Make one
    with ``Position.start``, ``Position.replay`` or ``Position.from_text``. Positions
    compare equal when tiles, stones and side to move agree, however they were
    reached (the repetition rule's sense of "the same position").
    """

    __slots__ = (
        "_black",
        "_end",
        "_flipless",
        "_last",
        "_moves",
        "_parent",
        "_ply",
        "_quiet",
        "_rules",
        "_stones",
        "_tiles",
        "_turn",
    )

    _tiles: int
    _stones: tuple[int, int]
    _turn: int
    _ply: int
    _quiet: int
    _flipless: bool
    _rules: Rules
    _parent: Position | None
    _last: Move | None
    _moves: list[Move] | None
    _end: Outcome | None

    def __init__(self) -> None:
        raise TypeError("use Position.start(), Position.replay() or Position.from_text()")

    # Construction ----------------------------------------------------------------------

    @classmethod
    def _make(
        cls,
        tiles: int,
        stones: tuple[int, int],
        turn: int,
        ply: int,
        quiet: int,
        flipless: bool,
        rules: Rules | None,
    ) -> Position:
        pos = object.__new__(cls)
        pos._tiles, pos._stones, pos._turn = tiles, stones, turn
        pos._ply, pos._quiet, pos._flipless = ply, quiet, flipless
        pos._rules = rules if rules is not None else Rules()
        pos._parent = None
        pos._last = None
        pos._moves = None
        pos._end = None
        return pos

    @classmethod
    def start(cls, rules: Rules | None = None) -> Position:
        """The checkerboard with no stone on it, black to drop."""
        return cls._make(START_TILES, (0, 0), 0, 0, 0, False, rules)

    @classmethod
    def replay(
        cls,
        rules: Rules | Iterable[Move | str] | str | None = None,
        record: Iterable[Move | str] | str | None = None,
        start: Position | None = None,
    ) -> Position:
        """Play a record (notation strings or moves) from the start, or from ``start``:
        ``Position.replay(rules, record)`` or ``Position.replay(record)``. A record given
        as one string is split at commas, semicolons and line ends, never at spaces
        (``split_moves`` reads a whole record's text).

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
        """Set up the position that position text describes (docs/LAND-GRAB.md,
        "Position text"). The earlier positions are unknown, so repetition counts from
        here; the other ends are found as after a move.

        Raises ``InvalidPositionError`` for malformed text and for what no game
        reaches: a side to move that the ply's parity denies, more than two stones a
        side, stones that do not match the drops played, a flipless turn among the
        drops, more quiet plies than plies or than the limit, a ply past the limit,
        or a side left without stones that is not the side to move.
        """
        found = read_position_text(text)
        if found.error:
            raise InvalidPositionError(found.error)
        tiles = black = white = 0
        for square, char in enumerate(found.board):
            bit = 1 << square
            if char in "bB":
                tiles |= bit
            if char == "B":
                black |= bit
            elif char == "W":
                white |= bit
        turn = SIDE_CHARS.index(found.side)
        ply, quiet = found.ply, found.quiet
        if ply % 2 != turn:
            raise InvalidPositionError(
                f"after {ply} plies it is {WORDS[ply % 2]}'s turn: black plays the odd plies"
            )
        counts = (black.bit_count(), white.bit_count())
        if max(counts) > 2:
            raise InvalidPositionError("each side has two stones at most")
        if ply < DROP_PLIES:
            dropped = ((ply + 1) // 2, ply // 2)
            if counts != dropped:
                raise InvalidPositionError(
                    f"after {ply} drops black has {dropped[0]} stones and white {dropped[1]}"
                )
            if found.flipless:
                raise InvalidPositionError("a drop is never a flipless turn")
        elif counts[1 - turn] == 0:
            raise InvalidPositionError(
                f"{WORDS[1 - turn]} has no stone left, so {WORDS[1 - turn]} cannot have just moved"
            )
        if quiet > min(ply, QUIET_LIMIT):
            raise InvalidPositionError(
                f"{quiet} plies without a flip: there are at most {min(ply, QUIET_LIMIT)}"
            )
        if ply > PLY_LIMIT:
            raise InvalidPositionError(f"a game ends at ply {PLY_LIMIT}")
        pos = cls._make(tiles, (black, white), turn, ply, quiet, found.flipless, rules)
        pos._end = pos._find_end(captured=ply >= DROP_PLIES and counts[turn] == 0)
        return pos

    # Reading the position ----------------------------------------------------------

    # ``rules``, ``turn``, ``ply``, ``last_move``, ``history`` and ``record`` are
    # PositionBase's.

    @property
    def tiles(self) -> int:
        """The black tiles, as a bitboard (bit ``row * 8 + column``); the rest are white."""
        return self._tiles

    @property
    def stones(self) -> tuple[int, int]:
        """Black's and white's stones, as bitboards."""
        return self._stones

    @property
    def quiet(self) -> int:
        """The plies played since the last flip (or since the start)."""
        return self._quiet

    @property
    def flipless(self) -> bool:
        """True when the turn just played was flipless: its player had no flip move."""
        return self._flipless

    @property
    def is_dropping(self) -> bool:
        """True while the four drops are being played."""
        return self._ply < DROP_PLIES

    def tile_at(self, square: str | int) -> Color:
        """The face of the tile on ``square``: ``Color.DARK`` black, ``Color.LIGHT`` white.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        at = parse_square(square.strip()) if isinstance(square, str) else square
        return Color.DARK if self._tiles >> at & 1 else Color.LIGHT

    def stone_at(self, square: str | int) -> Color | None:
        """The seat whose stone is on ``square`` (``Color.DARK`` black), or None if empty.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        at = parse_square(square.strip()) if isinstance(square, str) else square
        if self._stones[0] >> at & 1:
            return Color.DARK
        if self._stones[1] >> at & 1:
            return Color.LIGHT
        return None

    def board(self) -> tuple[tuple[Color, Color | None], ...]:
        """Every square's tile face and stone, ``A1`` to ``H8``."""
        return tuple((self.tile_at(square), self.stone_at(square)) for square in BOARD.cells)

    def claim(self, square: str | int) -> tuple[int, ...]:
        """The squares of the claim that ``square``'s tile is in, in square order.

        Raises ``InvalidMoveError`` for a square that is not on the board.
        """
        at = parse_square(square.strip()) if isinstance(square, str) else square
        tiles = self._tiles if self._tiles >> at & 1 else FULL ^ self._tiles
        return tuple(squares_of(claim_of(1 << at, tiles)))

    def claims(self) -> tuple[tuple[int, ...], ...]:
        """Every claim on the board as its squares, black's then white's, each side's
        largest first (ties in square order)."""
        found = []
        for tiles in (self._tiles, FULL ^ self._tiles):
            side = []
            while tiles:
                claim = claim_of(tiles & -tiles, tiles)
                side.append(tuple(squares_of(claim)))
                tiles ^= claim
            side.sort(key=lambda squares: (-len(squares), squares))
            found.extend(side)
        return tuple(found)

    def score(self) -> Score:
        """Each side's largest claim, and all its claims by size, largest first."""
        return Score(tuple(claims(self._tiles)), tuple(claims(FULL ^ self._tiles)))

    # Moves -----------------------------------------------------------------------

    def _sides(self) -> tuple[int, int, int]:
        """The mover's stones, the enemy's, and the mover's tiles."""
        black, white = self._stones
        if self._turn:
            return white, black, FULL ^ self._tiles
        return black, white, self._tiles

    def moves(self) -> list[Move]:
        """Every move the side to move may play, in no promised order (the search's
        list; ``legal_moves`` sorts it): the drops, or the flip moves and shifts, or
        ``Pass`` alone when there is nothing else; [] once the game is over."""
        if self._moves is not None:
            return self._moves
        if self._end is not None:
            found: list[Move] = []
        else:
            own, enemy, own_tiles = self._sides()
            occupied = own | enemy
            if self._ply < DROP_PLIES:
                found = [DROPS[square] for square in squares_of(own_tiles & ~occupied)]
            else:
                found = flip_moves(own, enemy, FULL ^ own_tiles)
                found += shifts(own, occupied, own_tiles)
            if not found:
                found = [PASS]
        self._moves = found
        return found

    def legal_moves(self) -> list[Move]:
        """Every move the side to move may play, in the order of their texts (plain
        ``sorted()``, as the rule book's figures list them); [] once the game is over."""
        return sorted(self.moves(), key=str)

    def has_flip(self) -> bool:
        """True when the side to move has a flip move (a capture is one) now."""
        if self._ply < DROP_PLIES or self._end is not None:
            return False
        own, enemy, own_tiles = self._sides()
        return bool(flip_moves(own, enemy, FULL ^ own_tiles, first=True))

    def targets(self, square: str | int) -> tuple[Move, ...]:
        """The moves of the stone on ``square`` now, in square order of their targets:
        none when it is no stone of the side to move, or the game is over."""
        at = parse_square(square.strip()) if isinstance(square, str) else square
        found = [move for move in self.moves() if move.origin == at]
        found.sort(key=lambda move: move.target)
        return tuple(found)

    @property
    def is_over(self) -> bool:
        """True once one of the rule book's five ends has come."""
        return self._end is not None

    def why_illegal(self, move: Move | str) -> str | None:
        """Why a move may not be played now, in a player's words, or None if it may.

        Raises ``InvalidMoveError`` for text that is not a move.
        """
        if not isinstance(move, Move):
            move = parse_move(move)
        if self._end is not None:
            return "the game is over"
        who, whose = WORDS[self._turn], WORDS[1 - self._turn]
        own, enemy, own_tiles = self._sides()
        occupied = own | enemy
        target, origin = move.target, move.origin
        if self._ply < DROP_PLIES:
            if target is None or origin is not None:
                return "the first four plies are drops: write the square of a tile, like D4"
            if occupied >> target & 1:
                return f"{NAMES[target]} holds a stone"
            if not own_tiles >> target & 1:
                return f"{NAMES[target]} is a {whose} tile: {who} drops on a {who} tile"
            return None
        if target is None:
            if self.moves() != [PASS]:
                return f"{who} may pass only when nothing else is legal"
            return None
        if origin is None:
            return "the drops are over: move a stone, like D4-D2"
        name, goal = NAMES[origin], NAMES[target]
        if not occupied >> origin & 1:
            return f"there is no stone on {name}"
        if enemy >> origin & 1:
            return f"the stone on {name} is {whose}: {who} is to move"
        if origin == target:
            return f"{name}-{goal} does not move"
        if occupied >> target & 1:
            return f"{goal} holds a stone"
        legal = self._find(origin, target)
        if legal is not None:
            if move.capture is not None and move.capture != legal.capture:
                if legal.capture is None:
                    return f"{name}-{goal} captures nothing"
                return f"{name}-{goal} captures the stone on {NAMES[legal.capture]}"
            return None
        if own_tiles >> target & 1:
            claim = claim_of(1 << origin, own_tiles)
            if not claim >> target & 1:
                return (
                    f"{goal} is not in the claim of {name}: a stone shifts only within its "
                    "own claim"
                )
            return f"the other {who} stone blocks the way from {name} to {goal}"
        ray = next((ray for ray in RAYS[origin] if target in ray), None)
        if ray is None:
            return f"{goal} is not on a line from {name}"
        blocked = next((square for square in ray if occupied >> square & 1), None)
        if blocked is not None and ray.index(blocked) < ray.index(target):
            return f"{name}-{goal} would pass the stone on {NAMES[blocked]}"
        return f"that claim holds a {whose} stone"

    def _find(self, origin: int, target: int) -> Move | None:
        """The legal move from ``origin`` to ``target``, or None."""
        for move in self.moves():
            if move.origin == origin and move.target == target:
                return move
        return None

    # Playing -----------------------------------------------------------------------

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a ``Move`` or notation text); this one is unchanged.
        ``from-to`` plays the capture it makes, with or without its ``x`` square.

        Raises ``InvalidMoveError`` for text that is not a move and ``IllegalMoveError``
        (saying why) for a move the rules forbid here.
        """
        if move.__class__ is not Move:
            move = parse_move(move)
        moves = self._moves if self._moves is not None else self.moves()
        if move not in moves:
            legal = None
            if move.origin is not None and move.target is not None and move.capture is None:
                legal = self._find(move.origin, move.target)
            if legal is None:
                raise IllegalMoveError(f"illegal move {str(move)!r}: {self.why_illegal(move)}")
            move = legal
        return self._after(move)

    def _after(self, move: Move) -> Position:
        """The position after ``move``, which is legal here."""
        turn = self._turn
        tiles = self._tiles
        stones = list(self._stones)
        target, origin, capture = move
        quiet = self._quiet + 1
        flipless = False
        if target is None:
            flipless = True
        elif origin is None:
            stones[turn] |= 1 << target
        else:
            stones[turn] ^= (1 << origin) | (1 << target)
            if (tiles >> target & 1) == turn:
                # The target is an enemy tile (black's tiles are 1s, black's turn 0):
                # it turns over to the mover's colour.
                tiles ^= 1 << target
                quiet = 0
                if capture is not None:
                    stones[1 - turn] ^= 1 << capture
            else:
                flipless = not self.has_flip()
        child = object.__new__(Position)
        child._tiles = tiles
        child._stones = (stones[0], stones[1])
        child._turn = 1 - turn
        child._ply = self._ply + 1
        child._quiet = quiet
        child._flipless = flipless
        child._rules = self._rules
        child._parent = self
        child._last = move
        child._moves = None
        child._end = None
        child._end = child._find_end(captured=capture is not None and not stones[1 - turn])
        return child

    def _find_end(self, captured: bool) -> Outcome | None:
        """The end this position stands at, checked in the rule book's order."""
        if captured:
            return Outcome(WORDS[1 - self._turn], END_ALL_CAPTURED)
        if self._flipless and not self.has_flip():
            reason = END_NO_FLIPS
        elif self._repeated():
            reason = END_REPETITION
        elif self._quiet >= QUIET_LIMIT:
            reason = END_QUIET_PLIES
        elif self._ply >= PLY_LIMIT:
            reason = END_PLY_LIMIT
        else:
            return None
        order = compare_claims(claims(self._tiles), claims(FULL ^ self._tiles))
        return Outcome(
            WORDS[0] if order > 0 else WORDS[1] if order < 0 else SIDES.no_winner, reason
        )

    def _repeated(self) -> bool:
        """True when this position stands for the third time in the game."""
        seen = 1
        tiles, stones = self._tiles, self._stones
        pos = self._parent
        # The side to move alternates, so only every other position can be the same.
        while pos is not None:
            pos = pos._parent
            if pos is None:
                break
            if pos._tiles == tiles and pos._stones == stones:
                seen += 1
                if seen == 3:
                    return True
            pos = pos._parent
        return False

    # Result ----------------------------------------------------------------------------

    @property
    def result(self) -> str | None:
        """``"black"``, ``"white"`` or ``"draw"`` once the game is over, else None."""
        return self._end.result if self._end is not None else None

    @property
    def winner(self) -> Color | None:
        """The seat that won (``Color.DARK`` black), or None while the game runs or
        when it was drawn."""
        return self._end.winner if self._end is not None else None

    def outcome(self) -> Outcome | None:
        """How the rules ended the game (``Outcome("black", "quiet-plies")``), or None."""
        return self._end

    def verdict(self) -> str | None:
        """The record's last line once the game is over, as the rule book writes it
        (``Black wins on claims: no flips left``, ``White wins: all stones captured``,
        ``Draw on claims: 200 plies``), or None while it runs."""
        end = self._end
        if end is None:
            return None
        if end.reason == END_ALL_CAPTURED:
            return f"{end.result.capitalize()} wins: {ENDS[end.reason]}"
        if end.winner is None:
            return f"Draw on claims: {ENDS[end.reason]}"
        return f"{end.result.capitalize()} wins on claims: {ENDS[end.reason]}"

    # Text ------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text of docs/LAND-GRAB.md: eight rows of ``b``, ``w``, ``B``
        and ``W`` separated by ``/``, then the side to move, the ply, the plies since
        the last flip and ``f`` or ``-``."""
        tiles = self._tiles
        black, white = self._stones
        chars = []
        for square in BOARD.cells:
            if black >> square & 1:
                chars.append("B")
            elif white >> square & 1:
                chars.append("W")
            else:
                chars.append("b" if tiles >> square & 1 else "w")
        return write_position_text(
            "".join(chars), SIDE_CHARS[self._turn], self._ply, self._quiet, self._flipless
        )

    def _key(self) -> tuple[object, ...]:
        return (self._rules, self._tiles, self._stones, self._turn)
