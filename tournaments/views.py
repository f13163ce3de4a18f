"""The tournaments' pages: the list of events and the form to make one, each event's
page (terms, standings, pairings, the crosstable, join and withdraw), and its live
stream. Every action is a form posted and answered with a page, so all of it works
without script; with script the pages follow the events live."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game import play
from game.forms import forms_of_kinds
from game.miniature import game_choices
from game.registry import KINDS, kind_named
from game.views.common import SeeOther, whole
from kit import limits
from kit.streams import admit_stream, no_stream_here, not_an_event_stream, streaming
from tournaments import events, pages, state
from tournaments import live as tournament_live
from tournaments.api import listing
from tournaments.forms import TournamentForm
from tournaments.models import Tournament


def _list(request: HttpRequest, form: TournamentForm, error: str = "", status: int = 200):
    chosen = request.GET.get("game", "")
    if chosen and chosen not in KINDS:
        raise Http404("there is no such game")
    found = listing(chosen)
    groups = [
        (label, [event for event in found if event.status == status_value])
        for status_value, label in (
            (Tournament.Status.RUNNING, "Running"),
            (Tournament.Status.CREATED, "Starting soon"),
            (Tournament.Status.FINISHED, "Finished"),
        )
    ]
    context = {
        "groups": groups,
        "form": form,
        "rules_forms": forms_of_kinds(form),
        "game_choices": game_choices(form["game"]),
        "kinds": list(KINDS.values()),
        "error": error,
        "revision": state.revision(state.CHANNEL),
        "chosen": chosen,
    }
    part = request.GET.get("part") == "list"
    template = "tournaments/_groups.html" if part else "tournaments/list.html"
    return render(request, template, context, status=status)


def _refused(request: HttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    return _list(request, TournamentForm(), error=str(exceeded), status=429)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, _refused)
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The events (GET); make one (POST, an account's), then go to its page."""
    if request.method != "POST":
        return _list(request, TournamentForm())
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments"))
    form = TournamentForm(request.POST, kind=kind_named(request.POST.get("game")))
    if not form.is_valid():
        return _list(request, form, error=form.error_text(), status=400)
    try:
        event = events.create(request.user, form.terms())
    except play.PlayError as refusal:
        return _list(request, form, error=str(refusal), status=refusal.status)
    return SeeOther(reverse("tournament", args=[event.public_id]))


def _page(request: HttpRequest, event: Tournament, error: str = "", status: int = 200):
    """The event's page, or one part of it: ``?part=me`` the viewer's own,
    ``?part=shared`` (with ``page``) the standings and games."""
    user = request.user if request.user.is_authenticated else None
    part = request.GET.get("part")
    if part == "me":
        context = pages.personal_context(event, user, error)
        return render(request, "tournaments/_personal.html", context, status=status)
    blocked = pages.blocked_names(user)
    context = pages.for_viewer(pages.shared_context(event, request.GET.get("page")), blocked)
    if part == "shared":
        return render(request, "tournaments/_shared.html", context, status=status)
    context |= pages.personal_context(event, user, error) | {"blocked": blocked}
    return render(request, "tournaments/detail.html", context, status=status)


@never_cache
@require_safe
def tournament(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """One event's page; ``?part=live`` its live part alone."""
    try:
        event = state.found(tournament_id)
    except state.NoSuchTournament:
        raise Http404("there is no such tournament") from None
    return _page(request, event)


def _act(request: HttpRequest, tournament_id: str, action) -> HttpResponse:
    try:
        event = state.found(tournament_id)
    except state.NoSuchTournament:
        raise Http404("there is no such tournament") from None
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournament", args=[tournament_id]))
    try:
        action(event)
    except play.PlayError as refusal:
        event.refresh_from_db()
        return _page(request, event, error=str(refusal), status=refusal.status)
    return SeeOther(reverse("tournament", args=[tournament_id]))


@require_POST
@limits.limited(limits.JOIN, _refused)
def join(request: HttpRequest, tournament_id: str) -> HttpResponse:
    password = request.POST.get("password", "")[:128]
    return _act(request, tournament_id, lambda e: events.join(request.user, e.public_id, password))


@require_POST
def withdraw(request: HttpRequest, tournament_id: str) -> HttpResponse:
    return _act(request, tournament_id, lambda e: events.withdraw(request.user, e.public_id))


@require_POST
def start(request: HttpRequest, tournament_id: str) -> HttpResponse:
    return _act(request, tournament_id, lambda e: events.start(request.user, e.public_id))


@require_POST
def say(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """A player's line in the event's chat, then back to the event."""
    text = request.POST.get("text", "")[: events.MAX_MESSAGE * 2]
    return _act(request, tournament_id, lambda e: events.say(request.user, e.public_id, text))


@require_POST
def berserk(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Berserk in one's arena game, then back to the game."""
    played = []
    answer = _act(
        request, tournament_id, lambda e: played.append(events.berserk(request.user, e.public_id))
    )
    if played:
        return SeeOther(reverse("game-detail", args=[played[0].public_id]))
    return answer


async def list_stream(request: HttpRequest) -> HttpResponse:
    """The list's server-sent events: ``changed`` each time any event changes."""
    if refused := not_an_event_stream(request) or no_stream_here(request):
        return refused
    give_back = admit_stream(request)
    if isinstance(give_back, HttpResponse):
        return give_back
    since = whole(request.headers.get("Last-Event-ID")) or whole(request.GET.get("since"))
    return streaming(tournament_live.changes(state.CHANNEL, since, give_back), give_back)


async def stream(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """An event's page's server-sent events (``tournaments.live.event_stream``)."""
    if refused := not_an_event_stream(request) or no_stream_here(request):
        return refused
    if not await Tournament.objects.filter(public_id=tournament_id).aexists():
        raise Http404("there is no such tournament")
    give_back = admit_stream(request)
    if isinstance(give_back, HttpResponse):
        return give_back
    user = await request.auser()
    since = whole(request.headers.get("Last-Event-ID")) or whole(request.GET.get("since"))
    lines = tournament_live.event_stream(
        tournament_id, since, user.pk if user.is_authenticated else None, give_back
    )
    return streaming(lines, give_back)
