"""Draw a Mǽrstánas position: the plain values the board, status and move list
templates show.

Templates show; they never call rules. Everything a page needs to know about a
position (which squares are open, why the others are closed, what a thunder-stone
would clear, whose turn it is, the score) is asked of the engine here. Nothing here
knows about saved games: a live game, a replay, an analysis board or a hint all draw
an engine ``Position`` with the same code, given what the viewer may do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from game.boards import SquareBoard
from game.drawing import RowNumber, mover_now, piece_image, row_numbers
from game.fragments import Fragments, drawn_by
from game.grid import (
    SQUARES,
)
from game.maerstanas.engine import ENDS, Position
from game.maerstanas.notation import Move, Stone, move_of, parse_move
from game.maerstanas.rules import BOARD, SIDES
from game.moves import Status, ended_outside_rules
from game.moves import describe as status_of
from game.sides import Sides
from game.surface import (
    Color,
    Outcome,
)

# Keyed by ``Stone``, a StrEnum, so its plain values ("thunder") find the names too.
STONE_NAMES = {Stone.STONE: "stone", Stone.THUNDER: "thunder-stone", Stone.WODEN: "Woden-stone"}


# The board ----------------------------------------------------------------------------------


@drawn_by("maerstanas/_square.html", "cell")
class Cell(NamedTuple):
    """One square as the page shows it. A named tuple, not a dataclass: 49 are made for
    every board drawn, and a frozen dataclass takes 2.5 times as long to make."""

    name: str
    color: str  # "" for an empty square
    kind: str
    image: str
    label: str  # what a screen reader says
    value: str  # the move its button plays; "" when the viewer cannot play it
    reason: str  # why it cannot be played, when the viewer is to move
    clears: str  # for a thunder target: the squares it would clear, space-separated
    is_last: bool  # the last move was played here
    was_cleared: bool  # the last move's thunder-stone cleared this square
    is_hint: bool  # the hint asked for is a move here
    hinges: str  # the sides its stone scores by ("nwes"), when they are shown
    better: str = ""  # looking back before a judged move: the better move, played here


ROW_NUMBERS = row_numbers(BOARD)


@dataclass(frozen=True, slots=True)
class Choice:
    """A kind of stone the player to move may pick."""

    kind: str
    name: str
    selected: bool
    available: bool
    note: str  # why it is not available
    image: str


@drawn_by("maerstanas/_stones.html", "stones")
@dataclass(frozen=True, slots=True)
class Stones:
    """The stone selector; empty for a viewer who cannot move."""

    choices: tuple[Choice, ...] = ()
    target: str = "#game"  # the part of the page a choice redraws


@dataclass(frozen=True, slots=True)
class Board:
    """A position drawn for one viewer: its squares and, if they may move, the stones."""

    squares: Fragments  # row by row, each row's number before its seven squares
    stone: Stone  # the kind of stone the open squares' buttons place
    mover: Color | None  # the side the viewer places a stone for now; None: they look
    stones: Stones
    wraparound: bool
    note: str = ""  # why the stone chosen for the viewer is not the one they picked
    geometry: SquareBoard = BOARD  # the board's shape: its columns' letters, its rows
    game: str = "maerstanas"  # whose stylesheet lays it out (static/maerstanas/board.css)
    hint: str = ""  # the hinted move in words ("thunder-stone on E5, clearing E4 and D5")

    @property
    def can_move(self) -> bool:
        return self.mover is not None

    @property
    def kept(self) -> str:
        """The query that keeps the stone chosen when the page is redrawn."""
        return f"stone={self.stone}"

    @property
    def stone_name(self) -> str:
        return STONE_NAMES[self.stone]

    @property
    def task(self) -> str:
        """What a viewer who may move does on the board, in words."""
        mover = self.mover.value if self.mover is not None else ""
        return f"choose a square for {mover}'s {self.stone_name}"

    @property
    def wraparound_note(self) -> str:
        """The board's wraparound in words, beside its double border; "" without it."""
        return "Wraparound: the edges join up" if self.wraparound else ""


