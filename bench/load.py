"""Load test: many live friend games, two polling browsers each, moves, for a fixed time.

Serves the site with gunicorn on loopback (production settings; SQLite in a temp
dir, or a scratch PostgreSQL database beside ``--database-url``, dropped after),
then:

1. sets up ``--games`` friend games over HTTP only (seven requests a game), as two
   people would: the creator's browser opens ``/``, posts the new-game form
   (mode=friend, color=dark) and opens the game page, which shows the invite link;
   the friend's browser opens that link, joins (``POST /g/<id>/join``) and opens
   the game page; the creator's page sees the join by a poll. Each browser has its
   own cookies (CSRF token, signed session holding its seat). The client
   processes set up their own games, several at a time;
2. for ``--seconds``, runs two browsers per game. Each polls
   ``GET /g/<id>/poll/<revision>?stone=stone`` by htmx every ``--poll-interval``
   seconds from a random phase (timers drift ±5%), following the revision of the
   last partial it got. Like htmx, a tick that comes while a poll is in flight is
   sent when that poll is answered, a swapped-in partial starts a new timer, and a
   finished board stops polling. The player to move waits until their page shows
   the opponent's move, thinks, and posts a random legal move (``POST
   /g/<id>/move`` with ``move`` and ``ply``), so each game sees about one move per
   ``--move-every`` seconds. A client-side ``Position`` per game gives the legal
   moves and the ply (the server plays automatic passes; so does the client). A
   finished game is followed by its rematch, asked for by both players;
3. reports, per request kind (poll-204, poll-200, move, other: rematches, page
   loads) and overall: count, requests/s, latency percentiles and errors (any
   other status, a move refused, a ply the client did not expect, a connection
   error or a 10 s timeout), the latency over time, whether the goal (p95 under
   100 ms for polls, moves and overall, no errors) was met, and what limited the
   result: CPU used by the server, the client, PostgreSQL and other processes;
   how late the client fired its polls (a Python client on the same small machine
   can be the bottleneck; ``--clients`` splits the games over several processes);
   the kernel's accept-queue overflows; and errors in the server's log.

Every request goes to 127.0.0.1; every loop is bounded in count and in time.
Run ``python -m bench.load`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from bench.servers import Server, prepare, scratch_database, site_env
from bench.web import Client, Response, cookies_of
from game.engine import PASS, Color, Position, Rules

HOST = "127.0.0.1"
GOAL_P95 = 0.100  # seconds
REQUEST_TIMEOUT = 10.0  # seconds; a request still unanswered by then is an error
SETUP_CONCURRENCY = 8  # games being set up at once, per client process
SETUP_TIMEOUT = 300.0  # seconds for all client processes to set up their games
LATE = 0.010  # seconds: a client firing later than this (p95) distorts the figures
MAX_SAMPLES = 12  # error examples kept per client process

GAME_TAG = re.compile(rb'<div id="game"[^>]*>')
REVISION = re.compile(rb'data-revision="(\d+)"')
PLY = re.compile(rb'data-ply="(\d+)"')
INVITE = re.compile(rb'data-invite-url="([^"]+)"')
ERROR_TEXT = re.compile(rb"data-error>([^<]*)<")

clock = time.monotonic  # CLOCK_MONOTONIC: one time base for all processes of the machine


class SetupError(Exception):
    """A game could not be set up: the step and the answer that went wrong."""


@dataclass(frozen=True)
class GameState:
    """What a game partial (or page) shows: the marks of its ``<div id="game">``."""

    revision: int
    ply: int
    live: bool  # the board carries the polling trigger: the game is not over


def game_state(body: bytes) -> GameState | None:
    """Read the revision, ply and liveness of the game in a page or partial, if any."""
    tag = GAME_TAG.search(body)
    if tag is None:
        return None
    revision, ply = REVISION.search(tag[0]), PLY.search(tag[0])
    if revision is None or ply is None:
        return None
    return GameState(int(revision[1]), int(ply[1]), b"hx-get=" in tag[0])


class TimedClient(Client):
    """bench.web's client, each request bounded by ``REQUEST_TIMEOUT``."""

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Response:
        async with asyncio.timeout(REQUEST_TIMEOUT):
            return await super().request(method, path, headers, body)


