"""The accounts' limits (django-allauth's, configured in settings): counted in the
site's own database, so that they hold across server processes and hosts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from allauth.core.internal.ratelimit import get_cache_key, parse_rate
from django.conf import settings
from django.core.cache.backends.db import DatabaseCache
from django.test import Client, RequestFactory

from tests.support.servers import Server, prepare, site_env
from tests.support.visitors import Visitor

pytestmark = pytest.mark.django_db


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
