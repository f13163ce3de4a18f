"""Migrations carry saved games over: a self-hosted site keeps its games when it upgrades."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from game import play
from game.engine import Rules

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


SEATS_BEFORE = [("game", "0005_review_takeback_my_games_analysis")]
SEATS_AFTER = [("game", "0006_kinds_options_seats")]


def test_games_get_their_kind_options_and_seat_rows_and_back():
    apps = migrate(SEATS_BEFORE)
    old_game(apps, "hotseat", dark_seat="d" * 64, light_seat="l" * 64)
    old_game(
        apps,
        "computer",
        mode="computer",
        dark_seat="d" * 64,
        light_level="wita",
        special_stones=False,
        scoring="simple",
        wraparound=True,
    )
    old_game(apps, "waiting", mode="friend", status="waiting", light_seat="l" * 64)
    old_game(apps, "imported", mode="imported", status="no-moves", result="tie")
    Analysis = apps.get_model("game", "Analysis")
    Analysis.objects.create(key=f"Ssw {'/'.join(['.......'] * 7)} d TWtw")

    apps = migrate(SEATS_AFTER)
    Game = apps.get_model("game", "Game")
    Seat = apps.get_model("game", "Seat")
    games = {g.public_id: (g.kind, g.options) for g in Game.objects.all()}
    plain = {"special_stones": True, "scoring": "standard", "wraparound": False}
    assert games == {
        "hotseat": ("maerstanas", plain),
        "computer": (
            "maerstanas",
            {"special_stones": False, "scoring": "simple", "wraparound": True},
        ),
        "waiting": ("maerstanas", plain),
        "imported": ("maerstanas", plain),
    }
    seats = sorted(
        (seat.game.public_id, seat.color, seat.token_hash[:1], seat.level)
        for seat in Seat.objects.select_related("game")
    )
    assert seats == [
        ("computer", "dark", "d", ""),
        ("computer", "light", "", "wita"),
        ("hotseat", "dark", "d", ""),
        ("hotseat", "light", "l", ""),
        ("waiting", "light", "l", ""),
    ]
    assert apps.get_model("game", "Analysis").objects.get().kind == "maerstanas"

    apps = migrate(SEATS_BEFORE)
    Game = apps.get_model("game", "Game")
    columns = {
        g.public_id: (
            g.special_stones,
            g.scoring,
            g.wraparound,
            g.dark_seat[:1],
            g.light_seat[:1],
            g.dark_level,
            g.light_level,
        )
        for g in Game.objects.all()
    }
    assert columns == {
        "hotseat": (True, "standard", False, "d", "l", "", ""),
        "computer": (False, "simple", True, "d", "", "", "wita"),
        "waiting": (True, "standard", False, "", "l", "", ""),
        "imported": (True, "standard", False, "", "", "", ""),
    }
    migrate(latest())


def test_estimates_of_the_old_analysis_are_dropped_and_proven_values_kept():
    apps = migrate([("game", "0013_takeback_declined")])
    Analysis = apps.get_model("game", "Analysis")
    Analysis.objects.create(key="estimated", dark_win=0.7, proven=False, move="D4")
    Analysis.objects.create(key="proven", dark_win=1.0, proven=True, move="D4")
    Analysis.objects.create(key="asked for", dark_win=None)
    apps = migrate([("game", "0014_analyses_estimated_afresh")])
    kept = apps.get_model("game", "Analysis").objects.values_list("key", flat=True)
    assert sorted(kept) == ["asked for", "proven"]
    migrate(latest())


def test_messages_of_accounts_deleted_before_are_renamed_and_guests_kept():
    game, _ = play.create_game("friend", Rules())
    apps = migrate([("chat", "0001_initial")])
    Message = apps.get_model("chat", "Message")
    User = apps.get_model("auth", "User")
    bob = User.objects.create(username="bob")
    names = ["ann", "bob", "Wulf (guest)", "Guest", "Watcher"]
    for name in names:
        Message.objects.create(
            game_id=game.pk,
            room="players",
            name=name,
            text=name,
            user=bob if name == "bob" else None,
        )
    apps = migrate([("chat", "0002_deleted_accounts_messages")])
    renamed = apps.get_model("chat", "Message").objects.values_list("text", "name")
    assert dict(renamed) == dict(zip(names, ["deleted player", *names[1:]], strict=True))
    migrate(latest())


BEFORE_KIT = [("game", "0016_audience_counts_clients")]


def migrate_before_kit():
    """Back to a database of before the kit: the game app at 0016, no kit migration
    applied; the historical apps of then."""
    executor = MigrationExecutor(connection)
    executor.migrate([*BEFORE_KIT, ("kit", None)])
    executor.loader.build_graph()
    assert ("kit", "0001_initial") not in executor.loader.applied_migrations
    return executor.loader.project_state(BEFORE_KIT).apps


def test_rate_counts_channels_and_audiences_keep_their_rows_as_the_kit_takes_them_over():
    apps = migrate_before_kit()
    now = timezone.now()
    rate_count = apps.get_model("game", "RateCount")
    rate_count.objects.create(key="create:10.0.0.1:9", count=3, expires=now)
    apps.get_model("game", "Channel").objects.create(name="lobby", revision=7)
    apps.get_model("game", "Audience").objects.create(
        process="host:1:0", game_id="abcdefgh", client="c" * 16, updated=now
    )

    apps = migrate(latest())
    for name in ("RateCount", "Channel", "Audience"):
        with pytest.raises(LookupError):
            apps.get_model("game", name)
    kit = {name: apps.get_model("kit", name) for name in ("RateCount", "Channel", "Audience")}
    assert list(kit["RateCount"].objects.values_list("key", "count")) == [("create:10.0.0.1:9", 3)]
    assert list(kit["Channel"].objects.values_list("name", "revision")) == [("lobby", 7)]
    assert list(kit["Audience"].objects.values_list("process", "game_id")) == [
        ("host:1:0", "abcdefgh")
    ]
    kit["Channel"].objects.create(name="watch", revision=1)

    apps = migrate_before_kit()
    channels = apps.get_model("game", "Channel").objects.order_by("name")
    assert list(channels.values_list("name", "revision")) == [("lobby", 7), ("watch", 1)]
    assert apps.get_model("game", "RateCount").objects.get().count == 3
    migrate(latest())


def test_games_nobody_won_are_stored_alike_and_get_their_kinds_word_back():
    apps = migrate([("game", "0017_models_to_kit")])
    old_game(apps, "tied", status="no-moves", result="tie")
    old_game(apps, "drawn", kind="cyngesheall", status="repetition", result="draw")
    old_game(apps, "won", kind="cyngesheall", status="king-captured", result="light")
    old_game(apps, "going-on", status="active")

    apps = migrate([("game", "0018_one_no_winner")])
    results = dict(apps.get_model("game", "Game").objects.values_list("public_id", "result"))
    assert results == {"tied": "even", "drawn": "even", "won": "light", "going-on": ""}

    apps = migrate([("game", "0017_models_to_kit")])
    results = dict(apps.get_model("game", "Game").objects.values_list("public_id", "result"))
    assert results == {"tied": "tie", "drawn": "draw", "won": "light", "going-on": ""}
    migrate(latest())
