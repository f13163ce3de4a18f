"""The example API client against live gunicorn: two programs play a friend game to
its end, and one plays the site's computer (with its worker running)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from game import bots
from game.engine import Position, Rules
from tests.support.servers import ROOT, Server, Worker, prepare, scratch_database, site_env

pytestmark = pytest.mark.live

CLIENT = [sys.executable, str(ROOT / "examples" / "api_client.py")]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Server, dict[str, str]]]:
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        server = Server(env, workers=2).start()
        yield server, env
        server.stop()


def client(server: Server, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLIENT, "--server", server.url, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> dict:
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    return json.loads(output.strip().splitlines()[-1])


def check_over(server: Server, game_id: str) -> dict:
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    position = Position.replay(Rules(**state["rules"]), state["record"])
    assert state["over"] and position.is_over
    assert state["result"] == position.result
    assert [state["score"]["dark"], state["score"]["light"]] == list(position.score())
    return state


def test_two_example_clients_play_a_friend_game_to_its_end(site):
    server, _ = site
    creator = client(server, "--mode", "friend", "--level", bots.LEVEL_IDS[2])
    first_line = creator.stdout.readline()
    assert first_line.startswith("invite: "), first_line
    invite = first_line.split(" ", 1)[1].strip()
    joiner = client(server, "--join", invite, "--level", bots.LEVEL_IDS[1])
    mine, theirs = finish(creator), finish(joiner)
    assert mine == theirs
    state = check_over(server, mine["id"])
    assert state["mode"] == "friend"
    guest = {"kind": "human", "name": "Guest", "username": None, "rating": None}
    assert state["players"] == {"dark": guest, "light": guest}


def test_the_example_client_plays_the_sites_computer(site):
    server, env = site
    worker = Worker(env).start()
    try:
        result = finish(client(server, "--mode", "computer", "--color", "light", "--level", "cild"))
    finally:
        worker.stop()
    state = check_over(server, result["id"])
    assert state["players"]["dark"] == {"kind": "computer", "level": bots.LEVEL_IDS[0]}
