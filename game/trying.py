"""A line tried from a moment of a game, on a board of its own (``/g/<id>/try``).

The line is in the address (``?ply=N&line=D4,T E5``): trying moves changes nothing
saved, so it is a GET like a lesson's move, and the game itself is never touched.
Each position of a line may be estimated by the strongest level, sharing the
analyses every game and board has (``game.computer.request_analysis``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from game.computer import analysis_key
from game.models import Analysis, Game
from game.surface import (
    MoveError,
)

# The longest line kept: moves past it are refused, and text past its length unread.
MAX_LINE = 60
MAX_LINE_TEXT = 60 * 12
SEPARATOR = ","


class LineError(ValueError):
    """A line in the address that is not one of the game's moments' continuations."""


@dataclass(frozen=True, slots=True)
class Step:
    """A move of the line as the page lists it: its number in the game, its side,
    its notation, and the address of the line up to it."""

    number: int
    color: str
    text: str
    url: str


@dataclass(frozen=True, slots=True)
class TryPage:
    game: Game
    ply: int  # the moment of the game the line starts from
    line: tuple[str, ...]  # the moves chosen, in notation (forced passes are not)
    steps: tuple[Step, ...]  # every move played from the moment, passes too
    board: Any
    status: Any
    position_text: str
    url: str  # this line's address
    start_url: str  # the moment's own board, the line cleared
    undo_url: str  # the line less its last move; "" when empty
    game_url: str  # the game at that moment
    refused: str  # why the move tried was not played
    analysis: Analysis | None  # the estimate of the position, asked for or done

    @property
    def percent(self) -> int | None:
        if self.analysis is None or self.analysis.dark_win is None:
            return None
        return round(100 * self.analysis.dark_win)


def split_line(text: str) -> list[str]:
    """The moves of a line's text, separated by commas."""
    return [move.strip() for move in text[:MAX_LINE_TEXT].split(SEPARATOR) if move.strip()]


def line_url(game: Game, ply: int, line: list[str] | tuple[str, ...]) -> str:
    query = {"ply": ply, "line": SEPARATOR.join(line)} if line else {"ply": ply}
    return f"{reverse('game-try', args=[game.public_id])}?{urlencode(query)}"


def play_line(game: Game, ply: int, line: list[str]) -> Any:
    """The position after ``line`` from the moment ``ply``, the passes it forces
    played. Raises ``LineError`` naming the first move that does not follow."""
    kind = game.game_kind
    position = kind.settle(game.position(ply))
    if len(line) > MAX_LINE:
        raise LineError(f"a line is at most {MAX_LINE} moves long")
    for number, move in enumerate(line, 1):
        try:
            position = kind.settle(position.play(move))
        except MoveError as error:
            raise LineError(f"move {number} of the line, {move[:20]!r}: {error}") from None
    return position


def try_page(game: Game, ply: int, line: list[str], move: str, stone: str) -> TryPage:
    """The board of ``line`` tried from the moment ``ply`` of ``game``, with ``move``
    tried after it ("" for none): refused, it is shown with the board unchanged.
    Raises ``LineError`` for a line that does not follow."""
    kind = game.game_kind
    position = play_line(game, ply, line)
    refused = ""
    if move:
        try:
            if len(line) >= MAX_LINE:
                raise MoveError(f"a line is at most {MAX_LINE} moves long")
            position = kind.settle(position.play(move))
            line = [*line, str(position_move(position, move))]
        except MoveError as error:
            refused = str(error)
    outcome = kind.outcome(position)
    history = position.history[len(position.history) - (position.ply - ply) :]
    chosen: list[str] = []
    steps = []
    for number, played in enumerate(history, ply + 1):
        if not played.move.is_pass:
            chosen.append(str(played.move))
        steps.append(Step(number, played.color.value, played.text, line_url(game, ply, chosen)))
    key = analysis_key(game.rules, position.to_text())
    url = line_url(game, ply, line)
    return TryPage(
        game=game,
        ply=ply,
        line=tuple(line),
        steps=tuple(steps),
        board=kind.drawing.draw_board(
            position,
            None if outcome else position.turn,
            stone or kind.drawing.choice_default,
            target="#try",
            here=f"{url}&",
        ),
        status=kind.drawing.describe(position, outcome, frozenset(), sides=kind.sides),
        position_text=position.to_text(),
        url=url,
        start_url=line_url(game, ply, []),
        undo_url=line_url(game, ply, line[:-1]) if line else "",
        game_url=f"{reverse('game-detail', args=[game.public_id])}?ply={ply}",
        refused=refused,
        analysis=Analysis.objects.filter(kind=game.kind, key=key).first(),
    )


def position_move(position: Any, text: str) -> Any:
    """The move just played to reach ``position`` (passes after it aside), as the
    engine writes it: ``t e5`` is ``T E5``."""
    for played in reversed(position.history):
        if not played.move.is_pass:
            return played.move
    return text
