"""The HTTP API for programs: start or join a game, move, wait for the opponent.

JSON in, JSON out. A program holds a seat by its token, sent as
``Authorization: Bearer <token>``; no cookie is read, so a cross-site form can
neither move for anyone nor needs a CSRF token here. Every refusal is a 4xx
answer ``{"error": "<the reason, in a player's words>"}`` and changes nothing.
docs/DESIGN.md ("The API for programs") lists the endpoints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from game import clocks, play, seats
from game.kinds import GameKind
from game.models import Game
from game.options import QUOTED, OptionError, Options
from game.registry import DEFAULT, find_kind
from game.surface import (
    Color,
    MoveError,
)
from kit import limits

# A move is a few dozen bytes; nothing the API takes comes near this.
MAX_BODY = 4096
# RFC 6750: the scheme's name in any case, then the token.
BEARER = re.compile(r"bearer +(\S+) *", re.IGNORECASE)


class ApiError(Exception):
    """A request refused with ``status`` and a message for the program's author."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error(status: int, message: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=status)
    if status == 401:
        # Header names ignore case: a mutant's "XX" header name is the same header.
        response["WWW-Authenticate"] = 'Bearer realm="maerstanas"'  # pragma: no mutate
    return response


def endpoint(*methods: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """An API view: only ``methods``, and every refusal as a JSON error.

    No API view reads a cookie, so none is CSRF-checked: a seat is in the
    Authorization header, which no other site can set, an invite in the body, and a
    body must be JSON, which no other site can send without the browser asking first.
    (Checked, a wrong method was an HTML 403 where a JSON 405 belongs.)
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @csrf_exempt
        @wraps(view)
        def wrapped(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            response = _answer(view, methods, request, **kwargs)
            response["Cache-Control"] = "no-store"  # seat tokens, and a state that moves on
            return response

        return wrapped

    return decorate


def _answer(
    view: Callable[..., HttpResponse],
    methods: tuple[str, ...],
    request: HttpRequest,
    **kwargs: Any,
) -> HttpResponse:
    if "GET" in methods and "HEAD" not in methods:
        methods = (*methods, "HEAD")  # answered like GET, without the body
    if request.method not in methods:
        response = error(405, f"use {' or '.join(methods)} here")
        response["Allow"] = ", ".join(methods)  # pragma: no mutate (header names ignore case)
        return response
    try:
        return view(request, **kwargs)
    except ApiError as exc:
        return error(exc.status, str(exc))
    except play.PlayError as exc:
        return error(exc.status, str(exc))
    except MoveError as exc:
        return error(400, str(exc))


def state(game: Game) -> dict[str, Any]:
    """The public state of a game (docs/DESIGN.md, "The page contract")."""
    # The position replayed with its history has the same legal moves, only later, and
    # history=None reads the cached text as False does: it is only tested for truth.
    legal = (
        []
        if game.is_over
        else [str(m) for m in game.position(history=False).legal_moves()]  # pragma: no mutate
    )
    players = game.players
    people = game.people()
    for color, person in people.items():
        players[color] |= {  # the page contract's fields; "bot" is the page's alone
            "name": person["name"],
            "username": person["username"],
            "rating": None if person["rating"] is None else round(person["rating"], 1),
        }
    body = {
        "id": game.public_id,
        "game": game.kind,
        "rules": game.rules.to_mapping(),
        "mode": game.mode,
        "rated": game.rated,
        "players": players,
        "status": "finished" if game.is_over else game.status,
        "record": game.logged_record(),
        "ply": game.ply,
        "turn": game.turn or None,
        "score": {"dark": game.dark_score, "light": game.light_score},
        "over": game.is_over,
        "result": game.result_word or None,
        "end": game.end,
        "resigned": game.loser or None,
        "speed": game.speed,
        "clock": clocks.view(game, clocks.now()),
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "position": game.position_text,
        "legal": legal,
        # What the game calls each seat's side (the dark seat moves first): added to
        # the fields above, which keep their seat colours for every game.
        "sides": game.game_kind.sides.as_mapping(),
    }
    changes = {color: person["change"] for color, person in people.items() if "change" in person}
    if changes:
        body["rating_change"] = {color: round(change, 1) for color, change in changes.items()}
    return body


def _game(game_id: str) -> Game:
    """The game, as it stands now: ended if its time ran out (``play.in_time``)."""
    game = Game.objects.filter(public_id=game_id).first()
    if game is None:
        raise ApiError(404, "there is no such game")
    return play.in_time(game)


def json_body(request: HttpRequest, fields: Collection[str]) -> dict[str, Any]:
    """The request's JSON object, of ``fields`` only; 415 sent as anything but JSON, 411
    in chunks, 413 too long, 400 when it is not one or has another field."""
    # A form of another site can post text/plain or a form to any address without the
    # browser asking first; only JSON needs the browser's leave (CORS), which no other
    # site gets: so no page elsewhere spends its visitors' allowance of new games.
    if request.content_type != "application/json":
        raise ApiError(415, "send the body as JSON, with Content-Type: application/json")
    # Django reads a body only as far as its Content-Length: a chunked one would be
    # read as empty and the program's fields silently dropped.
    # Headers ignore case, and a default without "chunked" reads the same as "".
    if "chunked" in request.headers.get("Transfer-Encoding", "").lower():  # pragma: no mutate
        raise ApiError(411, "send the body with a Content-Length, not in chunks")
    try:
        # A POST without Content-Length has an empty body: read as 0 or 1, both small.
        declared = int(request.META.get("CONTENT_LENGTH") or 0)  # pragma: no mutate
    except ValueError:
        raise ApiError(400, "Content-Length is not a number") from None
    # Django reads no more than the declared length, so checking it bounds the body.
    if declared > MAX_BODY:
        raise ApiError(413, f"the body is longer than {MAX_BODY} bytes")
    raw = request.body
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the body is not JSON") from None
    except RecursionError:  # nested deeper than Python's stack: no request needs that
        raise ApiError(400, "the body is nested too deep") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    known(data, fields)
    return data


def known(data: dict[str, Any], fields: Collection[str], of: str = "") -> None:
    """Refuse, naming it, a field of ``data`` (the body, or its object ``of``) other than
    ``fields``: a misspelt option would otherwise be dropped without a word, and the
    game played by other rules than the program asked for."""
    unknown = sorted(set(data) - set(fields))
    if unknown:
        where = f"of {of!r}" if of else "here"
        send = f"send {listed(fields)}" if fields else "send an empty object"
        raise ApiError(400, f"{unknown[0][:QUOTED]!r} is not a field {where}: {send}")


def listed(words: Collection[str], last: str = "or") -> str:
    """``words`` in a sentence: "mode, game or rules"."""
    words = list(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}" if len(words) > 1 else "".join(words)


def field_of(data: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    """``data[name]``, or ``default`` without it; 400 when it is not of JSON's ``kind``."""
    value = data.get(name, default)
    # bool is a kind of int in Python, never in JSON: refuse true for a ply.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ApiError(400, f"{name!r} must be {_KIND_NAMES[kind]}")
    return value


_KIND_NAMES = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object"}


def kind_asked(data: dict[str, Any]) -> GameKind:
    """The game ``data["game"]`` names, the default without it; 400 for no game here."""
    try:
        return find_kind(field_of(data, "game", str, DEFAULT.name))
    except KeyError as error:
        raise ApiError(400, error.args[0]) from None


def rules_asked(data: dict[str, Any], kind: GameKind) -> Options:
    """The options ``data["rules"]`` names for ``kind``; 400 naming a value it does not
    take, or a rule it does not have."""
    rules = field_of(data, "rules", dict, {})
    names = [option.name for option in kind.rules.OPTIONS]
    unknown = sorted(set(rules) - set(names))
    if unknown:
        has = f"its rules are {listed(names, 'and')}" if names else "it has no rules to choose"
        raise ApiError(400, f"{unknown[0][:QUOTED]!r} is not a rule of {kind.title}: {has}")
    try:
        return kind.rules.from_mapping(rules, typed=True)
    except OptionError as error:
        raise ApiError(400, str(error)) from None


def _token(request: HttpRequest) -> str:
    # A missing header is refused as junk is, whatever the default read.
    match = BEARER.fullmatch(request.headers.get("Authorization", ""))  # pragma: no mutate
    if match is None:
        raise ApiError(401, "send your seat token as Authorization: Bearer <token>")
    return match[1]


def account_of(request: HttpRequest) -> Any:
    """The account a personal API token (``Bearer mt_…``, ``players.middleware``) names,
    or None: a browser's login is never read here, so no other site can act for it."""
    return request.user if getattr(request, "api_token", None) is not None else None


def _held(request: HttpRequest, game: Game) -> dict[str, str]:
    """The seats the request's credential holds in ``game``: an account's, by its
    personal token, or a seat token's; 403 for none."""
    if account_of(request) is not None:
        held = seats.tokens_for(request, game.public_id)
        if not held:
            raise ApiError(403, "this account holds no seat in this game")
        return held
    return _seats(game, _token(request))


def _offered(request: HttpRequest, game: Game) -> dict[str, str]:
    """The seats the request's credential may hold in ``game``, unchecked, for
    ``play.join`` to refuse a second one: an account's, or a seat token for either side;
    none without a credential."""
    if account_of(request) is not None:
        return seats.tokens_for(request, game.public_id)
    match = BEARER.fullmatch(request.headers.get("Authorization", ""))
    return {color.value: match[1] for color in Color} if match else {}


def _seats(game: Game, token: str) -> dict[str, str]:
    """The seats ``token`` holds in ``game``, as ``play`` takes them; 403 for none."""
    held = {color.value: token for color in Color if game.holds_seat(color, token)}
    if not held:
        raise ApiError(403, "this token holds no seat in this game")
    return held


def absolute_url(request: HttpRequest, name: str, *args: str) -> str:
    """The whole address of the page ``name`` (a URL's name) of ``args``."""
    return request.build_absolute_uri(reverse(name, args=args))


def too_many(request: HttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    """The API's answer to a client past a limit (``limits.limited``'s refusal)."""
    # limits.refused makes any answer given here a 429, and 401 is the only status
    # error() reads: another status, or none, is answered the same.
    return error(
        429,  # pragma: no mutate
        str(exceeded),
    )


CREATE_FIELDS = ("mode", "game", "rules", "color", "level", "rated")


@endpoint("POST")
@limits.limited(limits.CREATE, too_many)
def create(request: HttpRequest) -> HttpResponse:
    """Start a friend game or a game against the computer; 201 with the seat token."""
    data = json_body(request, CREATE_FIELDS)
    mode = field_of(data, "mode", str, "friend")
    if mode not in (Game.Mode.FRIEND, Game.Mode.COMPUTER):
        raise ApiError(400, f"{mode!r} is not a kind of game here: use friend or computer")
    rules = rules_asked(data, kind_asked(data))
    color = field_of(data, "color", str, "dark")
    level = field_of(data, "level", str, "")
    rated = field_of(data, "rated", bool, False)
    account = account_of(request)
    game, tokens = play.create_game(mode, rules, color, level=level, user=account, rated=rated)
    ((color, token),) = tokens.items()
    body = {
        "id": game.public_id,
        "url": absolute_url(request, "game-detail", game.public_id),
        "color": color,
        "token": token,
    }
    if mode == Game.Mode.FRIEND:
        body["invite_url"] = absolute_url(
            request, "game-invite", game.public_id, play.invite_code(game)
        )
    return JsonResponse(body, status=201)


@endpoint("POST")
@limits.limited(limits.JOIN, too_many)
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    """Take the free seat of a friend game with its invite (the link or its code)."""
    invite = field_of(json_body(request, ("invite",)), "invite", str, "")
    # The link's last path segment, so a query or fragment pasted with it does no harm.
    code = urlsplit(invite.strip()).path.rstrip("/").rsplit("/", 1)[-1]
    if not code:
        raise ApiError(400, "send the invite link or its code as 'invite'")
    game = _game(game_id)
    game, color, token = play.join(
        game_id, code, held=_offered(request, game), user=account_of(request)
    )
    return JsonResponse(
        {
            "id": game.public_id,
            "url": absolute_url(request, "game-detail", game.public_id),
            "color": color,
            "token": token,
        }
    )


@endpoint("POST")
@limits.limited(limits.API_WRITE, too_many)
def moves(request: HttpRequest, game_id: str) -> HttpResponse:
    """Play a move for the token's seat at the ply the program saw; the new state."""
    game = _game(game_id)
    held = _held(request, game)
    data = json_body(request, ("move", "ply", "position"))
    move = field_of(data, "move", str, None) if "move" in data else None
    if move is None:
        raise ApiError(400, f"send the move as 'move', e.g. {game.game_kind.examples}")
    if "ply" not in data:
        raise ApiError(400, "send the ply you saw as 'ply', so a stale move is never played")
    ply = field_of(data, "ply", int, None)
    # The position seen, optional: a takeback can bring a game back to the same ply.
    seen = field_of(data, "position", str, "")
    return JsonResponse(state(play.make_move(game_id, held, move, ply, seen=seen)))


@endpoint("POST")
@limits.limited(limits.API_WRITE, too_many)
def resign(request: HttpRequest, game_id: str) -> HttpResponse:
    """Give the game up for the token's seat; the final state."""
    held = _held(request, _game(game_id))
    return JsonResponse(state(play.resign(game_id, held)))


@endpoint("GET")
def game(request: HttpRequest, game_id: str) -> HttpResponse:
    """The public state of a game."""
    return JsonResponse(state(_game(game_id)))


@endpoint("GET")
def poll(request: HttpRequest, game_id: str, ply: int) -> HttpResponse:
    """204 while the game is at ``ply`` (one indexed read); else its state."""
    current = Game.objects.filter(public_id=game_id).values_list("ply", "status").first()
    if current is None:
        raise ApiError(404, "there is no such game")
    if current[0] == ply and current[1] in Game.GOING_ON:
        return HttpResponse(status=204)
    return JsonResponse(state(_game(game_id)))


@endpoint("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
def not_found(request: HttpRequest, path: str = "") -> HttpResponse:
    """Any other address under /api/: a JSON 404, as a program expects."""
    raise ApiError(404, "there is no such API endpoint: see docs/DESIGN.md")


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 400 (a Host it does not serve, a request it cannot read): JSON under /api/.

    Never through the CSRF check, as Django's own handlers go (``requires_csrf_token``):
    a request that cannot be read fails that check's reading of its form again, and
    the 400 became a 500 with its traceback in the log.
    """
    if not _is_api(request):
        return _page("400.html", 400)
    if isinstance(exception, DisallowedHost):
        return error(400, "this server does not answer to that host name")
    return error(400, "the server cannot read this request")


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500: JSON under /api/, so a program never has to read an HTML page;
    never through the CSRF check (``bad_request`` says why)."""
    if not _is_api(request):
        return _page("500.html", 500)
    return error(500, "the server failed to answer: look at the game again before you retry")


def _page(template_name: str, status: int) -> HttpResponse:
    """An error page drawn from its template alone, with nothing of the request."""
    return HttpResponse(loader.get_template(template_name).render(), status=status)