def draw_board(
    position: Position,
    mover: Color | None = None,
    stone: str = "stone",  # pragma: no mutate (an unknown kind falls back to a stone: the default)
    hint: Move | str | None = None,
    hinges: bool = False,
    target: str = "#game",
    held_only: bool = False,
    here: str = "?",  # noqa: ARG001 (the stone links are the templates' to make)
    better: Move | str | None = None,
) -> Board:
    """The board of ``position`` for a viewer who may place ``mover``'s next stone.

    ``mover`` is None for a viewer who only looks (a watcher, a replay, the other
    player), and is ignored unless it is the side to move of a game still going on.
    ``stone`` is the kind chosen; one the mover cannot place falls back to a stone, and
    "" (the viewer chose none) is the hint's kind, so its marked square plays it.
    ``hint``, a move or its notation, marks its square and is said in words
    (``Board.hint``). ``hinges`` shows the sides every stone
    scores by, so a new player sees where the points come from. ``target`` is the
    part of the page a choice of stone redraws; ``held_only`` offers only the stones
    the mover holds (a lesson shows none it never gave as spent). ``better``, a move
    or its notation, marks its square as the better move than one played from here
    (the review's, looking back at the moment before a mistake).
    """
    mover = mover_now(position, mover)
    if isinstance(hint, str):
        hint = parse_move(hint)
    if not stone and hint is not None and not hint.is_pass:
        stone = hint.stone
    kind = Stone(stone) if stone in Stone.__members__.values() else Stone.STONE
    if mover is None or (kind is not Stone.STONE and not position.has_special(mover, kind)):
        kind = Stone.STONE
    legal = position.legal_moves() if mover else []
    note = ""
    playable = [k for k in Stone if any(move.stone is k for move in legal)]
    if kind is Stone.STONE and playable and Stone.STONE not in playable:
        # Every empty square would give a stone a fourth hinge: only a special
        # stone can be played, so it is chosen, and the player is told why.
        kind = playable[0]
        names = " or ".join(f"your {STONE_NAMES[k]}" for k in playable)
        note = f"No square takes a plain stone now: only {names} can be played"
    open_moves = {move.square: move for move in legal if move.stone is kind}
    last = position.last_move
    if last is not None and last.is_pass:
        # The stone placed before a forced pass stays marked: it is what was played.
        placed = [played.move for played in position.history if not played.move.is_pass]
        last = placed[-1] if placed else None
    last_square = last.square if last is not None else None
    cleared = set(position.last_removed)
    hint_square = hint.square if hint is not None else None
    if isinstance(better, str):
        better = parse_move(better)
    better_square = better.square if better is not None else None
    board = position.board()
    squares: list[Cell | RowNumber] = []
    width = BOARD.width
    for row, number in enumerate(ROW_NUMBERS):
        squares.append(number)
        for square in SQUARES[row * width : (row + 1) * width]:
            on = board[square]
            color, stone_kind = on if on else ("", "")  # StrEnums: they are their values
            value = reason = clears = ""
            if square in open_moves:
                value = str(open_moves[square])
                if kind is Stone.THUNDER:
                    clears = " ".join(map(str, position.thunder_clears(square)))
            elif mover is not None and (not color or kind is Stone.WODEN):
                # An occupied square needs no reason for a stone or a thunder-stone:
                # its label already says which stone is there.
                # Every square a viewer may not play has a reason from the engine.
                reason = position.why_illegal(move_of(kind, square)) or ""  # pragma: no mutate
            squares.append(
                Cell(
                    name=str(square),
                    color=color,
                    kind=stone_kind,
                    image=piece_image(color, stone_kind) if color else "",
                    label=_label(square, color, stone_kind, reason, clears),
                    value=value,
                    reason=reason,
                    clears=clears,
                    is_last=square == last_square,
                    was_cleared=square in cleared,
                    is_hint=square == hint_square,
                    hinges=position.scoring_sides(square) if hinges and color else "",
                    better=str(better) if square == better_square else "",
                )
            )
    return Board(
        squares=Fragments(squares),
        stone=kind,
        mover=mover,
        stones=Stones(
            tuple(
                choice
                for choice in (_choices(position, mover, kind, playable) if mover else ())
                if choice.available or not held_only
            ),
            target=target,
        ),
        wraparound=position.rules.wraparound,
        note=note,
        hint=hint_words(position, hint) if hint is not None else "",
    )


