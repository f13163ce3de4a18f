"""The site's two entry points: ``maerstanas_site.asgi`` as the README serves it (the
uvicorn worker of gunicorn.conf.py: pages and live streams), and
``maerstanas_site.wsgi`` under a WSGI worker (pages; live pages ask for news every
second). Served by the wrong kind of worker, an entry point refuses to start, saying
why, rather than answering 500 to every request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.test import Client

from tests.support.servers import ROOT, Server, free_port, prepare, scratch_database, site_env
from tests.support.visitors import Visitor

pytestmark = pytest.mark.django_db


def test_a_stream_asked_of_a_wsgi_server_says_to_ask_for_news_instead(client: Client):
    made = client.post("/", {"mode": "hotseat", "special_stones": "on", "scoring": "standard"})
    game_id = made["Location"].split("/")[2]
    reply = client.get(f"/g/{game_id}/live", headers={"Accept": "text/event-stream"})
    assert reply.status_code == 503 and reply["Retry-After"] == "3600"
    assert reply.content == b"Live streams need the ASGI server (maerstanas_site.asgi).\n"


@pytest.mark.live
def test_the_wsgi_application_under_the_asgi_worker_refuses_to_start(tmp_path: Path):
    env = site_env(tmp_path) | {"GUNICORN_BIND": f"127.0.0.1:{free_port()}"}
    prepare(env)
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "maerstanas_site.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "maerstanas_site.wsgi is a WSGI application, and this worker serves ASGI" in done.stderr
    assert "Worker failed to boot" in done.stderr


@pytest.mark.live
def test_the_wsgi_application_under_a_sync_worker_serves_the_pages(tmp_path: Path):
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        server = Server(env, app="maerstanas_site.wsgi", args=("--worker-class", "sync")).start()
        try:
            player = Visitor(server.url)
            game_id = player.new_game()
            assert player.move(game_id, "D4", 0).status == 200
            assert player.state(game_id)["record"] == ["D4"]
            live = httpx.get(
                f"{server.url}/g/{game_id}/live", headers={"Accept": "text/event-stream"}
            )
            assert live.status_code == 503
        finally:
            server.stop()
