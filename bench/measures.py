"""What the load tests read and report beside the site's answers: the phases both
scenarios share, the CPU time of the processes, the exceptions the servers logged,
and numbers as the reports write them.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import resource
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import psutil

from bench.client import LoadError
from tests.support.servers import Server

QUIET_SECONDS = 5.0  # streams open, no moves yet: the server's cost of holding them
DRAIN_SECONDS = 5.0  # after the measured phase, for the last moves' events
OPENING = 200  # streams being opened at once


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


def site_clock(site: list[int]) -> CpuClock:
    """The CPU time of the server side: the processes ``site`` names and their children."""
    return CpuClock(lambda: [p for pid in site for p in family(pid)])


async def idle_cores(site: list[int]) -> float:
    """The server side's cores over ``QUIET_SECONDS`` with the streams open and nothing
    happening: what holding them open costs."""
    on_site = site_clock(site)
    await asyncio.sleep(QUIET_SECONDS)
    return on_site.seconds() / QUIET_SECONDS


def measured_clocks(site: list[int]) -> dict[str, CpuClock]:
    """The CPU time a measured phase reads: the server side's, this client's, PostgreSQL's."""
    return {
        "server": site_clock(site),
        "client": CpuClock(lambda: [psutil.Process()]),
        "postgres": CpuClock(postgres_processes),
    }


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


def ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def triple(values: list[float]) -> str:
    """p50/p95/max."""
    top = max(values) if values else math.nan
    return "/".join(ms(x) for x in (percentile(values, 0.5), percentile(values, 0.95), top))