@dataclass
class Recorder:
    """What one client process saw: latencies by kind, errors, and its own lateness."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)  # poll fired minus poll scheduled
    loop_lag: list[float] = field(default_factory=list)  # oversleep of a 50 ms heartbeat
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    ticks: int = 0  # poll timer ticks
    queued: int = 0  # polls htmx queued: a tick came while the previous one was in flight
    moves: int = 0
    rematches: int = 0

    def add(self, kind: str, started: float, error: str = "") -> None:
        """Count one request of ``kind`` sent at ``started``; ``error`` says what was wrong."""
        seconds = clock() - started
        self.latencies.setdefault(kind, []).append(seconds)
        self.timeline.append((started, seconds))
        if error:
            self.errors[kind] += 1
            if len(self.samples) < MAX_SAMPLES:
                self.samples.append(f"{kind}: {error}")


class Browser:
    """One browser: its cookies, the game it shows and the revision its page is at."""

    def __init__(self, client: TimedClient, recorder: Recorder) -> None:
        self.client, self.recorder = client, recorder
        self.cookies: dict[str, str] = {}
        self.game_id = ""
        self.revision = 0
        self.live = False
        self.swapped: float | None = None  # when the page last swapped in a new #game
        self.changed = asyncio.Event()

    async def send(
        self, method: str, path: str, form: dict[str, str] | None = None, *, htmx: bool = False
    ) -> Response:
        """Send a request with this browser's cookies (and CSRF token on a POST)."""
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = b""
        if method == "POST":
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode(form or {}).encode()
        response = await self.client.request(method, path, headers, body)
        self.cookies |= cookies_of(response[1])
        return response

    async def timed(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        *,
        htmx: bool = False,
        kind: Callable[[int], str] | str,
        check: Callable[[Response], str] = lambda response: "",
    ) -> Response | None:
        """Send a request and record it; ``check`` returns what is wrong with the answer."""
        started = clock()
        try:
            response = await self.send(method, path, form, htmx=htmx)
        except (OSError, TimeoutError, ValueError, IndexError, asyncio.IncompleteReadError) as exc:
            name = kind if isinstance(kind, str) else kind(0)
            self.recorder.add(name, started, f"{method} {path}: {exc!r}")
            return None
        name = kind if isinstance(kind, str) else kind(response[0])
        problem = check(response)
        self.recorder.add(name, started, f"{method} {path}: {problem}" if problem else "")
        return None if problem else response

    def show(self, state: GameState, game_id: str) -> None:
        """Take a partial of ``game_id`` into the page, unless it is older than the page."""
        if game_id == self.game_id and state.revision >= self.revision:
            self.revision, self.live = state.revision, state.live
            self.swapped = clock()
            self.changed.set()

    def load(self, state: GameState, game_id: str) -> None:
        """A new page: the game it shows replaces whatever the browser showed before."""
        self.game_id, self.revision, self.live = game_id, state.revision, state.live
        self.swapped = clock()
        self.changed.set()

    async def wait_until(self, predicate: Callable[[], bool], deadline: float) -> bool:
        """Wait until ``predicate()`` holds for this browser's page; False at the deadline."""
        while not predicate():
            self.changed.clear()
            remaining = deadline - clock()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return False
        return True


@dataclass
class LiveGame:
    """A game as its two players know it: who holds which colour, and the position."""

    game_id: str
    players: dict[str, Browser]  # by colour
    position: Position
    revision: int  # the game's revision after its last move, as its mover saw it


def _status_is(*expected: int) -> Callable[[Response], str]:
    def check(response: Response) -> str:
        status, _, body = response
        return "" if status in expected else f"status {status} {body[:200]!r}"

    return check


async def _open_page(browser: Browser, path: str, kind: str = "setup") -> bytes:
    """GET a game page and show it in the browser; return its body."""
    response = await browser.timed("GET", path, kind=kind, check=_status_is(200))
    state = game_state(response[2]) if response else None
    if response is None or state is None:
        raise SetupError(f"GET {path}: no game page")
    browser.load(state, path.strip("/").split("/")[-1])
    return response[2]


async def set_up_game(client: TimedClient, recorder: Recorder) -> LiveGame:
    """Start a friend game as two browsers would; raise ``SetupError`` if a step fails."""
    creator, friend = Browser(client, recorder), Browser(client, recorder)
    if not await creator.timed("GET", "/", kind="setup", check=_status_is(200)):
        raise SetupError("GET /")
    form = {"mode": "friend", "color": "dark", "special_stones": "on", "scoring": "standard"}
    created = await creator.timed("POST", "/", form, kind="setup", check=_status_is(303))
    if created is None:
        raise SetupError("POST / (new friend game)")
    page = urlsplit(created[1]["location"]).path
    invite = INVITE.search(await _open_page(creator, page))
    if invite is None:
        raise SetupError(f"GET {page}: no data-invite-url")
    invite_path = urlsplit(invite[1].decode()).path  # http://host/g/<id>/invite/<code>/
    game_id, code = invite_path.strip("/").split("/")[1::2]
    if not await friend.timed("GET", invite_path, kind="setup", check=_status_is(200)):
        raise SetupError(f"GET {invite_path}")
    joined = await friend.timed(
        "POST", f"/g/{game_id}/join", {"invite": code}, kind="setup", check=_status_is(303)
    )
    if joined is None:
        raise SetupError(f"POST /g/{game_id}/join")
    await _open_page(friend, urlsplit(joined[1]["location"]).path)
    # The creator's page learns of the join by its next poll, as it would have long
    # before a load phase starts (else a thousand pages catch up in its first second).
    path = f"/g/{game_id}/poll/{creator.revision}?stone=stone"
    seen = await creator.timed("GET", path, htmx=True, kind="setup", check=_status_is(200))
    state = game_state(seen[2]) if seen else None
    if state is None:
        raise SetupError(f"GET {path}: no game partial")
    creator.show(state, game_id)
    players = {Color.DARK.value: creator, Color.LIGHT.value: friend}
    return LiveGame(game_id, players, Position.start(Rules()), friend.revision)


