"""Tournaments for programs: list and create events, join, withdraw and start one,
and read its state (standings and pairings), as docs/DESIGN.md lists.

The JSON conventions are ``game.api``'s (every refusal a 4xx ``{"error": …}``). Every
action needs an account's personal API token (``Bearer mt_…``): a tournament is
between accounts. A bot with one joins an event, hears of each game on its event
stream (``tournamentGameStart``) and plays it through the games' API.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone

from game.api import (
    ApiError,
    account_of,
    endpoint,
    field_of,
    json_body,
    kind_asked,
    rules_asked,
    too_many,
)
from game.models import Game
from kit import limits
from lobby.api import time_control
from tournaments import events, state, systems
from tournaments.models import Pairing, Tournament

# The events the list shows: every one not finished, and the latest finished.
LISTED_FINISHED = 50
FIELDS = (
    "name",
    "game",
    "rules",
    "system",
    "rounds",
    "minutes",
    "clock",
    "days",
    "rated",
    "starts_at",
    "min_rating",
    "password",
    "berserk",
)
RATING_BOUNDS = (0, 4000)


def _number(value: Fraction) -> int | float:
    """A score as JSON says it: 2, 1.5."""
    return int(value) if value.denominator == 1 else float(value)


def points_of(system: str, berserk: bool = False) -> dict[str, int | float]:
    points = {name: _number(value) for name, value in systems.POINTS[system].items()}
    if berserk:
        points["berserk"] = systems.BERSERK_POINTS
    return points


def describe(event: Tournament, absolute, full: bool = True) -> dict[str, Any]:
    """An event as the API shows it; ``full`` adds its standings and pairings."""
    live_clock = event.speed == Game.Speed.LIVE
    body: dict[str, Any] = {
        "id": event.public_id,
        "url": absolute(reverse("tournament", args=[event.public_id])),
        "name": event.name,
        "game": event.kind,
        "rules": event.rules.to_mapping(),
        "system": event.system,
        "status": event.status,
        "round": event.round,
        "rounds": event.rounds if event.system != Tournament.System.ARENA else None,
        "minutes": event.minutes if event.system == Tournament.System.ARENA else None,
        "rated": event.rated,
        "clock": {"initial": event.initial, "increment": event.increment} if live_clock else None,
        "days": event.days if event.speed == Game.Speed.CORRESPONDENCE else None,
        "starts_at": _when(event.starts_at),
        "started": _when(event.started),
        "ends_at": _when(event.ends_at),
        "min_rating": event.min_rating,
        "private": event.is_private,
        "creator": event.creator.username if event.creator_id else None,
        "points": points_of(event.system, event.berserk),
        "berserk": event.berserk,
    }
    if not full:
        return body
    pairings = list(event.pairings.select_related("dark", "light", "game"))
    rows = state.standings(event)
    body["players"] = [
        {
            "username": row.user.username,
            "rating": round(row.entry.rating),
            "score": _number(row.score),
            "tiebreaks": {
                name: value if isinstance(value, bool) else _number(value)
                for name, value in row.tiebreaks.items()
            },
            "rank": row.rank,
            "games": row.games,
            "withdrawn": row.entry.withdrawn,
        }
        for row in rows
    ]
    body["pairings"] = [
        {
            "round": pairing.round,
            "game": pairing.game.public_id if pairing.game_id else None,
            "dark": pairing.dark.username,
            "light": pairing.light.username if pairing.light_id else None,
            "result": pairing.result_word,
            "berserk": [
                side
                for side, berserked in (
                    ("dark", pairing.dark_berserk),
                    ("light", pairing.light_berserk),
                )
                if berserked
            ],
        }
        for pairing in pairings
        if pairing.game_id or pairing.result == Pairing.BYE
    ]
    return body


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def _account(request: HttpRequest) -> Any:
    account = account_of(request)
    if account is None:
        raise ApiError(401, "send an account's API token as Authorization: Bearer mt_…")
    return account


def _whole(data: dict[str, Any], name: str, default: int | None) -> int | None:
    if data.get(name) is None:
        return default
    return field_of(data, name, int, default)


def terms_of(data: dict[str, Any]) -> events.Terms:
    """An event's terms from a request's body; 400 naming the field that is wrong."""
    kind = kind_asked(data)
    rules = rules_asked(data, kind)
    system = field_of(data, "system", str, "")
    if system not in Tournament.System.values:
        raise ApiError(400, "'system' must be arena, swiss or round-robin")
    min_rating = _whole(data, "min_rating", None)
    if min_rating is not None and not RATING_BOUNDS[0] <= min_rating <= RATING_BOUNDS[1]:
        raise ApiError(400, f"'min_rating' must be {RATING_BOUNDS[0]} to {RATING_BOUNDS[1]}")
    starts_at = None
    if data.get("starts_at") is not None:
        text = field_of(data, "starts_at", str, "")
        try:
            starts_at = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ApiError(400, "'starts_at' must be a time as ISO 8601 says it") from None
        if timezone.is_naive(starts_at):
            raise ApiError(400, "'starts_at' needs its offset from UTC (e.g. Z)")
    default_rounds = {"swiss": 5, "round-robin": 1}.get(system, 0)
    return events.Terms(
        rules=rules,
        system=system,
        rounds=_whole(data, "rounds", default_rounds) or 0,
        minutes=_whole(data, "minutes", 0) or 0,
        rated=field_of(data, "rated", bool, True),
        starts_at=starts_at,
        min_rating=min_rating,
        password=field_of(data, "password", str, "")[:128],
        name=" ".join(field_of(data, "name", str, "").split())[:60],
        berserk=field_of(data, "berserk", bool, False),
        **time_control(data),
    )


@endpoint("GET", "POST")
@limits.limited(limits.CREATE, too_many)
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The events not finished and the latest finished (GET); create one (POST), 201."""
    if request.method != "POST":
        absolute = request.build_absolute_uri
        listed = [describe(event, absolute, full=False) for event in listing()]
        return JsonResponse({"tournaments": listed})
    account = _account(request)
    data = json_body(request, FIELDS)
    event = events.create(account, terms_of(data))
    url = request.build_absolute_uri(reverse("tournament", args=[event.public_id]))
    return JsonResponse({"id": event.public_id, "url": url}, status=201)


