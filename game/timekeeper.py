"""The end of games whose time ran out while nobody asked about them.

Every deadline a move sets (``hooks.deadline_set``) gets a task that runs then, on
the worker (``manage.py worker``), and ends the game if its side to move has still
not moved (``play.expire``). A game both players have left so ends on time, and the
page of anyone still watching hears of it. A move in time makes the task find the
game with a later deadline, and do nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.dispatch import receiver
from django_tasks import task

from game import hooks, play
from game.models import Game


@receiver(hooks.deadline_set, dispatch_uid="game.timekeeper.deadline_set")
def _deadline_set(sender: type[Game], public_id: str, deadline: datetime, **kwargs: object) -> None:
    # Before the computer's replies and hints: a game's end is due at its time.
    expire.using(run_after=deadline, priority=10).enqueue(public_id)


@task()
def expire(public_id: str) -> bool:
    """End the game if its side to move ran out of time; whether it ended now."""
    return play.expire(public_id) is not None
