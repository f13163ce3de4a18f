"""Pruning abandoned games (game/housekeeping.py, manage.py prune_games)."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from game import computer, housekeeping, play
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
    assert "Deleted 1 games without a move, 0 old analyses and 0 old task results." in (
        out.getvalue()
    )
    game, _ = play.create_game("hotseat", Rules(), "dark")
    aged(game, 8)
    call_command("prune_games", "--days", "7", stdout=out)
    assert "Deleted 1 games unchanged for 7 days." in out.getvalue()
    call_command("prune_games", "--days", "1", stdout=out)
    assert "Deleted 0 games unchanged for 1 days." in out.getvalue()
    errors = StringIO()
    with pytest.raises(SystemExit) as refused:
        call_command("prune_games", "--days", "0", stderr=errors)
    assert refused.value.code == 2 and errors.getvalue() == "--days must be at least 1.\n"
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


def test_games_without_a_move_go_after_days_and_games_played_stay():
    resigned, tokens = play.create_game("hotseat", Rules())
    play.resign(resigned.public_id, tokens)
    rematch, _ = play.rematch(resigned.public_id, tokens)
    played, tokens = play.create_game("hotseat", Rules())
    play.make_move(played.public_id, tokens, "D4", 0)
    play.resign(played.public_id, tokens)
    fresh, _ = play.create_game("hotseat", Rules())
    empty_import = play.import_game(Rules(), Position.start(), [])
    for game in (resigned, rematch, played, empty_import):
        aged(game, settings.EMPTY_GAME_DAYS + 1)
    aged(fresh, settings.EMPTY_GAME_DAYS - 1)
    assert housekeeping.prune_empty_games() == 2
    left = set(Game.objects.values_list("public_id", flat=True))
    assert left == {played.public_id, fresh.public_id, empty_import.public_id}


def test_analyses_and_task_results_go_after_their_days():
    from game.models import Analysis

    old = Analysis.objects.create(key="Ssw old", dark_win=0.5)
    new = Analysis.objects.create(key="Ssw new", dark_win=0.5)
    Analysis.objects.filter(pk=old.pk).update(
        created=datetime.now(UTC) - timedelta(days=settings.ANALYSIS_DAYS + 1)
    )
    assert housekeeping.prune_analyses() == 1
    assert list(Analysis.objects.values_list("pk", flat=True)) == [new.pk]
    done = housekeeping.daily.enqueue()
    DBTaskResult.objects.filter(id=done.id).update(
        status="SUCCESSFUL",
        finished_at=datetime.now(UTC) - timedelta(days=settings.TASK_RESULT_DAYS + 1),
    )
    waiting = housekeeping.daily.enqueue()
    assert housekeeping.prune_task_results() == 1
    assert [str(row) for row in DBTaskResult.objects.values_list("id", flat=True)] == [waiting.id]


def test_the_daily_run_says_what_the_policy_deleted():
    resigned, tokens = play.create_game("hotseat", Rules())
    play.resign(resigned.public_id, tokens)
    aged(resigned, settings.EMPTY_GAME_DAYS + 1)
    said = housekeeping.daily.call()
    assert said == (
        "deleted 0 abandoned games, 1 games without a move, 0 old analyses, "
        "0 old task results and 0 old rate counts; 0 closed challenges"
    )


def test_the_commands_help_says_what_its_days_are_and_where_their_default_comes_from():
    from game.management.commands.prune_games import Command

    help_text = " ".join(Command().create_parser("manage.py", "prune_games").format_help().split())
    assert (
        "--days DAYS days without a change (default: MAERSTANAS_ABANDONED_DAYS, "
        f"{settings.ABANDONED_GAME_DAYS})"
    ) in help_text


def test_the_daily_task_is_scheduled_unless_it_is_waiting_whatever_else_is():
    computer.reply.enqueue("AAAAAAAAAAAA", 0)  # other work waiting
    ran = housekeeping.daily.enqueue()
    DBTaskResult.objects.filter(id=ran.id).update(status="SUCCESSFUL")  # yesterday's
    assert housekeeping.schedule_daily() is True
    assert housekeeping.schedule_daily() is False


def test_pruning_tells_the_time_in_utc():
    """A time without its zone makes Django warn, and guess."""
    game, _ = play.create_game("hotseat", Rules(), "dark")
    aged(game, 31)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert housekeeping.prune_games(30) == 1
