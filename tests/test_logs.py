"""No seat's secret in the logs: seat and invite paths are redacted (maerstanas_site/logs.py)."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import httpx
import pytest

from maerstanas_site.logs import REDACTED, RedactSecrets, redact
from tests.support.servers import Server, prepare, scratch_database, site_env
from tests.support.visitors import Visitor


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            '"GET /g/abc/seat/dark/Zx_9-k/ HTTP/1.1" 200',
            '"GET /g/abc/seat/dark/[secret]/ HTTP/1.1" 200',
        ),
        ("Not Found: /g/abc/invite/0123abcd/", "Not Found: /g/abc/invite/[secret]/"),
        (
            "/g/abc/seat/light/tok/?x=1 and /g/d/invite/c/",
            "/g/abc/seat/light/[secret]/?x=1 and /g/d/invite/[secret]/",
        ),
        ("POST /g/abc/seat/dark/renew", "POST /g/abc/seat/dark/renew"),  # no secret in it
        ("GET /g/abc/ 200", "GET /g/abc/ 200"),
        ("Not Found: /g/abc/seat/dark/tok", "Not Found: /g/abc/seat/dark/[secret]"),
        ('"GET /g/abc/invite/c0de HTTP/1.1" 404', '"GET /g/abc/invite/[secret] HTTP/1.1" 404'),
        ("/g/abc/seat/dark/tok?x=1", "/g/abc/seat/dark/[secret]?x=1"),
        ("/g/abc/invite/c0de#top", "/g/abc/invite/[secret]#top"),
        ("Not Found: /api/g/abc/seat/light/tok/", "Not Found: /api/g/abc/seat/light/[secret]/"),
        ("/api/games/abc/join?invite=c0de&x=1", "/api/games/abc/join?invite=[secret]&x=1"),
        ("/g/abc/?ply=3&TOKEN=abc", "/g/abc/?ply=3&TOKEN=[secret]"),
        ("/g/abc/seat/dark/renewal/", "/g/abc/seat/dark/[secret]/"),
        ("POST /g/abc/invite/renew HTTP/1.1", "POST /g/abc/invite/renew HTTP/1.1"),
    ],
)
def test_the_secret_of_a_seat_or_invite_path_is_replaced(text, kept):
    assert redact(text) == kept


def test_the_filter_redacts_a_records_message_and_arguments():
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/g/a/seat/dark/SECRET/", "1.1", 200),
        None,
    )
    assert RedactSecrets().filter(record) is True
    assert "SECRET" not in record.getMessage() and REDACTED in record.getMessage()
    named = logging.LogRecord("x", logging.INFO, __file__, 1, "%(path)s", None, None)
    named.args = {"path": "/g/a/invite/SECRET/"}
    RedactSecrets().filter(named)
    assert named.getMessage() == "/g/a/invite/[secret]/"


@pytest.mark.live
def test_the_servers_access_log_keeps_no_secret(tmp_path: Path):
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        log = tmp_path / "access.log"
        server = Server(env | {"GUNICORN_ACCESS_LOG": str(log)}, workers=1).start()
        try:
            host = Visitor(server.url)
            game_id = host.new_game("friend", color="dark")
            page = host.get(f"/g/{game_id}/").body
            invite = re.search(r'data-invite-url="([^"]+)"', page)[1]
            seat = re.search(r'data-seat-url="([^"]+)"', page)[1]
            assert httpx.get(invite).status_code == 200
            assert httpx.get(seat).status_code == 200
            assert httpx.get(seat.replace("/seat/", "/seat/x")).status_code == 403
        finally:
            server.stop()
        logged = log.read_text()
        secrets = [invite.rstrip("/").rsplit("/", 1)[1], seat.rstrip("/").rsplit("/", 1)[1]]
        assert f"/g/{game_id}/invite/{REDACTED}/" in logged
        assert f"/g/{game_id}/seat/dark/{REDACTED}/" in logged
        assert not any(secret in logged for secret in secrets)
