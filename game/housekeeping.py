"""Deleting what nobody will come back to: the site's retention policy.

Anyone may start a game, and nothing else ever deletes one, so the worker runs
``daily`` once a day (``manage.py worker`` schedules it) and deletes:

- games that never ended and nobody joined or moved in for
  ``settings.ABANDONED_GAME_DAYS`` days (imported records aside, which someone
  chose to keep), with their moves;
- games in which no move was ever played (resigned at once, a rematch nobody
  played) unchanged for ``settings.EMPTY_GAME_DAYS`` days: a resign-and-rematch
  loop made thirty such games a second;
- analyses made more than ``settings.ANALYSIS_DAYS`` days ago: a cache, worked
  out again when asked for;
- the worker's finished task results older than ``settings.TASK_RESULT_DAYS``
  days (django-tasks-db's own ``prune_db_task_results``);
- rate-limit counts of windows that have ended.

A game with a move that ended is kept, however old, for its players to look back
on. ``manage.py prune_games`` runs the whole policy by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.management import call_command
from django.dispatch import Signal
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from game.models import Analysis, Game
from kit import limits

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
        .exclude(deadline__gt=now or datetime.now(UTC))  # its time is not up: it waits
    )
    count = stale.count()
    stale.delete()
    return count


def prune_empty_games(days: int | None = None, now: datetime | None = None) -> int:
    """Delete the games in which no move was played, unchanged for ``days`` days
    (imported records aside); return how many."""
    days = settings.EMPTY_GAME_DAYS if days is None else days
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    empty = (
        Game.objects.filter(moves=None)
        .exclude(mode=Game.Mode.IMPORTED)
        .filter(updated__lt=cutoff)
        # A correspondence game waiting for its first move within its days is kept.
        .exclude(deadline__gt=now or datetime.now(UTC))
    )
    count = empty.count()
    empty.delete()
    return count


def prune_analyses(days: int | None = None, now: datetime | None = None) -> int:
    """Delete the analyses made more than ``days`` days ago; return how many."""
    days = settings.ANALYSIS_DAYS if days is None else days
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    deleted, _ = Analysis.objects.filter(created__lt=cutoff).delete()
    return deleted


def prune_task_results(days: int | None = None) -> int:
    """Delete the worker's finished task results older than ``days`` days; return how
    many (by django-tasks-db's command)."""
    days = settings.TASK_RESULT_DAYS if days is None else days
    before = DBTaskResult.objects.finished().count()
    call_command("prune_db_task_results", min_age_days=days, queue_name="*", verbosity=0)
    return before - DBTaskResult.objects.finished().count()


@dataclass(frozen=True)
class Pruned:
    """What one run of the policy deleted."""

    abandoned: int
    empty: int
    analyses: int
    task_results: int
    counts: int
    # What the apps listening to ``pruning`` deleted: (what, how many).
    others: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        said = (
            f"deleted {self.abandoned} abandoned games, {self.empty} games without a move, "
            f"{self.analyses} old analyses, {self.task_results} old task results "
            f"and {self.counts} old rate counts"
        )
        return "; ".join([said, *(f"{count} {what}" for what, count in self.others)])


# Sent by each run of the policy: an app with rows of its own to prune (the lobby's
# closed challenges) listens, and returns (what, how many it deleted).
pruning = Signal()


def prune_all() -> Pruned:
    """Run the whole retention policy once; say what it deleted."""
    return Pruned(
        abandoned=prune_games(),
        empty=prune_empty_games(),
        analyses=prune_analyses(),
        task_results=prune_task_results(),
        counts=limits.forget_expired(),
        others=tuple(answer for _, answer in pruning.send(sender=Pruned) if answer),
    )


@task()
def daily() -> str:
    """Run the retention policy, then come back in a day."""
    pruned = prune_all()
    daily.using(run_after=datetime.now(UTC) + DAY).enqueue()
    return str(pruned)


def schedule_daily() -> bool:
    """Enqueue ``daily`` now unless it is waiting in the queue already; True if it was."""
    waiting = DBTaskResult.objects.filter(
        task_path=daily.module_path, status=TaskResultStatus.READY
    )
    if waiting.exists():
        return False
    daily.enqueue()
    return True
