"""The lobby's pages: the list of open challenges and the form to post one, a
challenge's own page, a challenge to a named player, and the live stream."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game import play, seats
from game.forms import forms_of_kinds
from game.miniature import game_choices
from game.registry import KINDS, kind_named
from game.views.common import (
    SeeOther,
    whole,
)
from kit import limits
from kit.streams import admit_stream, no_stream_here, not_an_event_stream, streaming
from lobby import challenges
from lobby import live as lobby_live
from lobby.forms import ChallengeForm
from lobby.models import Challenge

# The seat tokens a guest's browser holds for its challenges, until each becomes a game.
TOKENS_KEY = "challenge_tokens"


def who(request: HttpRequest, create: bool = False) -> challenges.Who:
    """Whoever makes the request: its account, or its browser as a guest, with the
    challenges its browser posted."""
    user = request.user if request.user.is_authenticated else None
    posted = request.session.get(TOKENS_KEY, {})
    return challenges.Who(
        owner=seats.owner_key(request, create=create),
        user=user,
        guest_name=seats.guest_name(request),
        posted=frozenset(posted) if isinstance(posted, dict) else frozenset(),
        address="" if user else challenges.address_key(limits.client_of(request)),
    )


def _viewer(request: HttpRequest, acting: challenges.Who) -> dict:
    return {"who": acting, "mark": lobby_live.owner_mark(acting.owner) if acting.owner else ""}


def _lobby(request: HttpRequest, form: ChallengeForm, error: str = "", status: int = 200):
    acting = who(request)
    if acting.owner and not acting.is_account:
        # The guest's page is there: its live challenges stand (``challenges.seen``).
        challenges.seen(acting.owner)
    viewer = _viewer(request, acting)
    rows = [
        (challenge, challenges.refusal(challenge, acting))
        for challenge in challenges.open_challenges()
    ]
    context = {
        "form": form,
        "rules_forms": forms_of_kinds(form),
        "game_choices": game_choices(form["game"]),
        "kinds": list(KINDS.values()),
        "rows": rows,
        "viewer": viewer,
        "revision": lobby_live.revision(),
        "error": error,
        "to_me": [],
        "mine": [],
    }
    if acting.is_account:
        context["to_me"] = list(
            Challenge.objects.filter(to_user=acting.user, status="open").select_related("creator")
        )
        context["mine"] = list(
            Challenge.objects.filter(creator=acting.user, status="open")
            .exclude(to_user=None)
            .select_related("to_user")
        )
    context["started"] = _started(request, acting)
    template = "lobby/_mine.html" if request.GET.get("part") == "mine" else "lobby/lobby.html"
    return render(request, template, context, status=status)


def _started(request: HttpRequest, acting: challenges.Who) -> str:
    """The page of a challenge of this player's just accepted, whose game it has not
    gone to yet: its lobby page goes there at once."""
    if not acting.owner:
        return ""
    accepted = (
        Challenge.objects.filter(
            owner=acting.owner, status="accepted", game__status="active", game__ply=0
        )
        .order_by("-updated")
        .values_list("public_id", flat=True)
        .first()
    )
    held = request.session.get(TOKENS_KEY, {})
    if accepted and (accepted in held or acting.is_account):
        return reverse("challenge", args=[accepted])
    return ""


def _refused(request: HttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    return _lobby(request, ChallengeForm(), error=str(exceeded), status=429)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, _refused)
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby (GET); post a challenge to it (POST), then back to it."""
    if request.method != "POST":
        return _lobby(request, ChallengeForm())
    form = ChallengeForm(request.POST, kind=kind_named(request.POST.get("game")))
    return _post(request, form, to_user=None)


