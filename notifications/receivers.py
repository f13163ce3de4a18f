"""Who is told of what: the games' signals (``game.hooks``) and the lobby's
(``lobby.signals``) become notices for the accounts they concern. Guests have no
inbox, and the computer none either: only a seat held by an account is told. A notice
of what another account did (a challenge, its answer, a takeback asked) names that
account as its sender, and one who blocked it is not told (``notify``); a game's own
news (the turn, the end) is told whoever the opponent is, as blocking ends no game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from game import clocks, hooks
from game.models import Game
from game.sides import Sides
from game.surface import (
    Color,
    Outcome,
)
from lobby import signals as lobby
from notifications.models import Notification
from notifications.tasks import notify, remind, remind_at
from notifications.turns import person_name, seat_name, time_left

Kind = Notification.Kind

# A live game's deadline is at most its hour and the increments it earned away; a
# correspondence game's is a day or more. Telling them apart by the deadline alone
# spares every live move a read of its game.
CORRESPONDENCE_TURN_AT_LEAST = timedelta(hours=12)


def game_url(game: Game) -> str:
    return f"/g/{game.public_id}/"


def lobby_url(challenge: Any) -> str:
    return f"/lobby/{challenge.public_id}/"


# Games --------------------------------------------------------------------------------


@receiver(hooks.game_changed, dispatch_uid="notifications.game_changed")
def _game_changed(sender: type[Game], game: Game, using: str, **kwargs: object) -> None:
    # Every move of every game passes here, inside its transaction: only a correspondence
    # game going on reads on, and its seats are those the move's check read already.
    if game.speed != Game.Speed.CORRESPONDENCE or game.status != Game.Status.ACTIVE:
        return
    accounts = {color: seat.user_id for color, seat in game.seats_by_color().items()}
    to_move = accounts.get(game.turn)
    other = accounts.get(Color(game.turn).opponent.value)
    if to_move == other:  # one account holding both sides tells itself nothing
        to_move = None
    asker = game.takeback_by
    asked = accounts.get(Color(asker).opponent.value) if asker else None
    if to_move is None and asked is None:
        return
    since = game.turn_started or game.created
    waits = Waits(Color(game.turn), to_move, asker, asked, since)
    transaction.on_commit(partial(_game_waits, game, waits), using=using)


@dataclass(frozen=True, slots=True)
class Waits:
    """Who a correspondence game waits for, as the change left it: the side to move and
    its account, the side asking for a takeback and the account it asks, and since
    when the turn runs."""

    turn: Color
    to_move: int | None
    asker: str
    asked: int | None
    since: datetime


def _game_waits(game: Game, waits: Waits) -> None:
    """Tell the account to move that it is its turn, and the account asked for a
    takeback that it is asked, once a turn: every change of the game (a takeback asked
    or declined, a seat's link renewed) comes here, but a turn begins only with a move."""
    if waits.to_move is not None and not _told(waits.to_move, game, Kind.YOUR_TURN, waits.since):
        left = time_left(game.deadline, clocks.now())
        text = f"Your turn against {seat_name(game.seat(waits.turn.opponent))}: {left}"
        notify(waits.to_move, Kind.YOUR_TURN, text, game_url(game), game)
    if waits.asked is not None and not _told(waits.asked, game, Kind.TAKEBACK, waits.since):
        seat = game.seat(waits.asker)
        text = f"Takeback request from {seat_name(seat)}: answer it on the game's page"
        sender = seat.user_id if seat is not None else None
        notify(waits.asked, Kind.TAKEBACK, text, game_url(game), game, sender=sender)


def _told(user_id: int, game: Game, kind: str, since: datetime) -> bool:
    """Whether the account has had a notice of this kind about the game since ``since``."""
    found = Notification.objects.filter(user_id=user_id, game=game, kind=kind, created__gte=since)
    return found.exists()


@receiver(hooks.game_finished, dispatch_uid="notifications.game_finished")
def _game_finished(sender: type[Game], game: Game, outcome: Outcome, **kwargs: object) -> None:
    if game.mode != Game.Mode.FRIEND:
        return
    kind = game.game_kind
    why = kind.drawing.why(outcome, kind.sides)
    for color, seat in game.seats_by_color().items():
        if seat.user_id is None:
            continue
        opponent = seat_name(game.seat(Color(color).opponent))
        text = f"Your game against {opponent} ended: {why}. {_verdict(outcome, color, kind.sides)}"
        notify(seat.user_id, Kind.ENDED, text.strip(), game_url(game), game)


def _verdict(outcome: Outcome, color: str, sides: Sides) -> str:
    if outcome.result == color:
        return "You won."
    if outcome.result == sides.no_winner:
        return f"A {sides.no_winner}."
    return "You lost." if outcome.result else ""


@receiver(hooks.deadline_set, dispatch_uid="notifications.deadline_set")
def _deadline_set(sender: type[Game], public_id: str, deadline: datetime, **kwargs: object) -> None:
    now = clocks.now()
    if deadline - now < CORRESPONDENCE_TURN_AT_LEAST:
        return
    # Sent once the change commits: the task is enqueued with it.
    remind.using(run_after=remind_at(deadline, now)).enqueue(public_id, deadline.isoformat())


# Challenges ---------------------------------------------------------------------------


def _creator_name(challenge: Any) -> str:
    creator = getattr(challenge, "creator", None)
    if creator is not None:
        return creator.username
    return person_name(None, getattr(challenge, "creator_name", ""))


@receiver(lobby.challenge_made, dispatch_uid="notifications.challenge_made")
def _challenge_made(sender: object, challenge: Any, **kwargs: object) -> None:
    to_user = getattr(challenge, "to_user", None)
    if to_user is None:  # open to the lobby: nobody in particular is told
        return
    text = f"Challenge from {_creator_name(challenge)}: {challenge}"
    notify(
        to_user.pk,
        Kind.CHALLENGE,
        text,
        lobby_url(challenge),
        sender=getattr(challenge, "creator_id", None),
        challenge_id=getattr(challenge, "pk", None),
    )


@receiver(lobby.challenge_cancelled, dispatch_uid="notifications.challenge_cancelled")
def _challenge_cancelled(sender: object, challenge: Any, **kwargs: object) -> None:
    # The offer is gone: so is its notice, read or not, and the mail the worker has not
    # sent yet finds none (or, racing this, finds the challenge closed).
    Notification.objects.filter(challenge_id=challenge.pk).delete()


@receiver(lobby.challenge_accepted, dispatch_uid="notifications.challenge_accepted")
def _challenge_accepted(sender: object, challenge: Any, game: Game, **kwargs: object) -> None:
    creator = getattr(challenge, "creator", None)
    if creator is None:
        return
    opponent = next(
        (seat for seat in game.seats_by_color().values() if seat.user_id != creator.pk), None
    )
    who = seat_name(opponent) if opponent is not None else "your opponent"
    text = f"Challenge accepted by {who}: {challenge}"
    accepter = opponent.user_id if opponent is not None else None
    notify(creator.pk, Kind.ACCEPTED, text, game_url(game), game, sender=accepter)


@receiver(lobby.challenge_declined, dispatch_uid="notifications.challenge_declined")
def _challenge_declined(sender: object, challenge: Any, **kwargs: object) -> None:
    creator = getattr(challenge, "creator", None)
    if creator is None:
        return
    to_user = getattr(challenge, "to_user", None)
    who = to_user.username if to_user is not None else "your opponent"
    text = f"Challenge declined by {who}: {challenge}"
    decliner = to_user.pk if to_user is not None else None
    notify(creator.pk, Kind.CHALLENGE, text, lobby_url(challenge), sender=decliner)
