"""The documented set-ups, run as written: the site behind nginx and behind Caddy
(deploy/nginx.conf, deploy/Caddyfile) counts each client by its own address, never by
the proxy's nor by one the client made up, and passes a live page's events on as they
come; the systemd units' commands (deploy/*.service) serve the site and its worker.

Clients come from other loopback addresses (127.0.0.2, 127.0.0.3) to be other clients.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shlex
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.support import system
from tests.support.servers import (
    ROOT,
    Server,
    free_port,
    prepare,
    scratch_database,
    site_env,
    stop_group,
)

DEPLOY = ROOT / "deploy"
SPOOFED = "6.6.6.6"  # what a client claims to be


def site_block(path: Path) -> str:
    """The part of a deploy file between its "site: begin" and "site: end" marks."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r"# site: begin\n(.*?)\n[ \t]*# site: end", text, re.S)
    assert found, f"{path.name} marks the part that serves the site"
    return found[1]


def nginx_config(workdir: Path, port: int, site_port: int) -> Path:
    """A whole nginx configuration around deploy/nginx.conf's upstream and location."""
    text = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    upstream = re.search(r"upstream maerstanas \{.*?\}", text, re.S)[0]
    upstream = upstream.replace("127.0.0.1:8000", f"127.0.0.1:{site_port}")
    config = workdir / "nginx.conf"
    config.write_text(
        f"daemon off;\npid {workdir}/nginx.pid;\nerror_log {workdir}/nginx-error.log;\n"
        "events {}\n"
        f"http {{\n access_log off;\n client_body_temp_path {workdir}/body;\n"
        f" proxy_temp_path {workdir}/proxy;\n {upstream}\n"
        f" server {{\n  listen 127.0.0.1:{port};\n{site_block(DEPLOY / 'nginx.conf')}\n }}\n}}\n",
        encoding="utf-8",
    )
    return config


def caddy_config(workdir: Path, port: int, site_port: int) -> Path:
    """A whole Caddyfile around deploy/Caddyfile's block, over plain HTTP."""
    block = site_block(DEPLOY / "Caddyfile").replace("127.0.0.1:8000", f"127.0.0.1:{site_port}")
    config = workdir / "Caddyfile"
    config.write_text(
        f"{{\n\tadmin off\n\tauto_https off\n}}\n\nhttp://127.0.0.1:{port} {{\n{block}\n}}\n",
        encoding="utf-8",
    )
    return config


PROXIES: dict[str, tuple[str, Callable[[Path, int, int], list[str]]]] = {
    "nginx": (
        "nginx",
        lambda workdir, port, site: ["nginx", "-c", str(nginx_config(workdir, port, site))],
    ),
    "caddy": (
        "caddy",
        lambda workdir, port, site: [
            "caddy",
            "run",
            "--adapter",
            "caddyfile",
            "--config",
            str(caddy_config(workdir, port, site)),
        ],
    ),
}


