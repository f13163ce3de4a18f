"""Against live gunicorn: simultaneous moves, crashes, and two hosts on one database.

Runs on SQLite, or on PostgreSQL when DATABASE_URL points at one (each test gets a
scratch database). No move may be lost or played twice, whatever arrives at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from game import bots
from game.engine import Position, Rules
from tests.support.servers import Server, Worker, prepare, scratch_database, site_env
from tests.support.visitors import Reply, Visitor, applied

pytestmark = pytest.mark.live


@pytest.fixture
def site_env_factory(tmp_path: Path) -> Iterator[Callable[[], dict[str, str]]]:
    """The environment of a fresh site (SQLite file or a scratch PostgreSQL database)."""
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        yield lambda: env


@pytest.fixture
def servers(site_env_factory) -> Iterator[Callable[..., Server]]:
    """Start gunicorn servers on the site's database; all are stopped at the end."""
    started: list[Server] = []

    def start(workers: int = 4) -> Server:
        server = Server(site_env_factory(), workers=workers).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def at_once(calls: list[Callable[[], Reply]]) -> list[Reply]:
    """Run the calls in threads released together, so they reach the server at once."""
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], Reply]) -> Reply:
        gate.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def assert_consistent(visitor: Visitor, game_id: str) -> dict:
    """The stored log replays to the cached position, ply and scores."""
    state = visitor.state(game_id)
    position = Position.replay(Rules(**state["rules"]), state["record"])
    assert position.to_text() == state["position"]
    assert position.ply == state["ply"] == len(state["record"])
    assert [position.score().dark, position.score().light] == [
        state["score"]["dark"],
        state["score"]["light"],
    ]
    return state


def test_fifty_identical_moves_play_once(servers):
    server = servers()
    player = Visitor(server.url)
    game_id = player.new_game()
    tabs = [player.clone() for _ in range(50)]
    replies = at_once([lambda tab=tab: tab.move(game_id, "D4", 0) for tab in tabs])
    assert all(reply.status < 500 for reply in replies)
    assert sum(applied(reply) for reply in replies) == 1
    refused = [reply for reply in replies if not applied(reply)]
    assert all(reply.status == 200 and "board changed" in reply.body for reply in refused)
    state = assert_consistent(player, game_id)
    assert state["record"] == ["D4"]


def test_both_seats_and_two_tabs_racing_play_one_move_per_ply(servers):
    server = servers()
    dark = Visitor(server.url)
    game_id = dark.new_game(mode="friend", color="dark")
    light = Visitor(server.url)
    light.join(game_id, dark.invite_url(game_id))
    dark_tab = dark.clone()
    rng = random.Random(5)
    position = Position.start()
    for _ in range(16):
        state = dark.state(game_id)
        ply = state["ply"]
        options = [str(m) for m in position.legal_moves() if not m.is_pass]
        tries = rng.sample(options, 3) if len(options) >= 3 else options * 3
        light_tab = light.clone()
        calls = [
            lambda v=dark, m=tries[0], p=ply: v.move(game_id, m, p),
            lambda v=dark_tab, m=tries[1], p=ply: v.move(game_id, m, p),
            lambda v=light, m=tries[2], p=ply: v.move(game_id, m, p),
            lambda v=light_tab, m=tries[0], p=ply: v.move(game_id, m, p),
        ]
        replies = at_once(calls)
        assert all(reply.status < 500 for reply in replies), [r.status for r in replies]
        assert sum(applied(reply) for reply in replies) == 1
        state = assert_consistent(dark, game_id)
        assert state["ply"] >= ply + 1
        position = Position.replay(Rules(), state["record"])
        if position.is_over:
            break
        # The seats take turns: swap who is "dark" in the calls above.
        dark, light = light, dark
        dark_tab = dark.clone()


def play_random_game(visitor: Visitor, game_id: str, rng: random.Random, stop: threading.Event):
    """Play legal moves one after another until the game ends or ``stop`` is set."""
    try:
        while not stop.is_set():
            state = visitor.state(game_id)
            position = Position.replay(Rules(), state["record"])
            if position.is_over:
                return
            move = rng.choice([m for m in position.legal_moves() if not m.is_pass])
            visitor.move(game_id, str(move), state["ply"])
    except httpx.TransportError:
        return  # the server was killed under us