# The load phase ---------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The load phase's settings, shared by every client process."""

    start: float
    deadline: float
    poll_interval: float
    move_every: float


def _poll_kind(status: int) -> str:
    return f"poll-{status}" if status else "poll-failed"


def _poll_check(response: Response) -> str:
    status, _, body = response
    if status == 204:
        return ""
    if status != 200:
        return f"status {status} {body[:200]!r}"
    return "" if game_state(body) else "200 without the game partial"


async def poll_loop(browser: Browser, plan: Plan, rng: random.Random) -> None:
    """Poll as htmx's ``every`` trigger does on the live ``#game`` element.

    A timer ticks every interval from when the element was swapped in (a 200 answer
    or a move swaps in a new one, with a new timer). A tick that comes while a poll
    is in flight is queued (htmx's default ``queue:last``) and sent on the answer,
    unless that answer swapped the element. A finished board has no timer.
    """
    recorder = browser.recorder
    interval = plan.poll_interval
    scheduled = plan.start + rng.uniform(0, interval)
    queued = False
    bound = 4 * int((plan.deadline - plan.start) / interval) + 10
    for _ in range(bound):
        if browser.swapped is not None:  # a new element: its own timer
            # A swap during the sleep is noticed only after it: the tick may be due
            # already, and that delay is the model's, not the client's lateness.
            scheduled = max(clock(), browser.swapped + interval * rng.uniform(0.95, 1.05))
            browser.swapped, queued = None, False
        if queued:
            queued = False
            if clock() >= plan.deadline:
                return
        else:
            if scheduled >= plan.deadline:
                return
            await asyncio.sleep(max(0.0, scheduled - clock()))
            if browser.swapped is not None:  # swapped meanwhile (by this player's move)
                continue
            recorder.ticks += 1
            recorder.lateness.append(clock() - scheduled)
            scheduled += interval * rng.uniform(0.95, 1.05)
        if not browser.live:
            continue
        game_id = browser.game_id
        path = f"/g/{game_id}/poll/{browser.revision}?stone=stone"
        response = await browser.timed("GET", path, htmx=True, kind=_poll_kind, check=_poll_check)
        if response is not None and response[0] == 200:
            browser.show(game_state(response[2]), game_id)
        if browser.swapped is None and clock() > scheduled:  # ticks came while in flight
            missed = int((clock() - scheduled) / interval) + 1
            recorder.ticks += missed
            recorder.queued += 1
            scheduled += missed * interval
            queued = True


async def resync(game: LiveGame, browser: Browser) -> None:
    """After a refused or lost move, read the game's record back from the public API."""
    response = await browser.timed(
        "GET", f"/api/games/{game.game_id}", kind="other", check=_status_is(200)
    )
    if response is not None:
        game.position = Position.replay(Rules(), json.loads(response[2])["record"])


async def play_move(game: LiveGame, plan: Plan, rng: random.Random, first: bool) -> bool:
    """The player to move sees the opponent's move, thinks, and posts a random legal move.

    Returns False once the deadline comes first.
    """
    player = game.players[game.position.turn.value]
    # A player answers only what their page shows: the opponent's move, by a poll.
    if not await player.wait_until(lambda: player.revision >= game.revision, plan.deadline):
        return False
    if first:  # the games started together: spread their first moves
        think = rng.uniform(0, plan.move_every)
    else:  # the poll took about half an interval to show the opponent's move
        think = max(0.0, plan.move_every * rng.uniform(0.5, 1.5) - plan.poll_interval / 2)
    if clock() + think >= plan.deadline:
        return False
    await asyncio.sleep(think)
    move = rng.choice([m for m in game.position.legal_moves() if m != PASS])
    expected = game.position.play(move)
    while expected.must_pass:  # the server plays the automatic pass in the same request
        expected = expected.play(PASS)
    ply = len(game.position.record)
    path = f"/g/{game.game_id}/move"

    def check(response: Response) -> str:
        status, _, body = response
        if status != 200:
            return f"move {move} at ply {ply}: status {status} {body[:200]!r}"
        error = ERROR_TEXT.search(body)
        if error:
            return f"move {move} at ply {ply} refused: {error[1].decode().strip()!r}"
        state = game_state(body)
        if state is None:
            return f"move {move} at ply {ply}: 200 without the game partial"
        if state.ply != len(expected.record):
            want = len(expected.record)
            return f"move {move} at ply {ply}: server now at ply {state.ply}, client at {want}"
        return ""

    form = {"move": str(move), "ply": str(ply)}
    response = await player.timed("POST", path, form, htmx=True, kind="move", check=check)
    if response is None:
        await resync(game, player)
        return True
    player.recorder.moves += 1
    state = game_state(response[2])
    game.position, game.revision = expected, state.revision
    player.show(state, game.game_id)
    return True


