"""The worker's part of the lobby: a guest's challenge is withdrawn once its guest
has gone (a minute for a live one, a day for another: ``challenges.withdraw_if_gone``),
looked at by a task set as it is posted, and again while the guest stays; the daily
pruning withdraws any left over and deletes the closed ones."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.dispatch import receiver
from django.utils import timezone
from django_tasks import task

from game import housekeeping
from lobby import challenges, signals
from lobby.models import Challenge


@receiver(signals.challenge_made, dispatch_uid="lobby.tasks.challenge_made")
def _made(sender: type[Challenge], challenge: Challenge, **kwargs: Any) -> None:
    if challenge.creator_id is None:
        _look_later(challenge.public_id, challenges.gone_after(challenge.speed))


def _look_later(public_id: str, delay) -> None:
    withdraw_if_gone.using(run_after=timezone.now() + delay).enqueue(public_id)


# Challenges no longer open are kept this long (their games keep themselves).
CLOSED_DAYS = 7


@receiver(housekeeping.pruning, dispatch_uid="lobby.tasks.prune")
def prune(sender: object, **kwargs: Any) -> tuple[str, int]:
    """Withdraw the guests' challenges whose guests have gone (``withdraw_lapsed``), and
    delete the challenges closed over ``CLOSED_DAYS`` days ago (a creator's account
    gone is deleted with its open ones)."""
    challenges.withdraw_lapsed()
    cutoff = timezone.now() - timedelta(days=CLOSED_DAYS)
    deleted, _ = Challenge.objects.exclude(status="open").filter(updated__lt=cutoff).delete()
    return ("closed challenges", deleted)


@task()
def withdraw_if_gone(public_id: str) -> bool:
    """Withdraw the challenge if its guest's lobby page has gone; whether it did."""
    again = challenges.withdraw_if_gone(public_id)
    if again is not None:
        _look_later(public_id, again)
        return False
    challenge = Challenge.objects.filter(public_id=public_id).only("status").first()
    return challenge is not None and challenge.status == Challenge.Status.WITHDRAWN
