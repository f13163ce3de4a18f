"""Load test of the lobby: many open challenges, many lobby pages open, challenges
posted and accepted all the while.

It serves the site as ``bench.load`` does (``make run``'s gunicorn and worker,
production settings, SQLite in a temp dir or a scratch PostgreSQL beside
``--database-url``) and then:

- posts ``--challenges`` open challenges through the API (``POST /api/challenges``),
  each by a program of an address of its own (the trusted proxy's
  ``X-Forwarded-For``): the lobby counts a token-less program's open challenges by
  its address, and allows each only a few;
- opens ``--pages`` lobby streams (``GET /lobby/live?since=<revision>``, server-sent
  events), each from an address of its own, a few hundred at a time, and waits
  until each has said ``retry:``;
- for ``--seconds``, makes ``--rate`` changes a second, by turns posting a challenge
  and accepting one of those open (``POST /api/challenges/<id>/accept``, from yet
  another address), so that about as many stay open;
- times each change on every stream: from just before its request is sent until
  the stream's ``lobby`` event naming the challenge arrives (a posted challenge
  among its rows, or among those gone if it went before the stream heard of it; an
  accepted one among those gone); a change a stream never names is missed;
- counts errors: answers other than the expected status, streams that drop (they
  are opened again from the revision they had), ``reload`` events (the page would
  fetch the whole list again) and timeouts;
- reads the CPU time of the server, of this client and of PostgreSQL over the
  measured phase, as ``bench.load`` does, and how late the client's event loop ran.

Two thousand pages hearing of four changes a second are 8,000 events a second into
one process, on a machine the server shares: a stream's events are read as bytes,
and the challenges an event names are found in its JSON text by a regular
expression (``bench.ledger.changed_ids``), not by decoding it.

Run ``python -m bench.lobby`` or ``python -m bench.load --lobby`` (``--help`` for
options).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import re
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import psutil

from bench.client import TIMEOUT, Address, LoadError, Pool, connect, request_bytes
from bench.ledger import EventReader, Ledger
from bench.measures import (
    DRAIN_SECONDS,
    OPENING,
    describe,
    idle_cores,
    measured_clocks,
    ms,
    percentile,
    raise_file_limit,
    streams_per_worker,
    triple,
)
from bench.runs import HeldStream, Tracking, add_site_options, on_fresh_site
from tests.support.servers import Server

GOAL_P95_MS = 200.0
# What each challenge offers: a casual game a guest program may post. A guest's live
# challenge is withdrawn a minute after its creator was last there (its lobby page, or
# its program asking about it): a correspondence one stands until it is accepted, so
# the changes measured are the posts and accepts alone. Its row is the same size.
CHALLENGE = {
    "special_stones": True,
    "wraparound": False,
    "scoring": "standard",
    "color": "random",
    "rated": False,
    "speed": "correspondence",
    "days": 3,
}


class LobbyStream(HeldStream):
    """One lobby page's stream: the changes its events name go to the ledger."""

    run: LobbyRun

    def __init__(self, number: int, client: str, run: LobbyRun) -> None:
        super().__init__(run)
        self.number, self.client = number, client
        self.reader = EventReader()

    def reopen(self) -> Coroutine[Any, Any, None]:
        """Opened again from the revision it had, from the same address."""
        return self.run.open_stream(self.number, self.revision, self.client)

    def open(self, address: Address, since: int) -> None:
        assert self.transport is not None
        headers = {"Accept": "text/event-stream", "X-Forwarded-For": self.client}
        path = f"/lobby/live?since={since}"
        self.transport.write(request_bytes("GET", path, address, headers=headers))

    @property
    def revision(self) -> int:
        return int(self.reader.last_id or 0)

    def on_body(self, data: bytes) -> None:
        now = time.perf_counter()
        run = self.run
        run.received += len(data)
        for name, value in self.reader.feed(data):
            run.events += 1
            if name == b"lobby":
                run.ledger.heard(self.number, value, now)
            elif name == b"reload":
                run.error("stream told to reload")
        if not self.ready.done() and self.reader.retry is not None:
            self.ready.set_result(None)


