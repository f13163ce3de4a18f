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

from game.engine import COLUMNS, SQUARES, Color, Position, Stone, move_of
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


@lru_cache(maxsize=16384)
def fragment(template_name: str, values: tuple[tuple[str, object], ...]) -> SafeString:
    """A small template rendered once per distinct set of values, then reused.

    A page redraws 49 squares, their labels and the whole move list after every
    move; rendering each distinct piece once keeps that cheap while the markup
    stays in templates (game/_square.html, _label.html, _move.html).
    """
    return get_template(template_name).render(dict(values))


def render_square(cell: Cell) -> SafeString:
    return fragment("game/_square.html", (("cell", cell),))


def _label(label: str) -> SafeString:
    return fragment("game/_label.html", (("label", label),))


def render_moves(moves: list[tuple[int, str, str]], finished: bool) -> SafeString:
    """The move list's items; the newest is marked while the game goes on."""
    last = len(moves) - 1
    return mark_safe(
        "".join(
            fragment(
                "game/_move.html",
                (
                    ("ply", ply),
                    ("color", color),
                    ("notation", notation),
                    ("is_last", i == last and not finished),
                ),
            )
            for i, (ply, color, notation) in enumerate(moves)
        )
    )


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
    grid_html: SafeString
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
    def moves_html(self) -> SafeString:
        return render_moves(self.moves, not self.live)

    @property
    def status_html(self) -> SafeString:
        status = self.status
        values = {
            "dark_score": status["score"].dark,
            "light_score": status["score"].light,
            "turn": self.game.turn,
            "result": self.game.result,
            "finished": status["finished"],
            "headline": status["headline"],
            "score_line": status["score_line"],
            "your_color": status["your_color"],
            "dark_image": self.dark_image,
            "light_image": self.light_image,
        }
        return fragment("game/_status.html", tuple(values.items()))

    @property
    def stones_html(self) -> SafeString:
        if not self.can_move:
            return mark_safe("")
        return fragment(
            "game/_stones.html", (("choices", tuple(self.choices)), ("page", self.urls.page))
        )

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
    moves = game.move_log()
    last = moves[-1][2] if moves else ""
    last_square, cleared = _last_move(last)
    kind_to_play = Stone(stone)
    open_squares = (
        {m.square for m in position.legal_moves() if m.stone is kind_to_play} if mover else set()
    )
    prefix = _PREFIX[stone]
    board = position.board()
    parts = [_label(column) for column in COLUMNS]
    for square in SQUARES:
        if square.column == 0:
            parts.append(_label(str(square.row + 1)))
        name = str(square)
        on = board[square]
        color, kind = (on[0].value, on[1].value) if on else ("", "")
        value = reason = clears = ""
        if mover is not None:
            if square in open_squares:
                value = prefix + name
                if stone == "thunder":
                    clears = " ".join(map(str, position.thunder_clears(square)))
            elif color == "" or stone == "woden":
                # An occupied square needs no reason for a stone or a thunder-stone:
                # its label already says which stone is there.
                reason = position.why_illegal(move_of(kind_to_play, square)) or ""
        label = f"{name}, {color} {STONE_NAMES[kind]}" if color else f"{name}, empty"
        if reason:
            label += f": {reason}"
        elif clears:
            label += f": a thunder-stone here clears {clears.replace(' ', ', ')}"
        parts.append(
            render_square(
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
        )
    return BoardView(
        game=game,
        seated=seated,
        stone=stone,
        can_move=mover is not None,
        grid_html=mark_safe("".join(parts)),
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
        "your_color": next(iter(seated)) if len(seated) == 1 else "",
        "hotseat": game.mode == Game.Mode.HOTSEAT,
    }
