"""The shared position surface: what every game's engine says alike, whatever its board.

Pure Python, standard library only. The errors a move or a position text raises, the
two seats (``Color``: dark, the side that moves first, and light, whatever a game
calls its sides), how a game ended (``Outcome``), what was played (``Played``), what
every ``Position`` has alike (``PositionBase``) and the reader of a record's moves
(``move_splitter``). Each game's engine builds its rules on these and on its board
(``game.boards``, or the 7×7 ``game.grid`` of John Beers's games).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any, Generic, NamedTuple, TypeVar

__all__ = [
    "COLORS",
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "MoveError",
    "Outcome",
    "Played",
    "PositionBase",
    "move_splitter",
    "seat_outcome",
]


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
    ``Outcome``): ``result`` is the winner in the game's own words, ``"dark"`` or
    ``"light"`` in Mǽrstánas and Cyngesheall, or its word for a game nobody won
    (``"tie"``, ``"draw"``); ``reason`` is the game's own name for the end
    (``"no-moves"`` in Mǽrstánas).

    A game whose rule book names its sides otherwise says so in a subclass, which
    ``winner`` reads to find the seat::

        class Outcome(surface.Outcome):
            __slots__ = ()
            FIRST, SECOND = "blue", "red"
    """

    result: str
    reason: str

    # The words of ``result`` for a win by the side that moves first (the dark seat)
    # and by the other (the light seat).
    FIRST = Color.DARK.value
    SECOND = Color.LIGHT.value

    @property
    def winner(self) -> Color | None:
        """The seat of the side that won, or None when nobody won."""
        if self.result == self.FIRST:
            return Color.DARK
        if self.result == self.SECOND:
            return Color.LIGHT
        return None


def seat_outcome(outcome: Outcome | None) -> Outcome | None:
    """``outcome`` as the site stores and shows every game's: its result the winner's
    seat (``"dark"``, ``"light"``) or the game's word for nobody winning, whatever a
    rule book calls its sides (Parking Lot's ``"blue"`` is the dark seat); None stays
    None."""
    if outcome is None:
        return None
    winner = outcome.winner
    return Outcome(winner.value if winner is not None else outcome.result, outcome.reason)


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
