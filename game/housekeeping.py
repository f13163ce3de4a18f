"""Deleting what nobody will come back to: games left waiting or unplayed, and old counts.

Nothing else ever deletes a game, and anyone may start one. A game that nobody
joined, or in which nobody moved, for ``settings.ABANDONED_GAME_DAYS`` days is
deleted with its moves; a finished game is kept, however old, for its players to
look back on, and so is an imported record, which someone chose to keep. The
worker runs ``daily`` once a day (``manage.py worker`` schedules it);
``manage.py prune_games`` does the same by hand.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django_tasks import task

from game import limits
from game.models import Game

DAY = timedelta(days=1)


def prune_games(days: int | None = None, now: datetime | None = None) -> int:
    """Delete the games that have not changed in ``days`` days and have not ended
    (imported records aside); return how many."""
    days = settings.ABANDONED_GAME_DAYS if days is None else days
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    stale = (
        Game.objects.filter(status__in=Game.GOING_ON)
        .exclude(mode=Game.Mode.IMPORTED)
        .filter(updated__lt=cutoff)
    )
    count = stale.count()
    stale.delete()
    return count


@task()
def daily() -> str:
    """Prune abandoned games and ended rate-limit windows, then come back in a day."""
    games, counts = prune_games(), limits.forget_expired()
    daily.using(run_after=datetime.now(UTC) + DAY).enqueue()
    return f"deleted {games} abandoned games and {counts} old rate counts"


def schedule_daily() -> bool:
    """Enqueue ``daily`` now unless it is waiting in the queue already; True if it was."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    waiting = DBTaskResult.objects.filter(
        task_path=daily.module_path, status=TaskResultStatus.READY
    )
    if waiting.exists():
        return False
    daily.enqueue()
    return True
