"""Rate limits (kit/limits.py): creating, joining and writing through the API, per client."""

from __future__ import annotations

import json
import os
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from django.test import Client

from game import play
from game.engine import Rules
from game.models import Game
from kit import limits
from kit.models import RateCount
from tests.support.servers import Server, prepare, scratch_database, site_env

pytestmark = pytest.mark.django_db

TIGHT = limits.Limit("test", requests=3, seconds=60)


def test_a_client_may_make_as_many_requests_as_the_limit_and_no_more():
    now = 6_000_030.0  # 30 s into a window
    for _ in range(3):
        limits.count(TIGHT, "10.0.0.1", now)
    with pytest.raises(limits.Exceeded) as refused:
        limits.count(TIGHT, "10.0.0.1", now + 1)
    assert refused.value.retry_after == 29
    assert "at most 3 to test every 60 s; try again in 29 s" in str(refused.value)
    limits.count(TIGHT, "10.0.0.2", now)  # another client counts on its own
    limits.count(TIGHT, "10.0.0.1", now + 30)  # the next window starts afresh
    assert RateCount.objects.get(key="test:10.0.0.1:100000").count == 4


def test_windows_that_have_ended_are_forgotten():
    limits.count(TIGHT, "10.0.0.1", 60.0)
    limits.count(TIGHT, "10.0.0.1", datetime.now(UTC).timestamp())
    assert limits.forget_expired() == 1
    assert RateCount.objects.count() == 1
    assert limits.forget_expired(datetime.now(UTC) + timedelta(minutes=2)) == 1


def test_too_many_new_games_from_one_address_get_a_429_with_retry_after(client):
    form = {"mode": "hotseat", "scoring": "standard", "special_stones": "on"}
    for _ in range(limits.CREATE.requests):
        assert client.post("/", form).status_code == 303
    refused = client.post("/", form)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= limits.CREATE.seconds
    assert "Too many requests: at most 30 to create every 10 minutes" in refused.content.decode()
    assert Game.objects.count() == limits.CREATE.requests
    # Looking is not limited, nor is another address.
    assert client.get("/").status_code == 200
    assert Client(REMOTE_ADDR="10.9.9.9").post("/", form).status_code == 303


def test_the_api_answers_a_429_in_json_and_changes_nothing():
    for _ in range(limits.JOIN.requests):
        limits.count(limits.JOIN, "127.0.0.1")
    game, _ = play.create_game("friend", Rules(), "dark")
    refused = Client().post(
        f"/api/games/{game.public_id}/join",
        json.dumps({"invite": play.invite_code(game)}),
        content_type="application/json",
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert json.loads(refused.content)["error"].startswith("too many requests")
    game.refresh_from_db()
    assert game.seat_hash("light") == ""


def test_limits_can_be_turned_off(client, settings):
    settings.RATE_LIMITS = False
    for _ in range(limits.JOIN.requests):
        limits.count(limits.JOIN, "127.0.0.1")
    game, _ = play.create_game("friend", Rules(), "dark")
    joined = client.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    assert joined.status_code == 303


@pytest.mark.live
@pytest.mark.django_db(False)
def test_a_client_cannot_escape_the_limit_by_naming_another_address(tmp_path: Path):
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url, MAERSTANAS_RATE_LIMITS="1")
        prepare(env)
        server = Server(env, workers=2).start()
        try:
            answers = [
                httpx.post(
                    f"{server.url}/api/games",
                    json={"mode": "friend"},
                    headers={"X-Forwarded-For": f"10.1.{n // 250}.{n % 250}"},
                ).status_code
                for n in range(limits.CREATE.requests + 1)
            ]
        finally:
            server.stop()
    assert answers[:-1] == [201] * limits.CREATE.requests
    assert answers[-1] == 429


def test_rematches_count_as_new_games(client):
    form = {"mode": "hotseat", "scoring": "standard", "special_stones": "on"}
    assert client.post("/", form).status_code == 303
    game = Game.objects.get()
    made = 1
    while True:
        client.post(f"/g/{game.public_id}/resign")
        reply = client.post(f"/g/{game.public_id}/rematch")
        if reply.status_code == 429:
            break
        made += 1
        game = Game.objects.get(rematch_of=game)
    assert made == limits.CREATE.requests
    assert "Too many requests: at most 30 to create" in reply.content.decode()
    assert Game.objects.count() == limits.CREATE.requests


@pytest.mark.parametrize(
    ("address", "client"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("[2001:db8::1]", "2001:db8::/64"),
        ("::ffff:198.51.100.4", "198.51.100.4"),
        ("", "unknown"),
        ("not-an-address", "not-an-address"),
    ],
)
def test_a_client_is_its_address_or_its_ipv6_network(address, client):
    from django.test import RequestFactory

    request = RequestFactory().get("/", REMOTE_ADDR=address)
    assert limits.client_of(request) == client


def test_one_ipv6_network_shares_one_allowance(client):
    form = {"mode": "hotseat", "scoring": "standard", "special_stones": "on"}
    for host in range(limits.CREATE.requests):
        sent = Client(REMOTE_ADDR=f"2001:db8:7:7::{host + 1:x}").post("/", form)
        assert sent.status_code == 303
    assert Client(REMOTE_ADDR="2001:db8:7:7:9::9").post("/", form).status_code == 429
    assert Client(REMOTE_ADDR="2001:db8:7:8::1").post("/", form).status_code == 303


def test_a_client_refused_in_the_last_moment_of_a_window_waits_a_second():
    ends = 6_000_060.0
    for _ in range(3):
        limits.count(TIGHT, "10.0.0.1", ends - 0.5)
    with pytest.raises(limits.Exceeded) as refused:
        limits.count(TIGHT, "10.0.0.1", ends - 0.2)
    assert refused.value.retry_after == 1 and refused.value.limit is TIGHT


def test_a_long_client_is_counted_under_a_key_cut_to_fit_its_column():
    client = "x" * 200
    limits.count(TIGHT, client, 60.0)
    limits.count(TIGHT, client, 60.0)
    (counted,) = RateCount.objects.all()
    assert counted.key == f"test:{client}"[:100] and counted.count == 2


def test_counts_end_and_are_forgotten_in_utc():
    """A time without its zone makes Django warn, and guess."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        limits.count(TIGHT, "10.0.0.1", 60.0)
        assert RateCount.objects.get().expires == datetime.fromtimestamp(120, UTC)
        assert limits.forget_expired() == 1
