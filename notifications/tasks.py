"""Making a notice, and its e-mail, which the worker sends (``manage.py worker``),
never a request: a slow or unreachable mail server must not hold up a move.

How a notice is mailed is the account's choice (``Preference``): not at all, one
mail each (``send_notification``), or one digest a day of what it has not read
(``send_digest``, enqueued for a day after the first notice that finds none due).
Whatever the choice, a player with mail on gets a reminder when less than a day is
left to move in a correspondence game (``remind``).

What one player can make another receive is bounded, in the database, so it holds
across every server and worker process: no notice at all from an account the player
blocked, at most ``OFFERS_PER_HOUR`` notices of challenges an hour (more challenges
still stand in the lobby's "Challenges to you"), and at most ``MAILS_PER_HOUR`` mails
an hour whoever causes them (the rest wait on the site, unmailed)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from game import clocks
from game.models import Game
from game.surface import (
    Color,
)
from kit import limits
from lobby.models import Challenge
from notifications.models import Notification, Preference, email_choice
from notifications.turns import seat_name, time_left
from players.models import blocks

DIGEST_EVERY = timedelta(days=1)
# A reminder goes a day before the deadline, or 6 hours before it when the whole
# turn is a day or less (a reminder at its start would say nothing new).
REMIND_BEFORE = timedelta(days=1)
REMIND_BEFORE_SHORT = timedelta(hours=6)
# A digest lists this many notices; the rest are on the site.
DIGEST_LINES = 100
# One player posting and cancelling challenges to another sent them 30 mails in 2 s.
# The lobby lets one account challenge one player a few times an hour
# (lobby.challenges.CHALLENGES_TO_ONE); many accounts together still make no more than
# this many notices of challenges an hour for one player, and nothing at all makes
# more than this many mails an hour for one account.
OFFERS_PER_HOUR = 20
MAILS_PER_HOUR = 10
MAILS = limits.Limit("mail", requests=MAILS_PER_HOUR, seconds=3600)


def notify(
    user_id: int,
    kind: str,
    text: str,
    url: str,
    game: Game | None = None,
    *,
    sender: int | None = None,
    challenge_id: int | None = None,
) -> Notification | None:
    """Give the account a notice, and have it mailed as the account asked; ``sender``
    is the account whose doing it is, ``challenge_id`` the challenge it offers. None
    when no notice is given: the account blocked the sender, or has had
    ``OFFERS_PER_HOUR`` challenges' notices within the hour already."""
    if blocks(user_id, sender):
        return None
    if challenge_id is not None and _offers_this_hour(user_id) >= OFFERS_PER_HOUR:
        return None
    text = " ".join(text.split())  # one line: it may become a mail's subject
    notification = Notification.objects.create(
        user_id=user_id, kind=kind, text=text[:200], url=url, game=game, challenge_id=challenge_id
    )
    _arrange_mail(notification)
    return notification


def _offers_this_hour(user_id: int) -> int:
    since = timezone.now() - timedelta(hours=1)
    offers = Notification.objects.filter(
        user_id=user_id, challenge__isnull=False, created__gte=since
    )
    return offers.count()


def _arrange_mail(notification: Notification) -> None:
    """Enqueue the mail of ``notification``, once the notice is saved: alone, or in a
    digest a day after the first notice that found no digest due."""
    choice = email_choice(notification.user_id)
    if choice == Preference.Email.EACH:
        transaction.on_commit(partial(send_notification.enqueue, notification.pk))
    elif choice == Preference.Email.DAILY:
        due = timezone.now() + DIGEST_EVERY
        # Set only where none is due, in one statement: two notices at once make one digest.
        waiting = Preference.objects.filter(
            user_id=notification.user_id, email=Preference.Email.DAILY, digest_due=None
        )
        if waiting.update(digest_due=due):
            digest = send_digest.using(run_after=due)
            transaction.on_commit(partial(digest.enqueue, notification.user_id))


def site_url(path: str) -> str:
    """The full address of a path of the site, for a mail."""
    return settings.SITE_URL.rstrip("/") + path


def _mail(user: Any, subject: str, body: str) -> bool:
    """Send ``body`` to the account's address; False if it has none, or has had
    ``MAILS_PER_HOUR`` mails this hour (what is not mailed stays on the site)."""
    if not user.email:
        return False
    try:
        limits.count(MAILS, f"user:{user.pk}")
    except limits.Exceeded:
        return False
    footer = (
        "You get this e-mail because you asked for it. To change that, or to see all "
        f"your notifications: {site_url('/notifications/')}"
    )
    send_mail(
        f"Mǽrstánas: {subject}"[:150],
        f"{body}\n\n-- \n{footer}\n",
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
    )
    return True