class LobbyRun(Tracking):
    """One measurement: its servers, challenges, streams, changes and errors."""

    def __init__(self, servers: list[Server], seed: int) -> None:
        super().__init__(servers, seed)
        self.ledger = Ledger()
        self.streams: dict[int, LobbyStream] = {}
        self.open: list[str] = []  # challenges open, not being accepted
        self.answers: dict[str, list[float]] = {"post": [], "accept": []}
        self.events = 0
        self.received = 0
        self.in_flight = 0  # changes sent, not answered yet

    def pool(self, turn: int) -> Pool:
        return self.pools[turn % len(self.pools)]

    async def post(self, turn: int) -> None:
        """Post a challenge as a program of a new address."""
        measured = self.measuring
        reply = await self.pool(turn).request(
            "POST", "/api/challenges", CHALLENGE, {"X-Forwarded-For": self.new_client()}
        )
        if reply.status != 201:
            raise LoadError(f"post answered {reply.status}")
        challenge = reply.json()["id"]
        if measured:
            self.ledger.posted(challenge, reply.sent, reply.answered)
            self.answers["post"].append((reply.answered - reply.sent) * 1000)
        self.open.append(challenge)

    async def accept(self, turn: int) -> None:
        """Accept an open challenge, picked at random, as a program of a new address."""
        challenge = self.open.pop(self.rng.randrange(len(self.open)))
        change = self.ledger.accepting(challenge)
        try:
            reply = await self.pool(turn).request(
                "POST",
                f"/api/challenges/{challenge}/accept",
                {},
                {"X-Forwarded-For": self.new_client()},
            )
            if reply.status != 201:
                raise LoadError(f"accept answered {reply.status}")
        except BaseException:
            self.ledger.forget(change)
            raise
        change.sent, change.answered = reply.sent, reply.answered
        self.answers["accept"].append((reply.answered - reply.sent) * 1000)

    async def revision(self) -> int:
        """The lobby's revision now, as its page shows it."""
        reply = await self.pools[0].request("GET", "/lobby/")
        found = re.search(rb'data-revision="(\d+)"', reply.body)
        if reply.status != 200 or found is None:
            raise LoadError(f"lobby page answered {reply.status}")
        return int(found[1])

    async def open_stream(self, number: int, since: int, client: str = "") -> None:
        """Open stream ``number`` at revision ``since`` and wait until it has answered."""
        address = self.addresses[number % len(self.addresses)]
        client = client or self.new_client()
        stream: LobbyStream = await connect(address, lambda: LobbyStream(number, client, self))
        stream.open(address, since)
        try:
            async with asyncio.timeout(TIMEOUT):
                await stream.ready
        except BaseException:
            stream.closing = True
            stream.close()
            raise
        self.streams[number] = stream

    async def set_up(self, challenges: int, pages: int) -> None:
        """Post ``challenges``, then open ``pages`` streams, a bounded number at a time."""
        slots = asyncio.Semaphore(OPENING)

        async def bounded(work: Any) -> None:
            async with slots:
                try:
                    await work
                except (LoadError, OSError, TimeoutError, ValueError, KeyError) as exc:
                    self.error(f"setup: {describe(exc)}")

        await asyncio.gather(*(bounded(self.post(turn)) for turn in range(challenges)))
        since = await self.revision()
        await asyncio.gather(*(bounded(self.open_stream(n, since)) for n in range(pages)))

    async def make_changes(self, rate: float) -> None:
        """``rate`` changes a second, on a fixed schedule, posts and accepts by turns;
        each is sent without waiting for those before it."""
        started = time.perf_counter()
        for turn in itertools.count():
            await asyncio.sleep(max(0.0, started + turn / rate - time.perf_counter()))
            if not self.measuring:
                return
            change = self.post if turn % 2 == 0 or not self.open else self.accept
            self.spawn(self._counted(change(turn)))

    async def _counted(self, change: Any) -> None:
        self.in_flight += 1
        try:
            await change
        finally:
            self.in_flight -= 1

    async def drain(self, streams: int) -> None:
        """Wait until every change has reached every stream, or for DRAIN_SECONDS."""
        deadline = time.monotonic() + DRAIN_SECONDS
        while self.in_flight or not self.ledger.complete(streams):
            if time.monotonic() > deadline:
                return
            await asyncio.sleep(0.1)

    def close_streams(self) -> None:
        for stream in self.streams.values():
            stream.closing = True
            stream.close()


@dataclass
class LobbyResult:
    challenges: int  # open as the streams opened
    streams: int
    changes: int
    seconds: float
    from_send: list[float]  # each (stream, change)
    from_answer: list[float]
    to_all: list[float]  # each change, until every stream had it
    missed: int
    answers: dict[str, list[float]]
    loop_lag: list[float]
    errors: Counter[str]
    cpu: dict[str, float]
    idle: float  # server CPU with the streams open and no changes
    setup_seconds: float
    spread: str
    events: int
    received: int  # bytes
    logged: Counter[str] = field(default_factory=Counter)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def met(self) -> bool:
        return (
            percentile(self.from_send, 0.95) < GOAL_P95_MS
            and not self.missed
            and not self.error_count
            and self.changes > 0
        )


