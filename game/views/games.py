"""The game page and what its players do on it: move, resign, ask for a hint, take a
move back, start a rematch; joining a game and holding its seats; and the live
parts a watching page keeps open (the poll and the stream)."""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from game import play, seats
from game.models import Game
from game.surface import (
    MoveError,
)
from game.views.common import (
    HtmxHttpRequest,
    act_on_game,
    choice_of,
    game_or_404,
    moment,
    partial,
    refuse,
    refuse_back,
    render_game,
    seen,
    to_game,
    too_many,
    whole,
)
from kit import audience, limits, live
from kit.streams import admit_stream, no_stream_here, not_an_event_stream, streaming


@never_cache  # seat and invite links: kept out of every cache
@require_safe
@vary_on_headers("HX-Request")
def detail(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The game page (or its live part for htmx); the kind's choice field picks what to
    play (``?stone=thunder``, ``?from=B6``; without it, a hint's), and ``?ply=N`` shows
    the game after its first N moves."""
    game = game_or_404(game_id)
    try:
        ply = moment(request, game)
    except Http404 as missing:
        return render(request, "error.html", {"message": str(missing), "game": game}, status=404)
    return render_game(
        request, game, choice=choice_of(request.GET, game), ply=ply, seen=seen(request)
    )


@require_POST
def move(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Play the posted move for the side to move; a refusal is shown and changes nothing."""
    tokens = seats.tokens_for(request, game_id)
    try:
        game = play.make_move(
            game_id,
            tokens,
            request.POST.get("move", ""),
            request.POST.get("ply"),
            seen=request.POST.get("position", ""),
        )
    except play.GameNotFound:
        raise Http404("there is no such game") from None
    except play.NotSeated as exc:
        return refuse(request, game_or_404(game_id), exc)
    except (MoveError, play.PlayError) as exc:
        game = game_or_404(game_id)
        if partial(request):  # the choice made stays made, to try another square
            choice = choice_of(request.POST, game, default=True)
            return render_game(request, game, choice=choice, error=str(exc))
        messages.error(request, str(exc))
        return to_game(request, game)
    if request.htmx:
        return render_game(request, game)
    return to_game(request, game)


@never_cache  # seat and invite links: kept out of every cache
@require_safe
def poll(request: HtmxHttpRequest, game_id: str, revision: int) -> HttpResponse:
    """204 while the game is at the page's revision (one indexed read); else the fresh part.
    The stone the page shows stays chosen, unless the page was waiting for a hint
    (``hint=due``), which then chooses its own."""
    current = play.revision(game_id)
    if current is None:
        raise Http404("there is no such game")
    if current == revision:
        return HttpResponse(status=204)
    game = game_or_404(game_id)
    try:
        ply = moment(request, game)
    except Http404:
        ply = None  # the moment looked at was taken back: the game as it is now
    awaited_hint = request.GET.get("hint") == "due"
    return render_game(
        request,
        game,
        choice="" if awaited_hint else choice_of(request.GET, game),
        full=False,
        ply=ply,
        seen=seen(request),
    )


@require_safe
async def stream(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's server-sent events: one, whose id is the revision, each time it changes.

    A reconnecting browser sends the last id it saw as ``Last-Event-ID``; a page
    opening the stream names the revision it shows as ``?revision=``.
    """
    if refused := not_an_event_stream(request):
        return refused
    if await sync_to_async(live.read_once)(game_id) is None:
        raise Http404("there is no such game")
    if refused := no_stream_here(request):
        return refused
    give_back = admit_stream(request)
    if isinstance(give_back, HttpResponse):
        return give_back
    since = whole(request.headers.get("Last-Event-ID")) or whole(request.GET.get("revision"))
    # A watcher leaves the game's audience as the stream ends.
    try:
        seated = await sync_to_async(holds_a_seat)(request, game_id)
    except BaseException:
        give_back()
        raise
    if not seated:
        watcher = audience.audience().ticket(game_id, limits.client_of(request))
        give_back = _and_then(give_back, watcher)
    return streaming(live.stream(game_id, since, on_close=give_back), give_back)


def holds_a_seat(request: HttpRequest, game_id: str) -> bool:
    """Whether ``request``'s browser (or its account) holds a seat in the game: a page
    of anyone else watches it. The game is read only if the browser has a token for it."""
    tokens = seats.tokens_for(request, game_id)
    if not tokens:
        return False
    try:
        game = Game.objects.get(public_id=game_id)
    except Game.DoesNotExist:
        return False
    return bool(play.seated_colors(game, tokens))


def _and_then(first: Callable[[], None], second: Callable[[], None]) -> Callable[[], None]:
    def both() -> None:
        try:
            first()
        finally:
            second()

    return both


@require_http_methods(["GET", "HEAD", "POST"])
def resign(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask to confirm (GET), then give up the game (POST); in hot-seat the side to move."""
    game = game_or_404(game_id)
    if request.method in ("GET", "HEAD"):
        if game.is_over:
            return to_game(request, game)
        seated = play.seated_colors(game, seats.tokens_for(request, game.public_id))
        who = game.turn if len(seated) == 2 else ""
        return render(request, "game/resign.html", {"game": game, "who": who})
    try:
        game = play.resign(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return refuse(request, game, exc)
    except play.PlayError as exc:
        return refuse_back(request, game, exc)
    return to_game(request, game)


@require_POST
@limits.limited(limits.THINK, too_many)
def hint(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask for the strongest level's move; the live page marks it once it is found."""
    return act_on_game(
        request, game_id, lambda: play.ask_hint(game_id, seats.tokens_for(request, game_id))
    )


@require_POST
def takeback(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Take a move back (hot-seat, the computer), ask the friend to let you, or answer
    the friend's request (``answer=accept`` or ``decline``)."""
    tokens = seats.tokens_for(request, game_id)
    answer = request.POST.get("answer", "")

    def act() -> Game:
        if not answer:
            return play.take_back(game_id, tokens)
        if answer not in ("accept", "decline"):
            raise play.PlayError(f"{answer[:20]!r} is not an answer: accept or decline")
        return play.answer_takeback(game_id, tokens, accept=answer == "accept")

    return act_on_game(request, game_id, act)


@require_POST
@limits.limited(limits.CREATE, too_many)  # resign and rematch, again and again, made 30 a second
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Start (or join) the rematch of a finished game, colours swapped."""
    game = game_or_404(game_id)
    try:
        new, tokens = play.rematch(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return refuse(request, game, exc)
    except play.PlayError as exc:
        messages.error(request, str(exc))
        return to_game(request, game)
    seats.remember(request, new.public_id, tokens)
    return to_game(request, new)


# Seats -------------------------------------------------------------------------------------


@never_cache  # seat and invite links: kept out of every cache
@require_safe
def invite(request: HtmxHttpRequest, game_id: str, code: str) -> HttpResponse:
    """The invite page: a one-click form to take the free seat (sent at once with JS on)."""
    game = game_or_404(game_id)
    if seats.tokens_for(request, game.public_id):
        return to_game(request, game)
    context = {
        "game": game,
        "code": code,
        "genuine": constant_time_compare(code, play.invite_code(game)),
        "seat_free": game.free_seat() is not None,
    }
    return render(request, "game/invite.html", context)


@require_POST
@limits.limited(limits.JOIN, too_many)
def join(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Take the free seat with the invite code (or, in a rematch, as the returning player)."""
    game = game_or_404(game_id)
    previous = seats.tokens_for(request, game.rematch_of.public_id) if game.rematch_of else {}
    try:
        game, color, token = play.join(
            game.public_id,
            request.POST.get("invite", ""),
            previous=previous,
            held=seats.tokens_for(request, game.public_id),
            user=request.user if request.user.is_authenticated else None,
        )
    except play.PlayError as exc:
        messages.info(request, str(exc))
        return to_game(request, game)
    seats.remember(request, game.public_id, {color: token})
    messages.success(request, f"You play {game.sides.word(color)}.")
    return to_game(request, game)


@never_cache  # seat and invite links: kept out of every cache
@require_http_methods(["GET", "HEAD", "POST"])
def seat(request: HtmxHttpRequest, game_id: str, color: str, token: str) -> HttpResponse:
    """A private seat link: continue a game from another device."""
    game = game_or_404(game_id)
    try:
        play.check_seat(game, color, token)
    except play.NotSeated as exc:
        return refuse(request, game, exc)
    if request.method == "POST":
        seats.remember(request, game.public_id, {color: token})
        return to_game(request, game)
    return render(request, "game/seat.html", {"game": game, "color": color})


@require_POST
def renew_invite(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Replace a waiting friend game's invite link: a leaked one takes nobody's seat."""
    game = game_or_404(game_id)
    try:
        game = play.renew_invite(game.public_id, seats.tokens_for(request, game_id))
    except play.NotSeated as exc:
        return refuse(request, game, exc)
    except play.PlayError as exc:
        messages.error(request, str(exc))
        return to_game(request, game)
    messages.success(request, "Your invite link is new: the old one no longer works.")
    return to_game(request, game)


@require_POST
def renew_seat(request: HtmxHttpRequest, game_id: str, color: str) -> HttpResponse:
    """Replace this browser's seat token: a leaked private link stops working."""
    game = game_or_404(game_id)
    try:
        game, token = play.renew_seat(game.public_id, seats.tokens_for(request, game_id), color)
    except play.NotSeated as exc:
        return refuse(request, game, exc)
    seats.remember(request, game.public_id, {color: token})
    side = game.sides.word(color)
    messages.success(request, f"Your private link as {side} is new: the old one no longer works.")
    return to_game(request, game)