@pytest.mark.parametrize("in_flight", [False, True], ids=["between-moves", "moves-in-flight"])
def test_games_survive_sigkill(servers, in_flight):
    server = servers(workers=3)
    players = [Visitor(server.url) for _ in range(6)]
    games = [player.new_game() for player in players]
    stop = threading.Event()
    rng = random.Random(11)
    if in_flight:
        threads = [
            threading.Thread(target=play_random_game, args=(p, g, random.Random(i), stop))
            for i, (p, g) in enumerate(zip(players, games, strict=True))
        ]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
    else:
        for player, game_id in zip(players, games, strict=True):
            for ply, move in enumerate(["D4", "E4", "A1"]):
                assert applied(player.move(game_id, move, ply))
    server.stop(signal.SIGKILL)  # master and workers at once, no clean shutdown
    stop.set()
    if in_flight:
        for thread in threads:
            thread.join(timeout=30)

    server = servers(workers=3)
    for player, game_id in zip(players, games, strict=True):
        player.base_url = server.url
        state = assert_consistent(player, game_id)
        assert state["ply"] >= (1 if in_flight else 3)
        if not in_flight:
            assert state["record"] == ["D4", "E4", "A1"]
        position = Position.replay(Rules(), state["record"])
        if not position.is_over:
            move = rng.choice([m for m in position.legal_moves() if not m.is_pass])
            assert applied(player.move(game_id, str(move), state["ply"]))
            assert_consistent(player, game_id)


def test_two_hosts_on_one_database_serve_one_friend_game(servers):
    first, second = servers(workers=2), servers(workers=2)
    dark = Visitor(first.url)
    game_id = dark.new_game(mode="friend", color="dark")
    invite = dark.invite_url(game_id).replace(first.url, second.url)
    light = Visitor(second.url)
    light.join(game_id, invite)
    for ply, (mover, watcher, move) in enumerate(
        [(dark, light, "D4"), (light, dark, "E4"), (dark, light, "A1"), (light, dark, "G7")]
    ):
        seen = int(watcher.get(f"/g/{game_id}/").body.split('data-revision="')[1].split('"')[0])
        assert applied(mover.move(game_id, move, ply))
        news = watcher.get(f"/g/{game_id}/poll/{seen}", htmx=True)
        assert news.status == 200
        assert f'data-square="{move}" data-stone=' in news.body
        assert watcher.get(f"/g/{game_id}/poll/{seen + 1}", htmx=True).status == 204
    assert assert_consistent(dark, game_id) == assert_consistent(light, game_id)


# --- The computer's worker ----------------------------------------------------------


def task_statuses(env: dict[str, str]) -> list[str]:
    """The status of every task the site's database holds for its workers."""
    query = "SELECT status FROM django_tasks_database_dbtaskresult"
    if env.get("DATABASE_URL"):
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as connection:
            return [row[0] for row in connection.execute(query)]
    with contextlib.closing(sqlite3.connect(env["SQLITE_PATH"])) as connection:
        return [row[0] for row in connection.execute(query)]


@dataclass(frozen=True)
class QueuedTask:
    arguments: str
    enqueued: datetime
    started: datetime | None


def tasks(env: dict[str, str]) -> list[QueuedTask]:
    """Every task the site's database holds for its workers: its arguments (as the
    table's text) and when it was queued and taken."""
    query = "SELECT args_kwargs, enqueued_at, started_at FROM django_tasks_database_dbtaskresult"
    if env.get("DATABASE_URL"):
        import psycopg

        with psycopg.connect(env["DATABASE_URL"]) as connection:
            rows = list(connection.execute(query))
    else:
        with contextlib.closing(sqlite3.connect(env["SQLITE_PATH"])) as connection:
            rows = list(connection.execute(query))

    def moment(value: datetime | str | None) -> datetime | None:
        if value is None or isinstance(value, datetime):
            return value
        return datetime.fromisoformat(value).replace(tzinfo=UTC)

    return [
        QueuedTask(
            json.dumps(arguments) if not isinstance(arguments, str) else arguments,
            moment(enqueued),
            moment(started),
        )
        for arguments, enqueued, started in rows
    ]


def wait_for(condition: Callable[[], object], seconds: float) -> object:
    deadline = time.monotonic() + seconds
    while not (result := condition()):
        assert time.monotonic() < deadline, f"not within {seconds} s"
        time.sleep(0.05)
    return result


def against_the_computer(player: Visitor, level: str) -> str:
    return player.new_game(mode="computer", color="dark", level=level)


