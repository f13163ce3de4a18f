"""HTTP in, HTML out. Each view finds the game, reads the input, calls play.py, renders."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from game import bots, limits, live, play, seats
from game.board import (
    Board,
    Fragments,
    Outcome,
    Status,
    announcement,
    describe,
    draw_board,
    move_list,
)
from game.engine import Color, MoveError, parse_move
from game.forms import NewGameForm
from game.models import Game

# Without JavaScript, a page waiting for the other side reloads itself this often.
REFRESH_SECONDS = 5


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class SeeOther(HttpResponseRedirect):
    """After a POST, send the browser to a page with GET."""

    status_code = 303


def _game_or_404(game_id: str) -> Game:
    return get_object_or_404(Game, public_id=game_id)


def _to_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    url = reverse("game-detail", args=[game.public_id])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return SeeOther(url)


class GameUrls(NamedTuple):
    page: str
    move: str
    resign: str
    rematch: str
    hint: str
    api: str


@lru_cache(maxsize=4096)
def game_urls(public_id: str) -> GameUrls:
    """The URLs of one game's page and actions, reversed once."""
    names = ("game-detail", "game-move", "game-resign", "game-rematch", "game-hint", "api-game")
    return GameUrls(*(reverse(name, args=[public_id]) for name in names))


class SeatLink(NamedTuple):
    color: str
    url: str


class ComputerSeat(NamedTuple):
    """The seat the computer holds, and how it plays."""

    color: str
    level: bots.Level
    number: int  # its place on the ladder, from 1, the weakest
    thinking: bool  # it is to move, and its move is on its way


@dataclass(frozen=True, slots=True)
class GamePage:
    """Everything the game page and its live part show, for one viewer."""

    game: Game
    board: Board
    status: Status
    announce: str  # what a screen reader says of the change
    moves: Fragments
    seated: frozenset[str]
    urls: GameUrls
    error: str
    invite_url: str
    seat_links: tuple[SeatLink, ...]
    rematch: Game | None
    rematch_joinable: bool  # the viewer played this game and may take a seat in its rematch
    computer: ComputerSeat | None  # in a game against the computer
    hint: str  # the hint asked for here: its move, "" while it is thought out
    hint_allowed: bool  # the viewer may ask for a hint now

    @property
    def live(self) -> bool:
        """The game goes on: the page keeps asking for news."""
        return not self.game.is_over

    @property
    def live_url(self) -> str:
        """The game's stream of server-sent events, from the revision this page shows."""
        path = reverse("game-live", args=[self.game.public_id])
        return f"{path}?revision={self.game.revision}"

    @property
    def poll_url(self) -> str:
        """Where the live page asks for news: 204 until the game's revision moves on."""
        return reverse("game-poll", args=[self.game.public_id, self.game.revision])


def game_page(request: HttpRequest, game: Game, *, stone: str, error: str) -> GamePage:
    """The game as ``request``'s browser sees it: its seats decide what it may do."""
    tokens = seats.tokens_for(request, game.public_id)
    seated = frozenset(play.seated_colors(game, tokens))
    position = game.position()
    outcome = Outcome(game.result, game.status) if game.is_over else None
    waiting = game.status == Game.Status.WAITING
    mover = Color(game.turn) if not (outcome or waiting) and game.turn in seated else None
    rematch = play.rematch_of(game)
    status = describe(position, outcome, seated, waiting)
    hint = game.hint if game.hint_asked else ""
    return GamePage(
        game=game,
        board=draw_board(position, mover, stone, parse_move(hint) if hint else None),
        status=status,
        announce=announcement(position, status),
        moves=move_list(position),
        seated=seated,
        urls=game_urls(game.public_id),
        error=error,
        invite_url=_invite_url(request, game, seated),
        seat_links=_seat_links(request, game, tokens),
        rematch=rematch,
        rematch_joinable=bool(
            rematch
            and seated
            and play.free_seat(rematch) is not None
            and not seats.tokens_for(request, rematch.public_id)
        ),
        computer=_computer_seat(game),
        hint=hint,
        hint_allowed=mover is not None and game.mode != Game.Mode.FRIEND,
    )


def _computer_seat(game: Game) -> ComputerSeat | None:
    for color in Color:
        if level_id := game.level_of(color):
            level = bots.level(level_id)
            number = bots.LEVELS.index(level) + 1
            return ComputerSeat(color.value, level, number, game.computer_to_move == level_id)
    return None


def _render_game(
    request: HtmxHttpRequest,
    game: Game,
    *,
    stone: str = "stone",
    error: str = "",
    full: bool | None = None,
    status: int = 200,
) -> HttpResponse:
    """The game page, or just its live part for an htmx request."""
    context = {
        "page": game_page(request, game, stone=stone, error=error),
        "refresh_seconds": REFRESH_SECONDS,
    }
    if full is None:
        full = not request.htmx
    template = "game/detail.html" if full else "game/_game.html"
    return render(request, template, context, status=status)


