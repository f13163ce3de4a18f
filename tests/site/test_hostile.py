"""Hostile HTTP requests, replayed from data: none may crash the site or change a game.

The corpus is ``tests/data/hostile_requests.json``, a list of cases::

    {
      "name": "notation/sql_drop/htmx",     unique test id; its family is the part before "/"
      "method": "POST",                     default GET; any verb, made-up ones too
      "path": "/g/{game}/move",             placeholders below; percent-escapes are decoded
      "query": {"stone": "..."},            optional, urlencoded onto the path
      "many_params": 1200,                  add that many junk query parameters
      "data": {"move": "E4", "ply": "{game.ply}"},
                                            form fields, urlencoded as a browser sends them;
                                            a list value repeats the field
      "many_fields": 1200,                  add that many junk form fields
      "multipart": true,                    send the fields as multipart/form-data
      "files": 101,                         add that many small files (multipart)
      "body": "...", "content_type": "...", a raw body instead of form fields
      "headers": {"Origin": "..."},         extra request headers
      "secure": true,                       as if over HTTPS
      "as": "player",                       whose session sends it: see ``seats_of``
      "csrf": "missing",                    "off" (default: the test client skips the check)
                                            or an enforced check: see ``CSRF_MODES``
      "csrf_token": "x",                    the token a "wrong" request sends
      "htmx": true,                         send ``HX-Request: true``
      "expect": [403],                      acceptable statuses, after following the site's
                                            own redirects (303, 301, ``HX-Redirect``)
      "message": "is not a move",           for a 200: text the page must show (after HTML
                                            unescaping, in any case), or a list of alternatives
      "absent": ["<script>alert(1)"]        raw text the answer must never contain
    }

Any string may be ``{"repeat": "E4", "times": 30000}``. Placeholders: ``{game}``,
``{friend}``, ``{waiting}``, ``{finished}``, ``{rematch}``, ``{plain}``, ``{other_game}`` are
the public ids of the games ``world`` sets up; ``{game.ply}``, ``.ply_before``,
``.ply_after``, ``.revision``, ``.pk``, ``.swapcase``, ``.chopped`` (the id less its last
character), ``.invite`` (and ``.invite_upper``, ``.invite_chopped``), ``.dark_token``,
``.light_token`` (and ``_chopped``, ``_swapcase``), ``.dark_hash``, ``.light_hash`` say more
about one of them; ``{x4000}`` is 4000 x's.

Every case must end in one of its ``expect`` statuses, never in a 5xx, and must leave
every game and every move exactly as it was. A refusal under ``/api/`` is JSON
``{"error": "..."}``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from game import play
from game.engine import Rules
from game.models import Game, Move
from tests.support.games import hotseat

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).parents[1] / "data" / "hostile_requests.json"
CASES: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8"))

ACTORS = {
    "player",
    "dark",
    "light",
    "watcher",
    "forged",
    "other_game",
    "hashed",
    "swapped",
    "empty",
}
CSRF_MODES = {"off", "valid", "missing", "cookie_only", "wrong", "wrong_header", "token_only"}
FORGED_TOKEN = "forged-0123456789abcdefghijklmnopqrstuv"
WRONG_CSRF = "a" * 64  # well-formed, but not the cookie's secret
REDIRECTS = {301, 302, 303, 307, 308}
PLACEHOLDER = re.compile(r"\{([a-z_]\w*(?:\.\w+)?)\}")
KNOWN_FIELDS = {
    "name",
    "method",
    "path",
    "query",
    "many_params",
    "data",
    "many_fields",
    "multipart",
    "files",
    "body",
    "content_type",
    "headers",
    "secure",
    "as",
    "csrf",
    "csrf_token",
    "htmx",
    "expect",
    "message",
    "absent",
}


# The games ---------------------------------------------------------------------------------


class World(NamedTuple):
    games: dict[str, Game]  # by placeholder name
    tokens: dict[str, dict[str, str]]  # the real seat tokens of each game, by colour
    values: dict[str, str]  # the placeholders' values


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The games the corpus attacks, built once for the module.

    They are committed outside the tests' transactions (each test's own changes are
    rolled back anyway) and deleted when the module is done.
    """
    with django_db_blocker.unblock():
        games, tokens = _build_world()
        try:
            yield World(games, tokens, placeholders(games, tokens))
        finally:
            Game.objects.filter(pk__in=[game.pk for game in games.values()]).delete()


