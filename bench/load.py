"""Load test: many live friend games at once, each page holding its stream open.

For each number of games in ``--games`` (the curve: each on a fresh server), it
serves the site as ``make run`` does (gunicorn with gunicorn.conf.py's defaults,
production settings, the computer's worker beside it; SQLite in a temp dir, or a
scratch PostgreSQL database beside ``--database-url``, dropped after) and then:

- gives every player an address of their own (10.0.0.1 on, sent as the trusted
  proxy's ``X-Forwarded-For``: the site's limits count each client, its open
  streams among them, so thousands of players are not one);
- sets up the games through the API (``POST /api/games``, then the friend's
  ``POST /api/games/<id>/join`` with the invite link), before anything is measured;
- opens both players' streams (``GET /g/<id>/live``, server-sent events), a few
  hundred at a time, and waits until each has said ``retry:``;
- for ``--seconds``, makes a random legal move in each game about every
  ``MOVE_SECONDS`` (``POST /api/games/<id>/moves`` with the mover's token), and
  times the move's event on both streams, from just before the move is sent and
  from its answer (the commit lies between the two), until both have it;
- samples ``/healthz`` a few times a second, each on a new connection, as a load
  balancer's check does;
- counts errors: answers other than the expected status, streams that drop, moves
  whose event a stream never shows, and timeouts;
- reads the CPU time of the server (gunicorn's master and workers, the computer's
  worker), of this client and of PostgreSQL over the measured phase: on one small
  machine the load generator takes its share of the cores.

With ``--clock 5+3`` the games are live ones with that clock (minutes+seconds
added a move), each made as the lobby makes it: a challenge (``POST
/api/challenges`` with the clock), then its ``accept``; and each side makes its
first move at once, during set-up, as players who have just met in the lobby do (a
side's clock runs from its first move, and a game whose side has not made it
within 30 s is aborted). So the moves measured are those of games whose clocks run.

With ``--servers 2`` two gunicorns share the database (PostgreSQL, or one SQLite
file); a game's two streams are held by one and its moves are made through the
other, so every event crosses from one server to the other.

The client is one process on asyncio (uvloop), with its own small HTTP/1.1 code
over raw sockets: a stream is a socket and a parser, and a request costs a few
tens of microseconds of CPU, where httpx costs about a millisecond (bench.web) and
locust's greenlets do not suit thousands of long-lived streams. It reports how
late its own event loop ran, so a result the client distorts can be told apart.

Run ``python -m bench.load`` (``--help`` for options); ``python -m bench.load
--lobby`` runs the lobby's scenario instead (bench/lobby.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import math
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import psutil
import uvloop

from game.engine import PASS, Position, Rules
from tests.support.servers import Server, Worker, prepare, scratch_database, site_env

MOVE_SECONDS = 20.0  # a game's pace: a move about this often, by either player
HEALTHZ_SECONDS = 0.2  # between two samples of /healthz
GOAL_STREAM_P95_MS = 100.0
GOAL_HEALTHZ_P95_MS = 50.0
TIMEOUT = 30.0  # for any one request, a stream's opening, or a move's events
QUIET_SECONDS = 5.0  # streams open, no moves yet: the server's cost of holding them
DRAIN_SECONDS = 5.0  # after the measured phase, for the last moves' events
POOL_SIZE = 64  # keep-alive connections for requests, per server
KEEPALIVE_SECONDS = 3.0  # a pooled connection idle longer is closed (gunicorn's keepalive is 5)
OPENING = 200  # streams being opened at once
RULES = Rules(special_stones=True, scoring="standard", wraparound=False)
RULES_JSON = {"special_stones": True, "scoring": "standard", "wraparound": False}
FIRST_MOVES = [str(m) for m in Position.start(RULES).legal_moves()]

Address = tuple[str, int]
Headers = Mapping[str, str]
NO_HEADERS: Headers = MappingProxyType({})


class LoadError(Exception):
    """Something a working site would not have done; its text names the error's kind."""