def listing(kind: str = "") -> list[Tournament]:
    """The events a list shows: those to come and running, then the latest finished."""
    found = Tournament.objects.select_related("creator")
    if kind:
        found = found.filter(kind=kind)
    going = found.exclude(status=Tournament.Status.FINISHED).order_by("status", "-created")
    done = found.filter(status=Tournament.Status.FINISHED).order_by("-finished")
    return [*going, *done[:LISTED_FINISHED]]


@endpoint("GET")
def tournament(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """One event's state: its terms, standings and pairings."""
    return JsonResponse(describe(state.found(tournament_id), request.build_absolute_uri))


@endpoint("POST")
@limits.limited(limits.JOIN, too_many)
def join(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Join the event (``{"password": …}`` for a private one)."""
    account = _account(request)
    data = json_body(request, ("password",))
    events.join(account, tournament_id, field_of(data, "password", str, ""))
    return JsonResponse(acted(state.found(tournament_id), account, request.build_absolute_uri))


def acted(event: Tournament, account: Any, absolute) -> dict[str, Any]:
    """What an action answers: the event as the list shows it, and ``you``, the
    account's own part (``None`` if it has not joined): whether it is withdrawn, and
    its game being played with whether it went berserk in it.

    Not the whole state: in an arena of a thousand players that is a thousand rows
    and every game played, and bots withdraw and come back all evening. A program
    that wants the standings asks for them (``GET /api/tournaments/<id>``)."""
    body = describe(event, absolute, full=False)
    entry = event.entries.filter(user=account).first()
    if entry is None:
        return body | {"you": None}
    ours = Q(dark=account) | Q(light=account)
    playing = event.pairings.filter(ours, result="").exclude(game=None).select_related("game")
    pairing = playing.order_by("-round").first()
    game, berserk = None, False
    if pairing is not None:
        game = pairing.game.public_id
        berserk = pairing.dark_berserk if pairing.dark_id == account.pk else pairing.light_berserk
    return body | {"you": {"withdrawn": entry.withdrawn, "game": game, "berserk": berserk}}


def _acted(request: HttpRequest, tournament_id: str, action) -> HttpResponse:
    """An account's action on an event with an empty body; what it answers: ``acted``."""
    account = _account(request)
    json_body(request, ())
    action(account, tournament_id)
    return JsonResponse(acted(state.found(tournament_id), account, request.build_absolute_uri))


@endpoint("POST")
@limits.limited(limits.API_WRITE, too_many)
def withdraw(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Leave the event (an arena's player pauses: joining again comes back)."""
    return _acted(request, tournament_id, events.withdraw)


@endpoint("POST")
@limits.limited(limits.API_WRITE, too_many)
def start(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Its creator starts the event, once two players have joined."""
    return _acted(request, tournament_id, events.start)


@endpoint("POST")
@limits.limited(limits.API_WRITE, too_many)
def berserk(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """Halve one's clock in one's arena game before one's first move: a point more for a win."""
    return _acted(request, tournament_id, events.berserk)
