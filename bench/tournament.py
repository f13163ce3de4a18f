"""Load test of an arena: many players, many standings pages open, games ending and
players paired again all the while.

It serves the site as ``bench.load`` does (``make run``'s gunicorn and worker,
production settings, SQLite in a temp dir or a scratch PostgreSQL beside
``--database-url``) and then:

- makes ``--players`` accounts, each with a personal API token (one ``manage.py
  shell`` on the site's database), and one more that makes an arena through the API
  (``POST /api/tournaments``, a 3+2 clock, long enough to outlast the run);
- each player (an address of its own, the trusted proxy's ``X-Forwarded-For``)
  opens its account's event stream (``GET /api/stream/events``), as a bot does, and
  joins (``POST /api/tournaments/<id>/join``); the arena starts;
- opens ``--pages`` standings pages' streams (``GET /tournaments/<id>/live``), each
  from an address of its own, a few hundred at a time;
- plays for ``--seconds``: each game, heard of as ``tournamentGameStart``, lasts a
  random ``--game-seconds`` (both sides' first moves made at once) and then one of
  its players resigns (``POST /api/games/<id>/resign``); half the times that one
  pauses first (``withdraw``) and comes back (``join``) after a rest as long as a
  game, so about two players in three play at any moment; the others are free at
  once;
- times each free player's wait, from the answer that freed them (the resignation,
  or their join) until their next game's ``tournamentGameStart`` arrives; and each
  game's end on every standings page: from just before the resignation is sent until
  the page's stream brings a ``standings`` event drawn after its answer (the
  event's ``drawn``, on the same machine's clock);
- counts errors: answers other than the expected status, streams that drop, and
  timeouts; reads the CPU time of the server, the client and PostgreSQL, as
  ``bench.lobby`` does.

Run ``python -m bench.tournament`` or ``python -m bench.load --tournament`` (``--help``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.client import TIMEOUT, LoadError, connect, request_bytes
from bench.ledger import EventReader
from bench.lobby import busy_seconds
from bench.measures import (
    OPENING,
    describe,
    measured_clocks,
    percentile,
    raise_file_limit,
    triple,
)
from bench.runs import HeldStream, Tracking, add_site_options, on_fresh_site
from tests.support.servers import ROOT, Server

GOAL_PAIRED_P95_S = 10.0
GOAL_PAGES_P95_MS = 1000.0

MAKE_PLAYERS = """
import os
from django.contrib.auth import get_user_model
from game.tokens import hash_token
from players.models import Account, ApiToken, new_api_token
users = get_user_model().objects
made = users.bulk_create(
    [users.model(username=f"player{n}") for n in range(int(os.environ["LOAD_PLAYERS"]))]
)
made = list(users.filter(username__startswith="player").order_by("pk"))
Account.objects.bulk_create(Account(user=user, bot=True) for user in made)
tokens = [new_api_token() for _ in made]
ApiToken.objects.bulk_create(
    ApiToken(user=user, name="load", token_hash=hash_token(token))
    for user, token in zip(made, tokens)
)
print(" ".join(tokens))
"""


class LineStream(HeldStream):
    """A stream of newline-delimited JSON (an account's event stream)."""

    def __init__(self, run: TournamentRun, player: Player) -> None:
        super().__init__(run)
        self.player = player
        self._rest = b""

    def reopen(self):
        return self.run.open_events(self.player)

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        super().on_head(status, headers)
        if status == 200 and not self.ready.done():
            self.ready.set_result(None)

    def on_body(self, data: bytes) -> None:
        *lines, self._rest = (self._rest + data).split(b"\n")
        for line in lines:
            if line.startswith(b'{"type":"tournamentGameStart"'):
                self.run.game_started(self.player, json.loads(line)["game"])


class PageStream(HeldStream):
    """A standings page's server-sent events."""

    def __init__(self, run: TournamentRun, number: int, client: str) -> None:
        super().__init__(run)
        self.number, self.client = number, client
        self.reader = EventReader()

    def reopen(self):
        return self.run.open_page(self.number, self.client)

    def on_body(self, data: bytes) -> None:
        now = time.time()
        for name, value in self.reader.feed(data):
            if name == b"standings":
                drawn = float(value.split(b'"drawn":', 1)[1].split(b",", 1)[0])
                self.run.page_heard(self.number, drawn, now)
        if not self.ready.done() and self.reader.retry is not None:
            self.ready.set_result(None)


@dataclass
class Player:
    number: int
    token: str
    client: str
    free_since: float | None = None  # time.time() as they were freed
    current: str | None = None  # the game they play
    resting: bool = False  # withdrawn for a while: not waiting to be paired
    color: str = ""  # in the game they play


class TournamentRun(Tracking):
    def __init__(self, servers: list[Server], seed: int, game_seconds: tuple[float, float]):
        super().__init__(servers, seed)
        self.game_seconds = game_seconds
        self.players: list[Player] = []
        self.by_game: dict[str, list[Player]] = {}
        self.streams: list[HeldStream] = []
        self.event = ""
        self.waits: list[float] = []  # seconds, free → next game
        self.ends: list[tuple[float, float]] = []  # (sent, answered) of each resignation
        self.heard: dict[int, list[tuple[float, float]]] = {}  # page → (drawn, arrived)
        self.playing = 0
        self.samples: list[int] = []
        self.aborted = 0  # games that ended before the bench's first moves reached them

    def headers(self, player: Player) -> dict[str, str]:
        return {"Authorization": f"Bearer {player.token}", "X-Forwarded-For": player.client}

    async def call(self, player: Player, method: str, path: str, expect: int = 200) -> Any:
        body = None if method == "GET" else {}
        reply = await self.pools[0].request(method, path, body, self.headers(player))
        if reply.status != expect:
            raise LoadError(f"{path.split('/')[-1]} answered {reply.status}")
        return reply

    async def open_events(self, player: Player) -> None:
        address = self.addresses[0]
        stream: LineStream = await connect(address, lambda: LineStream(self, player))
        headers = self.headers(player)
        stream.transport.write(request_bytes("GET", "/api/stream/events", address, None, headers))
        async with asyncio.timeout(TIMEOUT):
            await stream.ready
        self.streams.append(stream)

    async def open_page(self, number: int, client: str = "") -> None:
        address = self.addresses[number % len(self.addresses)]
        client = client or self.new_client()
        stream: PageStream = await connect(address, lambda: PageStream(self, number, client))
        headers = {"Accept": "text/event-stream", "X-Forwarded-For": client}
        path = f"/tournaments/{self.event}/live"
        stream.transport.write(request_bytes("GET", path, address, None, headers))
        async with asyncio.timeout(TIMEOUT):
            await stream.ready
        self.streams.append(stream)

    def game_started(self, player: Player, game: dict[str, Any]) -> None:
        now = time.time()
        if player.free_since is not None and self.measuring:
            self.waits.append(now - player.free_since)
        player.free_since, player.current = None, game["id"]
        seated = self.by_game.setdefault(game["id"], [])
        seated.append(player)
        player.color = game["color"]
        if len(seated) == 2:
            self.playing += 2
            self.spawn(self.play(game["id"]))

    async def move(self, player: Player, game_id: str, state: dict[str, Any]) -> dict[str, Any]:
        body = {"move": state["legal"][0], "ply": state["ply"]}
        reply = await self.pools[0].request(
            "POST", f"/api/games/{game_id}/moves", body, self.headers(player)
        )
        if reply.status != 200:
            raise LoadError(f"move answered {reply.status}")
        return reply.json()

    async def play(self, game_id: str) -> None:
        """Both sides make their first move (a side that does not within 30 s loses),
        then the game goes on a while, and one of them resigns."""
        players = self.by_game[game_id]
        dark = next(p for p in players if p.color == "dark")
        light = next(p for p in players if p.color == "light")
        state = (await self.call(dark, "GET", f"/api/games/{game_id}")).json()
        if state["over"]:  # a side's first move did not come within 30 s
            self.aborted += 1
            self.playing -= 2
            for player in players:
                player.current, player.free_since = None, time.time()
            return
        state = await self.move(dark, game_id, state)
        await self.move(light, game_id, state)
        await asyncio.sleep(self.rng.uniform(*self.game_seconds))
        loser, winner = self.rng.sample(players, 2)
        # Half the time the one who resigns takes a rest: pausing first, as a player
        # does who wants no next game, so the arena pairs them no more until they
        # come back.
        rests = self.rng.random() < 0.5 and not loser.resting
        if rests:
            loser.resting = True
            await self.call(loser, "POST", f"/api/tournaments/{self.event}/withdraw")
        sent = time.time()
        for player in players:
            # Free from the moment the game's end is asked for: a pairing may come
            # on their stream before the resignation's answer does.
            player.current = None
            player.free_since = None if player.resting else sent
        reply = await self.call(loser, "POST", f"/api/games/{game_id}/resign")
        answered = time.time()
        self.playing -= 2
        if self.measuring:
            self.ends.append((answered - (reply.answered - reply.sent), answered))
        if not rests:
            return
        await asyncio.sleep(self.rng.uniform(*self.game_seconds))
        loser.resting = False
        loser.free_since = time.time()
        await self.call(loser, "POST", f"/api/tournaments/{self.event}/join")

    def page_heard(self, number: int, drawn: float, arrived: float) -> None:
        self.heard.setdefault(number, []).append((drawn, arrived))

    async def sample_playing(self) -> None:
        while True:
            await asyncio.sleep(1)
            if self.measuring:
                self.samples.append(self.playing)

    def page_delays(self) -> tuple[list[float], list[float], list[float], int]:
        """Each (page, game's end): ms from its resignation's sending until the first
        event drawn after its answer arrived, split in two: until it was drawn, and
        from its drawing to its arrival; and how many a page never had."""
        delays, to_drawn, to_page, missed = [], [], [], 0
        for heard in self.heard.values():
            heard.sort()
            for sent, answered in self.ends:
                found = next(((d, a) for d, a in heard if d >= answered), None)
                if found is None:
                    missed += 1
                    continue
                drawn, arrival = found
                delays.append((arrival - sent) * 1000)
                to_drawn.append((drawn - sent) * 1000)
                to_page.append((arrival - drawn) * 1000)
        return delays, to_drawn, to_page, missed

    def close_streams(self) -> None:
        for stream in self.streams:
            stream.closing = True
            stream.close()


def make_players(server: Server, count: int) -> list[str]:
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS],
        cwd=ROOT,
        env=server.env | {"LOAD_PLAYERS": str(count + 1)},
        capture_output=True,
        text=True,
        check=True,
    )
    return [word for word in made.stdout.split() if word.startswith("mt_")]