async def rematch(game: LiveGame, plan: Plan, rng: random.Random) -> bool:
    """Both players, once their pages show the end, ask for the rematch (colours swap)."""
    old = game.game_id
    # Whoever saw the end first (the last mover, from their move's answer) asks first.
    first, second = sorted(game.players.items(), key=lambda item: item[1].live)
    players: dict[str, Browser] = {}
    for color, browser in (first, second):
        if not await browser.wait_until(lambda b=browser: not b.live, plan.deadline):
            return False
        await asyncio.sleep(rng.uniform(0.5, 2.0))
        if clock() >= plan.deadline:
            return False
        answer = await browser.timed(
            "POST", f"/g/{old}/rematch", {}, kind="other", check=_status_is(303)
        )
        if answer is None:
            return False
        try:
            await _open_page(browser, urlsplit(answer[1]["location"]).path, kind="other")
        except SetupError:
            return False
        players[Color(color).opponent.value] = browser
    game.game_id = urlsplit(answer[1]["location"]).path.strip("/").split("/")[-1]
    game.players, game.position = players, Position.start(Rules())
    game.revision = max(b.revision for b in players.values())
    first[1].recorder.rematches += 1
    return True


async def play_loop(game: LiveGame, plan: Plan, rng: random.Random) -> None:
    """Play the game's moves until the deadline; a finished game gets its rematch."""
    bound = int((plan.deadline - plan.start) / max(plan.move_every / 2, 0.05)) + 10
    first = True
    for _ in range(bound):
        if game.position.is_over:
            if not await rematch(game, plan, rng):
                return
            first = True
            continue
        if not await play_move(game, plan, rng, first):
            return
        first = False


async def heartbeat(recorder: Recorder, deadline: float) -> None:
    """Measure how late the event loop wakes up: the client's own lag."""
    while (started := clock()) < deadline:
        await asyncio.sleep(0.05)
        recorder.loop_lag.append(clock() - started - 0.05)


# One client process ------------------------------------------------------------


async def client_main(conn: Connection, index: int, options: dict[str, Any], port: int) -> None:
    """Set up this process's games, report ready, wait for the start, run, send results."""
    games_count = len(range(index, options["games"], options["clients"]))
    rng = random.Random(f"{options['seed']}-{index}")
    client = TimedClient(HOST, port)
    setup = Recorder()
    started = clock()
    games: list[LiveGame] = []
    failures: list[str] = []
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one() -> None:
        async with gate:
            try:
                games.append(await set_up_game(client, setup))
            except SetupError as exc:
                failures.append(str(exc))

    await asyncio.gather(*(one() for _ in range(games_count)))
    loop = asyncio.get_running_loop()
    conn.send(
        {
            "games": len(games),
            "failures": failures[:MAX_SAMPLES],
            "failed": len(failures),
            "setup_seconds": clock() - started,
            "setup_requests": sum(len(v) for v in setup.latencies.values()),
            "setup_samples": setup.samples,
        }
    )
    message = await loop.run_in_executor(None, conn.recv)
    if message is None:
        return
    plan = Plan(**message)
    recorder = Recorder()
    for game in games:
        for browser in game.players.values():
            browser.recorder, browser.swapped = recorder, None
    await asyncio.sleep(max(0.0, plan.start - clock()))
    tasks = [heartbeat(recorder, plan.deadline)]
    for game in games:
        tasks.append(play_loop(game, plan, random.Random(rng.random())))
        tasks += [poll_loop(b, plan, random.Random(rng.random())) for b in game.players.values()]
    await asyncio.gather(*tasks)
    conn.send(recorder)


def client_process(conn: Connection, index: int, options: dict[str, Any], port: int) -> None:
    """Entry point of a client process: many open sockets need a higher file limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        asyncio.run(client_main(conn, index, options, port))
    finally:
        conn.close()


# The conductor: server, client processes, report -----------------------------


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def tcp_counters() -> Counter[str]:
    """The kernel's TCP counters that tell of a full accept queue (/proc/net/netstat)."""
    wanted = {"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPTimeouts"}
    found: Counter[str] = Counter()
    with contextlib.suppress(OSError), open("/proc/net/netstat") as netstat:
        lines = netstat.read().splitlines()
        for names, values in zip(lines[::2], lines[1::2], strict=False):
            for name, value in zip(names.split()[1:], values.split()[1:], strict=False):
                if name in wanted:
                    found[name] = int(value)
    return found


@dataclass(frozen=True)
class Proc:
    """A process's CPU ticks so far, with what tells whose it is."""

    ticks: int  # its own user + system time
    system: int  # of which in the kernel (on loopback: much of the TCP work of both ends)
    group: int
    command: str


