"""The lobby's API for programs (lobby/api.py): challenges listed, posted, accepted,
declined and cancelled as JSON, an account's event stream, and the example client
sitting in the lobby as a bot."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user_model
from django.test import AsyncClient, Client
from django.utils import timezone

from game import bots
from game.models import Game
from game.tokens import hash_token
from kit import limits, live
from kit.live import News
from kit.models import Channel
from lobby import api, challenges
from lobby.models import Challenge
from players.models import Account, ApiToken
from tests.players.test_api_tokens import make_token
from tests.support.accounts import account
from tests.support.servers import ROOT, Server, prepare, scratch_database, site_env

LIVE_5_3 = {"clock": {"initial": 300, "increment": 3}}


@pytest.fixture(autouse=True)
def quiet_newsroom(monkeypatch):
    """A fresh newsroom whose thread hears nothing: the test publishes the news itself
    (the test's transaction is seen by no other connection)."""
    monkeypatch.setattr(live.Newsroom, "_run", lambda self: None)
    monkeypatch.setattr(live, "_newsroom", None)


def call(method: str, path: str, token: str = "", body: object = None, **extra):
    """An API request by a program: ``token`` an account's API token, or none."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = Client()
    if method == "GET":
        return client.get(path, headers=headers, **extra)
    if method == "DELETE":
        return client.delete(path, headers=headers, **extra)
    data = body if isinstance(body, (str, bytes)) else json.dumps(body or {})
    return client.post(path, data, content_type="application/json", headers=headers, **extra)


def post_challenge(token: str = "", **body) -> dict:
    reply = call("POST", "/api/challenges", token, body or dict(LIVE_5_3))
    assert reply.status_code == 201, reply.content
    return reply.json()


def programmer(username: str, bot: bool = False) -> tuple[Client, str]:
    """An account, logged in, and an API token of its."""
    client = account(username)
    if bot:
        client.post("/accounts/tokens/", {"action": "bot", "bot": "on"})
    return client, make_token(client)


# Listing and posting -------------------------------------------------------------------


@pytest.mark.django_db
def test_the_list_shows_open_challenges_and_not_those_to_a_named_player():
    _, ann = programmer("Ann")
    programmer("Bea")
    public = post_challenge(ann, days=3)
    named = post_challenge(ann, to="bea")
    assert named["to"] == "Bea"
    listed = call("GET", "/api/challenges")
    assert listed.status_code == 200 and listed["Cache-Control"] == "no-store"
    assert [row["id"] for row in listed.json()["challenges"]] == [public["id"]]
    assert listed.json()["challenges"][0] == public


@pytest.mark.django_db
def test_a_program_without_an_account_posts_a_challenge_and_holds_its_seat_token():
    body = {"color": "dark", "special_stones": False, "scoring": "simple"} | LIVE_5_3
    reply = call("POST", "/api/challenges", "", body)
    assert reply.status_code == 201
    made = reply.json()
    stored = Challenge.objects.get()
    assert made == {
        "id": stored.public_id,
        "url": f"http://testserver/lobby/{stored.public_id}/",
        "creator": {"name": "Program (guest)", "username": None, "rating": None, "bot": False},
        "rules": {"special_stones": False, "scoring": "simple", "wraparound": False},
        "color": "dark",
        "rated": False,
        "speed": "live",
        "clock": {"initial": 300, "increment": 3},
        "days": None,
        "rating_range": None,
        "to": None,
        "status": "open",
        "game": None,
        "token": made["token"],
    }
    assert stored.token_hash == hash_token(made["token"])
    assert stored.owner.startswith("api:") and len(stored.owner) == 32


@pytest.mark.django_db
def test_an_account_posts_a_rated_correspondence_challenge_with_a_rating_range():
    _, token = programmer("Botwulf", bot=True)
    made = post_challenge(
        token, rated=True, days=2, rating_range=[900, 1200], rules={"wraparound": True}
    )
    assert "token" not in made
    assert made["creator"] == {
        "name": "Botwulf",
        "username": "Botwulf",
        "rating": 1000.0,
        "bot": True,
    }
    assert (made["speed"], made["clock"], made["days"]) == ("correspondence", None, 2)
    assert made["rating_range"] == [900, 1200] and made["rated"] is True
    assert made["rules"]["wraparound"] is True and made["color"] == "random"
    unlimited = post_challenge(token, color="light")
    assert (unlimited["speed"], unlimited["clock"], unlimited["days"]) == ("unlimited", None, None)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"clock": {"initial": 299, "increment": 0}}, "'initial'"),
        ({"clock": {"initial": 300, "increment": 61}}, "'increment'"),
        ({"clock": {"initial": 300, "increment": True}}, "'increment'"),
        ({"clock": 300}, "'clock'"),
        ({"speed": "live"}, "'clock'"),
        ({"days": 4}, "'days'"),
        ({"speed": "correspondence"}, "'days'"),
        ({"days": 3} | LIVE_5_3, "'"),
        ({"speed": "blitz"}, "'speed'"),
        ({"color": "blue"}, "'color'"),
        ({"rated": "yes"}, "'rated'"),
        ({"rating_range": [1500]}, "'rating_range'"),
        ({"rating_range": [1500, 1200], "rated": True}, "'rating_range'"),
        ({"rating_range": [1000, 1200]}, "'rating_range'"),
        ({"to": "nobody-here"}, "'to'"),
        ({"special_stones": "maybe"}, "'special_stones'"),
        ({"rules": {"scoring": "fancy"}}, "scoring"),
        ({"rules": {"nonsense": True}} | LIVE_5_3, "'nonsense' is not a rule of Mǽrstánas"),
        ({"nonsense": True} | LIVE_5_3, "'nonsense' is not a field here"),
        ({"game": "cyngesheall", "wraparound": True}, "'wraparound' is not a rule of"),
        ({"clock": {"initial": 300, "incremnt": 3}}, "'incremnt' is not a field of 'clock'"),
        ({"game": "chess"}, "'chess'"),
    ],
)
def test_a_bad_field_is_refused_naming_it_and_nothing_is_posted(body, named):
    _, token = programmer("Ann")
    reply = call("POST", "/api/challenges", token, body)
    assert reply.status_code == 400, reply.content
    assert named in reply.json()["error"]
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_accept_and_decline_take_an_empty_object_and_refuse_a_field_naming_it():
    made = post_challenge()
    _, bea = programmer("Bea")
    for action in ("accept", "decline"):
        reply = call("POST", f"/api/challenges/{made['id']}/{action}", bea, {"color": "dark"})
        assert reply.status_code == 400, reply.content
        assert reply.json()["error"] == "'color' is not a field here: send an empty object"
    assert not Game.objects.exists() and Challenge.objects.get().status == "open"


@pytest.mark.django_db
def test_a_body_that_is_not_json_is_refused():
    client = Client()
    assert client.post("/api/challenges", {"days": "3"}).status_code == 415
    assert client.post("/api/challenges", "[]", content_type="application/json").status_code == 400
    assert client.put("/api/challenges", "{}", content_type="application/json").status_code == 405
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_a_rated_challenge_by_a_program_without_an_account_is_refused():
    reply = call("POST", "/api/challenges", "", {"rated": True} | LIVE_5_3)
    assert reply.status_code == 400 and "rated game is between accounts" in reply.json()["error"]
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_posting_past_the_limit_answers_429():
    for _ in range(limits.CREATE.requests):
        limits.count(limits.CREATE, "127.0.0.1")
    reply = call("POST", "/api/challenges", "", LIVE_5_3)
    assert reply.status_code == 429 and "too many requests" in reply.json()["error"]
    assert int(reply["Retry-After"]) > 0 and not Challenge.objects.exists()


# Accepting, cancelling, declining ---------------------------------------------------------


@pytest.mark.django_db
def test_an_account_accepts_a_programs_challenge_and_both_play_by_their_credentials():
    made = post_challenge(color="dark", **LIVE_5_3)
    _, bea = programmer("Bea")
    reply = call("POST", f"/api/challenges/{made['id']}/accept", bea)
    assert reply.status_code == 201, reply.content
    answer = reply.json()
    assert answer["color"] == "light" and "token" not in answer
    state = answer["game"]
    assert state["speed"] == "live" and state["status"] == "active"
    assert state["clock"]["dark"] == 300_000 and state["clock"]["increment"] == 3
    game_id = state["id"]
    assert answer["url"] == f"http://testserver/g/{game_id}/"
    # The creator learns of its game by asking about its challenge.
    mine = call("GET", f"/api/challenges/{made['id']}").json()
    assert (mine["status"], mine["game"], mine["creator_color"]) == ("accepted", game_id, "dark")
    moved = call("POST", f"/api/games/{game_id}/moves", made["token"], {"move": "D4", "ply": 0})
    assert moved.status_code == 200, moved.content
    replied = call("POST", f"/api/games/{game_id}/moves", bea, {"move": "E4", "ply": 1})
    assert replied.status_code == 200 and replied.json()["ply"] == 2


@pytest.mark.django_db
def test_a_program_without_an_account_accepts_and_gets_its_seat_token():
    _, ann = programmer("Ann")
    made = post_challenge(ann, color="light", days=3)
    reply = call("POST", f"/api/challenges/{made['id']}/accept")
    assert reply.status_code == 201
    answer = reply.json()
    game = Game.objects.get(public_id=answer["game"]["id"])
    assert answer["color"] == "dark" and game.holds_seat("dark", answer["token"])
    assert game.seat("light").user.username == "Ann" and game.speed == "correspondence"


@pytest.mark.django_db
def test_accepting_ones_own_challenge_is_refused():
    guest = post_challenge()
    reply = call("POST", f"/api/challenges/{guest['id']}/accept")
    assert reply.status_code == 400 and "your own challenge" in reply.json()["error"]
    _, ann = programmer("Ann")
    own = post_challenge(ann)
    assert call("POST", f"/api/challenges/{own['id']}/accept", ann).status_code == 400
    assert not Game.objects.exists()
    assert set(Challenge.objects.values_list("status", flat=True)) == {"open"}


@pytest.mark.django_db
def test_an_accept_sent_as_a_form_is_refused():
    made = post_challenge()
    _, bea = programmer("Bea")
    reply = Client().post(
        f"/api/challenges/{made['id']}/accept", headers={"Authorization": f"Bearer {bea}"}
    )
    assert reply.status_code == 415 and not Game.objects.exists()


@pytest.mark.django_db
def test_the_second_accept_is_too_late():
    made = post_challenge()
    _, bea = programmer("Bea")
    _, cyn = programmer("Cyn")
    assert call("POST", f"/api/challenges/{made['id']}/accept", bea).status_code == 201
    late = call("POST", f"/api/challenges/{made['id']}/accept", cyn)
    assert late.status_code == 409 and "someone accepted it first" in late.json()["error"]
    assert Game.objects.count() == 1
    assert call("POST", "/api/challenges/nosuchthing/accept", cyn).status_code == 404


@pytest.mark.django_db
def test_the_creator_cancels_and_nobody_else_may():
    _, ann = programmer("Ann")
    _, bea = programmer("Bea")
    made = post_challenge(ann)
    path = f"/api/challenges/{made['id']}"
    refused = call("DELETE", path, bea)
    assert refused.status_code == 403 and "only the player who posted" in refused.json()["error"]
    assert call("DELETE", path).status_code == 403  # a program without the account
    cancelled = call("DELETE", path, ann)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert call("POST", f"{path}/accept", bea).status_code == 409
    assert call("DELETE", path, ann).status_code == 409
    assert call("GET", path).json()["status"] == "cancelled"
    assert call("DELETE", "/api/challenges/nosuchthing", ann).status_code == 404
    assert call("GET", "/api/challenges/nosuchthing").status_code == 404
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_program_without_an_account_cancels_its_own_challenge():
    made = post_challenge()
    reply = call("DELETE", f"/api/challenges/{made['id']}")
    assert reply.status_code == 200 and reply.json()["status"] == "cancelled"
    assert Challenge.objects.get().status == "cancelled"


@pytest.mark.django_db
def test_only_the_named_player_declines_or_accepts_a_challenge_to_them():
    _, ann = programmer("Ann")
    _, bea = programmer("Bea")
    _, cyn = programmer("Cyn")
    made = post_challenge(ann, to="Bea")
    path = f"/api/challenges/{made['id']}"
    assert call("POST", f"{path}/accept", cyn).status_code == 400
    assert call("POST", f"{path}/decline", cyn).status_code == 403
    assert call("POST", f"{path}/decline").status_code == 403
    declined = call("POST", f"{path}/decline", bea)
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert call("POST", f"{path}/accept", bea).status_code == 409
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_challenge_to_a_player_who_blocked_its_poster_is_refused_with_a_403():
    ann_page, ann = programmer("Ann")
    _, bea = programmer("Bea")
    assert ann_page.post("/players/Bea/block", {"on": "1"}).status_code == 303
    refused = call("POST", "/api/challenges", bea, {**LIVE_5_3, "to": "ann"})
    assert refused.status_code == 403
    assert refused.json() == {"error": "Ann is not taking challenges from you"}
    assert post_challenge(ann, to="Bea")["to"] == "Bea"  # the blocker still may
    open_one = post_challenge(ann)
    refused = call("POST", f"/api/challenges/{open_one['id']}/accept", bea)
    assert refused.status_code == 400
    assert refused.json() == {"error": "Ann is not taking challenges from you"}
    assert Challenge.objects.count() == 2


@pytest.mark.django_db
def test_one_account_challenges_one_player_five_times_an_hour_by_the_api():
    _, ann = programmer("Ann")
    _, bea = programmer("Bea")
    for _ in range(5):
        made = post_challenge(ann, to="Bea")
        assert call("DELETE", f"/api/challenges/{made['id']}", ann).status_code == 200
    refused = call("POST", "/api/challenges", ann, {**LIVE_5_3, "to": "Bea"})
    assert refused.status_code == 429
    assert "challenged Bea 5 times in the last hour" in refused.json()["error"]
    assert post_challenge(bea, to="Ann")["to"] == "Ann"  # the other way is another pair


@pytest.mark.django_db
def test_a_bot_account_accepts_a_persons_rated_challenge_and_the_game_is_rated():
    ann = account("Ann")
    posted = ann.post(
        "/lobby/",
        {"color": "dark", "rated": "on", "speed": "live", "minutes": "5", "increment": "3"}
        | {"scoring": "standard", "special_stones": "on"},
    )
    assert posted.status_code == 303, posted.content
    listed = call("GET", "/api/challenges").json()["challenges"]
    assert [(row["rated"], row["creator"]["username"]) for row in listed] == [(True, "Ann")]
    # A program without an account may not take a rated game.
    assert call("POST", f"/api/challenges/{listed[0]['id']}/accept").status_code == 400
    _, bot = programmer("Botwulf", bot=True)
    reply = call("POST", f"/api/challenges/{listed[0]['id']}/accept", bot)
    assert reply.status_code == 201
    state = reply.json()["game"]
    assert state["rated"] is True and state["players"]["light"]["username"] == "Botwulf"
    game = Game.objects.get(public_id=state["id"])
    assert game.rated and game.seat("dark").user.username == "Ann"
    assert Account.objects.get(user__username="Botwulf").bot


@pytest.mark.django_db
def test_a_program_asking_about_its_live_challenge_keeps_it_standing():
    made = post_challenge()
    long_ago = timezone.now() - timedelta(minutes=5)
    Challenge.objects.update(seen=long_ago)
    call("GET", f"/api/challenges/{made['id']}")
    assert Challenge.objects.get().seen > long_ago
    Challenge.objects.update(seen=long_ago)
    _, bea = programmer("Bea")
    call("GET", f"/api/challenges/{made['id']}", bea)  # someone else looking
    assert Challenge.objects.get().seen == long_ago


# The event stream ----------------------------------------------------------------------


def _absolute(path: str) -> str:
    return "http://testserver" + path


def _decoded(lines: list[str]) -> list[dict]:
    return [json.loads(line) for line in lines]


@pytest.mark.django_db
def test_a_challenge_to_an_account_reaches_its_stream_then_its_game_and_what_went(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 30
    _, ann = programmer("Ann")
    _, bot = programmer("Botwulf", bot=True)
    bot_id = ApiToken.objects.get(user__username="Botwulf").user_id
    first = post_challenge(ann, to="Botwulf", color="dark")
    post_challenge(ann)  # open to anyone: not on the stream

    def accept() -> None:
        assert call("POST", f"/api/challenges/{first['id']}/accept", bot).status_code == 201

    def another() -> dict:
        return post_challenge(ann, to="Botwulf", days=5)

    def cancel(public_id: str) -> None:
        assert call("DELETE", f"/api/challenges/{public_id}", ann).status_code == 200

    async def scenario():
        room = live.newsroom()
        lines = api.event_lines(bot_id, _absolute)
        told = [await anext(lines)]
        channel = live.CHANNEL + challenges.user_channel(bot_id)
        await sync_to_async(accept)()
        room.publish({channel: News(100, 0, False)})
        told += [await anext(lines), await anext(lines)]
        second = await sync_to_async(another)()
        room.publish({channel: News(101, 0, False)})
        told.append(await anext(lines))
        await sync_to_async(cancel)(second["id"])
        room.publish({channel: News(102, 0, False)})
        told.append(await anext(lines))
        streams = room.streams()
        await lines.aclose()
        return told, second, streams, room.streams()

    told, second, streams, after = async_to_sync(scenario)()
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in told)
    told = _decoded(told)
    assert told[0]["type"] == "challenge" and told[0]["challenge"]["id"] == first["id"]
    assert told[0]["challenge"]["to"] == "Botwulf"
    game = Game.objects.get()
    assert told[1] == {"type": "challengeGone", "id": first["id"], "status": "accepted"}
    assert told[2] == {
        "type": "gameStart",
        "game": {
            "id": game.public_id,
            "url": f"http://testserver/g/{game.public_id}/",
            "color": "light",
        },
    }
    assert told[3]["type"] == "challenge" and told[3]["challenge"]["id"] == second["id"]
    assert told[3]["challenge"]["days"] == 5
    assert told[4] == {"type": "challengeGone", "id": second["id"], "status": "cancelled"}
    assert (streams, after) == (1, 0)


@pytest.mark.django_db
def test_a_stream_opening_tells_of_the_games_going_on_then_keeps_alive(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.01
    _, ann = programmer("Ann")
    _, bot = programmer("Botwulf")
    made = post_challenge(ann)
    started = call("POST", f"/api/challenges/{made['id']}/accept", bot).json()
    finished = post_challenge(ann, days=3)
    over = call("POST", f"/api/challenges/{finished['id']}/accept", bot).json()
    resigned = call("POST", f"/api/games/{over['game']['id']}/resign", bot)
    assert resigned.status_code == 200 and resigned.json()["over"]
    bot_id = Game.objects.get(public_id=started["game"]["id"]).seat(started["color"]).user_id

    async def scenario():
        lines = api.event_lines(bot_id, _absolute)
        told = [await anext(lines), await anext(lines), await anext(lines)]
        await lines.aclose()
        return told

    first, *idle = async_to_sync(scenario)()
    game = json.loads(first)["game"]
    assert (game["id"], game["color"]) == (started["game"]["id"], started["color"])
    assert idle == ["\n", "\n"]
    assert live.newsroom().streams() == 0


@pytest.mark.django_db
def test_a_stream_ends_after_its_time(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 30
    settings.LIVE_STREAM_SECONDS = 0.05
    programmer("Botwulf")
    bot_id = ApiToken.objects.get().user_id

    async def scenario():
        return [line async for line in api.event_lines(bot_id, _absolute)]

    assert async_to_sync(scenario)() == []
    assert live.newsroom().streams() == 0


def _ends_quietly(lines, publish=None) -> list[str]:
    """What the stream sends until it ends, within a few seconds; ``publish``, news to
    wake it with once it waits."""

    async def collect():
        return [line async for line in lines]

    async def scenario():
        sent = asyncio.ensure_future(collect())
        if publish is not None:
            await asyncio.sleep(0.2)  # the stream has subscribed, and waits
            publish()
        return await asyncio.wait_for(sent, timeout=5)

    return async_to_sync(scenario)()


@pytest.mark.django_db
def test_revoking_its_token_ends_an_accounts_stream_at_its_next_wake_up(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 30
    owner, _ = programmer("Botwulf")
    token = ApiToken.objects.get()
    channel = challenges.user_channel(token.user_id)
    before = Channel.objects.filter(name=channel).values_list("revision", flat=True).first() or 0
    lines = api.event_lines(token.user_id, _absolute, token_id=token.pk)
    owner.post("/accounts/tokens/", {"action": "revoke", "token": token.pk})
    assert not ApiToken.objects.exists()
    # Revoking it counted a change on the account's channel, which wakes its streams.
    assert Channel.objects.get(name=channel).revision == before + 1
    room = live.newsroom()
    news = {live.CHANNEL + channel: News(before + 1, 0, False)}
    assert _ends_quietly(lines, lambda: room.publish(news)) == []
    assert room.streams() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("gone", ["deactivated", "deleted"])
def test_an_accounts_stream_ends_by_its_keep_alive_once_the_account_is_gone(settings, gone):
    settings.LIVE_KEEPALIVE_SECONDS = 0.01
    programmer("Botwulf")
    token = ApiToken.objects.get()
    lines = api.event_lines(token.user_id, _absolute, token_id=token.pk)
    users = get_user_model().objects.filter(pk=token.user_id)
    if gone == "deactivated":
        users.update(is_active=False)  # as the admin's action does: no signal sent
    else:
        users.get().delete()
    assert _ends_quietly(lines) == []
    assert live.newsroom().streams() == 0


@pytest.mark.django_db
def test_the_stream_view_needs_an_accounts_token_and_the_asgi_server():
    refused = Client().get("/api/stream/events")
    assert refused.status_code == 401 and "API token" in refused.json()["error"]
    assert refused["WWW-Authenticate"].startswith("Bearer")
    _, bot = programmer("Botwulf")
    headers = {"Authorization": f"Bearer {bot}"}
    under_wsgi = Client().get("/api/stream/events", headers=headers)
    assert under_wsgi.status_code == 503 and under_wsgi["Retry-After"] == "3600"
    assert Client().post("/api/stream/events", headers=headers).status_code == 405


@pytest.mark.django_db
def test_the_stream_served_as_asgi_is_ndjson_and_starts_with_the_challenges_to_it():
    _, ann = programmer("Ann")
    _, bot = programmer("Botwulf")
    made = post_challenge(ann, to="Botwulf")

    async def scenario():
        response = await AsyncClient().get(
            "/api/stream/events", headers={"Authorization": f"Bearer {bot}"}
        )
        content = response.streaming_content
        first = await anext(content)
        await content.aclose()
        return response, first

    response, first = async_to_sync(scenario)()
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert response["Cache-Control"] == "no-store"
    event = json.loads(first)
    assert event["type"] == "challenge" and event["challenge"]["id"] == made["id"]


# The example client ------------------------------------------------------------------------


def _example_client():
    spec = importlib.util.spec_from_file_location("api_client", ROOT / "examples" / "api_client.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("5+3", {"clock": {"initial": 300, "increment": 3}}),
        ("0.5+0", {"clock": {"initial": 30, "increment": 0}}),
        ("1", {"clock": {"initial": 60, "increment": 0}}),
        ("3d", {"days": 3}),
        ("unlimited", {"speed": "unlimited"}),
    ],
)
def test_the_example_client_writes_a_time_control_as_the_api_reads_it(text, body):
    assert _example_client().terms(text) == body


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Server, dict[str, str]]]:
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        server = Server(env, workers=2).start()
        yield server, env
        server.stop()


MAKE_BOTS = """
from django.contrib.auth import get_user_model
from game.tokens import hash_token
from players.models import Account, ApiToken, new_api_token
for name in ("Botwulf", "Eadbot"):
    user = get_user_model().objects.create_user(name)
    Account.objects.create(user=user, bot=True)
    token = new_api_token()
    ApiToken.objects.create(user=user, name="lobby", token_hash=hash_token(token))
    print(token)
"""


@pytest.mark.live
def test_two_example_clients_meet_in_the_lobby_and_play_a_game_to_its_end(site):
    server, env = site
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_BOTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    poster, accepter = [word for word in made.stdout.split() if word.startswith("mt_")]
    base = [sys.executable, str(ROOT / "examples" / "api_client.py"), "--server", server.url]
    common = ["--lobby", "--games", "1", "--level", bots.LEVEL_IDS[0]]
    waiting = subprocess.Popen(
        [*base, *common, "--token", accepter],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    posting = subprocess.Popen(
        [*base, *common, "--token", poster, "--post", "5+3", "--to", "Eadbot", "--rated"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    outputs = []
    for process in (posting, waiting):
        output, _ = process.communicate(timeout=180)
        assert process.returncode == 0, output
        outputs.append(output)
    assert "challenge: " in outputs[0] and "accepted " in outputs[1]
    mine, theirs = (json.loads(output.strip().splitlines()[-1]) for output in outputs)
    assert mine == theirs and "result" in mine
    state = httpx.get(f"{server.url}/api/games/{mine['id']}").json()
    assert state["over"] and state["rated"] and state["speed"] == "live"
    names = {state["players"][color]["username"] for color in ("dark", "light")}
    assert names == {"Botwulf", "Eadbot"}
