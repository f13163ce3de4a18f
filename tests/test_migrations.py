"""Migrations carry saved games over: a self-hosted site keeps its games when it upgrades."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("game", "0001_initial")]
AFTER = [("game", "0002_game_end")]


def migrate(targets: list[tuple[str, str]]):
    """Migrate to ``targets``; return the historical apps at that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    """Every app's newest migration: where the other tests expect the database to be."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def old_game(apps, public_id: str, **fields: str):
    Game = apps.get_model("game", "Game")
    defaults = {"mode": "hotseat", "position_text": "x", "status": "active"}
    return Game.objects.create(public_id=public_id, **(defaults | fields))


def test_finished_games_get_the_reason_they_ended_and_back():
    apps = migrate(BEFORE)
    old_game(apps, "resigned", status="finished", result="dark", resigned="light")
    old_game(apps, "played-out", status="finished", result="tie")
    old_game(apps, "going-on", status="active")
    old_game(apps, "waiting", status="waiting")

    apps = migrate(AFTER)
    Game = apps.get_model("game", "Game")
    statuses = dict(Game.objects.values_list("public_id", "status"))
    assert statuses == {
        "resigned": "resigned",
        "played-out": "no-moves",
        "going-on": "active",
        "waiting": "waiting",
    }

    apps = migrate(BEFORE)
    Game = apps.get_model("game", "Game")
    rows = {g.public_id: (g.status, g.resigned) for g in Game.objects.all()}
    assert rows == {
        "resigned": ("finished", "light"),
        "played-out": ("finished", ""),
        "going-on": ("active", ""),
        "waiting": ("waiting", ""),
    }
    migrate(latest())