def _invite_url(request: HttpRequest, game: Game, seated: frozenset[str]) -> str:
    if game.mode != Game.Mode.FRIEND or not seated or play.free_seat(game) is None:
        return ""
    path = reverse("game-invite", args=[game.public_id, play.invite_code(game)])
    return request.build_absolute_uri(path)


def _seat_links(request: HttpRequest, game: Game, tokens: dict[str, str]) -> tuple[SeatLink, ...]:
    if game.mode != Game.Mode.FRIEND:
        return ()
    return tuple(
        SeatLink(
            color,
            request.build_absolute_uri(reverse("game-seat", args=[game.public_id, color, token])),
        )
        for color, token in sorted(tokens.items())
        if game.holds_seat(color, token)
    )


def _too_many(request: HttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    return render(request, "error.html", {"message": str(exceeded)})


@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, _too_many)
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page; its form starts a game and redirects to it."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            game, tokens = play.create_game(
                data["mode"], form.rules(), data["color"] or "dark", level=data["level"]
            )
            seats.remember(request, game.public_id, tokens)
            return _to_game(request, game)
        return render(request, "game/home.html", _home_context(form), status=400)
    return render(request, "game/home.html", _home_context(form))


def _home_context(form: NewGameForm) -> dict[str, object]:
    return {"form": form, "levels": bots.LEVELS}


