"""Load test: many live friend games at once (``bench/locustfile.py``), against a fresh server.

Serves the site as ``make run`` does (gunicorn, production settings; SQLite in a
temp dir, or a scratch PostgreSQL database beside ``--database-url``, dropped
after), sets up ``--games`` friend games with locust, then runs them for
``--seconds`` and reports, per kind of request: count, rate, latency percentiles
and failures; the goal (p95 under 100 ms for polls and moves, no failures); and
where the CPU went (the server, this client, PostgreSQL), since on one small
machine the load generator takes its share of the cores.

Run ``python -m bench.load`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import gevent
import psutil
from locust.env import Environment

from bench import locustfile
from tests.support.servers import Server, prepare, scratch_database, site_env

GOAL_P95_MS = 100


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def postgres_processes() -> list[psutil.Process]:
    return [p for p in psutil.process_iter(["name"]) if p.info["name"] in ("postgres",)]


def run(url: str, args: argparse.Namespace, server: Server) -> bool:
    environment = Environment(user_classes=[locustfile.FriendGame], host=url)
    runner = environment.create_local_runner()
    started = time.monotonic()
    runner.start(args.games, spawn_rate=min(args.games, 100))  # locust warns above 100/s

    def joined() -> int:  # looked up each time: starting clears the stats in a greenlet
        return environment.stats.get("setup: join", "POST").num_requests

    while joined() < args.games and time.monotonic() - started < args.setup_timeout:
        gevent.sleep(0.5)
    print(f"{joined()} games set up in {time.monotonic() - started:.0f} s")
    environment.stats.reset_all()
    me, postgres = psutil.Process(), postgres_processes()
    cpu = (server.cpu_seconds(), cpu_seconds([me]), cpu_seconds(postgres))
    measured = time.monotonic()
    gevent.sleep(args.seconds)
    seconds = time.monotonic() - measured
    used = (server.cpu_seconds(), cpu_seconds([me]), cpu_seconds(postgres))
    runner.quit()

    stats = environment.stats
    print(f"\n{'request':16} {'count':>8} {'req/s':>8} {'p50':>6} {'p95':>6} {'p99':>6} failures")
    for entry in sorted(stats.entries.values(), key=lambda e: e.name):
        if not entry.num_requests:
            continue
        print(
            f"{entry.name:16} {entry.num_requests:8,} {entry.num_requests / seconds:8,.0f} "
            f"{entry.get_response_time_percentile(0.5):6.0f} "
            f"{entry.get_response_time_percentile(0.95):6.0f} "
            f"{entry.get_response_time_percentile(0.99):6.0f} {entry.num_failures}"
        )
    total = stats.total
    print(
        f"{'all':16} {total.num_requests:8,} {total.num_requests / seconds:8,.0f} "
        f"{total.get_response_time_percentile(0.5):6.0f} "
        f"{total.get_response_time_percentile(0.95):6.0f} "
        f"{total.get_response_time_percentile(0.99):6.0f} {total.num_failures}"
    )
    for error in stats.errors.values():
        print(f"failure: {error.occurrences}× {error.method} {error.name}: {error.error}")
    for key, error in runner.exceptions.items():
        print(f"error in the client: {error['count']}× {error['msg']} ({key})")
    names = ("server", "client", "postgres")
    print(
        "CPU over the run, in cores: "
        + ", ".join(
            f"{name} {(after - before) / seconds:.2f}"
            for name, before, after in zip(names, cpu, used, strict=True)
            if name != "postgres" or postgres
        )
        + f" (of {os.cpu_count()})"
    )
    worst = max(
        stats.get(name, "GET" if name == "poll" else "POST").get_response_time_percentile(0.95)
        for name in ("poll", "move")
    )
    met = worst < GOAL_P95_MS and total.num_failures == 0 and not runner.exceptions
    print(
        f"goal (p95 < {GOAL_P95_MS} ms for polls and moves, no failures): "
        f"{'met' if met else 'not met'} (worst p95 {worst:.0f} ms)"
    )
    return met


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="live friend games")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the measurement")
    parser.add_argument("--database-url", default=None, help="PostgreSQL; default: SQLite")
    parser.add_argument("--setup-timeout", type=float, default=300.0, help="seconds")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, scratch_database(args.database_url) as url:
        env = site_env(Path(tmp), url)
        prepare(env)
        server = Server(env, workers=None).start()
        try:
            run(server.url, args, server)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