@dataclass
class TournamentResult:
    players: int
    pages: int
    seconds: float
    waits: list[float]
    page_delays: list[float]
    until_drawn: list[float]
    answered: list[float]  # ms, each resignation's answer
    drawn_to_page: list[float]
    missed: int
    games_ended: int
    playing: list[int]
    errors: Counter[str]
    cpu: dict[str, float]
    setup_seconds: float
    aborted: int
    logged: Counter[str] = field(default_factory=Counter)

    def met(self) -> bool:
        return (
            bool(self.waits)
            and percentile(self.waits, 0.95) < GOAL_PAIRED_P95_S
            and percentile(self.page_delays, 0.95) < GOAL_PAGES_P95_MS
            and not self.missed
            and not sum(self.errors.values())
        )


async def measure(servers: list[Server], site: list[int], args: argparse.Namespace):
    run = TournamentRun(servers, args.players, (args.game_seconds / 2, args.game_seconds * 1.5))
    started = time.monotonic()
    creator, *tokens = make_players(servers[0], args.players)
    run.players = [Player(n, token, run.new_client()) for n, token in enumerate(tokens)]
    owner = Player(-1, creator, run.new_client())
    terms = {"game": "maerstanas", "system": "arena", "minutes": 720, "rated": False}
    terms["clock"] = {"initial": 180, "increment": 2}
    reply = await run.pools[0].request("POST", "/api/tournaments", terms, run.headers(owner))
    if reply.status != 201:
        raise LoadError(f"making the arena answered {reply.status}")
    run.event = reply.json()["id"]
    slots = asyncio.Semaphore(OPENING)

    async def bounded(work: Any) -> None:
        async with slots:
            try:
                await work
            except (LoadError, OSError, TimeoutError, ValueError, KeyError) as exc:
                run.error(f"setup: {describe(exc)}")

    await asyncio.gather(*(bounded(run.open_events(p)) for p in run.players))
    join = f"/api/tournaments/{run.event}/join"
    await asyncio.gather(*(bounded(run.call(p, "POST", join)) for p in run.players))
    await asyncio.gather(*(bounded(run.open_page(n)) for n in range(args.pages)))
    await run.call(owner, "POST", f"/api/tournaments/{run.event}/start")
    setup_seconds = time.monotonic() - started
    print(
        f"  {len(run.players):,} players joined, {args.pages:,} standings pages open, "
        f"started in {setup_seconds:.0f} s; warming up {args.game_seconds:.0f} s",
        flush=True,
    )
    run.spawn(run.watch_loop())
    run.spawn(run.sample_playing())
    await asyncio.sleep(args.game_seconds)  # the first games end, rests begin
    clocks = measured_clocks(site)
    machine = busy_seconds()
    run.measuring = True
    measured = time.monotonic()
    await asyncio.sleep(args.seconds)
    run.measuring = False
    elapsed = time.monotonic() - measured
    cpu = {name: clock.seconds() / elapsed for name, clock in clocks.items()}
    if not args.database_url:
        cpu["postgres"] = 0.0
    cpu["others"] = (busy_seconds() - machine) / elapsed - sum(cpu.values())
    await asyncio.sleep(3)  # the last ends reach the pages
    delays, until_drawn, drawn_to_page, missed = run.page_delays()
    run.stop()
    await asyncio.sleep(0.5)
    return TournamentResult(
        players=len(run.players),
        pages=args.pages,
        seconds=elapsed,
        waits=run.waits,
        page_delays=delays,
        until_drawn=until_drawn,
        answered=[(answered - sent) * 1000 for sent, answered in run.ends],
        drawn_to_page=drawn_to_page,
        missed=missed,
        games_ended=len(run.ends),
        playing=run.samples,
        errors=run.errors,
        cpu=cpu,
        setup_seconds=setup_seconds,
        aborted=run.aborted,
    )


