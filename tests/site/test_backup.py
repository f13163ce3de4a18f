"""``manage.py backup``: a consistent copy of the SQLite database while the site runs
and moves are being written, and the copy put back and served."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support.servers import ROOT, Server, prepare, site_env
from tests.support.visitors import Visitor, applied

pytestmark = pytest.mark.live


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_backup_taken_while_moves_are_written_is_whole_and_restores(tmp_path: Path):
    env = site_env(tmp_path / "site")
    (tmp_path / "site").mkdir()
    prepare(env)
    server = Server(env, workers=2).start()
    player = Visitor(server.url)
    games = [player.new_game() for _ in range(3)]
    stop = threading.Event()

    def keep_playing() -> None:
        for ply in range(20):
            for game_id in games:
                if stop.is_set():
                    return
                legal = player.state(game_id)["legal"]
                applied(player.move(game_id, next(m for m in legal if m != "Pass"), ply))

    playing = threading.Thread(target=keep_playing)
    playing.start()
    try:
        copies = []
        for number in range(3):  # while the moves are being written
            copy = tmp_path / f"copy-{number}.sqlite3"
            done = manage(env, "backup", str(copy))
            assert done.returncode == 0, done.stderr
            assert f"to {copy} (3 games)." in done.stdout
            copies.append(copy)
    finally:
        stop.set()
        playing.join(60)
        server.stop()
    for copy in copies:
        with contextlib.closing(sqlite3.connect(copy)) as database:
            assert database.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            # Each copy is one moment of the site: every game's cache equals its log.
            for ply, moves in database.execute(
                "SELECT g.ply, (SELECT count(*) FROM game_move m WHERE m.game_id = g.id "
                "AND m.taken_back IS NULL) FROM game_game g"
            ):
                assert ply == moves
    # Put the last copy back as another site's database, and serve it.
    restored = site_env(tmp_path / "restored")
    (tmp_path / "restored").mkdir()
    prepare(restored)
    done = manage(restored, "backup", "--restore", str(copies[-1]))
    assert done.returncode == 0, done.stderr
    assert "(3 games)." in done.stdout
    server = Server(restored, workers=1).start()
    try:
        for game_id in games:
            assert Visitor(server.url).state(game_id)["id"] == game_id
    finally:
        server.stop()


def test_a_backup_refuses_what_would_lose_data(tmp_path: Path):
    env = site_env(tmp_path)
    prepare(env)
    existing = tmp_path / "taken.sqlite3"
    existing.write_bytes(b"something")
    refused = manage(env, "backup", str(existing))
    assert refused.returncode != 0 and "exists already: choose a new file" in refused.stderr
    refused = manage(env, "backup", env["SQLITE_PATH"])
    assert refused.returncode != 0 and "would overwrite the database itself" in refused.stderr
    refused = manage(env, "backup", "--restore", str(existing))
    assert refused.returncode != 0 and "is not a sound SQLite database" in refused.stderr
    refused = manage(env, "backup", "--restore", str(tmp_path / "missing"))
    assert refused.returncode != 0 and "is not a file" in refused.stderr
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        on_postgres = manage(
            {**env, "DATABASE_URL": os.environ["DATABASE_URL"]}, "backup", str(tmp_path / "x")
        )
        assert "back it up with pg_dump" in on_postgres.stderr
