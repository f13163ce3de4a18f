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
--lobby`` runs the lobby's scenario instead (bench/lobby.py), ``--tournament`` an
arena's (bench/tournament.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from bench.friends import MOVE_SECONDS, Run
from bench.measures import (
    idle_cores,
    measured_clocks,
    ms,
    percentile,
    raise_file_limit,
    streams_per_worker,
    triple,
)
from bench.runs import add_site_options, on_fresh_site
from tests.support.servers import Server

GOAL_STREAM_P95_MS = 100.0
GOAL_HEALTHZ_P95_MS = 50.0


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
    idle = await idle_cores(site)
    for game in run.games:
        run.spawn(run.keep_playing(game))
    run.spawn(run.sample_healthz())
    run.spawn(run.watch_loop())
    clocks = measured_clocks(site)
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


def run_one(args: argparse.Namespace, games: int) -> Result:
    return on_fresh_site(
        args, lambda servers, site: measure(servers, site, games, args.seconds, args.clock)
    )


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
    if "--tournament" in argv:
        from bench import tournament

        tournament.main([arg for arg in argv if arg != "--tournament"])
        return
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
        "--tournament",
        action="store_true",
        help="an arena's scenario instead: python -m bench.tournament --help for its options",
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
    add_site_options(parser)
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
