"""The lobby's API for programs: list, post, accept, decline and cancel challenges,
and an account's event stream, so a bot waits for challenges and games without
polling.

The JSON conventions are ``game.api``'s (its ``endpoint``: every refusal a 4xx
``{"error": …}``). A program sending an account's personal API token (``Bearer
mt_…``) acts as that account, rated games included; a program without one is a
guest named "Program", known by its address, and holds its seats by the tokens
the answers give it. docs/DESIGN.md ("The API for programs") lists the endpoints.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Callable
from decimal import Decimal
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils.crypto import salted_hmac

from game import clocks
from game.api import (
    ApiError,
    absolute_url,
    account_of,
    endpoint,
    error,
    field_of,
    json_body,
    kind_asked,
    known,
    rules_asked,
    state,
    too_many,
)
from game.models import Game, Seat
from game.registry import KINDS
from kit import limits, live, streams
from lobby import challenges
from lobby.models import Challenge
from players.models import ApiToken

# The initial times a live challenge offers, in seconds: the form's minutes.
CLOCK_SECONDS = tuple(int(Decimal(minutes) * 60) for minutes in clocks.MINUTES)
RATING_BOUNDS = (0, 4000)
GUEST_NAME = "Program"
NDJSON = "application/x-ndjson"
# The most challenges to one account its stream follows at once.
MAX_FOLLOWED = 100


def _listed(values: tuple[Any, ...]) -> str:
    words = [str(value) for value in values]
    return f"{', '.join(words[:-1])} or {words[-1]}"


def program_owner(request: HttpRequest) -> str:
    """The owner key of a program without an account: its address, hashed with the
    site's secret (32 characters, as "My games" keys are)."""
    client = limits.client_of(request)
    return "api:" + salted_hmac("lobby.api.program", client).hexdigest()[:28]


def who(request: HttpRequest) -> challenges.Who:
    """The program making the request: the account of its API token, or a guest."""
    account = account_of(request)
    if account is not None:
        return challenges.Who(owner=f"account:{account.pk}", user=account)
    return challenges.Who(
        owner=program_owner(request),
        guest_name=GUEST_NAME,
        address=challenges.address_key(limits.client_of(request)),
    )


def creator_color(challenge: Challenge) -> str | None:
    """The side the creator holds in the challenge's game; None before it has one."""
    if challenge.game is None:
        return None
    for color, seat in challenge.game.seats_by_color().items():
        if seat.token_hash == challenge.token_hash:
            return color
    return None


def describe(challenge: Challenge, absolute: Callable[[str], str]) -> dict[str, Any]:
    """A challenge as the API shows it; ``absolute`` makes a path a full URL."""
    rating = challenge.creator_rating
    live_clock = challenge.speed == Game.Speed.LIVE
    bounds = (challenge.rating_min, challenge.rating_max)
    body = {
        "id": challenge.public_id,
        "url": absolute(reverse("challenge", args=[challenge.public_id])),
        "creator": {
            "name": challenge.creator_display,
            "username": challenge.creator.username if challenge.creator else None,
            "rating": None if rating is None else round(rating, 1),
            "bot": challenge.creator_is_bot,
        },
        "rules": challenge.rules.to_mapping(),
        "color": challenge.color,
        "rated": challenge.rated,
        "speed": challenge.speed,
        "clock": {"initial": challenge.initial, "increment": challenge.increment}
        if live_clock
        else None,
        "days": challenge.days if challenge.speed == Game.Speed.CORRESPONDENCE else None,
        "rating_range": None if bounds == (None, None) else list(bounds),
        "to": challenge.to_user.username if challenge.to_user_id else None,
        "status": challenge.status,
        "game": challenge.game.public_id if challenge.game_id else None,
    }
    if challenge.game_id:
        body["creator_color"] = creator_color(challenge)
    return body


def _found(challenge_id: str) -> Challenge:
    challenge = (
        Challenge.objects.select_related("creator", "creator__account", "to_user", "game")
        .filter(public_id=challenge_id)
        .first()
    )
    if challenge is None:
        raise ApiError(404, "there is no such challenge")
    return challenge