async def measure(servers: list[Server], site: list[int], args: argparse.Namespace) -> LobbyResult:
    """Set up the lobby, then measure it for ``args.seconds``; ``site``: the server's pids."""
    run = LobbyRun(servers, seed=args.challenges)
    started = time.monotonic()
    await run.set_up(args.challenges, args.pages)
    setup_seconds = time.monotonic() - started
    challenges = len(run.open)
    streams = len(run.streams)
    spread = streams_per_worker(servers)
    print(
        f"  {challenges:,} open challenges, {streams:,} lobby streams open "
        f"in {setup_seconds:.0f} s (connections per worker: {spread})",
        flush=True,
    )
    idle = await idle_cores(site)
    run.spawn(run.watch_loop())
    clocks = measured_clocks(site)
    run.events = run.received = 0
    machine = busy_seconds()
    run.measuring = True
    measured = time.monotonic()
    run.spawn(run.make_changes(args.rate))
    await asyncio.sleep(args.seconds)
    run.measuring = False
    elapsed = time.monotonic() - measured
    cpu = {name: clock.seconds() / elapsed for name, clock in clocks.items()}
    if not args.database_url:
        cpu["postgres"] = 0.0  # without --database-url, PostgreSQL works for others
    cpu["others"] = (busy_seconds() - machine) / elapsed - sum(cpu.values())
    events, received = run.events, run.received
    await run.drain(streams)
    from_send, from_answer, to_all, missed = run.ledger.delays(streams)
    run.stop()
    await asyncio.sleep(0.5)  # let the closed sockets go
    return LobbyResult(
        challenges=challenges,
        streams=streams,
        changes=len(run.ledger.changes),
        seconds=elapsed,
        from_send=from_send,
        from_answer=from_answer,
        to_all=to_all,
        missed=missed,
        answers=run.answers,
        loop_lag=run.loop_lag,
        errors=run.errors,
        cpu=cpu,
        idle=idle,
        setup_seconds=setup_seconds,
        spread=spread,
        events=events,
        received=received,
    )


def busy_seconds() -> float:
    """CPU seconds the whole machine has been busy, all cores together."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


def run_one(args: argparse.Namespace) -> LobbyResult:
    return on_fresh_site(args, lambda servers, site: measure(servers, site, args))


def report(r: LobbyResult, args: argparse.Namespace) -> None:
    database = "PostgreSQL" if args.database_url else "SQLite"
    workers = args.workers or f"{os.cpu_count() or 1}+1"
    posts = len(r.answers["post"])
    print(
        f"\nLobby, {database}, {args.servers} server(s) x {workers} workers: "
        f"{r.challenges:,} open challenges, {r.streams:,} lobby streams, "
        f"{r.seconds:.0f} s measured at {args.rate:g} changes/s; "
        f"times in ms, CPU in cores (of {os.cpu_count()})"
    )
    print(
        f"  changes: {r.changes:,} ({r.changes / r.seconds:.1f}/s: {posts:,} posted, "
        f"{r.changes - posts:,} accepted); {len(r.from_send):,} deliveries, "
        f"{r.missed:,} missed"
    )
    print(f"  send → each stream   p50/p95/max: {triple(r.from_send)}")
    print(f"  answer → each stream p50/p95/max: {triple(r.from_answer)}")
    print(f"  send → every stream  p50/p95/max: {triple(r.to_all)} (per change)")
    print(
        f"  answers p50/p95/max: post {triple(r.answers['post'])}, "
        f"accept {triple(r.answers['accept'])}"
    )
    postgres = f", postgres {r.cpu['postgres']:.2f}" if args.database_url else ""
    print(
        f"  CPU: idle {r.idle:.2f}, server {r.cpu['server']:.2f}, client "
        f"{r.cpu['client']:.2f}{postgres}, other processes {r.cpu['others']:.2f}; "
        "client's loop late p95/max "
        f"{ms(percentile(r.loop_lag, 0.95))}/{ms(max(r.loop_lag, default=math.nan))}"
    )
    print(
        f"  into the client: {r.events / r.seconds:,.0f} events/s, "
        f"{r.received / r.seconds / 1e6:.1f} MB/s; set-up {r.setup_seconds:.0f} s"
    )
    print(f"  errors: {r.error_count:,}")
    for kind, count in r.errors.most_common():
        print(f"    {count:,}x {kind}")
    for line, count in r.logged.most_common(5):
        print(f"    the server logged {count:,}x {line}")
    print(
        f"goal (send → each lobby stream p95 < {GOAL_P95_MS:.0f} ms, none missed, "
        f"no errors): {'met' if r.met() else 'not met'}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--challenges", type=int, default=1000, help="open as it starts")
    parser.add_argument("--pages", type=int, default=2000, help="lobby pages' streams open")
    parser.add_argument(
        "--rate", type=float, default=4.0, help="changes a second, posts and accepts by turns"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the measurement")
    add_site_options(parser)
    args = parser.parse_args(argv)
    raise_file_limit()
    print(f"lobby: {args.challenges:,} challenges, {args.pages:,} pages:", flush=True)
    report(run_one(args), args)


if __name__ == "__main__":
    main()