def _build_world() -> tuple[dict[str, Game], dict[str, dict[str, str]]]:
    tokens: dict[str, dict[str, str]] = {}
    ids: dict[str, str] = {}

    # Dark to move at ply 4 with both special stones; A1 would have four hinges.
    game, tokens["game"] = hotseat(["A2", "G7", "B1", "W A2"])
    ids["game"] = game.public_id
    # Dark to move, its thunder-stone spent; G6 would give G7 a fourth hinge.
    game, tokens["other_game"] = hotseat(["T D4", "W D4", "G7", "F7"])
    ids["other_game"] = game.public_id
    # No special stones; light to move.
    game, tokens["plain"] = hotseat(["D4"], Rules(special_stones=False))
    ids["plain"] = game.public_id

    # A friend game, both seats taken; light to move with no Woden-stone left.
    game, tokens["friend"] = play.create_game("friend", Rules(), "dark")
    _, color, token = play.join(game.public_id, play.invite_code(game))
    tokens["friend"][color] = token
    for move in ["D4", "W D4", "E4"]:
        play.make_move(game.public_id, tokens["friend"], move)
    ids["friend"] = game.public_id

    # A friend game whose light seat is free.
    game, tokens["waiting"] = play.create_game("friend", Rules(), "dark")
    ids["waiting"] = game.public_id

    # A finished friend game (dark resigned) and its rematch, waiting for light's return.
    game, tokens["finished"] = play.create_game("friend", Rules(), "dark")
    _, color, token = play.join(game.public_id, play.invite_code(game))
    tokens["finished"][color] = token
    for move in ["D4", "E4"]:
        play.make_move(game.public_id, tokens["finished"], move)
    play.resign(game.public_id, {"dark": tokens["finished"]["dark"]})
    rematch, tokens["rematch"] = play.rematch(game.public_id, {"dark": tokens["finished"]["dark"]})
    ids["finished"], ids["rematch"] = game.public_id, rematch.public_id

    assert set(ids) == set(GAMES)
    games = {key: Game.objects.get(public_id=public_id) for key, public_id in ids.items()}
    return games, tokens


GAMES = ("game", "other_game", "plain", "friend", "waiting", "finished", "rematch")
TOKEN_NAMES = [f"{c}_token{s}" for c in ("dark", "light") for s in ("", "_chopped", "_swapcase")]
GAME_ATTRIBUTES = ["ply", "ply_before", "ply_after", "revision", "pk", "swapcase", "chopped"]
GAME_ATTRIBUTES += ["invite", "invite_upper", "invite_chopped", "dark_hash", "light_hash"]
PLACEHOLDERS = {"x4000", *GAMES}
PLACEHOLDERS |= {f"{key}.{name}" for key in GAMES for name in GAME_ATTRIBUTES + TOKEN_NAMES}


def placeholders(games: dict[str, Game], tokens: dict[str, dict[str, str]]) -> dict[str, str]:
    values = {"x4000": "x" * 4000}
    for key, game in games.items():
        code = play.invite_code(game)
        values |= {
            key: game.public_id,
            f"{key}.ply": str(game.ply),
            f"{key}.ply_before": str(game.ply - 1),
            f"{key}.ply_after": str(game.ply + 1),
            f"{key}.revision": str(game.revision),
            f"{key}.pk": str(game.pk),
            f"{key}.swapcase": game.public_id.swapcase(),
            f"{key}.chopped": game.public_id[:-1],
            f"{key}.invite": code,
            f"{key}.invite_upper": code.upper(),
            f"{key}.invite_chopped": code[:-1],
            f"{key}.dark_hash": game.seat_hash("dark"),
            f"{key}.light_hash": game.seat_hash("light"),
        }
        for color, token in tokens[key].items():
            values |= {
                f"{key}.{color}_token": token,
                f"{key}.{color}_token_chopped": token[:-1],
                f"{key}.{color}_token_swapcase": token.swapcase(),
            }
    return values