def hint_words(position: Position, hint: Move) -> str:
    """A move of ``position`` in words, as a hint tells a new player what it does:
    "stone on D4", "thunder-stone on E5, clearing E4 and D5", "Woden-stone on C3,
    taking over light's stone"."""
    if hint.is_pass:
        return "pass"
    square = SQUARES[hint.square]
    words = f"{STONE_NAMES[hint.stone]} on {square}"
    if hint.stone is Stone.THUNDER:
        cleared = [str(cleared) for cleared in position.thunder_clears(square)]
        if not cleared:
            return f"{words}, clearing nothing"
        listed = ", ".join(cleared[:-1]) + " and " + cleared[-1] if len(cleared) > 1 else cleared[0]
        return f"{words}, clearing {listed}"
    if hint.stone is Stone.WODEN and (taken := position.stone_at(square)) is not None:
        color, kind = taken
        return f"{words}, taking over {color.value}'s {STONE_NAMES[kind]}"
    return words


def _label(square: object, color: str, kind: str, reason: str, clears: str) -> str:
    """What a screen reader says of a square."""
    label = f"{square}, {color} {STONE_NAMES[kind]}" if color else f"{square}, empty"
    if reason:
        return f"{label}: {reason}"
    if clears:
        return f"{label}: a thunder-stone here clears {clears.replace(' ', ', ')}"
    return label


def _choices(
    position: Position, mover: Color, selected: Stone, playable: list[Stone]
) -> tuple[Choice, ...]:
    kinds = tuple(Stone) if position.rules.special_stones else (Stone.STONE,)
    choices = []
    for kind in kinds:
        if kind is Stone.STONE:
            available = Stone.STONE in playable or not playable
            note = "" if available else "no square"
        else:
            available = position.has_special(mover, kind)
            note = "" if available else "spent"
        choices.append(
            Choice(
                kind.value,
                STONE_NAMES[kind].capitalize(),
                selected is kind,
                available,
                note,
                piece_image(mover.value, kind.value),
            )
        )
    return tuple(choices)


# The status: scores, whose turn, the result ---------------------------------------------------


def why(outcome: Outcome, sides: Sides = SIDES) -> str:
    """Why a game ended, in words: "Light resigned", "Neither side can move"."""
    return ended_outside_rules(outcome, sides) or ENDS[outcome.reason]


def describe(
    position: Position,
    outcome: Outcome | None,
    seated: frozenset[str],
    waiting: bool = False,
    going_on: bool = True,
    sides: Sides = SIDES,
) -> Status:
    """The status of ``position`` for a viewer holding the ``seated`` colours, with the
    special stones each side holds (``game.moves.describe``), its sides named as
    ``sides`` say."""
    return status_of(
        position,
        outcome,
        seated,
        waiting,
        why,
        going_on,
        sides,
        dark_hand=_hand(position, Color.DARK),
        light_hand=_hand(position, Color.LIGHT),
    )


# The special stones in hand, in few words: they sit under each side's name.
HAND_NAMES = {Stone.THUNDER: "thunder", Stone.WODEN: "Woden"}


def _hand(position: Position, color: Color) -> str:
    """The special stones ``color`` still holds, in words, for every viewer to see."""
    if not position.rules.special_stones:
        return ""
    held = [name for k, name in HAND_NAMES.items() if position.has_special(color, k)]
    return "holds " + (" and ".join(held) if held else "no special stones")


def announcement(position: Position, status: Status) -> str:
    """What a screen reader says when the board changes: the last move and what now."""
    last = position.last_played
    name = status.sides.name
    if last is None:
        return f"The game has started. {name(position.turn)} to move."
    played = "passed" if last.move.is_pass else f"played {last.text}"
    if status.finished:
        return f"{name(last.color)} {played}. {status.headline}. {status.score}."
    return f"{name(last.color)} {played}. {status.turn_name} to move."
