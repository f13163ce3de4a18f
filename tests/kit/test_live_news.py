"""News reaches every live page within a second, whichever process made the change.

Two gunicorn processes share one database (SQLite, or a scratch PostgreSQL database
when DATABASE_URL names one), as two workers of a server do; here each is a server
of its own, so that a test knows which process holds a stream and which makes the
change. A guest and an account each keep a lobby page, the watch page and a game's
page open on each process, and every change made through either process must reach
all twelve streams within a second.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.support.accounts import PASSWORD
from tests.support.servers import Server, prepare, scratch_database, site_env
from tests.support.visitors import Visitor

pytestmark = pytest.mark.live

# The goal: a change is on every open page within this many seconds.
WITHIN = 1.0
LIVE_CHALLENGE = {
    "speed": "live",
    "minutes": "5",
    "increment": "3",
    "color": "random",
    "special_stones": "on",
    "scoring": "standard",
}


@dataclass
class Listener:
    """One open stream, read on a thread of its own: each event's name and when it came."""

    server: Server
    path: str
    cookies: dict[str, str]
    name: str
    events: list[tuple[float, str]] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    failure: list[BaseException] = field(default_factory=list)

    def start(self) -> Listener:
        threading.Thread(target=self._read, daemon=True, name=self.name).start()
        return self

    def _read(self) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            with httpx.stream(
                "GET", self.server.url + self.path, headers=headers, timeout=60
            ) as response:
                assert response.status_code == 200, response.status_code
                for line in response.iter_lines():
                    if line.startswith("retry:"):
                        self.ready.set()
                    elif line.startswith("event: "):
                        self.events.append((time.monotonic(), line.removeprefix("event: ")))
        except httpx.TransportError:
            pass  # the server stopped at the end of the test
        except BaseException as error:  # handed to the test, which says so
            self.failure.append(error)
            self.ready.set()

    def heard(self, event: str, since: float) -> float | None:
        """Seconds from ``since`` to the first ``event`` heard after it; None if none yet."""
        for at, name in list(self.events):
            if name == event and at >= since:
                return at - since
        return None


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        started = []
        try:
            for _ in range(2):
                started.append(Server(env, workers=1).start())
            yield started[0], started[1]
        finally:
            for server in started:
                server.stop()


def signed_up(server: Server, username: str) -> Visitor:
    visitor = Visitor(server.url)
    visitor.get("/accounts/signup/")
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    reply = visitor.request("POST", "/accounts/signup/", fields)
    assert reply.status == 302, (reply.status, reply.body[:300])
    return visitor


def on(server: Server, visitor: Visitor) -> Visitor:
    """The same browser, talking to ``server``: the session is a cookie both read."""
    return Visitor(server.url, dict(visitor.cookies))


def wait_for_all(listeners: list[Listener], event: str, since: float) -> dict[str, float | None]:
    deadline = since + 5
    while time.monotonic() < deadline:
        if all(listener.heard(event, since) is not None for listener in listeners):
            break
        time.sleep(0.02)
    return {listener.name: listener.heard(event, since) for listener in listeners}


@pytest.mark.timing
def test_every_lobby_watch_and_game_stream_hears_each_process_within_a_second(two_processes):
    one, two = two_processes
    ann, bob = signed_up(one, "ann"), signed_up(one, "bob")
    game_id = ann.new_game("friend")
    bob.join(game_id, ann.invite_url(game_id))
    viewers = {"guest": Visitor(one.url), "account": signed_up(one, "carol")}
    viewers["guest"].get("/")

    listeners: list[Listener] = []
    for server in (one, two):
        for kind, viewer in viewers.items():
            for page, path in (
                ("lobby", "/lobby/live?since=0"),
                ("watch", "/watch/live"),
                ("game", f"/g/{game_id}/live?revision=0"),
            ):
                name = f"{page} of a {kind} on process {1 if server is one else 2}"
                listeners.append(Listener(server, path, viewer.cookies, name).start())
    for listener in listeners:
        assert listener.ready.wait(10), f"the {listener.name} did not open"
        assert not listener.failure, (listener.name, listener.failure)
    time.sleep(1.5)  # what each stream sends as it opens, and the watch page's pause

    lobby = [listener for listener in listeners if listener.name.startswith("lobby")]
    watch = [listener for listener in listeners if listener.name.startswith("watch")]
    game = [listener for listener in listeners if listener.name.startswith("game")]
    late: dict[str, float | None] = {}
    for ply, server in enumerate((two, one)):  # a change through each process in turn
        sent = time.monotonic()
        reply = on(server, bob).post("/lobby/", LIVE_CHALLENGE)
        assert reply.status == 303, reply.status
        heard = wait_for_all(lobby, "lobby", sent)
        late |= {f"{name}, a challenge": s for name, s in heard.items() if s is None or s > WITHIN}

        player = ann if ply % 2 == 0 else bob
        sent = time.monotonic()
        reply = on(server, player).move(game_id, ("D4", "A1")[ply], ply, htmx=True)
        assert reply.status == 200 and "data-error" not in reply.body
        for event, streams in (("move", game), ("watch", watch)):
            heard = wait_for_all(streams, event, sent)
            late |= {f"{name}, a move": s for name, s in heard.items() if s is None or s > WITHIN}
        time.sleep(1.2)  # the watch page sends at most one event a second
    assert not late, f"news later than {WITHIN} s (None: never): {late}"