def report(r: TournamentResult, args: argparse.Namespace) -> None:
    database = "PostgreSQL" if args.database_url else "SQLite"
    workers = args.workers or f"{os.cpu_count() or 1}+1"
    playing = sum(r.playing) / len(r.playing) if r.playing else 0
    print(
        f"\nArena, {database}, {args.servers} server(s) x {workers} workers: "
        f"{r.players:,} players, {r.pages:,} standings pages, {r.seconds:.0f} s measured; "
        f"CPU in cores (of {os.cpu_count()})"
    )
    print(
        f"  games ended: {r.games_ended:,} ({r.games_ended / r.seconds:.1f}/s); "
        f"players playing on average: {playing:,.0f} of {r.players:,}; games aborted "
        f"before their first moves, all along: {r.aborted:,}"
    )
    waits = [wait * 1000 for wait in r.waits]
    print(f"  a free player paired, ms p50/p95/max: {triple(waits)} ({len(waits):,} waits)")
    print(
        f"  a game's end on each standings page, ms p50/p95/max: {triple(r.page_delays)} "
        f"({len(r.page_delays):,} deliveries, {r.missed:,} missed)"
    )
    print(
        f"    of which the resignation's answer {triple(r.answered)}, "
        f"until the event was drawn {triple(r.until_drawn)}, "
        f"from its drawing to the page {triple(r.drawn_to_page)}"
    )
    postgres = f", postgres {r.cpu['postgres']:.2f}" if args.database_url else ""
    print(
        f"  CPU: server {r.cpu['server']:.2f}, client {r.cpu['client']:.2f}{postgres}, "
        f"other processes {r.cpu['others']:.2f}"
    )
    print(f"  errors: {sum(r.errors.values()):,}")
    for kind, count in r.errors.most_common():
        print(f"    {count:,}x {kind}")
    for line, count in r.logged.most_common(5):
        print(f"    the server logged {count:,}x {line}")
    print(
        f"goal (paired p95 < {GOAL_PAIRED_P95_S:.0f} s, a game's end on every page p95 < "
        f"{GOAL_PAGES_P95_MS:.0f} ms, none missed, no errors): "
        f"{'met' if r.met() else 'not met'}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=1000, help="standings pages' streams")
    parser.add_argument(
        "--game-seconds", type=float, default=90.0, help="a game's mean length (½× to 1½×)"
    )
    parser.add_argument("--seconds", type=float, default=180.0, help="length of the measurement")
    add_site_options(parser)
    args = parser.parse_args(argv)
    raise_file_limit()
    print(f"arena: {args.players:,} players, {args.pages:,} pages:", flush=True)
    report(on_fresh_site(args, lambda servers, site: measure(servers, site, args)), args)


if __name__ == "__main__":
    main()