def processes() -> dict[int, Proc]:
    """Every process's CPU ticks, from /proc (processes that end meanwhile are skipped)."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        user, system = int(fields[11]), int(fields[12])
        found[int(entry.name)] = Proc(user + system, system, int(fields[2]), command)
    return found


@dataclass
class Snapshot:
    """The machine's and every process's CPU time at one moment."""

    at: float
    machine: tuple[int, int]
    procs: dict[int, Proc]
    tcp: Counter[str]

    @classmethod
    def take(cls) -> Snapshot:
        return cls(clock(), machine_ticks(), processes(), tcp_counters())

    def follow(self) -> None:
        """Look at the processes again: one that ends later keeps what it used by now."""
        self.procs |= processes()


# What a gunicorn sync worker is doing, by the system call it waits in (x86-64 numbers).
WORKER_STATES = {
    "running": "on the CPU or waiting for it",
    "7": "poll(): a client's FIN (gunicorn lingers after each answer until the client "
    "closes) or, on PostgreSQL, the database's answer",
    "45": "recvfrom(): a client's request bytes, or PostgreSQL's answer",
    "0": "read()",
    "23": "select(): idle, waiting for a connection",
    "270": "select(): idle, waiting for a connection",
    "35": "sleep: SQLite's busy handler (the write lock is taken)",
    "230": "sleep: SQLite's busy handler (the write lock is taken)",
    "202": "futex()",
    "74": "fsync()",
    "75": "fsync()",
}


def worker_states(group: int, arbiter: int) -> list[str]:
    """What each of the server's workers is doing now (Linux x86-64; else nothing)."""
    if platform.machine() != "x86_64":
        return []
    states = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != group or int(entry.name) == arbiter:
                continue
            call = (entry / "syscall").read_text().split(" ", 1)[0].strip()
        except (OSError, ValueError):
            continue
        states.append("running" if fields[0] == "R" or call == "running" else call)
    return states


def describe_states(samples: Counter[str]) -> list[str]:
    """The share of samples per worker state, largest first."""
    total = sum(samples.values())
    merged: Counter[str] = Counter()
    for call, count in samples.items():
        merged[WORKER_STATES.get(call, f"system call {call}")] += count
    return [
        f"  {100 * count / total:5.1f}%  {what}" for what, count in merged.most_common() if total
    ]


def timeline(
    entries: list[tuple[float, float]],
    busy: list[tuple[float, float]],
    plan: Plan,
    buckets: int = 6,
) -> list[str]:
    """Requests/s, latency and machine CPU over successive slices of the load phase."""
    width = (plan.deadline - plan.start) / buckets

    def index(at: float) -> int:
        return min(buckets - 1, max(0, int((at - plan.start) / width)))

    slices: list[list[float]] = [[] for _ in range(buckets)]
    for started, seconds in entries:
        slices[index(started)].append(seconds)
    cores: list[list[float]] = [[] for _ in range(buckets)]
    for at, value in busy:
        cores[index(at - 0.5)].append(value)
    lines = ["over time (requests by when they were sent; machine CPU busy, mean and top second):"]
    for n, (values, used) in enumerate(zip(slices, cores, strict=True)):
        ordered = sorted(values)
        lines.append(
            f"  {n * width:3.0f}-{(n + 1) * width:3.0f} s  {len(values) / width:7,.0f} req/s  "
            f"p50 {percentile(ordered, 50):7.1f}  p95 {percentile(ordered, 95):7.1f}  "
            f"max {percentile(ordered, 100):7.1f} ms  CPU "
            f"{sum(used) / max(1, len(used)):.2f} (top {max(used, default=0.0):.2f}) cores"
        )
    return lines


def percentile(ordered: list[float], p: float) -> float:
    """The ``p``-th percentile of sorted values, in milliseconds (0 when there are none)."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


@dataclass
class Row:
    """One line of the report: a request kind's figures."""

    name: str
    latencies: list[float]
    errors: int

    def line(self, seconds: float) -> str:
        ordered = sorted(self.latencies)
        figures = "  ".join(
            f"{label} {percentile(ordered, p):7.1f}"
            for label, p in (("p50", 50), ("p95", 95), ("p99", 99))
        )
        worst = ordered[-1] * 1000 if ordered else 0.0
        return (
            f"  {self.name:12} {len(ordered):8,}  {len(ordered) / seconds:8.1f}/s  "
            f"{figures}  max {worst:7.1f} ms  errors {self.errors}"
        )

    @property
    def p95(self) -> float:
        return percentile(sorted(self.latencies), 95) / 1000


def merge(recorders: list[Recorder]) -> Recorder:
    """All client processes' figures as one."""
    total = Recorder()
    for r in recorders:
        for kind, values in r.latencies.items():
            total.latencies.setdefault(kind, []).extend(values)
        total.errors += r.errors
        total.samples += r.samples
        total.lateness += r.lateness
        total.loop_lag += r.loop_lag
        total.timeline += r.timeline
        total.ticks += r.ticks
        total.queued += r.queued
        total.moves += r.moves
        total.rematches += r.rematches
    return total


def server_log_problems(log: str) -> list[str]:
    """Lines of the server's log that tell of errors, and the first traceback."""
    lines = log.splitlines()
    marks = ("Traceback", "Internal Server Error", "WORKER TIMEOUT", "[ERROR]", "[CRITICAL]")
    counts = Counter(mark for line in lines for mark in marks if mark in line)
    report = [f"  {count} × {mark!r}" for mark, count in counts.items()]
    for i, line in enumerate(lines):
        if "Traceback" in line:
            report += ["  first traceback:", *(f"    {x}" for x in lines[max(0, i - 2) : i + 30])]
            break
    return report


