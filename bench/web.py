"""Web benchmark: requests per second of the live poll and of a move, against the floor.

Serves the site with gunicorn on loopback (production settings, SQLite unless
DATABASE_URL is set), then, in one run, drives three kinds of request with the same
small asyncio client and reports requests per second and latency for each:

- floor: ``GET /healthz``, a trivial Django view through the same middleware;
- poll:  ``GET /g/<id>/poll/<revision>`` that answers 204 (nothing changed);
- move:  ``POST /g/<id>/move`` by htmx, a legal move in a hot-seat game, answered
  with the fresh board partial.

Run ``python -m bench.web`` (``--help`` for options). Goals: poll ≤ 1.3× and move
≤ 3× the cost of the floor. Cost is shown two ways: requests per second relative
to the floor (the client shares the machine), and the server's own CPU time per
request, read from /proc for gunicorn's processes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.servers import Server, prepare, site_env
from game.engine import Position, Rules

Response = tuple[int, dict[str, str], bytes]


class Client:
    """A minimal HTTP/1.1 client: one connection per request, as gunicorn's sync workers do."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Response:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        raw = await reader.read()
        writer.close()
        head, _, content = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        parsed: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            key = name.strip().lower()
            value = value.strip()
            parsed[key] = f"{parsed[key]}\n{value}" if key in parsed else value
        return int(status_line.split()[1]), parsed, content


def cookies_of(headers: dict[str, str]) -> dict[str, str]:
    found = {}
    for line in headers.get("set-cookie", "").split("\n"):
        if "=" in line:
            name, _, rest = line.partition("=")
            found[name.strip()] = rest.split(";")[0]
    return found


@dataclass
class HotseatGame:
    """A game the benchmark plays: its id, the browser's cookies and a legal record."""

    game_id: str
    cookie: str
    csrf: str
    record: list[str]
    revision: int = 0
    index: int = 0  # next entry of the record

    def next_move(self) -> tuple[str, int] | None:
        """The next move to post and the ply the page shows before it (passes are automatic)."""
        while self.index < len(self.record) and self.record[self.index] == "Pass":
            self.index += 1
        if self.index >= len(self.record):
            return None
        move, ply = self.record[self.index], self.index
        self.index += 1
        return move, ply


