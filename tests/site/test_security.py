"""Every state change needs a POST with a CSRF token; headers and cookies hold in production."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from game import play
from game.engine import Rules
from game.models import Game, Move
from tests.support.servers import Server, prepare, site_env
from tests.support.visitors import Visitor, applied


def snapshot() -> list[tuple]:
    games = list(Game.objects.order_by("id").values_list())
    moves = list(Move.objects.order_by("id").values_list())
    return games + moves


@pytest.mark.django_db
def test_every_state_change_refuses_a_post_without_csrf():
    game, tokens = play.create_game("friend", Rules(), "dark")
    finished, finished_tokens = play.create_game("hotseat", Rules())
    play.resign(finished.public_id, finished_tokens)
    client = Client(enforce_csrf_checks=True)
    session = client.session
    session["seats"] = {game.public_id: tokens, finished.public_id: finished_tokens}
    session.save()
    client.cookies["sessionid"] = session.session_key
    before = snapshot()
    posts = {
        "/": {"mode": "hotseat", "scoring": "standard"},
        f"/g/{game.public_id}/move": {"move": "D4", "ply": "0"},
        f"/g/{game.public_id}/join": {"invite": play.invite_code(game)},
        f"/g/{game.public_id}/resign": {},
        f"/g/{finished.public_id}/rematch": {},
        f"/g/{game.public_id}/seat/dark/{tokens['dark']}/": {},
    }
    for path, data in posts.items():
        for headers in ({}, {"HX-Request": "true"}, {"X-CSRFToken": "forged" * 6}):
            response = client.post(path, data, headers=headers)
            assert response.status_code == 403, (path, headers, response.status_code)
    assert snapshot() == before


@pytest.mark.django_db
def test_no_get_changes_anything():
    game, tokens = play.create_game("friend", Rules(), "dark")
    client = Client()
    before = snapshot()
    for path in [
        "/",
        f"/g/{game.public_id}/",
        f"/g/{game.public_id}/resign",
        f"/g/{game.public_id}/invite/{play.invite_code(game)}/",
        f"/g/{game.public_id}/seat/dark/{tokens['dark']}/",
        f"/g/{game.public_id}/poll/0",
        f"/api/games/{game.public_id}",
        f"/g/{game.public_id}/move?move=D4&ply=0",
        f"/g/{game.public_id}/join?invite={play.invite_code(game)}",
    ]:
        assert client.get(path).status_code < 500, path
    assert snapshot() == before


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """gunicorn with production settings: DEBUG off, secure cookies, HSTS."""
    env = site_env(tmp_path_factory.mktemp("production"))
    env |= {"DJANGO_SECURE": "1", "DJANGO_SECURE_SSL_REDIRECT": "0"}
    prepare(env)
    server = Server(env, workers=1).start()
    yield server
    server.stop()


def behind_proxy(server: Server) -> Visitor:
    """A visitor as the TLS-terminating proxy forwards it."""
    return Visitor(server.url, always={"X-Forwarded-Proto": "https"})


@pytest.mark.live
def test_production_pages_carry_the_security_headers(production):
    visitor = behind_proxy(production)
    for path in ["/", "/about/", "/g/nope/"]:
        reply = visitor.get(path)
        csp = reply.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
        assert "frame-ancestors 'none'" in csp, path
        assert reply.headers["x-frame-options"] == "DENY", path
        assert reply.headers["x-content-type-options"] == "nosniff", path
        assert reply.headers["referrer-policy"] == "same-origin", path
        assert reply.headers["strict-transport-security"].startswith("max-age="), path
        assert not re.search(r"<script(?![^>]*\bsrc=)", reply.body), path
        assert " style=" not in reply.body, path


@pytest.mark.live
def test_production_cookies_are_secure_httponly_and_samesite(production):
    visitor = behind_proxy(production)
    lines = (
        visitor.get("/").set_cookies
        + visitor.request("POST", "/", data={"mode": "hotseat", "scoring": "standard"}).set_cookies
    )
    assert {line.split("=", 1)[0] for line in lines} == {"csrftoken", "sessionid"}
    for line in lines:
        flags = {flag.strip().lower() for flag in line.split(";")[1:]}
        assert {"httponly", "secure", "samesite=lax"} <= flags, line


@pytest.mark.live
def test_static_files_are_served_compressed_with_long_cache(production):
    page = behind_proxy(production).get("/").body
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', page)[1]
    reply = behind_proxy(production).request(
        "GET", stylesheet, headers={"Accept-Encoding": "br, gzip"}
    )
    assert reply.status == 200
    assert reply.headers.get("content-encoding") in ("br", "gzip")
    assert "immutable" in reply.headers["cache-control"]


@pytest.mark.live
def test_seat_links_in_a_session_are_signed(tmp_path: Path):
    """A session cookie edited by hand (to claim someone's seat) is thrown away."""
    env = site_env(tmp_path)
    prepare(env)
    server = Server(env, workers=1).start()
    try:
        owner = Visitor(server.url)
        game_id = owner.new_game()
        thief = Visitor(server.url)
        thief.get("/")
        value = owner.cookies["sessionid"]
        thief.cookies["sessionid"] = value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB")
        reply = thief.move(game_id, "D4", 0, htmx=False)
        assert reply.status == 403
        refused = thief.move(game_id, "D4", 0)  # htmx: drawn on the board, as every refusal
        assert not applied(refused) and "only its players can move" in refused.body
        assert owner.state(game_id)["record"] == []
    finally:
        server.stop()