# Reading a challenge's terms -------------------------------------------------------


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def time_control(data: dict[str, Any]) -> dict[str, Any]:
    """The speed and its terms, as ``challenges.Terms`` takes them; 400 naming the field."""
    clock, days = data.get("clock"), data.get("days")
    default = (
        Game.Speed.LIVE
        if clock is not None
        else Game.Speed.CORRESPONDENCE
        if days is not None
        else Game.Speed.UNLIMITED
    )
    speed = field_of(data, "speed", str, default)
    if speed not in Game.Speed.values:
        raise ApiError(400, f"'speed' must be {_listed(tuple(Game.Speed.values))}")
    terms = {"speed": speed, "initial": 0, "increment": 0, "days": 0}
    if speed != Game.Speed.LIVE and clock is not None:
        raise ApiError(400, "'clock' is for live games: leave it out, or say speed live")
    if speed != Game.Speed.CORRESPONDENCE and days is not None:
        raise ApiError(400, "'days' is for correspondence games: leave it out")
    if speed == Game.Speed.LIVE:
        if clock is None:
            raise ApiError(400, 'a live game needs a \'clock\': {"initial": s, "increment": s}')
        clock = field_of(data, "clock", dict, None)
        known(clock, ("initial", "increment"), of="clock")
        initial, increment = clock.get("initial"), clock.get("increment", 0)
        if not _whole(initial) or initial not in CLOCK_SECONDS:
            raise ApiError(400, f"the 'clock''s 'initial' must be {_listed(CLOCK_SECONDS)} seconds")
        if not _whole(increment) or not 0 <= increment <= clocks.MAX_INCREMENT:
            raise ApiError(
                400,
                f"the 'clock''s 'increment' must be 0 to {clocks.MAX_INCREMENT} seconds",
            )
        terms |= {"initial": initial, "increment": increment}
    elif speed == Game.Speed.CORRESPONDENCE:
        if days is None or not _whole(days) or days not in clocks.DAYS:
            raise ApiError(400, f"'days' must be {_listed(clocks.DAYS)}")
        terms["days"] = days
    return terms


def _rating_range(data: dict[str, Any]) -> tuple[int | None, int | None]:
    value = data.get("rating_range")
    if value is None:
        return None, None
    low, high = RATING_BOUNDS
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(end is None or (_whole(end) and low <= end <= high) for end in value)
    ):
        raise ApiError(
            400,
            f"'rating_range' must be [lowest, highest]: whole numbers from {low} to {high}, "
            "or null for no bound",
        )
    if None not in value and value[0] > value[1]:
        raise ApiError(400, "'rating_range': its lowest is above its highest")
    return value[0], value[1]


def _to_user(data: dict[str, Any]) -> Any:
    if data.get("to") is None:
        return None
    name = field_of(data, "to", str, None)
    user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if user is None:
        raise ApiError(400, f"'to': there is no player named {name[:40]!r}")
    return user


# What a challenge's body may hold, besides the rules of any game at its top.
FIELDS = ("game", "rules", "color", "rated", "speed", "clock", "days", "rating_range", "to")


def _fields() -> tuple[str, ...]:
    """The fields of a challenge's body: ``FIELDS`` and every game's options."""
    options = {option.name: None for kind in KINDS.values() for option in kind.rules.OPTIONS}
    return (*FIELDS[:2], *options, *FIELDS[2:])


def _terms(data: dict[str, Any]) -> challenges.Terms:
    """A challenge's terms from a request's body: the rules as ``POST /api/games``
    reads them (``rules``), or as the lobby's form names them (each option at the top);
    a rule the game does not have is refused, naming it, wherever it is."""
    kind = kind_asked(data)
    rules = dict(field_of(data, "rules", dict, {}))
    rules |= {name: data[name] for name in data if name not in FIELDS}
    color = field_of(data, "color", str, Challenge.Color.RANDOM)
    if color not in Challenge.Color.values:
        raise ApiError(400, f"'color' must be {_listed(tuple(Challenge.Color.values))}")
    low, high = _rating_range(data)
    rated = field_of(data, "rated", bool, False)
    if (low, high) != (None, None) and not rated:
        raise ApiError(400, "'rating_range' is for rated challenges: send \"rated\": true too")
    return challenges.Terms(
        rules=rules_asked({"rules": rules}, kind),
        color=color,
        rated=rated,
        rating_min=low,
        rating_max=high,
        **time_control(data),
    )


