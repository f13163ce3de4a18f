"""Pruning abandoned games (game/housekeeping.py, manage.py prune_games)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from game import housekeeping, play
from game.engine import Position, Rules
from game.models import Game, Move

pytestmark = pytest.mark.django_db


def aged(game: Game, days: int) -> None:
    Game.objects.filter(pk=game.pk).update(updated=datetime.now(UTC) - timedelta(days=days))


def test_unfinished_games_left_alone_for_n_days_are_deleted_and_finished_ones_kept():
    waiting, _ = play.create_game("friend", Rules(), "dark")
    abandoned, tokens = play.create_game("hotseat", Rules(), "dark")
    play.make_move(abandoned.public_id, tokens, "D4", 0)
    recent, _ = play.create_game("hotseat", Rules(), "dark")
    finished, tokens = play.create_game("hotseat", Rules(), "dark")
    play.resign(finished.public_id, tokens)
    imported = play.import_game(Rules(), Position.start(), ["D4"])
    for game in (waiting, abandoned, finished, imported):
        aged(game, 31)
    aged(recent, 29)
    assert housekeeping.prune_games(30) == 2
    left = set(Game.objects.values_list("public_id", flat=True))
    assert left == {recent.public_id, finished.public_id, imported.public_id}
    assert not Move.objects.filter(game__public_id=abandoned.public_id).exists()


def test_the_command_prunes_with_the_days_given_and_refuses_nonsense():
    game, _ = play.create_game("hotseat", Rules(), "dark")
    aged(game, 8)
    out = StringIO()
    call_command("prune_games", "--days", "10", stdout=out)
    assert "Deleted 0 games unchanged for 10 days." in out.getvalue()
    call_command("prune_games", "--days", "7", stdout=out)
    assert "Deleted 1 games unchanged for 7 days." in out.getvalue()
    call_command("prune_games", "--days", "1", stdout=out)
    assert "Deleted 0 games unchanged for 1 days." in out.getvalue()
    errors = StringIO()
    with pytest.raises(SystemExit) as refused:
        call_command("prune_games", "--days", "0", stderr=errors)
    assert refused.value.code == 2 and "--days must be at least 1." in errors.getvalue()
    call_command("prune_games", stdout=out)
    assert f"unchanged for {settings.ABANDONED_GAME_DAYS} days." in out.getvalue()


def test_the_daily_task_prunes_and_schedules_itself_once_a_day():
    game, _ = play.create_game("hotseat", Rules(), "dark")
    aged(game, 400)
    assert housekeeping.schedule_daily() is True
    assert housekeeping.schedule_daily() is False  # one in the queue is enough
    assert "deleted 1 abandoned games" in housekeeping.daily.call()
    queued = DBTaskResult.objects.filter(task_path=housekeeping.daily.module_path)
    later = [row.run_after for row in queued if row.run_after and row.run_after.year < 9000]
    assert later and min(later) > datetime.now(UTC) + timedelta(hours=23)
