"""The site's mail, sent for real: a live server hands a password reset to an SMTP
server the test runs (aiosmtpd), and the link in the mail sets a new password."""

from __future__ import annotations

import email
import email.policy
import re
import threading
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.support.servers import Server, free_port, prepare, site_env
from tests.support.visitors import Visitor

pytestmark = pytest.mark.live

OLD, NEW = "hinge-and-thunder-42", "woden-takes-over-77"


class Inbox:
    """aiosmtpd's handler: every message the server accepts, parsed."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.arrived = threading.Condition()

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.arrived:
            self.messages.append(message)
            self.arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait(self, count: int, timeout: float = 10) -> email.message.EmailMessage:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.messages) >= count, timeout)
            return self.messages[count - 1]


def form_csrf(body: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)[1]


def test_a_forgotten_password_is_reset_by_the_link_in_a_real_mail(tmp_path: Path):
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    env = site_env(
        tmp_path,
        DJANGO_EMAIL_HOST="127.0.0.1",
        DJANGO_EMAIL_PORT=str(smtp.port),
        DJANGO_DEFAULT_FROM_EMAIL="Mǽrstánas <play@example.org>",
    )
    prepare(env)
    server = Server(env, workers=1).start()
    try:
        player = Visitor(server.url)
        signup = player.get("/accounts/signup/")
        reply = player.post(
            "/accounts/signup/",
            {
                "csrfmiddlewaretoken": form_csrf(signup.body),
                "username": "Aethelflaed",
                "email": "flaed@example.org",
                "password1": OLD,
                "password2": OLD,
            },
        )
        assert reply.status == 302, reply.body[:2000]
        verification = inbox.wait(1)
        assert verification["To"] == "flaed@example.org"
        assert verification["From"] == "Mǽrstánas <play@example.org>"
        logout = player.get("/accounts/logout/")
        out = player.post("/accounts/logout/", {"csrfmiddlewaretoken": form_csrf(logout.body)})
        assert out.status == 302 and "data-username" not in player.get("/").body

        stranger = Visitor(server.url)
        asked = stranger.get("/accounts/password/reset/")
        reply = stranger.post(
            "/accounts/password/reset/",
            {"csrfmiddlewaretoken": form_csrf(asked.body), "email": "flaed@example.org"},
        )
        assert reply.status == 302
        reset = inbox.wait(2)
        assert reset["To"] == "flaed@example.org"
        link = re.search(r"http://[^\s]+/accounts/password/reset/key/[^\s]+/", reset.get_content())
        assert link, reset.get_content()
        path = link[0].split(server.url, 1)[1]
        opened = stranger.get(path)
        if opened.status == 302:  # allauth keeps the key in the session and redirects
            path = opened.location.split(server.url, 1)[-1]
            opened = stranger.get(path)
        assert opened.status == 200 and 'name="password1"' in opened.body
        done = stranger.post(
            path,
            {"csrfmiddlewaretoken": form_csrf(opened.body), "password1": NEW, "password2": NEW},
        )
        assert done.status == 302, done.body[:2000]

        fresh = Visitor(server.url)
        page = fresh.get("/accounts/login/")
        old = fresh.post(
            "/accounts/login/",
            {"csrfmiddlewaretoken": form_csrf(page.body), "login": "Aethelflaed", "password": OLD},
        )
        assert old.status == 200 and "not correct" in old.body
        new = fresh.post(
            "/accounts/login/",
            {"csrfmiddlewaretoken": form_csrf(old.body), "login": "aethelflaed", "password": NEW},
        )
        assert new.status == 302
        assert 'data-username="Aethelflaed"' in fresh.get("/games/").body
    finally:
        server.stop()
        smtp.stop()