def run(args: argparse.Namespace, server: Server, database: str | None) -> list[str]:
    """Set up the games in the client processes, run the load phase, return the report."""
    out: list[str] = []
    context = multiprocessing.get_context("spawn")
    options = {
        "games": args.games,
        "clients": args.clients,
        "seed": args.seed,
    }
    conns, children = [], []
    for index in range(args.clients):
        parent, child = context.Pipe()
        process = context.Process(
            target=client_process, args=(child, index, options, server.port), daemon=True
        )
        process.start()
        child.close()
        conns.append(parent)
        children.append(process)
    try:
        return _conduct(args, server, conns, [p.pid for p in children], database, out)
    finally:
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)  # a process still waiting for the start: stop
        for process in children:
            process.join(timeout=REQUEST_TIMEOUT + 5)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)


def _receive(conn: Connection, timeout: float) -> Any:
    if not conn.poll(max(0.0, timeout)):
        raise TimeoutError("a client process did not answer in time")
    return conn.recv()


def _conduct(
    args: argparse.Namespace,
    server: Server,
    conns: list[Connection],
    client_pids: list[int],
    database: str | None,
    out: list[str],
) -> list[str]:
    began = clock()
    ready = [_receive(conn, SETUP_TIMEOUT - (clock() - began)) for conn in conns]
    games = sum(r["games"] for r in ready)
    out.append(
        f"setup: {games} friend games over HTTP (two browsers each: create, invite, join, see) "
        f"in {clock() - began:.1f} s, {sum(r['setup_requests'] for r in ready):,} requests, "
        f"{sum(r['failed'] for r in ready)} failed"
    )
    for r in ready:
        out += [f"  setup failure: {f}" for f in r["failures"] + r["setup_samples"]]
    start = clock() + 1.0
    plan = Plan(start, start + args.seconds, args.poll_interval, args.move_every)
    for conn in conns:
        conn.send(vars(plan))
    time.sleep(max(0.0, plan.start - clock()))
    before = Snapshot.take()
    after = Snapshot.take()
    busy: list[tuple[float, float]] = []  # (when, cores busy over the second before)
    cores = os.cpu_count() or 1
    group = os.getpgid(server.process.pid) if server.process else -1
    arbiter = server.process.pid if server.process else -1
    states: Counter[str] = Counter()
    while plan.deadline > clock():  # each second: short-lived processes count too
        ticks = machine_ticks()
        for _ in range(10):  # what the workers wait in, ten times a second
            time.sleep(max(0.0, min(0.1, plan.deadline - clock())))
            states.update(worker_states(group, arbiter))
        now = machine_ticks()
        busy.append((clock(), (now[0] - ticks[0]) / max(1, now[1] - ticks[1]) * cores))
        after.follow()
    after = Snapshot(clock(), machine_ticks(), after.procs | processes(), tcp_counters())
    results = [_receive(conn, REQUEST_TIMEOUT + 30) for conn in conns]
    total = merge(results)
    seconds = args.seconds

    polls = sorted(
        (k for k in total.latencies if k.startswith("poll-")),
        key=lambda k: (k not in ("poll-204", "poll-200"), k),
    )
    poll_all = Row(
        "poll (all)",
        [x for k in polls for x in total.latencies[k]],
        sum(total.errors[k] for k in polls),
    )
    kinds = [Row(k, total.latencies.get(k, []), total.errors[k]) for k in [*polls, "move", "other"]]
    everything = Row(
        "overall", [x for v in total.latencies.values() for x in v], sum(total.errors.values())
    )
    browsers = 2 * games
    out.append(
        f"load: {games} games, {browsers} browsers polling every {args.poll_interval:g} s "
        f"(offered {browsers / args.poll_interval:,.0f} polls/s), a move per game every "
        f"~{args.move_every:g} s (offered ~{games / args.move_every:,.1f} moves/s), "
        f"{seconds:g} s, {len(results)} client process(es)"
    )
    out.append(f"  {'kind':12} {'count':>8}  {'rate':>10}  latency in ms")
    out += [row.line(seconds) for row in [poll_all, *kinds, everything]]
    queued = 100 * total.queued / max(1, total.ticks)
    out.append(
        f"  moves played {total.moves:,} ({total.moves / seconds:.1f}/s), rematches "
        f"{total.rematches}; polls queued behind one in flight (htmx sends it on the answer): "
        f"{total.queued:,} of {total.ticks:,} ticks ({queued:.1f}%)"
    )
    out += [f"  error: {sample}" for sample in total.samples]
    out += timeline(total.timeline, busy, plan)
    tcp = after.tcp - before.tcp
    out.append(
        "kernel TCP during the load: "
        + (", ".join(f"{name} {tcp[name]:,}" for name in sorted(tcp)) or "no drops, no retries")
        + " (ListenOverflows: connections refused by a full accept queue, retried by the client"
        " after 1 s, 3 s…)"
    )

    lateness, lag = sorted(total.lateness), sorted(total.loop_lag)
    out.append(
        f"client lateness (poll fired minus scheduled): p50 {percentile(lateness, 50):.1f}  "
        f"p95 {percentile(lateness, 95):.1f}  p99 {percentile(lateness, 99):.1f}  "
        f"max {percentile(lateness, 100):.1f} ms; event-loop lag p95 {percentile(lag, 95):.1f}  "
        f"max {percentile(lag, 100):.1f} ms"
    )
    cpu = Cpu.between(before, after, group, client_pids, database, len(everything.latencies))
    out.append(cpu.line())
    if states:
        out.append(
            f"gunicorn workers, {sum(states.values()):,} looks at what each was doing "
            "(10 a second):"
        )
        out += describe_states(states)

    move_row = next(row for row in kinds if row.name == "move")
    reasons = [f"{everything.errors} errors"] if everything.errors else []
    for row in (poll_all, move_row, everything):
        if row.latencies and row.p95 >= GOAL_P95:
            reasons.append(f"{row.name} p95 {row.p95 * 1000:.0f} ms")
    verdict = "NOT MET (" + ", ".join(reasons) + ")" if reasons else "MET"
    out.append(f"goal (p95 < 100 ms for polls, moves and overall; no errors): {verdict}")
    out += ["what limits it:", *diagnose(total, cpu, states, postgres=database is not None)]
    return out


