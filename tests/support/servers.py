"""Run the real site under gunicorn on a database of its own, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"  # screenshots and logs a failed test leaves


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def scratch_database(database_url: str | None) -> Iterator[str | None]:
    """A fresh, empty database beside the one ``database_url`` names, dropped afterwards.

    For PostgreSQL only; for anything else (SQLite: a file per site) it yields the URL
    unchanged. Lets several live servers of one test run share a database of their own.
    """
    if not database_url or not database_url.startswith(("postgres://", "postgresql://")):
        yield database_url
        return
    import psycopg

    parts = urlsplit(database_url)
    name = f"maerstanas_e2e_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def site_env(workdir: Path, database_url: str | None = None, **extra: str) -> dict[str, str]:
    """The environment of a production-like instance: DEBUG off, own DB and static root."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "GUNICORN_")) and key != "DATABASE_URL"
    }
    env |= {
        "DJANGO_SECRET_KEY": "end-to-end-tests-secret-key-not-for-production-use-0123456789",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_STATIC_ROOT": str(workdir / "static"),
        "SQLITE_PATH": str(workdir / "db.sqlite3"),
        "PYTHONUNBUFFERED": "1",
        # The tests play many games from one address; tests of the limits turn them on.
        "MAERSTANAS_RATE_LIMITS": "0",
    }
    if database_url:
        env["DATABASE_URL"] = database_url
    env |= extra
    return env


def prepare(env: dict[str, str]) -> None:
    """Migrate the database and collect static files, as `make run` does."""
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )


def stop_group(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    """Send ``sig`` to a process started in its own session and to its children; if
    they are not gone within 10 s, kill them."""
    if process is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@dataclass
class Server:
    """A gunicorn serving the site on a loopback port."""

    env: dict[str, str]
    workers: int | None = 2  # None: gunicorn.conf.py's default
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    app: str = "maerstanas_site.asgi"  # as the README serves it
    args: tuple[str, ...] = ()  # more of gunicorn's options

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> Server:
        self.log = Path(self.env["DJANGO_STATIC_ROOT"]).parent / f"gunicorn-{self.port}.log"
        env = {"GUNICORN_ACCESS_LOG": ""} | self.env | {"GUNICORN_BIND": f"127.0.0.1:{self.port}"}
        if self.workers:
            env["GUNICORN_WORKERS"] = str(self.workers)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *self.args, self.app],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/about/", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {timeout}s")

    def cpu_seconds(self) -> float:
        """CPU time (user and system) used so far by gunicorn's master and its workers."""
        assert self.process is not None, "the server is not running"
        master = psutil.Process(self.process.pid)
        total = 0.0
        for process in [master, *master.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess):  # a worker ended meanwhile
                times = process.cpu_times()
                total += times.user + times.system
        return total

    def stop(self, sig: int = signal.SIGTERM) -> None:
        stop_group(self.process, sig)
        self.process = None


@dataclass
class Worker:
    """A ``manage.py worker`` thinking of the computer's moves for a site's database."""

    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    def start(self) -> Worker:
        self.log = Path(self.env["DJANGO_STATIC_ROOT"]).parent / "worker.log"
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--no-reload"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self

    def stop(self, sig: int = signal.SIGTERM) -> None:
        stop_group(self.process, sig)
        self.process = None