def seats_of(
    actor: str, games: dict[str, Game], tokens: dict[str, dict[str, str]]
) -> dict[str, dict[str, str]]:
    """The session's seats (game id → colour → token) of each kind of sender.

    ``player`` holds every real seat; ``dark`` and ``light`` every real seat of that
    colour; ``watcher`` none. The rest claim seats in every game with a forged token,
    with the other game's real tokens, with the stored hashes, with the colours swapped
    or with empty tokens.
    """
    seats: dict[str, dict[str, str]] = {}
    for key, game in games.items():
        real = tokens[key]
        if actor == "player":
            held = dict(real)
        elif actor in ("dark", "light"):
            held = {actor: real[actor]} if actor in real else {}
        elif actor == "watcher":
            held = {}
        elif actor == "forged":
            held = {"dark": FORGED_TOKEN, "light": FORGED_TOKEN}
        elif actor == "other_game":
            held = {} if key == "other_game" else dict(tokens["other_game"])
        elif actor == "hashed":
            held = {color: game.seat_hash(color) for color in real}
        elif actor == "swapped":
            other = {"dark": "light", "light": "dark"}
            held = {other[color]: token for color, token in real.items()}
        elif actor == "empty":
            held = {"dark": "", "light": ""}
        else:
            raise AssertionError(f"unknown sender {actor!r}")
        if held:
            seats[game.public_id] = held
    return seats


Snapshot = tuple[list[dict[str, Any]], list[tuple[Any, ...]]]


def snapshot() -> Snapshot:
    """Every field of every game and every move, in a fixed order."""
    games = list(Game.objects.order_by("pk").values())
    moves = list(
        Move.objects.order_by("game_id", "ply").values_list(
            "game_id", "ply", "notation", "color", "created"
        )
    )
    return games, moves


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs between two snapshots, one line per field or row, for the report."""
    old = {game["id"]: game for game in before[0]}
    new = {game["id"]: game for game in after[0]}
    lines = [f"new game: {new[pk]}" for pk in new.keys() - old.keys()]
    lines += [f"game gone: {old[pk]}" for pk in old.keys() - new.keys()]
    for pk in old.keys() & new.keys():
        lines += [
            f"game {old[pk]['public_id']}: {field} {value!r} -> {new[pk][field]!r}"
            for field, value in old[pk].items()
            if new[pk][field] != value
        ]
    lines += [f"new move: {move}" for move in after[1] if move not in before[1]]
    lines += [f"move gone: {move}" for move in before[1] if move not in after[1]]
    return lines


# Building the request ------------------------------------------------------------------------


def fill(value: Any, values: dict[str, str]) -> Any:
    """Expand repeats and placeholders; lists stay lists (repeated fields)."""
    if isinstance(value, list):
        return [fill(item, values) for item in value]
    if isinstance(value, dict):
        return fill(value["repeat"], values) * value["times"]
    return PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), value)


def client_for(case: dict[str, Any], seats: dict[str, dict[str, str]]) -> tuple[Client, str]:
    """A client holding the sender's seats, and the CSRF token its request will send."""
    mode = case.get("csrf", "off")
    client = Client(enforce_csrf_checks=mode != "off")
    if seats:
        session = client.session
        session["seats"] = seats
        session.save()
        client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    token = ""
    if mode in ("valid", "cookie_only", "wrong", "wrong_header"):
        client.get("/")  # the home page's form sets the CSRF cookie
        token = client.cookies[settings.CSRF_COOKIE_NAME].value if mode == "valid" else ""
    if mode in ("wrong", "wrong_header", "token_only"):
        token = case.get("csrf_token", WRONG_CSRF)
    return client, token


