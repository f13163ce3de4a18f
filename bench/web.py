"""Web benchmark: what each kind of request costs the served stack, beside the same
code under gunicorn's plain synchronous WSGI worker.

Serves the site with gunicorn on loopback (production settings, SQLite unless
``--database-url`` is given) twice, one after the other, on fresh databases: as the
README serves it (``maerstanas_site.asgi`` under the uvicorn worker of
``gunicorn.conf.py``), and as ``maerstanas_site.wsgi`` under gunicorn's sync worker.
Each run drives four kinds of request and reports requests per second, latency and
the server's CPU time for each:

- floor: ``GET /healthz``, a trivial Django view through the same middleware;
- page:  ``GET /g/<id>/``, a game's whole page;
- poll:  ``GET /g/<id>/poll/<revision>`` that answers 204 (nothing changed);
- move:  ``POST /g/<id>/move`` by htmx, a legal move in a hot-seat game, answered
  with the fresh board partial.

Run ``python -m bench.web`` (``--help`` for options). Goals: the served stack's
server CPU per request within 1.3× of the sync worker's for each kind, and the poll
within 1.3× of the floor's cost. Cost is shown two ways: requests per second
relative to the floor (the client shares the machine), and the server's own CPU
time per request (gunicorn's processes, read with psutil), the steadier of the two.

The client is locust's (geventhttpclient, greenlets), not httpx, the tests' client:
httpx spends about 1 ms of CPU on a request, so on the two cores it shares with the
server it capped the floor at about 950 requests a second, and the benchmark
measured the client. Locust's reaches about 2,900.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import gevent
from locust.contrib.fasthttp import FastHttpSession
from locust.env import Environment

from game.engine import Position, Rules
from tests.support.servers import Server, prepare, site_env

HTMX = {"HX-Request": "true"}
# A connection per request, the costliest way a browser may come.
CLOSE = {"Connection": "close"}


def client(server: Server) -> FastHttpSession:
    """One connection's worth of client; cookies go in each request's headers."""
    return FastHttpSession(
        base_url=server.url, request_event=Environment().events.request, user=None
    )


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


def cookie(response: object, name: str) -> str:
    """The value of cookie ``name`` that a response sets."""
    lines = response.headers.get("set-cookie", [])
    lines = [lines] if isinstance(lines, str) else lines
    return next(re.match(rf"{name}=([^;]+)", line)[1] for line in lines if line.startswith(name))


def create_games(session: FastHttpSession, count: int, seed: int) -> list[HotseatGame]:
    rng = random.Random(seed)
    csrf = cookie(session.get("/", headers=CLOSE), "csrftoken")
    games = []
    for _ in range(count):
        response = session.post(
            "/",
            data={"mode": "hotseat", "special_stones": "on", "scoring": "standard"},
            headers=CLOSE | {"Cookie": f"csrftoken={csrf}", "X-CSRFToken": csrf},
            allow_redirects=False,
        )
        assert response.status_code == 303, response.status_code
        game_id = re.search(r"/g/([^/]+)/", response.headers["location"])[1]
        session_cookie = cookie(response, "sessionid")
        pos = Position.start(Rules())
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
        cookies = f"csrftoken={csrf}; sessionid={session_cookie}"
        games.append(HotseatGame(game_id, cookies, csrf, list(pos.record)))
    return games


@dataclass
class Result:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    server_cpu: float = 0.0  # CPU seconds the server spent in this measurement

    @property
    def cpu_per_request(self) -> float:
        return self.server_cpu / len(self.latencies) if self.latencies else 0.0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def line(self, floor: Result | None) -> str:
        cost = f"  {floor.rate / self.rate:4.2f}× floor" if floor and self.rate else ""
        cpu = f"  server CPU {self.cpu_per_request * 1e6:5.0f} µs/req"
        if floor and floor.cpu_per_request:
            cpu += f" ({self.cpu_per_request / floor.cpu_per_request:4.2f}× floor)"
        return (
            f"{self.name:6} {self.rate:8,.0f} req/s  p50 {self.percentile(50):5.1f} ms  "
            f"p95 {self.percentile(95):5.1f} ms  p99 {self.percentile(99):5.1f} ms  "
            f"errors {self.errors}{cost}{cpu}"
        )


Step = Callable[[FastHttpSession, int], "bool | None"]


def drive(server: Server, name: str, concurrency: int, seconds: float, step: Step) -> Result:
    """Run ``step(session, worker)`` in ``concurrency`` greenlets for ``seconds``; ``step``
    says if the answer was right (None: that worker has nothing left to do)."""
    result = Result(name)
    cpu_before = server.cpu_seconds()
    deadline = time.perf_counter() + seconds

    def worker(number: int) -> None:
        session = client(server)
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            ok = step(session, number)
            if ok is None:
                return
            if ok:
                result.latencies.append(time.perf_counter() - started)
            else:
                result.errors += 1

    started = time.perf_counter()
    gevent.joinall([gevent.spawn(worker, number) for number in range(concurrency)])
    result.seconds = time.perf_counter() - started
    result.server_cpu = server.cpu_seconds() - cpu_before
    return result


def run(args: argparse.Namespace, server: Server) -> list[Result]:
    games = create_games(client(server), args.games, args.seed)
    # Watched games nobody moves in (their polls answer 204); the rest get played.
    watched, games = games[:50], games[50:]

    def floor(session: FastHttpSession, _: int) -> bool:
        response = session.get("/healthz", headers=CLOSE)
        return response.status_code == 200 and response.content == b"ok"

    def page(session: FastHttpSession, worker: int) -> bool:
        game = watched[worker % len(watched)]
        response = session.get(f"/g/{game.game_id}/", headers=CLOSE | {"Cookie": game.cookie})
        return response.status_code == 200 and b'id="game"' in response.content

    def poll(session: FastHttpSession, worker: int) -> bool:
        game = watched[worker % len(watched)]
        path = f"/g/{game.game_id}/poll/{game.revision}"
        return session.get(path, headers=CLOSE | HTMX).status_code == 204

    mine: dict[int, list[HotseatGame]] = {}

    def move(session: FastHttpSession, worker: int) -> bool | None:
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
        response = session.post(
            f"/g/{game.game_id}/move",
            data={"move": text, "ply": str(ply)},
            headers=CLOSE | HTMX | {"Cookie": game.cookie, "X-CSRFToken": game.csrf},
        )
        return response.status_code == 200 and b"data-error" not in response.content

    # Warm up first, as a long-running server is: each worker's caches (templates,
    # drawn squares) fill in its first few hundred requests. Not reported.
    kinds = (("floor", floor), ("page", page), ("poll", poll), ("move", move))
    for name, step in kinds:
        drive(server, name, args.concurrency, args.warmup, step)
    results = []
    for _ in range(args.rounds):
        for name, step in kinds:
            results.append(drive(server, name, args.concurrency, args.seconds, step))
    return results


def best(results: list[Result], name: str) -> Result:
    return max((r for r in results if r.name == name), key=lambda r: r.rate)


KINDS = ("floor", "page", "poll", "move")
# The two ways the site is served: the README's, and gunicorn's sync worker on the
# same code, the reference (the command line's -k overrides gunicorn.conf.py's worker).
STACKS = {
    "served": {"app": "maerstanas_site.asgi", "args": ()},
    "wsgi": {"app": "maerstanas_site.wsgi", "args": ("--worker-class", "sync")},
}
GOAL = 1.3  # the served stack's CPU per request, at most this times the sync worker's


def measure(args: argparse.Namespace, stack: str) -> list[Result]:
    """Serve the site as ``stack`` on a fresh database and run every measurement."""
    with tempfile.TemporaryDirectory() as tmp:
        env = site_env(Path(tmp), args.database_url)
        prepare(env)
        server = Server(env, workers=args.workers or None, **STACKS[stack]).start()
        try:
            return run(args, server)
        finally:
            server.stop()


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
    parser.add_argument("--stacks", nargs="+", choices=list(STACKS), default=list(STACKS))
    args = parser.parse_args(argv)

    measured = {stack: measure(args, stack) for stack in args.stacks}
    print(
        f"gunicorn workers: {args.workers or 'gunicorn.conf.py default'}, "
        f"concurrency {args.concurrency}, {args.rounds}×{args.seconds:g}s each, best round:"
    )
    for stack, results in measured.items():
        print(f"{stack} ({STACKS[stack]['app']}):")
        floor = best(results, "floor")
        for name in KINDS:
            print("  " + best(results, name).line(floor if name != "floor" else None))
    if {"served", "wsgi"} <= set(measured):
        print(f"served stack's server CPU per request against the sync worker's (goal ≤ {GOAL}×):")
        for name in KINDS:
            served = best(measured["served"], name).cpu_per_request
            plain = best(measured["wsgi"], name).cpu_per_request
            ratio = served / plain if plain else float("inf")
            verdict = "met" if ratio <= GOAL else "not met"
            print(
                f"  {name:6} {served * 1e6:6.0f} µs against {plain * 1e6:6.0f} µs: "
                f"{ratio:4.2f}×  {verdict}"
            )


if __name__ == "__main__":
    main()
