"""The accounts' limits (django-allauth's, configured in settings): failed logins are
counted per address and name and per address, with a growing wait, so nobody can
shut a player out of their account; and every count is kept in the site's own
database, so that it holds across server processes and hosts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from allauth.core.internal.ratelimit import get_cache_key, parse_rate
from django.conf import settings
from django.core.cache.backends.db import DatabaseCache
from django.test import Client, RequestFactory

from tests.support.accounts import PASSWORD, sign_up
from tests.support.servers import Server, prepare, site_env
from tests.support.visitors import Visitor

pytestmark = pytest.mark.django_db

REFUSED = "Too many failed logins"


def log_in(address: str, login: str, password: str):
    """One login from ``address``: its answer (302 when it let the player in)."""
    client = Client(REMOTE_ADDR=address)
    return client.post("/accounts/login/", {"login": login, "password": password})


class Clock:
    """allauth's clock for its limits, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> Clock:
    from allauth.core.internal import ratelimit

    clock = Clock()
    monkeypatch.setattr(ratelimit, "time", clock)
    return clock


@pytest.fixture
def hild() -> None:
    """Hild's account (its password hashed quickly, as every test's: these tests make
    a hundred logins, and the limits are what they test, not the hash)."""
    assert sign_up(Client(REMOTE_ADDR="10.7.7.7"), "Hild", "hild@example.org").status_code == 302


def test_guessing_from_many_addresses_never_shuts_the_owner_out(hild):
    for number in range(40):
        for _ in range(3):
            wrong = log_in(f"10.0.{number}.1", "Hild", "not-her-password")
            assert wrong.status_code == 200 and "not correct" in wrong.content.decode()
    assert log_in("10.7.7.7", "Hild", PASSWORD).status_code == 302
    assert log_in("10.7.7.7", "hild@example.org", PASSWORD).status_code == 302
    assert log_in("10.0.0.1", "Hild", PASSWORD).status_code == 302  # 3 of 5: in too


def test_one_address_guessing_one_name_waits_longer_each_time(hild, clock):
    for _ in range(5):
        assert "not correct" in log_in("10.0.0.9", "HILD", "guess").content.decode()
    refused = log_in("10.0.0.9", "Hild", PASSWORD)  # even the right password now
    assert refused.status_code == 200 and REFUSED in refused.content.decode()
    assert log_in("10.0.0.10", "Hild", PASSWORD).status_code == 302  # elsewhere: in
    clock.sleep(5 * 60 + 1)
    for _ in range(5):
        assert "not correct" in log_in("10.0.0.9", "Hild", "guess").content.decode()
    clock.sleep(5 * 60 + 1)  # ten in the hour: five minutes are no longer enough
    assert REFUSED in log_in("10.0.0.9", "Hild", PASSWORD).content.decode()
    clock.sleep(60 * 60)
    assert log_in("10.0.0.9", "Hild", PASSWORD).status_code == 302


def test_one_address_guessing_many_names_is_slowed_too(hild, clock):
    for number in range(10):
        assert "not correct" in log_in("10.0.0.9", f"name{number}", "guess").content.decode()
    refused = log_in("10.0.0.9", "someone-else", "guess")
    assert REFUSED in refused.content.decode()
    assert log_in("10.0.0.10", "Hild", PASSWORD).status_code == 302


def test_an_ipv6_client_is_counted_by_its_network(hild):
    for host in range(5):
        log_in(f"2001:db8:5:5::{host + 1:x}", "Hild", "guess")
    assert REFUSED in log_in("2001:db8:5:5:9::9", "Hild", PASSWORD).content.decode()
    assert log_in("2001:db8:5:6::1", "Hild", PASSWORD).status_code == 302


def signup_count(address: str) -> list[float]:
    """The sign-ups from ``address`` allauth counts, as another server process reads
    them: through a cache of its own, from the shared table."""
    request = RequestFactory().post("/accounts/signup/", REMOTE_ADDR=address)
    key = get_cache_key(request, app="allauth.account", action="signup", rate=parse_rate("20/m/ip"))
    elsewhere = DatabaseCache(settings.CACHES["default"]["LOCATION"], {})
    return elsewhere.get(key, [])


def test_allauths_limits_are_counted_where_every_process_reads_them():
    client = Client(REMOTE_ADDR="10.1.2.3")
    for _ in range(3):
        assert client.post("/accounts/signup/", {}).status_code == 200
    assert len(signup_count("10.1.2.3")) == 3
    assert signup_count("10.1.2.4") == []


@pytest.mark.live
def test_two_server_processes_let_one_address_sign_up_20_times_a_minute_together(
    tmp_path: Path,
):
    env = site_env(tmp_path, MAERSTANAS_RATE_LIMITS="1")
    prepare(env)
    server = Server(env, workers=2).start()
    try:
        visitor = Visitor(server.url)
        form = visitor.get("/accounts/signup/").body
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
        # A new connection each time: the two processes take turns to accept them.
        answers = [
            visitor.post("/accounts/signup/", {"csrfmiddlewaretoken": csrf}).status
            for _ in range(26)
        ]
    finally:
        server.stop()
    assert answers.count(200) == 20 and answers.count(429) == 6, answers
