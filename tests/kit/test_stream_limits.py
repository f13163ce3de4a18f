"""What one client may ask of the live streams (kit.streams.Gate, the worker's
connection limit): a flood of streams from one address is refused, not served at
everyone else's cost, and a stream ends by itself after its time."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kit import capacity
from kit.streams import Gate
from tests.support import aio
from tests.support.servers import Server, prepare, scratch_database, site_env
from tests.support.visitors import Visitor

SSE = {"Accept": "text/event-stream"}


def test_a_client_holds_at_most_so_many_streams_and_gets_each_back_as_it_closes():
    gate = Gate(per_client=2, opens=100)
    assert gate.admit("a", 0) == gate.admit("a", 0) == ""
    assert gate.admit("a", 0) == "too many live pages open: at most 2 from one address"
    assert gate.admit("b", 0) == ""  # another client counts on its own
    gate.leave("a")
    assert gate.held("a") == 1 and gate.admit("a", 1) == ""
    for _ in range(3):
        gate.leave("a")
    assert gate.held("a") == 0 and gate.admit("a", 2) == ""


def test_a_client_opens_at_most_so_many_streams_a_minute():
    gate = Gate(per_client=100, opens=3)
    for second in (0, 10, 20):
        assert gate.admit("a", second) == ""
        gate.leave("a")
    refused = gate.admit("a", 30)
    assert refused.startswith("too many live pages opened: at most 3 a minute")
    assert gate.held("a") == 0  # a refused stream holds nothing
    assert gate.admit("a", 60) == ""  # the next minute starts afresh
    assert gate.admit("b", 30) == ""


def test_the_streams_of_a_process_hold_at_most_its_budget_and_are_then_refused_with_503():
    gate = Gate(per_client=2, opens=100, budget=3)
    assert [gate.admit(client, 0) for client in ("a", "a", "b")] == ["", "", ""]
    full = gate.admit("c", 0)
    assert full.status == 503 and full.startswith("the server has as many live pages open")
    assert gate.admit("a", 0).status == 429  # the client's own limit says so first
    assert gate.total() == 3 and gate.held("c") == 0
    gate.leave("b")
    gate.leave("b")  # a second goodbye gives nothing back
    assert gate.total() == 2 and gate.admit("c", 1) == ""


def test_a_process_keeps_a_fifth_of_its_connections_and_at_least_eight_from_the_streams():
    assert capacity.stream_budget(1000) == 800
    assert capacity.stream_budget(16) == 8
    assert capacity.stream_budget(41) == 32  # a fifth of 41, rounded up, is 9


def test_a_ticket_gives_a_stream_back_once_however_often_it_is_used():
    gate = Gate(per_client=5, opens=100)
    gate.admit("a", 0)
    gate.admit("a", 0)
    give_back = gate.ticket("a")
    give_back()
    give_back()  # the stream's end, then its object thrown away
    assert gate.held("a") == 1


def test_a_gate_forgets_the_windows_of_clients_gone_quiet():
    gate = Gate(per_client=1, opens=1)
    for client in range(10):
        gate.admit(str(client), 0)
        gate.leave(str(client))
    gate.admit("late", 120)
    assert len(gate._opened) <= 5


# Against the real server ------------------------------------------------------------------


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    extra = {
        "MAERSTANAS_LIVE_STREAMS_PER_CLIENT": "3",
        "MAERSTANAS_LIVE_STREAM_OPENS_PER_MINUTE": "6",
        "MAERSTANAS_LIVE_STREAM_SECONDS": "2",
        "GUNICORN_WORKER_CONNECTIONS": "16",
    }
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url, **extra)
        prepare(env)
        server = Server(env, workers=1).start()
        try:
            game_id = Visitor(server.url).new_game()
            yield server, game_id
        finally:
            server.stop()


async def open_streams(port: int, path: str, count: int) -> list[tuple[int, bytes]]:
    """Open ``count`` streams at once over raw connections; each one's status and the
    first bytes of its body, the connections left open until all have answered."""

    async def one() -> tuple[asyncio.StreamWriter, int, bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        return writer, int(head.split(b" ", 2)[1]), head

    answers = await asyncio.gather(*(one() for _ in range(count)))
    for writer, _, _ in answers:
        writer.close()
        await writer.wait_closed()
    return [(status, head) for _, status, head in answers]


@pytest.mark.live
def test_one_address_holds_few_streams_and_the_rest_are_refused_with_a_429(site):
    server, game_id = site
    url = f"{server.url}/g/{game_id}/live"
    opened = aio.run(open_streams(server.port, f"/g/{game_id}/live", 5))
    statuses = sorted(status for status, _ in opened)
    assert statuses == [200, 200, 200, 429, 429]
    # Reconnecting in a loop: the opens of a minute run out too (6 here), whichever
    # window the loop falls in (20 tries in two windows admit 12 at most).
    refusals = []
    for _ in range(20):
        with httpx.stream("GET", url, headers=SSE, timeout=10) as reply:
            if reply.status_code == 429:
                refusals.append((reply.headers.get("Retry-After"), reply.read().decode()))
    assert any("at most 6 a minute" in text and after == "60" for after, text in refusals), refusals
    assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200


@pytest.mark.live
def test_streams_from_many_addresses_leave_the_other_requests_their_connections(site):
    """The worker serves 16 connections: streams may hold 8, whatever the addresses,
    and the pages, the API and /healthz are served beside them."""
    server, game_id = site

    async def crowd() -> tuple[list[int], list[int], bytes]:
        held, statuses = [], []
        for address in range(2, 8):  # six addresses, each within its 3 streams
            for _ in range(3):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", server.port, local_addr=(f"127.0.0.{address}", 0)
                )
                request = f"GET /g/{game_id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                writer.write(f"{request}Accept: text/event-stream\r\n\r\n".encode())
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                statuses.append(int(head.split(b" ", 2)[1]))
                held.append(writer)
        pages = [
            (await asyncio.to_thread(httpx.get, f"{server.url}{path}", timeout=10)).status_code
            for path in ("/healthz", f"/g/{game_id}/", f"/api/games/{game_id}")
        ]
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(f"GET /g/{game_id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
        writer.write(b"Accept: text/event-stream\r\n\r\n")
        refused = await asyncio.wait_for(reader.read(), 10)  # to its end: it closes
        for opened in [*held, writer]:
            opened.close()
        return statuses, pages, refused

    statuses, pages, refused = aio.run(crowd())
    assert statuses.count(200) == 8 and statuses.count(503) == 10, statuses
    assert pages == [200, 200, 200]
    assert refused.startswith(b"HTTP/1.1 503 ") and b"retry-after: 60" in refused.lower()
    assert b"as many live pages open as it can hold" in refused


@pytest.mark.live
def test_a_stream_ends_after_its_time_and_the_page_opens_another(site):
    server, game_id = site
    with httpx.stream("GET", f"{server.url}/g/{game_id}/live", headers=SSE, timeout=10) as reply:
        assert reply.status_code == 200
        body = "".join(reply.iter_text())  # ends by itself: MAERSTANAS_LIVE_STREAM_SECONDS=2
    assert body.startswith("retry: 1000") and body.endswith(": time to reconnect\n\n")


@pytest.mark.live
def test_past_its_connections_a_worker_answers_503_and_keeps_serving(site):
    server, _ = site

    async def crowd() -> bytes:
        port = int(server.url.rsplit(":", 1)[1])
        held = []
        for _ in range(16):  # idle connections up to the worker's limit
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            held.append(writer)
        await asyncio.sleep(0.3)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(200), 10)
        for opened in [*held, writer]:
            opened.close()
            await opened.wait_closed()
        return answer

    assert aio.run(crowd()).startswith(b"HTTP/1.1 503 ")
    for _ in range(50):
        if httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200:
            break
    else:
        pytest.fail("the worker did not serve again once the crowd left")
