"""Live pages' streams (server-sent events) against the real server, as `make run` serves it.

Runs on SQLite, or on PostgreSQL when DATABASE_URL points at one: the news of a
move crosses processes through the database either way (a read of the watched
games' revisions, or LISTEN/NOTIFY).
"""

from __future__ import annotations

import json
import os
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.support.servers import Server, Worker, prepare, scratch_database, site_env
from tests.support.visitors import Visitor, applied

pytestmark = pytest.mark.live

SSE = {"Accept": "text/event-stream"}


@dataclass
class Event:
    name: str  # "" for a comment
    id: str = ""
    data: str = ""


@dataclass
class Stream:
    """One open stream, read line by line on a thread of its own."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 0
    events: queue.Queue[Event | None] = field(default_factory=queue.Queue)
    opened: threading.Event = field(default_factory=threading.Event)

    def open(self) -> Stream:
        threading.Thread(target=self._read, daemon=True).start()
        assert self.opened.wait(10), "the stream did not answer"
        return self

    def _read(self) -> None:
        try:
            with httpx.stream("GET", self.url, headers=SSE | self.headers, timeout=30) as reply:
                self.status = reply.status_code
                self.content_type = reply.headers.get("content-type", "")
                self.opened.set()
                event = Event("message")
                for line in reply.iter_lines():
                    if line.startswith(":"):
                        self.events.put(Event(""))
                    elif line.startswith("event: "):
                        event.name = line[7:]
                    elif line.startswith("id: "):
                        event.id = line[4:]
                    elif line.startswith("data: "):
                        event.data = line[6:]
                    elif line == "" and (event.id or event.data):
                        self.events.put(event)
                        event = Event("message")
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.events.put(None)  # the stream ended

    def next(self, timeout: float = 10, comments: bool = False) -> Event | None:
        """The next event (comments skipped unless asked for); None once the stream ends."""
        while True:
            event = self.events.get(timeout=timeout)
            if event is None or event.name or comments:
                return event


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        environment = site_env(tmp_path, database_url)
        prepare(environment)
        yield environment


@pytest.fixture
def start(env) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start_server(**extra: str) -> Server:
        server = Server(env | extra, workers=2).start()
        started.append(server)
        return server

    yield start_server
    for server in started:
        server.stop()


def friend_game(server: Server) -> tuple[str, Visitor, Visitor]:
    host = Visitor(server.url)
    game_id = host.new_game("friend", color="dark")
    friend = Visitor(server.url)
    friend.join(game_id, host.invite_url(game_id))
    return game_id, host, friend


def test_a_move_reaches_the_other_players_stream_as_an_event_with_its_revision(start):
    server = start()
    game_id, host, friend = friend_game(server)
    page = friend.get(f"/g/{game_id}/").body
    revision = int(page.split('data-revision="', 1)[1].split('"', 1)[0])
    assert f'data-live-url="/g/{game_id}/live?revision={revision}"' in page
    stream = Stream(f"{server.url}/g/{game_id}/live?revision={revision}").open()
    assert stream.status == 200 and stream.content_type.startswith("text/event-stream")
    assert applied(host.move(game_id, "D4", 0))
    event = stream.next()
    assert event.name == "move" and event.id == str(revision + 1)
    assert json.loads(event.data) == {"revision": revision + 1, "ply": 1, "over": False}
    # The friend's page then asks for the fresh board, and gets it.
    fresh = friend.get(f"/g/{game_id}/poll/{revision}", htmx=True)
    assert fresh.status == 200 and f'data-revision="{revision + 1}"' in fresh.body


def test_a_reconnect_with_last_event_id_hears_at_once_what_it_missed_and_nothing_twice(start):
    server = start()
    game_id, host, friend = friend_game(server)
    for ply, move in enumerate(["D4", "A1", "G7"]):
        assert applied((host if ply % 2 == 0 else friend).move(game_id, move, ply))
    now = host.state(game_id)
    assert now["ply"] == 3
    first = Stream(f"{server.url}/g/{game_id}/live?revision=0").open().next()
    latest = int(first.id)
    resumed = Stream(f"{server.url}/g/{game_id}/live", {"Last-Event-ID": "1"}).open()
    assert resumed.next().id == str(latest)
    up_to_date = Stream(f"{server.url}/g/{game_id}/live", {"Last-Event-ID": str(latest)}).open()
    assert applied(friend.move(game_id, "A7", 3))
    assert up_to_date.next().id == str(latest + 1)  # the move, not the revision it had


def test_an_idle_stream_sends_keep_alive_comments(start):
    server = start(MAERSTANAS_LIVE_KEEPALIVE_SECONDS="0.3")
    game_id, _, _ = friend_game(server)
    stream = Stream(f"{server.url}/g/{game_id}/live?revision=999").open()
    comments = [stream.next(timeout=5, comments=True) for _ in range(3)]
    assert all(event is not None and event.name == "" for event in comments)


def test_the_stream_says_the_game_is_over_and_closes(start):
    server = start()
    game_id, host, _ = friend_game(server)
    stream = Stream(f"{server.url}/g/{game_id}/live?revision=0").open()
    joined = stream.next()
    assert json.loads(joined.data)["over"] is False
    assert host.post(f"/g/{game_id}/resign", {}).status == 303
    move = stream.next()
    assert int(move.id) == int(joined.id) + 1
    assert move.name == "move" and json.loads(move.data)["over"] is True
    assert stream.next().name == "end"
    assert stream.next() is None
    # A finished game's stream says so at once, to a browser reconnecting late.
    again = Stream(f"{server.url}/g/{game_id}/live", {"Last-Event-ID": move.id}).open()
    assert again.next().name == "end" and again.next() is None


def test_a_move_made_through_one_server_reaches_a_stream_held_by_another(start):
    one, other = start(), start()
    game_id, host, friend = friend_game(one)
    watching = Stream(f"{other.url}/g/{game_id}/live?revision=0").open()
    current = int(watching.next().id)
    assert applied(host.move(game_id, "D4", 0))
    assert int(watching.next().id) == current + 1


def test_the_computers_reply_reaches_the_stream(start, env):
    server = start()
    worker = Worker(env).start()
    try:
        player = Visitor(server.url)
        game_id = player.new_game("computer", color="dark", level="cild")
        stream = Stream(f"{server.url}/g/{game_id}/live?revision=0").open()
        assert applied(player.move(game_id, "D4", 0))
        plies = set()
        while 2 not in plies:
            event = stream.next(timeout=30)
            assert event is not None, "the stream ended before the reply"
            plies.add(json.loads(event.data)["ply"])
        assert player.state(game_id)["ply"] == 2
    finally:
        worker.stop()


def test_a_stream_refuses_what_it_cannot_serve(start):
    server = start()
    game_id, host, _ = friend_game(server)
    page = httpx.get(f"{server.url}/g/{game_id}/live", headers={"Accept": "text/html"})
    assert page.status_code == 406 and "text/event-stream" in page.text
    posted = host.post(f"/g/{game_id}/live", {})
    assert posted.status == 405 and posted.headers["allow"] == "GET, HEAD"


def test_there_is_no_stream_of_a_game_that_does_not_exist(start):
    server = start()
    reply = httpx.get(f"{server.url}/g/AAAAAAAAAAAA/live", headers=SSE, timeout=10)
    assert reply.status_code == 404