@task()
def send_notification(notification_id: int) -> bool:
    """Mail one notice, unless it was mailed already, its account turned mail off
    since, or it offers a challenge no longer open (cancelled before the worker came to
    it: a notice deleted with it is not found at all); whether it was sent."""
    notification = (
        Notification.objects.select_related("user", "challenge")
        .filter(pk=notification_id, mailed_at=None)
        .first()
    )
    if notification is None or email_choice(notification.user_id) == Preference.Email.OFF:
        return False
    if notification.challenge is not None and not notification.challenge.is_open:
        return False
    body = f"{notification.text}\n\n{site_url(notification.url)}"
    if not _mail(notification.user, notification.text, body):
        return False
    Notification.objects.filter(pk=notification.pk).update(mailed_at=timezone.now())
    return True


@task()
def send_digest(user_id: int) -> int:
    """Mail the account, in one digest, its notices neither read nor mailed yet; how
    many. Whatever happens, no digest is due any more: the next notice sets one."""
    preference = Preference.objects.select_related("user").filter(user_id=user_id).first()
    if preference is None:
        return 0
    # Cleared first: a notice made while this runs either is in this digest or sets the next.
    Preference.objects.filter(pk=preference.pk).update(digest_due=None)
    if preference.email != Preference.Email.DAILY:
        return 0
    waiting = Notification.objects.filter(user_id=user_id, mailed_at=None, read_at=None)
    # Offers of challenges no longer open are past news.
    waiting = waiting.filter(Q(challenge=None) | Q(challenge__status=Challenge.Status.OPEN))
    pending = list(waiting.order_by("created", "pk"))
    if not pending or not _mail(preference.user, _digest_subject(pending), _digest(pending)):
        return 0
    mailed = [notification.pk for notification in pending]
    Notification.objects.filter(pk__in=mailed).update(mailed_at=timezone.now())
    return len(pending)


def _digest_subject(pending: list[Notification]) -> str:
    if len(pending) == 1:
        return pending[0].text
    return f"{len(pending)} notifications"


def _digest(pending: list[Notification]) -> str:
    lines = [f"- {n.text}\n  {site_url(n.url)}" for n in pending[:DIGEST_LINES]]
    if len(pending) > DIGEST_LINES:
        lines.append(f"…and {len(pending) - DIGEST_LINES} more on the site.")
    return "What happened since your last digest:\n\n" + "\n".join(lines)


def remind_at(deadline: datetime, now: datetime) -> datetime:
    """When to remind the side to move of ``deadline``, its turn having begun about
    ``now``: a day before, or 6 hours before when the whole turn is a day or less."""
    before = REMIND_BEFORE if deadline - now > REMIND_BEFORE else REMIND_BEFORE_SHORT
    return deadline - before


@task()
def remind(public_id: str, deadline_iso: str) -> bool:
    """Mail the side to move of a correspondence game how long it has left, and give it
    the notice: only if the game still waits for the same move (no move since, so
    the same deadline) and its player is an account with mail on; whether it did."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or not _still_due(game, datetime.fromisoformat(deadline_iso)):
        return False
    seat = game.seat(game.turn)
    user = seat.user if seat is not None and seat.user_id else None
    if user is None or not user.email or email_choice(user.pk) == Preference.Email.OFF:
        return False
    left = time_left(game.deadline, clocks.now())
    opponent = seat_name(game.seat(Color(seat.color).opponent))
    text = f"Your turn against {opponent}: {left}"
    url = f"/g/{game.public_id}/"
    mailed = _mail(user, text, f"{text} to move, or the game is lost on time.\n\n{site_url(url)}")
    Notification.objects.create(
        user=user,
        kind=Notification.Kind.YOUR_TURN,
        text=text,
        url=url,
        game=game,
        mailed_at=timezone.now() if mailed else None,
    )
    return True


def _still_due(game: Game, deadline: datetime) -> bool:
    """Whether the correspondence game still waits, before ``deadline``, for the move
    that deadline was set for."""
    return (
        game.speed == Game.Speed.CORRESPONDENCE
        and game.status == Game.Status.ACTIVE
        and game.deadline == deadline
        and clocks.now() < deadline
    )