@dataclass
class Cpu:
    """Where the machine's CPU went during the load phase, in cores busy."""

    cores: int
    machine: float
    server: float
    clients: list[float]
    database: float | None  # this run's PostgreSQL backends (None on SQLite)
    others: float  # processes that are not this run's: other people's work on the machine
    server_system: float  # the kernel's share of the server's and the client's CPU
    client_system: float
    requests: int
    seconds: float

    @classmethod
    def between(
        cls,
        before: Snapshot,
        after: Snapshot,
        server_group: int,
        client_pids: list[int],
        database: str | None,
        requests: int,
    ) -> Cpu:
        """Split the CPU time between two snapshots by whose processes used it."""
        seconds = after.at - before.at
        tick = os.sysconf("SC_CLK_TCK") * seconds
        cores = os.cpu_count() or 1
        busy, total = (a - b for a, b in zip(after.machine, before.machine, strict=True))
        server = db = others = server_system = client_system = 0
        clients = dict.fromkeys(client_pids, 0)
        for pid, proc in after.procs.items():
            old = before.procs.get(pid)
            used = proc.ticks - (old.ticks if old else 0)
            system = proc.system - (old.system if old else 0)
            if proc.group == server_group:
                server += used
                server_system += system
            elif pid in clients:
                clients[pid] = used
                client_system += system
            elif database and database in proc.command:
                db += used
            elif pid != os.getpid():
                others += used  # processes that ended meanwhile are missed: not reliable
        machine = busy / max(1, total) * cores
        mine = (server + sum(clients.values()) + db) / tick
        return cls(
            cores=cores,
            machine=machine,
            server=server / tick,
            clients=[c / tick for c in clients.values()],
            database=db / tick if database else None,
            others=min(others / tick, max(0.0, machine - mine)),
            server_system=server_system / tick,
            client_system=client_system / tick,
            requests=requests,
            seconds=seconds,
        )

    @property
    def client(self) -> float:
        return sum(self.clients)

    @property
    def kernel(self) -> float:
        """What no live process was charged for: the kernel's loopback TCP (softirq), and
        processes that ended during the run."""
        return max(
            0.0, self.machine - self.server - self.client - (self.database or 0) - self.others
        )

    @property
    def per_request(self) -> float:
        """Server CPU seconds per request answered."""
        return self.server * self.seconds / self.requests if self.requests else 0.0

    def line(self) -> str:
        database = "" if self.database is None else f" + PostgreSQL {self.database:.2f}"
        return (
            f"CPU (cores busy of {self.cores}): machine {self.machine:.2f} = server (gunicorn) "
            f"{self.server:.2f} (in the kernel {self.server_system:.2f}; "
            f"{self.per_request * 1e6:,.0f} µs/request) + client {self.client:.2f} "
            f"({' + '.join(f'{c:.2f}' for c in self.clients)}; in the kernel "
            f"{self.client_system:.2f}){database} + other processes {self.others:.2f} + "
            f"unaccounted {self.kernel:.2f}"
        )


