"""The operator's admin: nowhere unless DJANGO_ADMIN_PATH names its path; there, the
players (searched, deactivated: their games stay) and the games, read only."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import clear_url_caches

from game import play
from game.engine import Rules
from game.models import Game
from players.models import ApiToken
from tests.support.accounts import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_at():
    """Serve the admin at a path, as DJANGO_ADMIN_PATH would, for one test."""
    import maerstanas_site.urls

    def serve(path: str):
        with override_settings(ADMIN_PATH=path):
            importlib.reload(maerstanas_site.urls)
        clear_url_caches()

    yield serve
    importlib.reload(maerstanas_site.urls)
    clear_url_caches()


def operator() -> Client:
    get_user_model().objects.create_superuser("operator", "op@example.org", PASSWORD)
    client = Client()
    assert client.login(username="operator", password=PASSWORD)
    return client


def test_there_is_no_admin_unless_its_path_is_set(client):
    for path in ["/admin/", "/admin/login/"]:
        assert client.get(path).status_code == 404


def test_the_operator_finds_and_deactivates_a_player_whose_games_stay(admin_at):
    admin_at("ops-7x")
    client = operator()
    users = get_user_model().objects
    ann = users.create_user("Ann", password=PASSWORD)
    bob = users.create_user("Bob", password=PASSWORD)
    game, _ = play.create_game("friend", Rules(), user=ann)
    ApiToken.objects.create(user=ann, name="bot", token_hash="x" * 64)
    assert Client().get("/admin/").status_code == 404  # only at its own path
    found = client.get("/ops-7x/auth/user/?q=ann").content.decode()
    assert ">Ann<" in found and ">Bob<" not in found
    response = client.post(
        "/ops-7x/auth/user/", {"action": "deactivate", "_selected_action": [ann.pk]}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert not ann.is_active and bob.is_active
    assert not ApiToken.objects.exists()
    assert Game.objects.filter(pk=game.pk).exists() and game.seats.get().user == ann
    assert not Client().login(username="Ann", password=PASSWORD)
    assert Client().get("/players/Ann/").status_code == 404
    page = client.get(f"/ops-7x/game/game/?q={game.public_id}").content.decode()
    assert game.public_id in page


def test_a_player_who_is_not_staff_is_sent_to_the_admins_login(admin_at):
    admin_at("ops-7x")
    get_user_model().objects.create_user("Ann", password=PASSWORD)
    client = Client()
    client.login(username="Ann", password=PASSWORD)
    response = client.get("/ops-7x/auth/user/")
    assert response.status_code == 302 and "/ops-7x/login/" in response["Location"]
