"""Turn a saved game into plain values for the templates: cells, selector, status, moves.

Templates show; they never call rules. Everything a page needs to know about the
position (which squares are open, why the others are closed, what a thunder-stone
would clear) is asked of the engine here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from game.engine import COLUMNS, SIZE, SQUARES, Color, Position, Stone, move_of
from game.models import Game

STONE_CHOICES = ("stone", "thunder", "woden")
STONE_NAMES = {"stone": "stone", "thunder": "thunder-stone", "woden": "Woden-stone"}
_PREFIX = {"stone": "", "thunder": "T ", "woden": "W "}


class Cell(NamedTuple):
    """One square as the page shows it (hashable: its markup is cached by value)."""

    name: str
    color: str  # "" for an empty square
    kind: str
    image: str
    label: str  # what a screen reader says
    value: str  # the move a button plays; "" when the square cannot be played
    reason: str  # why it cannot be played, when the viewer is to move
    clears: str  # for a thunder target: the squares it would clear, space-separated
    is_last: bool
    was_cleared: bool


@lru_cache(maxsize=8192)
def render_square(cell: Cell) -> SafeString:
    """A square's markup (templates/game/_square.html), rendered once per distinct state.

    A board has 49 squares and a page redraws it on every move; rendering each
    state once keeps a move's answer cheap while the markup stays in a template.
    """
    return get_template("game/_square.html").render({"cell": cell})


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str
    name: str
    selected: bool
    available: bool
    note: str
    image: str


@dataclass
class BoardView:
    game: Game
    seated: set[str]
    stone: str
    can_move: bool
    rows: list[tuple[str, SafeString]]
    choices: list[Choice]
    moves: list[tuple[int, str, str]]
    status: dict[str, object]
    error: str = ""

    @property
    def urls(self) -> GameUrls:
        return game_urls(self.game.public_id)

    @property
    def poll_url(self) -> str:
        """Where the live page asks for news: 204 until the game's revision moves on."""
        return reverse("game-poll", args=[self.game.public_id, self.game.revision])

    @property
    def columns(self) -> str:
        return COLUMNS

    @property
    def stone_name(self) -> str:
        return STONE_NAMES[self.stone]

    @property
    def dark_image(self) -> str:
        return stone_image("dark", "stone")

    @property
    def light_image(self) -> str:
        return stone_image("light", "stone")

    @property
    def live(self) -> bool:
        return self.game.status != Game.Status.FINISHED


@cache
def stone_image(color: str, kind: str) -> str:
    """The URL of a stone's picture (our own SVGs, hashed by the static files storage)."""
    return static(f"img/{color}-{kind}.svg")


class GameUrls(NamedTuple):
    page: str
    move: str
    resign: str
    rematch: str
    join: str
    api: str


@lru_cache(maxsize=4096)
def game_urls(public_id: str) -> GameUrls:
    """The URLs of one game's page and actions, reversed once."""
    return GameUrls(
        *(
            reverse(name, args=[public_id])
            for name in (
                "game-detail",
                "game-move",
                "game-resign",
                "game-rematch",
                "game-join",
                "api-game",
            )
        )
    )


def _choices(position: Position, mover: Color, selected: str, rules_on: bool) -> list[Choice]:
    color = mover.value
    choices = [Choice("stone", "Stone", selected == "stone", True, "", stone_image(color, "stone"))]
    if not rules_on:
        return choices
    for kind in ("thunder", "woden"):
        available = position.has_special(mover, Stone(kind))
        choices.append(
            Choice(
                kind,
                STONE_NAMES[kind].capitalize(),
                selected == kind,
                available,
                "" if available else "spent",
                stone_image(color, kind),
            )
        )
    return choices


def board_view(
    game: Game,
    seated: set[str],
    stone: str = "stone",
    error: str = "",
    moves: list[tuple[int, str, str]] | None = None,
) -> BoardView:
    """Everything the board, status and move list partials show, for one viewer."""
    rules = game.rules
    position = Position.from_text(game.position_text, rules)
    live = game.status != Game.Status.FINISHED
    mover = Color(game.turn) if live and game.turn in seated else None
    if stone not in STONE_CHOICES or (
        stone != "stone" and not (mover and position.has_special(mover, Stone(stone)))
    ):
        stone = "stone"
    if moves is None:
        moves = game.move_log()
    last = moves[-1][2] if moves else ""
    last_square, cleared = _last_move(last)
    legal = set(position.legal_moves()) if mover else set()
    kind_to_play = Stone(stone)
    prefix = _PREFIX[stone]
    rows = []
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            square = SQUARES[row * SIZE + col]
            name = str(square)
            on = position.stone_at(square)
            color, kind = (on[0].value, on[1].value) if on else ("", "")
            value = reason = clears = ""
            if mover is not None:
                move = move_of(kind_to_play, square)
                if move in legal:
                    value = prefix + name
                    if stone == "thunder":
                        clears = " ".join(map(str, position.thunder_clears(square)))
                elif stone == "stone" or color == "" or stone == "woden":
                    reason = position.why_illegal(move) or ""
            label = f"{name}, {color} {STONE_NAMES[kind]}" if color else f"{name}, empty"
            if reason:
                label += f": {reason}"
            elif clears:
                label += f": a thunder-stone here clears {clears.replace(' ', ', ')}"
            cells.append(
                Cell(
                    name,
                    color,
                    kind,
                    stone_image(color, kind) if color else "",
                    label,
                    value,
                    reason,
                    clears,
                    name == last_square,
                    name in cleared,
                )
            )
        rows.append((str(row + 1), mark_safe("".join(map(render_square, cells)))))
    return BoardView(
        game=game,
        seated=seated,
        stone=stone,
        can_move=mover is not None,
        rows=rows,
        choices=_choices(position, mover, stone, rules.special_stones) if mover else [],
        moves=moves,
        status=_status(game, position, seated, moves),
        error=error,
    )


def _last_move(notation: str) -> tuple[str, set[str]]:
    """The square of the last move and the squares its thunder-stone cleared."""
    if not notation or notation == "Pass":
        return "", set()
    text = notation.split(" ")[-1]
    square, _, removed = text.partition("x")
    return square, set(removed.split("/")) if removed else set()


def _status(
    game: Game, position: Position, seated: set[str], moves: list[tuple[int, str, str]]
) -> dict[str, object]:
    score = position.score()
    finished = game.status == Game.Status.FINISHED
    if finished:
        if game.resigned:
            headline = f"{game.resigned.capitalize()} resigned: {game.result} wins"
        elif game.result == "tie":
            headline = "The game is over: a tie"
        else:
            headline = f"The game is over: {game.result} wins"
    elif game.turn in seated and len(seated) == 1:
        headline = "Your turn"
    else:
        headline = f"{game.turn.capitalize()} to move"
    last = moves[-1] if moves else None
    if last is None:
        announce = "The game has started. Dark to move."
    else:
        _, color, notation = last
        played = "passed" if notation == "Pass" else f"played {notation}"
        announce = f"{color.capitalize()} {played}. " + (
            f"{headline}. {score}." if finished else f"{game.turn.capitalize()} to move."
        )
    if not finished:
        result_text = ""
    elif game.result == "tie":
        result_text = "Tie"
    else:
        result_text = f"{game.result.capitalize()} wins"
    return {
        "result_text": result_text,
        "score": score,
        "score_line": str(score),
        "finished": finished,
        "headline": headline,
        "announce": announce,
        "waiting": game.status == Game.Status.WAITING,
        "your_color": next(iter(seated)) if len(seated) == 1 else "",
        "hotseat": game.mode == Game.Mode.HOTSEAT,
    }
