"""No secret in the logs: seat, invite, password reset and e-mail confirmation paths
are redacted (maerstanas_site/logs.py), and a mail that is not sent is never written
out (maerstanas_site/mail.py)."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import httpx
import pytest
from django.test import Client

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
        (
            '"GET /accounts/password/reset/key/3-cz1b2k-0f4e9a8b7c6d5e4f3a2b/ HTTP/1.1" 302',
            '"GET /accounts/password/reset/key/[secret]/ HTTP/1.1" 302',
        ),
        (
            "/accounts/password/reset/key/3-set-password/",
            "/accounts/password/reset/key/[secret]/",
        ),
        ("/accounts/password/reset/key/Zq9?next=/", "/accounts/password/reset/key/[secret]?next=/"),
        ("POST /accounts/password/reset/ HTTP/1.1", "POST /accounts/password/reset/ HTTP/1.1"),
        (
            "Not Found: /accounts/confirm-email/mq2hwfx8lkc5yq1ob7xe/",
            "Not Found: /accounts/confirm-email/[secret]/",
        ),
        (
            '"GET /accounts/CONFIRM-EMAIL/k3y HTTP/1.1"',
            '"GET /accounts/CONFIRM-EMAIL/[secret] HTTP/1.1"',
        ),
        ("/accounts/confirm-email/?key=abc", "/accounts/confirm-email/?key=[secret]"),
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


def reset_key(user) -> str:
    """The key of the link allauth mails to reset ``user``'s password."""
    from allauth.account.forms import default_token_generator
    from allauth.account.utils import user_pk_to_url_str

    return f"{user_pk_to_url_str(user)}-{default_token_generator.make_token(user)}"


@pytest.mark.django_db
def test_a_mail_not_sent_for_want_of_smtp_logs_whom_and_what_but_no_key(
    client, settings, caplog, capfd
):
    from django.contrib.auth import get_user_model

    from tests.support.accounts import sign_up

    settings.EMAIL_BACKEND = "maerstanas_site.mail.UnsentBackend"
    sign_up(Client(), "Hild", email="hild@example.org")
    user = get_user_model().objects.get()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        response = client.post("/accounts/password/reset/", {"email": "hild@example.org"})
    assert response.status_code == 302
    said = [record for record in caplog.records if record.name == "maerstanas_site.mail"]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert said[0].getMessage() == (
        "A mail was not sent, as DJANGO_EMAIL_HOST is not set: to hild@example.org, "
        "subject '[testserver] Password Reset Email'"
    )
    written = caplog.text + "".join(capfd.readouterr())
    assert reset_key(user) not in written
    assert "/password/reset/key/" not in written


def test_without_smtp_mail_is_not_written_to_the_console(tmp_path: Path):
    """The settings' choice itself, as a server started without DJANGO_EMAIL_HOST reads them."""
    import subprocess
    import sys

    from tests.support.servers import ROOT

    env = site_env(tmp_path)
    env.pop("DJANGO_EMAIL_HOST", None)
    read = subprocess.run(
        [sys.executable, "-c", "import maerstanas_site.settings as s; print(s.EMAIL_BACKEND)"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert read.stdout.strip() == "maerstanas_site.mail.UnsentBackend"


@pytest.mark.live
def test_a_servers_log_keeps_no_reset_key_when_it_has_no_smtp(tmp_path: Path):
    env = site_env(tmp_path, GUNICORN_ACCESS_LOG="-")  # the access log in the server's own
    prepare(env)
    server = Server(env, workers=1).start()
    try:
        player = Visitor(server.url)
        form = player.get("/accounts/signup/").body
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
        password = "hinge-and-thunder-42"
        signed_up = player.post(
            "/accounts/signup/",
            {
                "csrfmiddlewaretoken": csrf,
                "username": "Aethelflaed",
                "email": "flaed@example.org",
                "password1": password,
                "password2": password,
            },
        )
        assert signed_up.status == 302
        stranger = Visitor(server.url)
        form = stranger.get("/accounts/password/reset/").body
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
        asked = stranger.post(
            "/accounts/password/reset/",
            {"csrfmiddlewaretoken": csrf, "email": "flaed@example.org"},
        )
        assert asked.status == 302
        assert stranger.get("/accounts/password/reset/key/1-made-up/").status == 200
        assert stranger.get("/accounts/confirm-email/made-up/").status in (200, 404)
    finally:
        server.stop()
    logged = server.log.read_text()
    assert logged.count("A mail was not sent, as DJANGO_EMAIL_HOST is not set") == 2
    assert "to flaed@example.org, subject '[127.0.0.1:" in logged
    assert "/accounts/password/reset/key/[secret]/" in logged
    assert "/accounts/confirm-email/[secret]/" in logged
    assert not re.search(r"/password/reset/key/(?!\[secret\])", logged), logged
    assert not re.search(r"/confirm-email/(?!\[secret\])", logged), logged
    assert "made-up" not in logged


@pytest.mark.live
def test_a_sync_workers_access_log_keeps_no_secret_either(tmp_path: Path):
    """Served as WSGI under gunicorn's own worker (the README's other way), the access
    log is gunicorn's, not uvicorn's: it is redacted all the same."""
    env = site_env(tmp_path, GUNICORN_ACCESS_LOG="-")
    prepare(env)
    server = Server(env, workers=1, app="maerstanas_site.wsgi", args=("--worker-class", "sync"))
    server.start()
    try:
        assert httpx.get(f"{server.url}/accounts/password/reset/key/1-s3cr3tkey/").status_code
        assert httpx.get(f"{server.url}/g/abc/seat/dark/s3cr3tseat/").status_code
    finally:
        server.stop()
    logged = server.log.read_text()
    assert "/accounts/password/reset/key/[secret]/" in logged
    assert "/g/abc/seat/dark/[secret]/" in logged
    assert "s3cr3t" not in logged