class HttpProtocol(asyncio.Protocol):
    """HTTP/1.1 responses read off one socket: a head, then a body by length or chunks."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.lost = asyncio.get_running_loop().create_future()
        self._buffer = bytearray()
        self._state = "head"
        self._remaining = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        buffer = self._buffer
        while buffer:
            if self._state == "head":
                end = buffer.find(b"\r\n\r\n")
                if end < 0:
                    return
                lines = buffer[:end].decode("latin-1").split("\r\n")
                del buffer[: end + 4]
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                chunked = "chunked" in headers.get("transfer-encoding", "").lower()
                self._remaining = 0 if chunked else int(headers.get("content-length", 0))
                self._state = "size" if chunked else "body"
                self.on_head(int(lines[0].split(" ", 2)[1]), headers)
            elif self._state == "body":
                taken = min(self._remaining, len(buffer))
                if taken:
                    self.on_body(bytes(buffer[:taken]))
                    del buffer[:taken]
                    self._remaining -= taken
                if self._remaining:
                    return
                self._state = "head"
                self.on_end()
            elif self._state == "size":
                end = buffer.find(b"\r\n")
                if end < 0:
                    return
                self._remaining = int(bytes(buffer[:end]).split(b";")[0], 16)
                del buffer[: end + 2]
                self._state = "chunk" if self._remaining else "trailer"
            elif self._state == "chunk":
                if len(buffer) < self._remaining + 2:
                    return
                self.on_body(bytes(buffer[: self._remaining]))
                del buffer[: self._remaining + 2]
                self._state = "size"
            else:  # trailer: header lines up to an empty one
                end = buffer.find(b"\r\n")
                if end < 0:
                    return
                del buffer[: end + 2]
                if end == 0:
                    self._state = "head"
                    self.on_end()
        if self._state == "body" and not self._remaining:  # a head with no body
            self._state = "head"
            self.on_end()

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        raise NotImplementedError

    def on_body(self, data: bytes) -> None:
        raise NotImplementedError

    def on_end(self) -> None:
        raise NotImplementedError


def request_bytes(
    method: str, path: str, address: Address, body: Any = None, headers: Headers = NO_HEADERS
) -> bytes:
    """An HTTP/1.1 request, its body (if any) as JSON."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {address[0]}:{address[1]}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    content = b""
    if body is not None:
        content = json.dumps(body).encode()
        lines += ["Content-Type: application/json", f"Content-Length: {len(content)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + content


@dataclass
class Reply:
    status: int
    body: bytes
    sent: float  # perf_counter just before the request was written
    answered: float  # when its last byte arrived

    def json(self) -> Any:
        return json.loads(self.body)


class Connection(HttpProtocol):
    """A keep-alive connection for requests, one at a time."""

    def __init__(self) -> None:
        super().__init__()
        self.idle_since = time.monotonic()
        self.reusable = True
        self._waiter: asyncio.Future[Reply] | None = None
        self._status = 0
        self._body: list[bytes] = []
        self._sent = 0.0

    async def request(self, raw: bytes) -> Reply:
        assert self.transport is not None and self._waiter is None
        self._waiter = asyncio.get_running_loop().create_future()
        self._body = []
        self._sent = time.perf_counter()
        self.transport.write(raw)
        try:
            async with asyncio.timeout(TIMEOUT):
                return await self._waiter
        finally:
            self._waiter = None
            self.idle_since = time.monotonic()

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        self._status = status
        self.reusable = headers.get("connection", "").lower() != "close"

    def on_body(self, data: bytes) -> None:
        self._body.append(data)

    def on_end(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            reply = Reply(self._status, b"".join(self._body), self._sent, time.perf_counter())
            self._waiter.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.reusable = False
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(LoadError("connection closed"))


async def connect(address: Address, factory: Callable[[], HttpProtocol]) -> Any:
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(TIMEOUT):
        _, protocol = await loop.create_connection(factory, *address)
    return protocol


class Pool:
    """Keep-alive connections to one server, at most ``size`` requests at once."""

    def __init__(self, address: Address, size: int = POOL_SIZE) -> None:
        self.address = address
        self._idle: list[Connection] = []
        self._slots = asyncio.Semaphore(size)

    async def request(
        self, method: str, path: str, body: Any = None, headers: Headers = NO_HEADERS
    ) -> Reply:
        raw = request_bytes(method, path, self.address, body, headers)
        async with self._slots:
            connection = self._take() or await connect(self.address, Connection)
            try:
                reply = await connection.request(raw)
            except BaseException:
                connection.close()
                raise
            if connection.reusable:
                self._idle.append(connection)
            else:
                connection.close()
            return reply

    def _take(self) -> Connection | None:
        while self._idle:
            connection = self._idle.pop()
            if connection.reusable and time.monotonic() - connection.idle_since < KEEPALIVE_SECONDS:
                return connection
            connection.close()
        return None

    def close(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()


@dataclass
class Move:
    """One move of a game and when each of its two streams showed it."""

    ply: int  # the ply it was made at: an event with a greater one shows it
    sent: float
    answered: float | None = None
    seen: list[float | None] = field(default_factory=lambda: [None, None])

    def delays(self) -> tuple[float, float] | None:
        """From sending and from the answer until both streams had it, in ms."""
        if self.answered is None or None in self.seen:
            return None
        last = max(t for t in self.seen if t is not None)
        return (last - self.sent) * 1000, max(0.0, last - self.answered) * 1000


class Stream(HttpProtocol):
    """One page's stream of server-sent events."""

    def __init__(self, game: Game, side: int, run: Run) -> None:
        super().__init__()
        self.game, self.side, self.run = game, side, run
        self.ready = asyncio.get_running_loop().create_future()
        self.revision = 0
        self.ended = False
        self.closing = False
        self._text = ""

    def open(self, address: Address) -> None:
        assert self.transport is not None
        headers = {"Accept": "text/event-stream", "X-Forwarded-For": self.game.players[self.side]}
        if self.revision:
            headers["Last-Event-ID"] = str(self.revision)
        path = f"/g/{self.game.id}/live?revision={self.revision}"
        self.transport.write(request_bytes("GET", path, address, headers=headers))

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        if status != 200:
            self.run.error(f"stream answered {status}")
            self.closing = True
            self.close()

    def on_body(self, data: bytes) -> None:
        now = time.perf_counter()
        self._text += data.decode()
        *events, self._text = self._text.split("\n\n")
        for event in events:
            fields = dict(line.split(": ", 1) for line in event.split("\n") if ": " in line)
            if "retry" in event and not self.ready.done():
                self.ready.set_result(None)
            if fields.get("event") == "move":
                news = json.loads(fields["data"])
                self.revision = news["revision"]
                self.game.heard(self.side, news["ply"], now)
            elif fields.get("event") == "end":
                self.ended = True
                self.game.over = True  # its clock ran out, or it was aborted

    def on_end(self) -> None:
        self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self.ready.done():
            self.ready.set_exception(LoadError("stream closed before it opened"))
        elif not (self.ended or self.closing or self.run.stopping):
            self.run.error("stream dropped")
            self.run.spawn(self.game.reopen(self.side))


@dataclass(eq=False)
class Game:
    """A friend game, its two players' tokens and streams, and its moves."""

    id: str
    tokens: dict[str, str]
    run: Run
    streams_at: Address  # the server that holds both streams
    moves_at: Pool  # the server moves are made through
    # Each player's address, as the trusted proxy would forward it: the site counts
    # its limits (streams open at once, among them) per client, and players are many.
    players: tuple[str, str] = ("127.0.0.1", "127.0.0.1")
    turn: str = "dark"
    ply: int = 0
    legal: list[str] = field(default_factory=lambda: FIRST_MOVES)
    over: bool = False
    streams: list[Stream | None] = field(default_factory=lambda: [None, None])
    move: Move | None = None

    def heard(self, side: int, ply: int, now: float) -> None:
        move = self.move
        if move is not None and ply > move.ply and move.seen[side] is None:
            move.seen[side] = now

    async def open(self) -> None:
        """Open both streams and wait until each has answered."""
        await asyncio.gather(self.reopen(0), self.reopen(1))

    async def reopen(self, side: int) -> None:
        old = self.streams[side]
        stream: Stream = await connect(self.streams_at, lambda: Stream(self, side, self.run))
        stream.revision = old.revision if old else 0
        self.streams[side] = stream
        stream.open(self.streams_at)
        async with asyncio.timeout(TIMEOUT):
            await stream.ready

    def close(self) -> None:
        for stream in self.streams:
            if stream is not None:
                stream.closing = True
                stream.close()

    async def play(self, rng: random.Random) -> Move:
        """Make a random legal move for the player to move; the new state, as answered."""
        choice = rng.choice([m for m in self.legal if m != str(PASS)])
        move = self.move = Move(self.ply, time.perf_counter())
        reply = await self.moves_at.request(
            "POST",
            f"/api/games/{self.id}/moves",
            {"move": choice, "ply": self.ply},
            {
                "Authorization": f"Bearer {self.tokens[self.turn]}",
                "X-Forwarded-For": self.players[self.turn != "dark"],
            },
        )
        if reply.status != 200:
            raise LoadError(f"move answered {reply.status}")
        move.sent, move.answered = reply.sent, reply.answered
        self.take(reply.json())
        return move

    def take(self, state: dict[str, Any]) -> None:
        """Follow the game's state as the API tells it."""
        self.ply, self.turn, self.legal = state["ply"], state["turn"], state["legal"]
        self.over = state["over"]

    async def refresh(self) -> None:
        """Read the game again after a move failed (its failure is counted already)."""
        with contextlib.suppress(LoadError, OSError, TimeoutError):
            reply = await self.moves_at.request("GET", f"/api/games/{self.id}")
            if reply.status == 200:
                self.take(reply.json())


class Run:
    """One measurement: its servers, games, samples and errors."""

    def __init__(
        self, servers: list[Server], seed: int, clock: tuple[int, int] | None = None
    ) -> None:
        self.addresses = [("127.0.0.1", server.port) for server in servers]
        self.pools = [Pool(address) for address in self.addresses]
        self.rng = random.Random(seed)
        self.clock = clock  # initial and increment seconds; None: friend games
        self.games: list[Game] = []
        self.players_seen = 0
        self.moves: list[Move] = []
        self.healthz: list[float] = []
        self.loop_lag: list[float] = []
        self.errors: Counter[str] = Counter()
        self.measuring = False
        self.stopping = False
        self._tasks: set[asyncio.Task[Any]] = set()

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._guard(coroutine))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guard(self, coroutine: Any) -> None:
        try:
            await coroutine
        except asyncio.CancelledError:
            raise
        except (LoadError, OSError, TimeoutError, ValueError, KeyError) as exc:
            if not self.stopping:
                self.error(describe(exc))

    async def new_game(self, index: int) -> Game:
        """A friend game set up through the API, both seats taken, streams not yet open
        (with a clock, a lobby match: ``new_match``)."""
        if self.clock:
            return await self.new_match(index)
        home = index % len(self.pools)
        pool = self.pools[home]
        players = (self.new_player(), self.new_player())
        created = await pool.request(
            "POST",
            "/api/games",
            {"mode": "friend", "color": "dark", "rules": RULES_JSON},
            {"X-Forwarded-For": players[0]},
        )
        if created.status != 201:
            raise LoadError(f"create answered {created.status}")
        game = created.json()
        joined = await pool.request(
            "POST",
            f"/api/games/{game['id']}/join",
            {"invite": game["invite_url"]},
            {"X-Forwarded-For": players[1]},
        )
        if joined.status != 200:
            raise LoadError(f"join answered {joined.status}")
        other = (home + 1) % len(self.pools)
        return Game(
            game["id"],
            {"dark": game["token"], "light": joined.json()["token"]},
            self,
            streams_at=self.addresses[home],
            moves_at=self.pools[other],
            players=players,
        )

    async def new_match(self, index: int) -> Game:
        """A live game with ``self.clock`` from a lobby challenge and its accept, both
        sides' first moves made, streams not yet open."""
        assert self.clock is not None
        home = index % len(self.pools)
        pool = self.pools[home]
        players = (self.new_player(), self.new_player())
        initial, increment = self.clock
        terms = {
            "color": "dark",
            "speed": "live",
            "clock": {"initial": initial, "increment": increment},
        }
        created = await pool.request(
            "POST", "/api/challenges", RULES_JSON | terms, {"X-Forwarded-For": players[0]}
        )
        if created.status != 201:
            raise LoadError(f"challenge answered {created.status}")
        challenge = created.json()
        accepted = await pool.request(
            "POST",
            f"/api/challenges/{challenge['id']}/accept",
            {},
            {"X-Forwarded-For": players[1]},
        )
        if accepted.status != 201:
            raise LoadError(f"accept answered {accepted.status}")
        answer = accepted.json()
        if answer["color"] != "light":
            raise LoadError(f"accept gave {answer['color']}, not light")
        other = (home + 1) % len(self.pools)
        game = Game(
            answer["game"]["id"],
            {"dark": challenge["token"], "light": answer["token"]},
            self,
            streams_at=self.addresses[home],
            moves_at=self.pools[other],
            players=players,
        )
        game.take(answer["game"])
        for _ in range(2):
            await game.play(self.rng)
        return game

    def new_player(self) -> str:
        """The address of a player not seen before (10.0.0.1, 10.0.0.2, …)."""
        self.players_seen += 1
        return str(ipaddress.IPv4Address("10.0.0.0") + self.players_seen)

    async def set_up(self, count: int) -> None:
        """Create ``count`` games, then open their streams, a bounded number at a time."""
        slots = asyncio.Semaphore(OPENING)

        async def bounded(work: Any) -> Any:
            async with slots:
                try:
                    return await work
                except (LoadError, OSError, TimeoutError) as exc:
                    self.error(f"setup: {describe(exc)}")
                    return False

        made = await asyncio.gather(*(bounded(self.new_game(i)) for i in range(count)))
        games = [game for game in made if game]
        opened = await asyncio.gather(*(bounded(game.open()) for game in games))
        # open() gives None, bounded() False for a failure
        self.games = [game for game, done in zip(games, opened, strict=True) if done is None]
        for game, done in zip(games, opened, strict=True):
            if done is not None:
                game.close()

    async def keep_playing(self, game: Game) -> None:
        """A move every ``MOVE_SECONDS`` or so; a finished game is followed by a new one."""
        rng = random.Random(self.rng.random())
        await asyncio.sleep(rng.uniform(0, MOVE_SECONDS))
        while not self.stopping:
            if game.over:
                game.close()
                fresh = await self.new_game(self.rng.randrange(len(self.pools)))
                await fresh.open()
                self.games[self.games.index(game)] = game = fresh
            try:
                move = await game.play(rng)
            except (LoadError, OSError, TimeoutError) as exc:
                if not self.stopping:
                    self.error(describe(exc))
                    await game.refresh()
            else:
                if self.measuring:
                    self.moves.append(move)
            await asyncio.sleep(rng.uniform(0.5, 1.5) * MOVE_SECONDS)

    async def sample_healthz(self) -> None:
        """``GET /healthz`` on a new connection every ``HEALTHZ_SECONDS``, round the servers."""
        for turn in range(10**9):
            await asyncio.sleep(HEALTHZ_SECONDS)
            if not self.measuring:
                continue
            address = self.addresses[turn % len(self.addresses)]
            started = time.perf_counter()
            try:
                connection: Connection = await connect(address, Connection)
                try:
                    raw = request_bytes("GET", "/healthz", address)
                    reply = await connection.request(raw)
                finally:
                    connection.close()
            except (LoadError, OSError, TimeoutError) as exc:
                self.error(f"healthz: {describe(exc)}")
                continue
            if reply.status != 200:
                self.error(f"healthz answered {reply.status}")
            self.healthz.append((reply.answered - started) * 1000)

    async def watch_loop(self) -> None:
        """How late this client's own event loop wakes: its share of any delay."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.05)
            if self.measuring:
                self.loop_lag.append((time.perf_counter() - asked - 0.05) * 1000)

    async def drain(self) -> None:
        """Wait until every measured move has reached both streams, or for DRAIN_SECONDS."""
        deadline = time.monotonic() + DRAIN_SECONDS
        waiting = self.moves
        while waiting and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            waiting = [move for move in waiting if move.delays() is None]

    def stop(self) -> None:
        self.stopping = True
        for task in list(self._tasks):
            task.cancel()
        for game in self.games:
            game.close()
        for pool in self.pools:
            pool.close()


def describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, LoadError):
        return str(exc)
    return type(exc).__name__


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


class CpuClock:
    """CPU seconds (user and system) used since it started, by a changing set of processes.

    Processes are found again at each reading; one that ended in between is lost,
    one that started counts whole.
    """

    def __init__(self, find: Callable[[], Iterable[psutil.Process]]) -> None:
        self.find = find
        self.start = self._read()

    def _read(self) -> dict[int, float]:
        used = {}
        for process in self.find():
            with contextlib.suppress(psutil.NoSuchProcess):
                times = process.cpu_times()
                used[process.pid] = times.user + times.system
        return used

    def seconds(self) -> float:
        return sum(now - self.start.get(pid, 0.0) for pid, now in self._read().items())


def family(pid: int) -> list[psutil.Process]:
    with contextlib.suppress(psutil.NoSuchProcess):
        parent = psutil.Process(pid)
        return [parent, *parent.children(recursive=True)]
    return []


def postgres_processes() -> Iterator[psutil.Process]:
    for process in psutil.process_iter(["name"]):
        if process.info["name"] == "postgres":
            yield process


def streams_per_worker(servers: list[Server]) -> str:
    """Established connections held by each gunicorn worker: how evenly they share."""
    counts = []
    for server in servers:
        assert server.process is not None
        for worker in psutil.Process(server.process.pid).children():
            with contextlib.suppress(psutil.NoSuchProcess):
                held = worker.net_connections("tcp")
                counts.append(sum(c.status == psutil.CONN_ESTABLISHED for c in held))
    return "/".join(map(str, counts))


@dataclass
class Result:
    games: int
    streams: int
    moves: int
    seconds: float
    from_send: list[float]
    from_answer: list[float]
    healthz: list[float]
    loop_lag: list[float]
    errors: Counter[str]
    cpu: dict[str, float]
    setup_seconds: float
    spread: str
    idle: float  # server CPU with the streams open and no moves
    logged: Counter[str] = field(default_factory=Counter)  # exceptions in the servers' logs

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def met(self) -> bool:
        return (
            percentile(self.from_send, 0.95) < GOAL_STREAM_P95_MS
            and percentile(self.healthz, 0.95) < GOAL_HEALTHZ_P95_MS
            and not self.error_count
            and self.moves > 0
        )


async def measure(
    servers: list[Server],
    site: list[int],
    games: int,
    seconds: float,
    clock: tuple[int, int] | None = None,
) -> Result:
    """Set up ``games``, then measure them for ``seconds``; ``site``: the server side's pids."""
    run = Run(servers, seed=games, clock=clock)
    started = time.monotonic()
    await run.set_up(games)
    setup_seconds = time.monotonic() - started
    open_streams = sum(
        stream is not None and not stream.lost.done() for g in run.games for stream in g.streams
    )
    spread = streams_per_worker(servers)
    print(
        f"  {len(run.games):,} games set up, {open_streams:,} streams open "
        f"in {setup_seconds:.0f} s (connections per worker: {spread})",
        flush=True,
    )
    # The streams alone, before any move: what holding them open costs the server.
    on_site = CpuClock(lambda: [p for pid in site for p in family(pid)])
    await asyncio.sleep(QUIET_SECONDS)
    idle = on_site.seconds() / QUIET_SECONDS
    for game in run.games:
        run.spawn(run.keep_playing(game))
    run.spawn(run.sample_healthz())
    run.spawn(run.watch_loop())
    clocks = {
        "server": CpuClock(lambda: [p for pid in site for p in family(pid)]),
        "client": CpuClock(lambda: [psutil.Process()]),
        "postgres": CpuClock(postgres_processes),
    }
    run.measuring = True
    measured = time.monotonic()
    await asyncio.sleep(seconds)
    run.measuring = False
    elapsed = time.monotonic() - measured
    cpu = {name: clock.seconds() / elapsed for name, clock in clocks.items()}
    await run.drain()
    delays = [move.delays() for move in run.moves]
    missing = sum(d is None for d in delays)
    if missing:
        run.errors["move's event missing"] += missing
    found = [d for d in delays if d is not None]
    run.stop()
    await asyncio.sleep(0.5)  # let the closed sockets go
    return Result(
        games=len(run.games),
        streams=open_streams,
        moves=len(run.moves),
        seconds=elapsed,
        from_send=[d[0] for d in found],
        from_answer=[d[1] for d in found],
        healthz=run.healthz,
        loop_lag=run.loop_lag,
        errors=run.errors,
        cpu=cpu,
        setup_seconds=setup_seconds,
        spread=spread,
        idle=idle,
    )


EXCEPTION = re.compile(r"^([\w.]+(?:Error|Exception)): (.{0,100})", re.MULTILINE)


def logged_exceptions(logs: Iterable[Path]) -> Counter[str]:
    """The exceptions the servers logged (a 500's cause is there, not in its answer)."""
    return Counter(
        f"{kind}: {message}" for log in logs for kind, message in EXCEPTION.findall(log.read_text())
    )


def raise_file_limit() -> None:
    """As many open files as allowed: a stream is a socket on each side; the servers inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def run_one(args: argparse.Namespace, games: int) -> Result:
    with tempfile.TemporaryDirectory() as tmp, scratch_database(args.database_url) as url:
        # Behind a proxy, as the site is served: each player's forwarded address counts.
        env = site_env(
            Path(tmp),
            url,
            DJANGO_BEHIND_PROXY="1",
            GUNICORN_WORKER_CONNECTIONS=str(args.connections),
        )
        prepare(env)
        servers = [Server(env, workers=args.workers) for _ in range(args.servers)]
        worker = Worker(env)
        try:
            for server in servers:
                server.start()
            worker.start()
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                site = [p.pid for p in (*(s.process for s in servers), worker.process) if p]
                result = runner.run(measure(servers, site, games, args.seconds, args.clock))
            result.logged = logged_exceptions([s.log for s in servers if s.log])
            return result
        finally:
            for server in servers:
                server.stop()
            worker.stop()


def ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def triple(values: list[float]) -> str:
    """p50/p95/max."""
    top = max(values) if values else math.nan
    return "/".join(ms(x) for x in (percentile(values, 0.5), percentile(values, 0.95), top))


def report(results: list[Result], args: argparse.Namespace) -> None:
    database = "PostgreSQL" if args.database_url else "SQLite"
    workers = args.workers or f"{os.cpu_count() or 1}+1"
    print(
        f"\n{database}, {args.servers} server(s) x {workers} workers "
        f"(of {args.connections:,} connections each), "
        f"{args.seconds:.0f} s measured, a move per game every ~{MOVE_SECONDS:.0f} s"
        + (f", live games with a {clock_text(args.clock)} clock" if args.clock else "")
        + "; "
        f"times in ms, CPU in cores (of {os.cpu_count()})"
    )
    print(
        f"{'games':>6} {'streams':>7} {'moves':>6} {'mv/s':>5} | "
        f"{'send→both p50/p95/max':>22} | {'answer→both p50/p95/max':>23} | "
        f"{'healthz p50/p95/max':>19} | {'errors':>6} | "
        f"{'idle':>5} {'server':>6} {'client':>6} {'pg':>5} | {'lag p95':>7} | goal"
    )
    for r in results:
        postgres = f"{r.cpu['postgres']:.2f}" if args.database_url else "-"
        print(
            f"{r.games:6,} {r.streams:7,} {r.moves:6,} {r.moves / r.seconds:5.0f} | "
            f"{triple(r.from_send):>22} | {triple(r.from_answer):>23} | "
            f"{triple(r.healthz):>19} | {r.error_count:6,} | "
            f"{r.idle:5.2f} {r.cpu['server']:6.2f} {r.cpu['client']:6.2f} "
            f"{postgres:>5} | "
            f"{ms(percentile(r.loop_lag, 0.95)):>7} | {'met' if r.met() else 'not met'}"
        )
    for r in results:
        for kind, count in r.errors.most_common():
            print(f"  {r.games:,} games: {count:,}x {kind}")
        for line, count in r.logged.most_common(5):
            print(f"  {r.games:,} games: the server logged {count:,}x {line}")
    for r in results:
        if r.moves:
            per_move = {k: v / (r.moves / r.seconds) * 1000 for k, v in r.cpu.items()}
            print(
                f"  {r.games:,} games: CPU ms per move: server {per_move['server']:.1f}, "
                f"client {per_move['client']:.1f}"
                + (f", postgres {per_move['postgres']:.1f}" if args.database_url else "")
                + f"; set-up {r.setup_seconds:.0f} s"
            )
    largest = max((r.games for r in results if r.met()), default=0)
    # Of the sizes measured so far, not those still to come.
    most = max(r.games for r in results)
    print(
        f"goal (send→both streams p95 < {GOAL_STREAM_P95_MS:.0f} ms, /healthz p95 < "
        f"{GOAL_HEALTHZ_P95_MS:.0f} ms, no errors): "
        + (f"met up to {largest:,} games" if largest else "not met at any size")
        + (f"; {most:,} games: {'met' if largest == most else 'not met'}" if largest else "")
    )


def clock_terms(text: str) -> tuple[int, int]:
    """A clock as the lobby writes it, minutes+seconds added a move ("5+3"), as
    initial and increment seconds."""
    minutes, _, increment = text.partition("+")
    try:
        return round(float(minutes) * 60), int(increment or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a clock: give minutes+seconds, as 5+3"
        ) from None


def clock_text(clock: tuple[int, int]) -> str:
    return f"{clock[0] / 60:g}+{clock[1]}"


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if "--lobby" in argv:
        from bench import lobby

        lobby.main([arg for arg in argv if arg != "--lobby"])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lobby",
        action="store_true",
        help="the lobby's scenario instead: python -m bench.lobby --help for its options",
    )
    parser.add_argument(
        "--clock",
        type=clock_terms,
        default=None,
        help="live games with this clock, minutes+seconds (5+3), made from lobby challenges",
    )
    parser.add_argument(
        "--games", type=int, nargs="+", default=[500, 1000, 2000, 3000], help="live friend games"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each measurement")
    parser.add_argument("--database-url", default=None, help="PostgreSQL; default: SQLite")
    parser.add_argument("--servers", type=int, default=1, help="gunicorns sharing the database")
    parser.add_argument("--workers", type=int, default=None, help="default: gunicorn.conf.py's")
    # gunicorn.conf.py's 1,000 connections a worker hold 1,500 games' streams over three
    # workers: the operator of a bigger site raises it, and the open-file limit with it.
    parser.add_argument(
        "--connections",
        type=int,
        default=5000,
        help="GUNICORN_WORKER_CONNECTIONS, each worker's connections at most",
    )
    args = parser.parse_args(argv)
    raise_file_limit()
    results = []
    for games in args.games:
        print(f"{games:,} games:", flush=True)
        results.append(run_one(args, games))
        report(results[-1:], args)
    if len(results) > 1:
        report(results, args)


if __name__ == "__main__":
    main()
