"""The games waiting for a player ("Your turn" on the home page and "My games"), and
how a game's wait is put in words, for those lists and the notices."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import F, Q, QuerySet, Subquery
from django.http import HttpRequest

from game import clocks, people, seats
from game.models import Game, Seat

# The list is a reminder, not an archive: "My games" has them all.
LIMIT = 20


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting for the viewer to move: its id, who they play, and how long they
    have ("2 days left"; "no time limit" without a deadline)."""

    public_id: str
    opponent: str
    deadline: datetime | None
    left: str


def your_turn(request: HttpRequest) -> list[Waiting]:
    """The games going on in which the viewer holds the side to move: an account's by
    its seats, a guest's by this browser's list of games; games against the computer
    and hot-seat games are not waiting for anyone. Soonest deadline first, those
    without one last; at most ``LIMIT``. One query, none for a browser with no games."""
    games = _held_on_turn(request)
    if games is None:
        return []
    now = clocks.now()
    other = Seat.objects.not_to_move()
    rows = (
        games.filter(status=Game.Status.ACTIVE, mode=Game.Mode.FRIEND)
        # A deadline passed is a game lost on time, ended as soon as anyone looks.
        .filter(Q(deadline=None) | Q(deadline__gt=now))
        .annotate(
            opponent_user=Subquery(other.values("user__username")[:1]),
            opponent_guest=Subquery(other.values("guest_name")[:1]),
        )
        .order_by(F("deadline").asc(nulls_last=True), "-updated", "-pk")
        .values_list("public_id", "deadline", "opponent_user", "opponent_guest")[:LIMIT]
    )
    return [
        Waiting(public_id, person_name(user, guest), deadline, time_left(deadline, now))
        for public_id, deadline, user, guest in rows
    ]


def _held_on_turn(request: HttpRequest) -> QuerySet[Game] | None:
    """The games whose side to move the viewer holds; None when it can hold none."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Game.objects.filter(seats__user=user, seats__color=F("turn"))
    browser = seats.owner_key(request)
    if not browser:  # a browser that never played has no list to read
        return None
    return Game.objects.filter(browsers__browser=browser, browsers__colors__contains=F("turn"))


def person_name(username: str | None, guest_name: str | None) -> str:
    """A player as the lists and notices name them: the account's name, or a guest's."""
    return people.named(username, guest_name)


def seat_name(seat: Seat | None) -> str:
    """Whoever holds ``seat``, named as ``person_name`` does; "the computer" for a level."""
    if seat is None:
        return people.NOBODY
    if seat.level:
        return "the computer"
    return person_name(seat.user.username if seat.user_id else None, seat.guest_name)


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


def time_left(deadline: datetime | None, now: datetime) -> str:
    """How long the side to move has, in words, never more than it has: "2 days
    left", "1 day 5 hours left", "40 minutes left"; "no time limit" without one."""
    if deadline is None:
        return "no time limit"
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "no time left"
    days, hours, minutes = seconds // 86400, seconds % 86400 // 3600, seconds % 3600 // 60
    if days >= 2:
        words = _plural(days, "day")
    elif days == 1:
        words = "1 day" + (f" {_plural(hours, 'hour')}" if hours else "")
    elif hours:
        words = _plural(hours, "hour")
    elif minutes:
        words = _plural(minutes, "minute")
    else:
        return "less than a minute left"
    return f"{words} left"