async def create_games(client: Client, count: int, seed: int) -> list[HotseatGame]:
    rng = random.Random(seed)
    _, headers, _ = await client.request("GET", "/")
    csrf = cookies_of(headers)["csrftoken"]
    games = []
    for _ in range(count):
        body = b"mode=hotseat&special_stones=on&scoring=standard"
        status, headers, _ = await client.request(
            "POST",
            "/",
            {
                "Cookie": f"csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            },
            body,
        )
        assert status == 303, status
        game_id = re.search(r"/g/([^/]+)/", headers["location"])[1]
        session = cookies_of(headers)["sessionid"]
        pos = Position.start(Rules())
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
        games.append(
            HotseatGame(game_id, f"csrftoken={csrf}; sessionid={session}", csrf, list(pos.record))
        )
    return games


@dataclass
class Result:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    server_cpu: float | None = None  # CPU seconds the server spent in this measurement

    @property
    def cpu_per_request(self) -> float | None:
        if self.server_cpu is None or not self.latencies:
            return None
        return self.server_cpu / len(self.latencies)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def line(self, floor: Result | None) -> str:
        cost = f"  {floor.rate / self.rate:4.2f}× floor" if floor and self.rate else ""
        cpu = ""
        if self.cpu_per_request is not None:
            cpu = f"  server CPU {self.cpu_per_request * 1e6:5.0f} µs/req"
            if floor and floor.cpu_per_request:
                cpu += f" ({self.cpu_per_request / floor.cpu_per_request:4.2f}× floor)"
        return (
            f"{self.name:6} {self.rate:8,.0f} req/s  p50 {self.percentile(50):5.1f} ms  "
            f"p95 {self.percentile(95):5.1f} ms  p99 {self.percentile(99):5.1f} ms  "
            f"errors {self.errors}{cost}{cpu}"
        )


async def drive(
    server: Server,
    name: str,
    concurrency: int,
    seconds: float,
    step: Callable[[int], Awaitable[bool | None]],
) -> Result:
    """Run ``step(worker)`` in ``concurrency`` loops for ``seconds``; ``step`` says if it was ok."""
    result = Result(name)
    cpu_before = server.cpu_seconds()
    deadline = time.perf_counter() + seconds

    async def worker(number: int) -> None:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                ok = await step(number)
            except OSError:
                ok = False
            if ok is None:  # nothing left to do for this worker
                return
            if ok:
                result.latencies.append(time.perf_counter() - started)
            else:
                result.errors += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    result.seconds = time.perf_counter() - started
    cpu_after = server.cpu_seconds()
    if cpu_before is not None and cpu_after is not None:
        result.server_cpu = cpu_after - cpu_before
    return result


async def run(args: argparse.Namespace, server: Server) -> list[Result]:
    client = Client("127.0.0.1", server.port)
    games = await create_games(client, args.games, args.seed)
    # Watched games nobody moves in (their polls answer 204); the rest get played.
    watched, games = games[:50], games[50:]
    htmx = {"HX-Request": "true"}

    async def floor(_: int) -> bool:
        status, _, body = await client.request("GET", "/healthz")
        return status == 200 and body == b"ok"

    async def poll(worker: int) -> bool:
        game = watched[worker % len(watched)]
        path = f"/g/{game.game_id}/poll/{game.revision}"
        status, _, _ = await client.request("GET", path, htmx)
        return status == 204

    mine: dict[int, list[HotseatGame]] = {}

    async def move(worker: int) -> bool | None:
        queue = mine.setdefault(worker, games[worker :: args.concurrency])
        while queue:
            next_move = queue[0].next_move()
            if next_move is not None:
                break
            queue.pop(0)
        else:
            return None
        game = queue[0]
        text, ply = next_move
        body = f"move={text.replace(' ', '+')}&ply={ply}".encode()
        status, _, content = await client.request(
            "POST",
            f"/g/{game.game_id}/move",
            htmx
            | {
                "Cookie": game.cookie,
                "X-CSRFToken": game.csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            },
            body,
        )
        return status == 200 and b"data-error" not in content

    # Warm up first, as a long-running server is: each worker's caches (templates,
    # rendered squares) fill in its first few hundred requests. Not reported.
    for name, step in (("floor", floor), ("poll", poll), ("move", move)):
        await drive(server, name, args.concurrency, args.warmup, step)
    results = []
    for _ in range(args.rounds):
        results.append(await drive(server, "floor", args.concurrency, args.seconds, floor))
        results.append(await drive(server, "poll", args.concurrency, args.seconds, poll))
        results.append(await drive(server, "move", args.concurrency, args.seconds, move))
    return results


def best(results: list[Result], name: str) -> Result:
    return max((r for r in results if r.name == name), key=lambda r: r.rate)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of one measurement")
    parser.add_argument("--rounds", type=int, default=2, help="measurements of each kind")
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight")
    parser.add_argument("--workers", type=int, default=0, help="gunicorn workers (0: config)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of each, unmeasured")
    parser.add_argument("--games", type=int, default=600, help="hot-seat games for the moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temp dir")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        env = site_env(Path(tmp), args.database_url)
        prepare(env)
        server = Server(env, workers=args.workers or None).start()
        try:
            results = asyncio.run(run(args, server))
        finally:
            server.stop()
    floor = best(results, "floor")
    print(
        f"gunicorn workers: {server.workers or 'gunicorn.conf.py default'}, "
        f"concurrency {args.concurrency}, {args.rounds}×{args.seconds:g}s each, best round:"
    )
    for name in ("floor", "poll", "move"):
        print(best(results, name).line(floor if name != "floor" else None))


if __name__ == "__main__":
    main()