@never_cache  # seat and invite links: kept out of every cache
@require_safe
@vary_on_headers("HX-Request")
def detail(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The game page (or its live part for htmx); ``?stone=`` picks the stone to place."""
    game = _game_or_404(game_id)
    return _render_game(request, game, stone=request.GET.get("stone", "stone"))


@require_POST
def move(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Play the posted move for the side to move; a refusal is shown and changes nothing."""
    tokens = seats.tokens_for(request, game_id)
    stone = request.POST.get("stone", "stone")
    error = ""
    try:
        game = play.make_move(
            game_id, tokens, request.POST.get("move", ""), request.POST.get("ply")
        )
    except play.GameNotFound:
        raise Http404("there is no such game") from None
    except play.NotSeated as exc:
        return _refuse(request, _game_or_404(game_id), exc)
    except (MoveError, play.PlayError) as exc:
        error = str(exc)
        game = _game_or_404(game_id)
    if request.htmx:
        return _render_game(request, game, stone=stone if error else "stone", error=error)
    if error:
        messages.error(request, error)
    return _to_game(request, game)


def _refuse(request: HtmxHttpRequest, game: Game, refusal: play.PlayError) -> HttpResponse:
    """Say why an action was refused, with the status its kind of refusal carries."""
    if request.htmx:
        return _render_game(request, game, error=str(refusal), status=refusal.status)
    context = {"message": str(refusal), "game": game}
    return render(request, "error.html", context, status=refusal.status)


@never_cache  # seat and invite links: kept out of every cache
@require_safe
def poll(request: HtmxHttpRequest, game_id: str, revision: int) -> HttpResponse:
    """204 while the game is at the page's revision (one indexed read); else the fresh part."""
    current = play.revision(game_id)
    if current is None:
        raise Http404("there is no such game")
    if current == revision:
        return HttpResponse(status=204)
    return _render_game(
        request, _game_or_404(game_id), stone=request.GET.get("stone", "stone"), full=False
    )


@require_safe
async def stream(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's server-sent events: one, whose id is the revision, each time it changes.

    A reconnecting browser sends the last id it saw as ``Last-Event-ID``; a page
    opening the stream names the revision it shows as ``?revision=``.
    """
    if not request.accepts("text/event-stream"):
        return HttpResponse(
            "This is a stream of server-sent events: ask for text/event-stream.\n",
            status=406,
            content_type="text/plain",
        )
    if await sync_to_async(live.read_once)(game_id) is None:
        raise Http404("there is no such game")
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":  # the stream's headers; its body would never end
        return HttpResponse(content_type="text/event-stream", headers=headers)
    since = _whole(request.headers.get("Last-Event-ID")) or _whole(request.GET.get("revision"))
    return StreamingHttpResponse(
        live.stream(game_id, since),
        content_type="text/event-stream",
        headers=headers,
    )


def _whole(text: str | None) -> int:
    """A revision number sent by the browser; 0 (send the current state) if it is not one."""
    if text and text.isascii() and text.isdigit() and len(text) < 10:
        return int(text)
    return 0


@require_http_methods(["GET", "HEAD", "POST"])
def resign(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask to confirm (GET), then give up the game (POST); in hot-seat the side to move."""
    game = _game_or_404(game_id)
    if request.method in ("GET", "HEAD"):
        if game.is_over:
            return _to_game(request, game)
        seated = play.seated_colors(game, seats.tokens_for(request, game.public_id))
        who = game.turn if len(seated) == 2 else ""
        return render(request, "game/resign.html", {"game": game, "who": who})
    try:
        game = play.resign(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    except play.PlayError as exc:
        messages.error(request, str(exc))
    return _to_game(request, game)


@require_POST
def hint(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask for the strongest level's move; the live page marks it once it is found."""
    try:
        game = play.ask_hint(game_id, seats.tokens_for(request, game_id))
    except play.GameNotFound:
        raise Http404("there is no such game") from None
    except play.NotSeated as exc:
        return _refuse(request, _game_or_404(game_id), exc)
    except play.PlayError as exc:
        game = _game_or_404(game_id)
        if request.htmx:
            return _render_game(request, game, error=str(exc), status=exc.status)
        messages.error(request, str(exc))
    if request.htmx:
        return _render_game(request, game)
    return _to_game(request, game)


@require_POST
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Start (or join) the rematch of a finished game, colours swapped."""
    game = _game_or_404(game_id)
    try:
        new, tokens = play.rematch(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    except play.PlayError as exc:
        messages.error(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, new.public_id, tokens)
    return _to_game(request, new)


@never_cache  # seat and invite links: kept out of every cache
@require_safe
def invite(request: HtmxHttpRequest, game_id: str, code: str) -> HttpResponse:
    """The invite page: a one-click form to take the free seat (sent at once with JS on)."""
    game = _game_or_404(game_id)
    if seats.tokens_for(request, game.public_id):
        return _to_game(request, game)
    context = {
        "game": game,
        "code": code,
        "genuine": constant_time_compare(code, play.invite_code(game)),
        "seat_free": play.free_seat(game) is not None,
    }
    return render(request, "game/invite.html", context)


@require_POST
@limits.limited(limits.JOIN, _too_many)
def join(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Take the free seat with the invite code (or, in a rematch, as the returning player)."""
    game = _game_or_404(game_id)
    previous = seats.tokens_for(request, game.rematch_of.public_id) if game.rematch_of else {}
    try:
        game, color, token = play.join(
            game.public_id,
            request.POST.get("invite", ""),
            previous=previous,
            held=seats.tokens_for(request, game.public_id),
        )
    except play.PlayError as exc:
        messages.info(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, game.public_id, {color: token})
    messages.success(request, f"You play {color}.")
    return _to_game(request, game)


@never_cache  # seat and invite links: kept out of every cache
@require_http_methods(["GET", "HEAD", "POST"])
def seat(request: HtmxHttpRequest, game_id: str, color: str, token: str) -> HttpResponse:
    """A private seat link: continue a game from another device."""
    game = _game_or_404(game_id)
    try:
        play.check_seat(game, color, token)
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    if request.method == "POST":
        seats.remember(request, game.public_id, {color: token})
        return _to_game(request, game)
    return render(request, "game/seat.html", {"game": game, "color": color})


@require_POST
def renew_seat(request: HtmxHttpRequest, game_id: str, color: str) -> HttpResponse:
    """Replace this browser's seat token: a leaked private link stops working."""
    game = _game_or_404(game_id)
    try:
        game, token = play.renew_seat(game.public_id, seats.tokens_for(request, game_id), color)
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    seats.remember(request, game.public_id, {color: token})
    messages.success(request, f"Your private link as {color} is new: the old one no longer works.")
    return _to_game(request, game)


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial answer for load balancers and uptime checks (touches no database)."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def about(request: HttpRequest) -> HttpResponse:
    """The rules of the game, as its author's page tells them, and our decisions."""
    levels = [
        (number, level, arena_ratings().get(level.id))
        for number, level in enumerate(bots.LEVELS, start=1)
    ]
    return render(request, "about.html", {"levels": levels})


@lru_cache(maxsize=1)
def arena_ratings() -> dict[str, int]:
    """The levels' Elo ratings, from the arena's last full run (``make arena``)."""
    path = settings.BASE_DIR / "docs" / "arena.json"
    return json.loads(path.read_text(encoding="utf-8"))["ratings"] if path.exists() else {}


# The project's own documents, served as the text they are: the About page links them.
DOCS = {"rules": "RULES.md", "design": "DESIGN.md"}


@require_safe
def doc(request: HttpRequest, name: str) -> HttpResponse:
    """``docs/RULES.md`` or ``docs/DESIGN.md`` as plain text; any other name is a 404."""
    if name not in DOCS:
        raise Http404("there is no such document")
    text = (settings.BASE_DIR / "docs" / DOCS[name]).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