def diagnose(total: Recorder, cpu: Cpu, states: Counter[str], *, postgres: bool) -> list[str]:
    """Plain words on what bounded the figures: the machine, the server, or the client."""
    notes = []
    looks = sum(states.values())
    waiting = (states["7"] + states["45"]) / looks if looks else 0.0
    if waiting > 0.15 and not postgres:
        notes.append(
            f"  THE SYNC WORKERS WAIT FOR THE CLIENT {100 * waiting:.0f}% of the time: gunicorn "
            "holds a sync worker after each answer until the client closes (and while its "
            "request arrives); this Python client, busy with thousands of sockets, closes "
            "late, so workers idle while requests queue. A proxy on the same host (nginx, "
            "Caddy, as the README deploys) closes at once; browsers straight on the Internet "
            "would hold a worker one network round trip per request"
        )
    elif waiting > 0.15:
        notes.append(
            f"  the sync workers waited in poll()/recvfrom() {100 * waiting:.0f}% of the time: "
            "for PostgreSQL's answers and for the client (gunicorn holds a sync worker after "
            "each answer until the client closes)"
        )
    late = percentile(sorted(total.lateness), 95) / 1000
    lag = percentile(sorted(total.loop_lag), 95) / 1000
    saturated = cpu.machine >= 0.9 * cpu.cores
    if saturated:
        notes.append(
            f"  CPU: the {cpu.cores} cores were saturated ({cpu.machine:.2f} busy); requests "
            "queue for CPU and the server got only what the rest left it"
        )
    else:
        notes.append(f"  CPU to spare: {cpu.machine:.2f} of {cpu.cores} cores busy")
    if late > LATE or lag > LATE:
        notes.append(
            f"  THE CLIENT IS A BOTTLENECK: polls fired {late * 1000:.0f} ms late (p95), event "
            f"loop lag p95 {lag * 1000:.0f} ms; latencies include the client's own delay"
        )
    else:
        notes.append(
            f"  the client kept its schedule (lateness p95 {late * 1000:.1f} ms): the "
            "latencies are the server's and the loopback's, not the client's"
        )
    if max(cpu.clients, default=0.0) > 0.85:
        notes.append(
            f"  a client process used {max(cpu.clients):.2f} of a core: its asyncio loop is at "
            "its limit; raise --clients"
        )
    if saturated and cpu.client > 0.1 * cpu.cores:
        notes.append(
            f"  THE CLIENT COMPETES FOR THE CPU: it took {cpu.client:.2f} cores, "
            f"{cpu.client_system:.2f} of them in the kernel (on loopback the sender's send() "
            "runs TCP for both ends); real browsers are elsewhere, so the server alone on "
            "these cores would serve more than measured here"
        )
    if cpu.others > 0.1:
        notes.append(
            f"  other people's processes used {cpu.others:.2f} cores meanwhile (tests run on "
            "this machine): figures are worse than on a quiet machine"
        )
    if cpu.per_request and cpu.server >= 0.5:  # below, fixed costs (timers) distort it
        notes.append(
            f"  the server spends {cpu.per_request * 1e6:,.0f} µs CPU per request (this mix): "
            f"{cpu.server:.2f} cores gave {cpu.requests / cpu.seconds:,.0f} requests/s; "
            f"{cpu.cores} cores of its own would give at most ~{cpu.cores / cpu.per_request:,.0f}/s"
        )
    if total.ticks and total.queued / total.ticks > 0.005:
        notes.append(
            f"  {100 * total.queued / total.ticks:.1f}% of poll ticks came while the previous "
            "poll was unanswered: the server fell behind the offered load"
        )
    return notes


def main(argv: list[str] | None = None) -> None:
    """Parse the options, serve the site, run the load, print the report."""

    class Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
        """Defaults in the options' help, the module's docstring as it is written."""

    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__, formatter_class=Formatter
    )
    parser.add_argument("--games", type=int, default=1000, help="live friend games")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the load phase")
    parser.add_argument(
        "--poll-interval", type=float, default=1.5, help="seconds between a browser's polls"
    )
    parser.add_argument(
        "--move-every", type=float, default=20.0, help="about one move per game every so many s"
    )
    parser.add_argument(
        "--workers", type=int, default=0, help="gunicorn workers (0: gunicorn.conf.py's default)"
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="PostgreSQL server (a scratch database is made "
        "beside it and dropped); default: SQLite in a temp dir",
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the moves and timings")
    args = parser.parse_args(argv)
    if min(args.games, args.clients) < 1 or min(args.seconds, args.poll_interval) <= 0:
        parser.error("--games, --clients, --seconds and --poll-interval must be positive")
    if args.move_every <= 0 or args.workers < 0:
        parser.error("--move-every must be positive and --workers not negative")
    args.clients = min(args.clients, args.games)

    with scratch_database(args.database_url) as url, tempfile.TemporaryDirectory() as tmp:
        env = site_env(Path(tmp), url)
        prepare(env)
        server = Server(env, workers=args.workers or None).start()
        database = urlsplit(url).path.lstrip("/") if url else None
        try:
            group = os.getpgid(server.process.pid)
            workers = sum(p.group == group for p in processes().values()) - 1  # less the arbiter
            print(
                f"site: gunicorn on {server.url}, {workers} sync workers "
                f"({'--workers' if args.workers else 'gunicorn.conf.py default'}), "
                f"{'PostgreSQL' if url else 'SQLite (WAL)'}",
                flush=True,
            )
            report = run(args, server, database)
        finally:
            server.stop()
        log = server.log.read_text(errors="replace") if server.log else ""
    print("\n".join(report))
    problems = server_log_problems(log)
    print("server log:", *(problems or ["nothing wrong"]), sep="\n" if problems else " ")


if __name__ == "__main__":
    main()