# The endpoints -----------------------------------------------------------------------


@endpoint("GET", "POST")
@limits.limited(limits.CREATE, too_many)
def challenge_list(request: HttpRequest) -> HttpResponse:
    """The lobby's open challenges (GET); post one (POST), 201 with it."""
    if request.method != "POST":
        absolute = request.build_absolute_uri
        found = [describe(challenge, absolute) for challenge in challenges.open_challenges()]
        return JsonResponse({"challenges": found})
    data = json_body(request, _fields())
    terms = _terms(data)
    to_user = _to_user(data)
    acting = who(request)
    challenge, token = challenges.create(acting, terms, to_user=to_user)
    body = describe(challenge, request.build_absolute_uri)
    if not acting.is_account:
        body["token"] = token  # the creator's seat in the game it becomes
    return JsonResponse(body, status=201)


@endpoint("GET", "DELETE")
@limits.limited(limits.API_WRITE, too_many, methods=("DELETE",))
def challenge(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """One challenge (GET), its ``game`` once accepted; its creator cancels it (DELETE)."""
    acting = who(request)
    if request.method == "DELETE":
        challenges.cancel(challenge_id, acting)
        return JsonResponse(describe(_found(challenge_id), request.build_absolute_uri))
    found = _found(challenge_id)
    if found.is_open and found.owner == acting.owner and not acting.is_account:
        # The program is there: its live challenge stands, as a guest's lobby page keeps
        # the guest's (``challenges.seen``).
        challenges.seen(acting.owner)
    return JsonResponse(describe(found, request.build_absolute_uri))


@endpoint("POST")
@limits.limited(limits.JOIN, too_many)
def accept(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """Accept a challenge: 201 with the game it started, the side taken and, for a
    program without an account, the seat's token."""
    json_body(request, ())  # JSON only: no form of another site accepts for its visitors
    acting = who(request)
    _, game, tokens = challenges.accept(challenge_id, acting)
    ((color, token),) = tokens.items()
    body = {
        "game": state(game),
        "url": absolute_url(request, "game-detail", game.public_id),
        "color": color,
    }
    if not acting.is_account:
        body["token"] = token
    return JsonResponse(body, status=201)


@endpoint("POST")
@limits.limited(limits.API_WRITE, too_many)
def decline(request: HttpRequest, challenge_id: str) -> HttpResponse:
    """The named player says no to a challenge to them."""
    json_body(request, ())
    challenges.decline(challenge_id, who(request))
    return JsonResponse(describe(_found(challenge_id), request.build_absolute_uri))


# The event stream -----------------------------------------------------------------------


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":")) + "\n"


def news_for(
    user_id: int,
    absolute: Callable[[str], str],
    challenges_sent: set[str],
    games_sent: set[str],
) -> list[str]:
    """The lines an account's stream owes it: the challenges to it it was not told of,
    those it was told of that are gone, the games it holds a side of that it was not
    told of (a tournament's game told of as ``tournamentGameStart`` too).
    ``challenges_sent`` and ``games_sent`` are updated to match."""
    lines = []
    open_now = list(
        Challenge.objects.filter(to_user_id=user_id, status=Challenge.Status.OPEN)
        .select_related("creator", "creator__account", "to_user")
        .order_by("created")[:MAX_FOLLOWED]
    )
    open_ids = {challenge.public_id for challenge in open_now}
    for public_id in sorted(challenges_sent - open_ids):
        gone = Challenge.objects.filter(public_id=public_id).values_list("status", flat=True)
        status = next(iter(gone), "gone")
        lines.append(_line({"type": "challengeGone", "id": public_id, "status": status}))
    challenges_sent &= open_ids
    for challenge in open_now:
        if challenge.public_id not in challenges_sent:
            challenges_sent.add(challenge.public_id)
            lines.append(_line({"type": "challenge", "challenge": describe(challenge, absolute)}))
    held = (
        Seat.objects.held_by(user_id)
        .going_on()
        .order_by("game__created", "color")
        .values_list("game__public_id", "color", "game__tournament_pairing__tournament__public_id")
    )
    going_on = set()
    for public_id, color, tournament in held:
        going_on.add(public_id)
        if public_id not in games_sent:
            games_sent.add(public_id)
            url = absolute(reverse("game-detail", args=[public_id]))
            game = {"id": public_id, "url": url, "color": color}
            lines.append(_line({"type": "gameStart", "game": game}))
            if tournament is not None:
                # A tournament's game: said twice, so a bot that plays only its
                # events' games knows which these are.
                event = {"type": "tournamentGameStart", "tournament": tournament, "game": game}
                lines.append(_line(event))
    games_sent &= going_on
    return lines


