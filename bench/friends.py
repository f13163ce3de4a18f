"""The players of ``bench.load``'s friend games: each game's two streams, its moves
made at the game's pace, and the run that sets the games up, plays them and samples
``/healthz`` meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from bench.client import (
    TIMEOUT,
    Address,
    Connection,
    LoadError,
    Pool,
    connect,
    request_bytes,
)
from bench.measures import DRAIN_SECONDS, OPENING, describe
from bench.runs import HeldStream, Tracking
from game.engine import PASS, Position, Rules
from tests.support.servers import Server

MOVE_SECONDS = 20.0  # a game's pace: a move about this often, by either player
HEALTHZ_SECONDS = 0.2  # between two samples of /healthz
RULES = Rules(special_stones=True, scoring="standard", wraparound=False)
RULES_JSON = {"special_stones": True, "scoring": "standard", "wraparound": False}
FIRST_MOVES = [str(m) for m in Position.start(RULES).legal_moves()]


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


class Stream(HeldStream):
    """One page's stream of server-sent events."""

    run: Run

    def __init__(self, game: Game, side: int, run: Run) -> None:
        super().__init__(run)
        self.game, self.side = game, side
        self.revision = 0
        self._text = ""

    def reopen(self) -> Coroutine[Any, Any, None]:
        return self.game.reopen(self.side)

    def open(self, address: Address) -> None:
        assert self.transport is not None
        headers = {"Accept": "text/event-stream", "X-Forwarded-For": self.game.players[self.side]}
        if self.revision:
            headers["Last-Event-ID"] = str(self.revision)
        path = f"/g/{self.game.id}/live?revision={self.revision}"
        self.transport.write(request_bytes("GET", path, address, headers=headers))

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
                self.closing = True  # the server ends it: no drop to count
                self.game.over = True  # its clock ran out, or it was aborted


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


class Run(Tracking):
    """One measurement: its servers, games, samples and errors."""

    def __init__(
        self, servers: list[Server], seed: int, clock: tuple[int, int] | None = None
    ) -> None:
        super().__init__(servers, seed)
        self.clock = clock  # initial and increment seconds; None: friend games
        self.games: list[Game] = []
        self.moves: list[Move] = []
        self.healthz: list[float] = []

    async def new_game(self, index: int) -> Game:
        """A friend game set up through the API, both seats taken, streams not yet open
        (with a clock, a lobby match: ``new_match``)."""
        if self.clock:
            return await self.new_match(index)
        home = index % len(self.pools)
        pool = self.pools[home]
        players = (self.new_client(), self.new_client())
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
        players = (self.new_client(), self.new_client())
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

    async def drain(self) -> None:
        """Wait until every measured move has reached both streams, or for DRAIN_SECONDS."""
        deadline = time.monotonic() + DRAIN_SECONDS
        waiting = self.moves
        while waiting and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            waiting = [move for move in waiting if move.delays() is None]

    def close_streams(self) -> None:
        for game in self.games:
            game.close()