@pytest.fixture(params=sorted(PROXIES))
def proxied(request, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """The site behind a proxy as documented: the proxy's URL and the site's env."""
    program, command = PROXIES[request.param]
    system.require(program)
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(
            tmp_path,
            database_url,
            DJANGO_BEHIND_PROXY="1",
            MAERSTANAS_RATE_LIMITS="1",
            GUNICORN_FORWARDED_ALLOW_IPS="127.0.0.1",
        )
        prepare(env)
        server = Server(env, workers=2).start()
        port = free_port()
        log = (tmp_path / f"{program}.log").open("ab")
        proxy = subprocess.Popen(
            command(tmp_path, port, server.port),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: answers(url), f"{program} did not answer")
            yield url, env
        finally:
            stop_group(proxy)
            server.stop()


def wait_until(condition: Callable[[], object], message: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.1)


def answers(url: str) -> bool:
    with contextlib.suppress(httpx.TransportError):
        return httpx.get(f"{url}/healthz", timeout=2).status_code == 200
    return False


def client_from(address: str) -> httpx.Client:
    """A client whose requests come from ``address`` and claim to come from SPOOFED."""
    return httpx.Client(
        transport=httpx.HTTPTransport(local_address=address),
        headers={"X-Forwarded-For": SPOOFED, "Content-Type": "application/json"},
        timeout=10,
    )


def counted_clients(env: dict[str, str]) -> set[str]:
    """The clients the rate limits have counted, from their keys (kind:client:window)."""
    query = "SELECT key FROM game_ratecount"
    if env.get("DATABASE_URL"):
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as connection:
            keys = [row[0] for row in connection.execute(query)]
    else:
        with contextlib.closing(sqlite3.connect(env["SQLITE_PATH"])) as connection:
            keys = [row[0] for row in connection.execute(query)]
    return {key.split(":", 1)[1].rsplit(":", 1)[0] for key in keys}


@pytest.mark.live
def test_behind_the_documented_proxy_each_client_is_counted_by_its_own_address(proxied):
    url, env = proxied
    for address in ("127.0.0.2", "127.0.0.3"):
        with client_from(address) as client:
            made = client.post(f"{url}/api/games", content=json.dumps({"mode": "friend"}))
            assert made.status_code == 201, made.text
    assert counted_clients(env) == {"127.0.0.2", "127.0.0.3"}  # not the proxy, not SPOOFED


@pytest.mark.live
def test_behind_the_documented_proxy_a_live_page_hears_a_move_as_it_comes(proxied):
    url, _ = proxied
    with client_from("127.0.0.2") as client:
        made = client.post(f"{url}/api/games", content=json.dumps({"mode": "friend"})).json()
        joined = client.post(
            f"{url}/api/games/{made['id']}/join",
            content=json.dumps({"invite": made["invite_url"]}),
        ).json()
    events: queue.Queue[str] = queue.Queue()

    def listen() -> None:
        headers = {"Accept": "text/event-stream"}
        live = f"{url}/g/{made['id']}/live"
        with (
            contextlib.suppress(httpx.HTTPError),  # the servers stop at the test's end
            httpx.stream("GET", live, headers=headers, timeout=30) as reply,
        ):
            for line in reply.iter_lines():
                events.put(line)

    threading.Thread(target=listen, daemon=True).start()

    def heard(text: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(queue.Empty):
                if text in events.get(timeout=left):
                    return True
        return False

    assert heard('"revision": 1', 10)  # the friend joined, heard when the stream opened
    with client_from("127.0.0.2") as client:
        client.headers["Authorization"] = f"Bearer {made['token']}"
        moved = client.post(
            f"{url}/api/games/{made['id']}/moves", content=json.dumps({"move": "D4", "ply": 0})
        )
    assert moved.status_code == 200 and joined["color"] == "light"
    # Within seconds, not when a buffer fills: a buffering proxy would hold it for ever.
    assert heard('"ply": 1', 5)


def unit_commands(name: str) -> tuple[dict[str, list[str]], list[list[str]]]:
    """A systemd unit's settings, and its ExecStartPre and ExecStart command lines with
    its paths made this checkout's."""
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / name).read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    here = {"/srv/maerstanas/.venv/bin/": f"{Path(sys.executable).parent}/", "/srv/maerstanas": ""}
    commands = []
    for key in ("ExecStartPre", "ExecStart"):
        for line in settings.get(key, []):
            for old, new in here.items():
                line = line.replace(old, new)
            commands.append(shlex.split(line))
    return settings, commands


@pytest.mark.live
def test_the_systemd_units_serve_the_site_and_run_its_worker(tmp_path: Path):
    site, site_commands = unit_commands("maerstanas.service")
    worker, worker_commands = unit_commands("maerstanas-worker.service")
    for unit in (site, worker):
        assert unit["Restart"] == ["on-failure"] and unit["WorkingDirectory"] == ["/srv/maerstanas"]
        assert unit["EnvironmentFile"] == ["/etc/maerstanas.env"]
    assert int(site["LimitNOFILE"][0]) >= 8 * 1024  # room for the workers' connections
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        port = free_port()
        env = site_env(tmp_path, database_url, GUNICORN_BIND=f"127.0.0.1:{port}")
        processes = []
        try:
            for command in site_commands[:-1]:  # ExecStartPre: migrate, collectstatic
                subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=120)
            for command in (site_commands[-1], *worker_commands):
                processes.append(
                    subprocess.Popen(
                        command,
                        cwd=ROOT,
                        env=env,
                        stdout=(tmp_path / "unit.log").open("ab"),
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
            wait_until(lambda: answers(f"http://127.0.0.1:{port}"), "the site did not answer")
            game = httpx.post(
                f"http://127.0.0.1:{port}/api/games",
                json={"mode": "computer", "color": "light", "level": "cild"},
                timeout=10,
            ).json()
            state = f"http://127.0.0.1:{port}/api/games/{game['id']}"
            wait_until(lambda: httpx.get(state, timeout=5).json()["ply"] == 1, "no reply")
            assert all(process.poll() is None for process in processes)
        finally:
            for process in processes:
                stop_group(process)


def directives(block: str) -> list[str]:
    """The directives of an nginx block, comments and spacing left out."""
    lines = (line.split("#", 1)[0].strip() for line in block.splitlines())
    return [" ".join(line.split()) for line in lines if line]


def test_the_readmes_nginx_block_is_the_one_tested():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"```nginx\n(.*?)```", readme, re.S)[1]
    assert directives(shown) == directives(site_block(DEPLOY / "nginx.conf"))
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in directives(shown)
