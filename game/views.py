"""HTTP in, HTML out. Each view finds the game, reads the input, calls play.py, renders."""

from __future__ import annotations

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from game import play, seats
from game.board import board_view
from game.engine import MoveError, Position
from game.forms import NewGameForm
from game.models import Game

POLL_SECONDS = 1


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
    tokens = seats.tokens_for(request, game.public_id)
    view = board_view(game, play.seated_colors(game, tokens), stone=stone, error=error)
    rematch_game = play.rematch_of(game)
    context = {
        "view": view,
        "game": game,
        "rematch_game": rematch_game,
        "rematch_joinable": bool(
            rematch_game
            and view.seated
            and play.free_seat(rematch_game) is not None
            and not seats.tokens_for(request, rematch_game.public_id)
        ),
        "invite_url": _invite_url(request, game, view.seated),
        "seat_links": _seat_links(request, game, tokens),
        "poll_seconds": POLL_SECONDS,
    }
    if full is None:
        full = not request.htmx
    template = "game/detail.html" if full else "game/_game.html"
    return render(request, template, context, status=status)


def _invite_url(request: HttpRequest, game: Game, seated: set[str]) -> str:
    if game.mode != Game.Mode.FRIEND or not seated or play.free_seat(game) is None:
        return ""
    path = reverse("game-invite", args=[game.public_id, play.invite_code(game)])
    return request.build_absolute_uri(path)


def _seat_links(request: HttpRequest, game: Game, tokens: dict[str, str]) -> list[tuple[str, str]]:
    if game.mode != Game.Mode.FRIEND:
        return []
    return [
        (
            color,
            request.build_absolute_uri(reverse("game-seat", args=[game.public_id, color, token])),
        )
        for color, token in sorted(tokens.items())
        if game.holds_seat(color, token)
    ]


@require_http_methods(["GET", "POST"])
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page; its form starts a game and redirects to it."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            game, tokens = play.create_game(data["mode"], form.rules(), data["color"] or "dark")
            seats.remember(request, game.public_id, tokens)
            return _to_game(request, game)
        return render(request, "game/home.html", {"form": form}, status=400)
    return render(request, "game/home.html", {"form": form})


@require_GET
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
        return _refuse(request, _game_or_404(game_id), str(exc), status=403)
    except (MoveError, play.PlayError) as exc:
        error = str(exc)
        game = _game_or_404(game_id)
    if request.htmx:
        return _render_game(request, game, stone=stone if error else "stone", error=error)
    if error:
        messages.error(request, error)
    return _to_game(request, game)


def _refuse(request: HtmxHttpRequest, game: Game, message: str, status: int) -> HttpResponse:
    if request.htmx:
        return _render_game(request, game, error=message, status=status)
    return render(request, "error.html", {"message": message, "game": game}, status=status)


@require_GET
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


@require_http_methods(["GET", "POST"])
def resign(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask to confirm (GET), then give up the game (POST); in hot-seat the side to move."""
    game = _game_or_404(game_id)
    if request.method == "GET":
        if game.is_over:
            return _to_game(request, game)
        seated = play.seated_colors(game, seats.tokens_for(request, game.public_id))
        who = game.turn if len(seated) == 2 else ""
        return render(request, "game/resign.html", {"game": game, "who": who})
    try:
        game = play.resign(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return _refuse(request, game, str(exc), status=403)
    except play.PlayError as exc:
        messages.error(request, str(exc))
    return _to_game(request, game)


@require_POST
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Start (or join) the rematch of a finished game, colours swapped."""
    game = _game_or_404(game_id)
    try:
        new, tokens = play.rematch(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return _refuse(request, game, str(exc), status=403)
    except play.PlayError as exc:
        messages.error(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, new.public_id, tokens)
    return _to_game(request, new)


@require_GET
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
def join(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Take the free seat with the invite code (or, in a rematch, as the returning player)."""
    game = _game_or_404(game_id)
    previous = seats.tokens_for(request, game.rematch_of.public_id) if game.rematch_of else {}
    try:
        game, color, token = play.join(
            game.public_id, request.POST.get("invite", ""), previous=previous
        )
    except play.PlayError as exc:
        messages.info(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, game.public_id, {color: token})
    messages.success(request, f"You play {color}.")
    return _to_game(request, game)


@require_http_methods(["GET", "POST"])
def seat(request: HtmxHttpRequest, game_id: str, color: str, token: str) -> HttpResponse:
    """A private seat link: continue a game from another device."""
    game = _game_or_404(game_id)
    try:
        play.check_seat(game, color, token)
    except play.NotSeated as exc:
        return render(request, "error.html", {"message": str(exc), "game": game}, status=403)
    if request.method == "POST":
        seats.remember(request, game.public_id, {color: token})
        return _to_game(request, game)
    return render(request, "game/seat.html", {"game": game, "color": color})


@require_GET
def api_game(request: HttpRequest, game_id: str) -> JsonResponse:
    """The public state of a game as JSON (DESIGN.md, "The page contract")."""
    game = _game_or_404(game_id)
    record = game.records()
    position = Position.replay(game.rules, record) if not game.is_over else None
    return JsonResponse(
        {
            "id": game.public_id,
            "rules": {
                "special_stones": game.special_stones,
                "scoring": game.scoring,
                "wraparound": game.wraparound,
            },
            "mode": game.mode,
            "status": game.status,
            "record": record,
            "ply": game.ply,
            "turn": game.turn or None,
            "score": {"dark": game.dark_score, "light": game.light_score},
            "over": game.is_over,
            "result": game.result or None,
            "resigned": game.resigned or None,
            "position": game.position_text,
            "legal": [str(m) for m in position.legal_moves()] if position else [],
        }
    )


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial answer for load balancers and uptime checks (touches no database)."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def about(request: HttpRequest) -> HttpResponse:
    """The rules of the game, as its author's page tells them, and our decisions."""
    return render(request, "about.html")