def still_allowed(user_id: int, token_id: int | None) -> bool:
    """Whether the account is still active and, for a stream opened with an API token,
    that token still stands (not revoked, nor gone with its account): one indexed read."""
    if token_id is None:
        return get_user_model().objects.filter(pk=user_id, is_active=True).exists()
    return ApiToken.objects.filter(pk=token_id, user_id=user_id, user__is_active=True).exists()


@receiver(post_delete, sender=ApiToken, dispatch_uid="lobby.api.token_revoked")
def _token_revoked(sender: type[ApiToken], instance: ApiToken, **kwargs: Any) -> None:
    """A token revoked, or deleted with its account: its streams wake up, and end."""
    live.bump(challenges.user_channel(instance.user_id))


async def event_lines(
    user_id: int,
    absolute: Callable[[str], str],
    on_close: Callable[[], None] | None = None,
    token_id: int | None = None,
) -> AsyncIterator[str]:
    """An account's events, one JSON object a line: what stands as it connects, then
    each change its channel hears of; a blank line when nothing was sent for
    ``LIVE_KEEPALIVE_SECONDS``; the end after ``LIVE_STREAM_SECONDS``, or at the first
    wake-up (news or a keep-alive) after its API token ``token_id`` was revoked or its
    account deleted or deactivated (``still_allowed``)."""
    room = live.newsroom()
    # Subscribed before the first reading, so no change falls between the two.
    heard = room.subscribe(live.CHANNEL + challenges.user_channel(user_id))
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.LIVE_STREAM_SECONDS
    challenges_sent: set[str] = set()
    games_sent: set[str] = set()
    read = sync_to_async(news_for)
    allowed = sync_to_async(still_allowed)
    try:
        for line in await read(user_id, absolute, challenges_sent, games_sent):
            yield line
        last = loop.time()
        while True:
            now = loop.time()
            if now >= ends:
                return
            if now - last >= settings.LIVE_KEEPALIVE_SECONDS:
                if not await allowed(user_id, token_id):
                    return
                yield "\n"
                last = now
            wait = min(last + settings.LIVE_KEEPALIVE_SECONDS, ends) - now
            news = await heard.next(max(wait, 0))
            if news is None:
                continue
            if not await allowed(user_id, token_id):
                return
            for line in await read(user_id, absolute, challenges_sent, games_sent):
                yield line
                last = loop.time()
    finally:
        room.unsubscribe(heard)
        if on_close is not None:
            on_close()


async def events(request: HttpRequest) -> HttpResponse:
    """``GET /api/stream/events``: the account's event stream (``event_lines``), as
    newline-delimited JSON; an account's API token is required."""
    if request.method not in ("GET", "HEAD"):
        response = error(405, "use GET here")
        response["Allow"] = "GET, HEAD"
        return response
    account = account_of(request)
    if account is None:
        return error(401, "send an account's API token as Authorization: Bearer mt_…")
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":
        return HttpResponse(content_type=NDJSON, headers=headers)
    if "wsgi.input" in request.META:
        response = error(503, "the event stream needs the ASGI server (maerstanas_site.asgi)")
        response["Retry-After"] = "3600"
        return response
    client = limits.client_of(request)
    gate = streams.gate()
    refusal = gate.admit(client)
    if refusal:
        response = error(refusal.status, refusal)
        response["Retry-After"] = "60"
        response["Connection"] = "close"  # as a page's stream refused (admit_stream)
        return response
    give_back = gate.ticket(client)
    lines = event_lines(
        account.pk, request.build_absolute_uri, on_close=give_back, token_id=request.api_token.pk
    )
    weakref.finalize(lines, give_back)
    return StreamingHttpResponse(lines, content_type=NDJSON, headers=headers)