def _post(request: HttpRequest, form: ChallengeForm, to_user) -> HttpResponse:
    if not form.is_valid():
        return _lobby(request, form, error=form.error_text(), status=400)
    data = form.cleaned_data
    terms = challenges.Terms(
        rules=form.rules(),
        color=data["color"] or "random",
        rated=data["rated"],
        rating_min=data.get("rating_min"),
        rating_max=data.get("rating_max"),
        **form.time_control(),
    )
    try:
        challenge, token = challenges.create(who(request, create=True), terms, to_user=to_user)
    except play.PlayError as refusal:
        return _lobby(request, form, error=str(refusal), status=refusal.status)
    held = dict(request.session.get(TOKENS_KEY, {}))
    held[challenge.public_id] = token
    # A few challenges' tokens at most: keep the newest.
    request.session[TOKENS_KEY] = dict(list(held.items())[-8:])
    return SeeOther(reverse("lobby") + f"#challenge-{challenge.public_id}")


@never_cache
@require_safe
def challenge(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """One challenge. Once accepted, its creator is sent to the game, holding its seat."""
    found = get_object_or_404(
        Challenge.objects.select_related("creator", "to_user", "game"), public_id=challenge_id
    )
    acting = who(request)
    if found.status == "accepted" and found.game is not None:
        if acting.owner and acting.owner == found.owner:
            token = request.session.get(TOKENS_KEY, {}).get(found.public_id)
            color = _creator_color(found)
            if token and color:
                seats.remember(request, found.game.public_id, {color: token})
        return SeeOther(reverse("game-detail", args=[found.game.public_id]))
    context = {
        "challenge": found,
        "refusal": challenges.refusal(found, acting) if found.is_open else "",
        "viewer": _viewer(request, acting),
    }
    return render(request, "lobby/challenge.html", context)


def _creator_color(challenge: Challenge) -> str:
    """The side the creator holds in the challenge's game."""
    for color, seat in challenge.game.seats_by_color().items():
        if seat.token_hash == challenge.token_hash:
            return color
    return ""


def _act(request: HttpRequest, action, challenge_id: str) -> HttpResponse:
    try:
        action(challenge_id, who(request, create=True))
    except play.PlayError as refusal:
        return _lobby(request, ChallengeForm(), error=str(refusal), status=refusal.status)
    return SeeOther(reverse("lobby"))


@require_POST
@limits.limited(limits.JOIN, _refused)
def accept(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """Accept a challenge: to the new game at once."""
    try:
        _, game, tokens = challenges.accept(challenge_id, who(request, create=True))
    except play.PlayError as refusal:
        return _lobby(request, ChallengeForm(), error=str(refusal), status=refusal.status)
    seats.remember(request, game.public_id, tokens)
    return SeeOther(reverse("game-detail", args=[game.public_id]))


@require_POST
def cancel(request: HttpRequest, challenge_id: str) -> HttpResponse:
    return _act(request, challenges.cancel, challenge_id)


@require_POST
def decline(request: HttpRequest, challenge_id: str) -> HttpResponse:
    return _act(request, challenges.decline, challenge_id)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, _refused)
def challenge_player(request: HttpRequest, username: str) -> HttpResponse:
    """Challenge one player, from their profile: the lobby's form, for them alone."""
    player = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if player is None:
        raise Http404("there is no such player")
    form = ChallengeForm(request.POST or None, kind=kind_named(request.POST.get("game")))
    if request.method == "POST":
        return _post(request, form, to_user=player)
    context = {
        "form": form,
        "rules_forms": forms_of_kinds(form),
        "game_choices": game_choices(form["game"]),
        "kinds": list(KINDS.values()),
        "player": player,
    }
    return render(request, "lobby/challenge_player.html", context)


@require_safe
async def stream(request: HttpRequest) -> HttpResponse:
    """The lobby's server-sent events (``lobby.live.stream``) for a page at ``?since=``
    (or the ``Last-Event-ID`` of a reconnecting browser)."""
    if refused := not_an_event_stream(request) or no_stream_here(request):
        return refused
    give_back = admit_stream(request)
    if isinstance(give_back, HttpResponse):
        return give_back
    user = await request.auser()
    acting = await sync_to_async(who)(request)
    since = whole(request.headers.get("Last-Event-ID")) or whole(request.GET.get("since"))
    events = lobby_live.stream(
        since,
        user.pk if user.is_authenticated else None,
        guest_owner="" if acting.is_account else acting.owner,
        on_close=give_back,
    )
    return streaming(events, give_back)
