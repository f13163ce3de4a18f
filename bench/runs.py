"""What a run of either load scenario keeps, whatever it plays: the servers'
addresses and pools, its random choices, the tasks it started and the errors they
met, whether it is measuring and how late the client's own loop ran; the streams it
holds open; the options that shape the site it is served on, and that site, fresh
for each run.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol, TypeVar

import uvloop

from bench.client import HttpProtocol, LoadError, Pool
from bench.measures import describe, logged_exceptions
from tests.support.servers import Server, Worker, prepare, scratch_database, site_env


class Tracking:
    """One measurement's common state; a scenario's run adds its games or streams,
    and closes them in ``close_streams`` as it stops."""

    def __init__(self, servers: list[Server], seed: int) -> None:
        self.addresses = [("127.0.0.1", server.port) for server in servers]
        self.pools = [Pool(address) for address in self.addresses]
        self.rng = random.Random(seed)
        self.clients = 0
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

    def new_client(self) -> str:
        """The address of a client not seen before (10.0.0.1, 10.0.0.2, …)."""
        self.clients += 1
        return str(ipaddress.IPv4Address("10.0.0.0") + self.clients)

    async def watch_loop(self) -> None:
        """How late this client's own event loop wakes: its share of any delay."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.05)
            if self.measuring:
                self.loop_lag.append((time.perf_counter() - asked - 0.05) * 1000)

    def close_streams(self) -> None:
        """Close the scenario's own streams: a run that holds some says how."""

    def stop(self) -> None:
        self.stopping = True
        for task in list(self._tasks):
            task.cancel()
        self.close_streams()
        for pool in self.pools:
            pool.close()


class HeldStream(HttpProtocol):
    """A stream of server-sent events a run holds open: ``ready`` once it has answered,
    its failures counted as the run's errors, and opened again (``reopen``) when it
    drops while neither it (``closing``) nor the run is being closed."""

    def __init__(self, run: Tracking) -> None:
        super().__init__()
        self.run = run
        self.ready = asyncio.get_running_loop().create_future()
        self.closing = False

    def reopen(self) -> Coroutine[Any, Any, None]:
        """What opens the stream again, for the run to spawn: a scenario's own."""
        raise NotImplementedError

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        if status != 200:
            self.run.error(f"stream answered {status}")
            self.closing = True
            self.close()

    def on_end(self) -> None:
        self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self.ready.done():
            self.ready.set_exception(LoadError("stream closed before it opened"))
        elif not (self.closing or self.run.stopping):
            self.run.error("stream dropped")
            self.run.spawn(self.reopen())


def add_site_options(parser: argparse.ArgumentParser) -> None:
    """The options both scenarios serve the site by: its database, servers and workers."""
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


class Logged(Protocol):
    logged: Counter[str]


Result = TypeVar("Result", bound=Logged)
Measure = Callable[[list[Server], list[int]], Coroutine[Any, Any, Result]]


def on_fresh_site(args: argparse.Namespace, measure: Measure[Result]) -> Result:
    """``measure(servers, site)`` on a site of its own, served as ``make run`` serves it
    (``args.servers`` gunicorns and the computer's worker, production settings, SQLite in
    a temp dir or a scratch PostgreSQL database beside ``args.database_url``), behind a
    proxy so that each player's forwarded address counts; ``site``: the server side's
    pids. Its result carries the exceptions the servers logged."""
    with tempfile.TemporaryDirectory() as tmp, scratch_database(args.database_url) as url:
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
                result = runner.run(measure(servers, site))
            result.logged = logged_exceptions([s.log for s in servers if s.log])
            return result
        finally:
            for server in servers:
                server.stop()
            worker.stop()