def test_a_worker_killed_while_it_thinks_leaves_the_reply_to_the_next(servers, site_env_factory):
    server, env = servers(workers=2), site_env_factory()
    worker = Worker(env).start()
    player = Visitor(server.url)
    game_id = against_the_computer(player, bots.STRONGEST.id)
    assert applied(player.move(game_id, "D4", 0))
    wait_for(lambda: "RUNNING" in task_statuses(env), 10)
    worker.stop(signal.SIGKILL)
    time.sleep(bots.STRONGEST.seconds + 0.5)
    assert player.state(game_id)["ply"] == 1  # nobody replied: the thinker died

    worker = Worker(env).start()
    try:
        state = wait_for(
            lambda: (s := player.state(game_id))["ply"] == 2 and s, bots.STRONGEST.seconds + 10
        )
        assert state["turn"] == "dark" and len(state["record"]) == 2
        move = next(m for m in state["legal"] if m != "Pass")
        assert applied(player.move(game_id, move, 2))
        wait_for(lambda: player.state(game_id)["ply"] == 4, bots.STRONGEST.seconds + 5)
        time.sleep(0.5)
        assert assert_consistent(player, game_id)["ply"] == 4  # no reply twice
    finally:
        worker.stop()


def test_two_workers_and_a_restart_give_each_ply_one_reply(servers, site_env_factory):
    server, env = servers(workers=2), site_env_factory()
    workers = [Worker(env).start(), Worker(env).start()]
    players = [Visitor(server.url) for _ in range(4)]
    games = [against_the_computer(player, bots.LEVEL_IDS[1]) for player in players]
    try:
        for ply in (0, 2, 4):
            for player, game_id in zip(players, games, strict=True):
                move = next(m for m in player.state(game_id)["legal"] if m != "Pass")
                assert applied(player.move(game_id, move, ply))
            if ply == 2:  # a third worker enqueues every due reply again as it starts
                workers.append(Worker(env).start())
            for player, game_id in zip(players, games, strict=True):
                wait_for(lambda p=player, g=game_id, n=ply: p.state(g)["ply"] >= n + 2, 15)
        time.sleep(1)
        for player, game_id in zip(players, games, strict=True):
            state = assert_consistent(player, game_id)
            assert state["ply"] == 6 and state["turn"] == "dark"
    finally:
        for worker in workers:
            worker.stop()


@pytest.mark.timing
def test_a_newcomers_reply_is_not_held_up_by_one_address_keeping_the_worker_busy(
    servers, site_env_factory
):
    """One address moves a dozen games against the strongest level as fast as the
    computer replies; a newcomer from another address still gets the weakest level's
    first move after at most one of that address's moves (one worker: the queue takes
    each client's first task before anyone's second), where first come, first served
    made it wait for all eight and more waiting."""
    server, env = servers(workers=2), site_env_factory()
    worker = Worker(env).start()
    attacker = Visitor(server.url)
    games = [against_the_computer(attacker, bots.STRONGEST.id) for _ in range(12)]
    stop = threading.Event()

    def keep_busy(game_id: str) -> None:
        ply = 0
        while not stop.is_set():
            state = attacker.state(game_id)
            if state["over"]:
                return
            if state["turn"] == "dark" and state["ply"] == ply:
                move = next(m for m in state["legal"] if m != "Pass")
                attacker.move(game_id, move, ply)
                ply += 2
            time.sleep(0.05)

    threads = [threading.Thread(target=keep_busy, args=(g,), daemon=True) for g in games]
    try:
        for thread in threads:
            thread.start()
        wait_for(lambda: task_statuses(env).count("READY") >= 8, 30)  # the queue is full
        newcomer = Visitor(server.url, local_address="127.0.0.2")
        started = time.monotonic()
        game_id = newcomer.new_game(mode="computer", color="light", level=bots.LEVEL_IDS[0])
        wait_for(lambda: newcomer.state(game_id)["ply"] == 1, 10)
        waited = time.monotonic() - started
        (mine,) = [task for task in tasks(env) if game_id in task.arguments]
        ahead = [
            task
            for task in tasks(env)
            if task.started and mine.enqueued < task.started < mine.started
        ]
        assert len(ahead) <= 1, f"{len(ahead)} of the address's moves went first"
        # The move being thought when it came, one queued before it, its own: about
        # two of the strongest level's seconds and the handling, on a busy machine.
        limit = 2 * bots.STRONGEST.seconds + 3
        assert waited < limit, f"the newcomer waited {waited:.1f} s for the computer's move"
    finally:
        stop.set()
        for thread in threads:
            thread.join(10)
        worker.stop()