def send(client: Client, case: dict[str, Any], values: dict[str, str], token: str) -> HttpResponse:
    method = case.get("method", "GET")
    path = fill(case["path"], values)
    query = {key: fill(value, values) for key, value in case.get("query", {}).items()}
    query |= {f"junk{i}": "x" for i in range(case.get("many_params", 0))}
    if query:
        path += ("&" if "?" in path else "?") + urlencode(query, doseq=True)

    headers = {key: fill(value, values) for key, value in case.get("headers", {}).items()}
    if case.get("htmx"):
        headers["HX-Request"] = "true"
    mode = case.get("csrf", "off")
    data = {key: fill(value, values) for key, value in case.get("data", {}).items()}
    data |= {f"junk{i}": "x" for i in range(case.get("many_fields", 0))}

    if "body" in case:
        body = fill(case["body"], values).encode()
        content_type = case["content_type"]
        if token:
            headers["X-CSRFToken"] = token
    else:
        if mode == "wrong_header":
            headers["X-CSRFToken"] = token
        elif token:
            data["csrfmiddlewaretoken"] = token
        if case.get("multipart") or case.get("files"):
            files = [SimpleUploadedFile(f"f{i}.txt", b"x") for i in range(case.get("files", 0))]
            body = encode_multipart(BOUNDARY, data | ({"upload": files} if files else {}))
            content_type = MULTIPART_CONTENT
        else:
            body = urlencode(data, doseq=True).encode()
            content_type = "application/x-www-form-urlencoded"
    return client.generic(
        method,
        path,
        body,
        content_type=content_type,
        secure=case.get("secure", False),
        headers=headers,
    )


def follow(client: Client, response: HttpResponse) -> HttpResponse:
    """Follow the site's own redirects as a browser would; each must stay on the site."""
    for _ in range(5):
        if response.status_code >= 500:
            return response
        location = response.headers.get("HX-Redirect")
        if location is None and response.status_code in REDIRECTS:
            location = response.headers["Location"]
        if location is None:
            return response
        assert location.startswith("/") and not location.startswith("//"), location
        response = client.get(location)
    pytest.fail("more than five redirects")


# The tests -----------------------------------------------------------------------------------


def test_the_corpus_is_large_and_well_formed():
    assert len(CASES) >= 200
    names = [case["name"] for case in CASES]
    assert len(set(names)) == len(names), "case names must be unique"
    for case in CASES:
        assert set(case) <= KNOWN_FIELDS, case["name"]
        assert case["expect"], case["name"]
        for status in case["expect"]:
            assert status == 200 or 400 <= status < 500, case["name"]
        if 200 in case["expect"] and case.get("method") != "HEAD":  # HEAD: no body to read
            assert case.get("message"), f"{case['name']}: a 200 must name the message it shows"
        assert case.get("as", "watcher") in ACTORS, case["name"]
        assert case.get("csrf", "off") in CSRF_MODES, case["name"]
        used = set(PLACEHOLDER.findall(json.dumps(case, ensure_ascii=False)))
        assert used <= PLACEHOLDERS, f"{case['name']}: unknown placeholders {used - PLACEHOLDERS}"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_hostile_request_is_refused_and_changes_nothing(case, world):
    games, tokens, values = world
    before = snapshot()

    client, token = client_for(case, seats_of(case.get("as", "watcher"), games, tokens))
    first = send(client, case, values, token)
    response = follow(client, first)
    body = response.content.decode("utf-8", "replace")
    after = snapshot()
    changed = "\n".join(changes(before, after))
    answer = f"answered {first.status_code}, finally {response.status_code}\n{changed}"

    assert first.status_code < 500, f"{answer}\n{body[:2000]}"
    assert response.status_code < 500, f"{answer}\n{body[:2000]}"
    assert response.status_code in case["expect"], f"{answer}\n{body[:2000]}"
    if fill(case["path"], values).startswith("/api/") and response.status_code >= 400:
        # A program reads every refusal of the API as JSON, never as an HTML page.
        assert response["Content-Type"] == "application/json", f"{answer}\n{body[:2000]}"
        assert json.loads(body)["error"] if case.get("method") != "HEAD" else not body
    if response.status_code == 200 and case.get("method") != "HEAD":
        wanted = fill(case["message"], values)
        wanted = wanted if isinstance(wanted, list) else [wanted]
        page = html.unescape(body).lower()  # "capfirst" starts a board's message in capitals
        assert any(text.lower() in page for text in wanted), (wanted, body[:2000])
    for text in fill(case.get("absent", []), values):
        assert text not in body, text
    assert after == before, changed
