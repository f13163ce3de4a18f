"""The actions on a tournament: make one, join, withdraw, start (by its creator, or
at its start time), each in one transaction under the event's row lock
(``state.locked``), so two joins and a start at once leave one consistent event.
What moves an event on as its games end is ``tournaments.rounds``; what it looks
like now, ``tournaments.state``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game import clocks
from game.models import Game
from game.options import Options
from game.registry import kind_of
from game.surface import Color
from kit import limits
from lobby.challenges import rating_of
from tournaments import rounds, state
from tournaments.models import Entry, Message, Tournament
from tournaments.state import NoSuchTournament, NotAllowed, TournamentError

__all__ = ["NoSuchTournament", "NotAllowed", "Terms", "TournamentError"]

# Unfinished events one account may have created at once.
MAX_OPEN_PER_ACCOUNT = 3
# Round-robins stay small: every pair plays.
MAX_ROUND_ROBIN_PLAYERS = 16
SWISS_ROUNDS = (1, 30)
ARENA_MINUTES = (2, 720)


@dataclass(frozen=True)
class Terms:
    """What an event is: its game, system, length, time control and who may join."""

    rules: Options
    system: str
    rounds: int = 0
    minutes: int = 0
    rated: bool = True
    speed: str = Game.Speed.LIVE
    initial: int = 0
    increment: int = 0
    days: int = 0
    starts_at: datetime | None = None
    min_rating: int | None = None
    password: str = ""
    name: str = ""
    berserk: bool = False

    def check(self) -> None:
        """Raise ``TournamentError`` naming what does not make an event."""
        if self.system not in Tournament.System.values:
            raise TournamentError("the system is arena, swiss or round-robin")
        if self.system == Tournament.System.SWISS and not (
            SWISS_ROUNDS[0] <= self.rounds <= SWISS_ROUNDS[1]
        ):
            raise TournamentError(f"a Swiss has {SWISS_ROUNDS[0]} to {SWISS_ROUNDS[1]} rounds")
        if self.system == Tournament.System.ROUND_ROBIN and self.rounds not in (1, 2):
            raise TournamentError("a round-robin is played once (1) or twice (2) round")
        if self.system == Tournament.System.ARENA:
            if not ARENA_MINUTES[0] <= self.minutes <= ARENA_MINUTES[1]:
                raise TournamentError(
                    f"an arena lasts {ARENA_MINUTES[0]} to {ARENA_MINUTES[1]} minutes"
                )
            if self.speed != Game.Speed.LIVE:
                raise TournamentError("an arena is played with a live clock")
        elif self.berserk:
            raise TournamentError("berserk is an arena's: its games score points for it")
        if self.speed == Game.Speed.UNLIMITED:
            raise TournamentError("a tournament's games have a clock or days a move")
        if self.starts_at is not None and self.starts_at <= timezone.now():
            raise TournamentError("the start time is past: choose a later one, or none")

    def default_name(self) -> str:
        kind = kind_of(self.rules)
        system = Tournament.System(self.system).label
        return f"{kind.title} {system}"


def open_of(user: Any) -> int:
    """How many events ``user`` created that have not finished."""
    return (
        Tournament.objects.filter(creator=user).exclude(status=Tournament.Status.FINISHED).count()
    )


# Changing -----------------------------------------------------------------------------


def create(user: Any, terms: Terms) -> Tournament:
    """A new event, made by ``user`` (None: the operator); its creator is not joined."""
    terms.check()
    with transaction.atomic():
        if user is not None:
            # The account's row lock makes two creations at once count each other.
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            if open_of(user) >= MAX_OPEN_PER_ACCOUNT:
                raise TournamentError(
                    f"you have {MAX_OPEN_PER_ACCOUNT} tournaments not yet finished: "
                    "let one end first"
                )
        live_clock = terms.speed == Game.Speed.LIVE
        event = Tournament.objects.create(
            name=(terms.name or terms.default_name())[:60],
            kind=kind_of(terms.rules).name,
            options=terms.rules.to_mapping(),
            system=terms.system,
            rounds=terms.rounds if terms.system != Tournament.System.ARENA else 0,
            minutes=terms.minutes if terms.system == Tournament.System.ARENA else 0,
            rated=terms.rated,
            speed=terms.speed,
            initial=terms.initial if live_clock else 0,
            increment=terms.increment if live_clock else 0,
            days=terms.days if terms.speed == Game.Speed.CORRESPONDENCE else 0,
            starts_at=terms.starts_at,
            min_rating=terms.min_rating,
            berserk=terms.berserk,
            password=make_password(terms.password) if terms.password else "",
            creator=user,
        )
        state.changed(event)
        if event.starts_at is not None:
            from tournaments import tasks  # the worker's: imports this module

            public_id, when = event.public_id, event.starts_at
            transaction.on_commit(lambda: tasks.begin.using(run_after=when).enqueue(public_id))
    return event


def join(user: Any, public_id: str, password: str = "") -> Entry:
    """``user`` joins the event (or comes back to it, after withdrawing); an arena's
    player is paired at once if another is free."""
    with transaction.atomic():
        event = state.locked(public_id)
        if event.status == Tournament.Status.FINISHED:
            raise TournamentError("this tournament is over")
        if (
            event.system == Tournament.System.ROUND_ROBIN
            and event.status != Tournament.Status.CREATED
        ):
            raise TournamentError("a round-robin takes no new players once it has started")
        if (
            event.system == Tournament.System.ARENA
            and event.ends_at
            and timezone.now() >= event.ends_at
        ):
            raise TournamentError("this arena's time is up")
        if event.password and not check_password(password, event.password):
            raise NotAllowed("this tournament is private: its password is needed to join")
        rating = rating_of(user, event.rating_family)
        if event.min_rating is not None and rating < event.min_rating:
            raise NotAllowed(
                f"this tournament is for ratings of {event.min_rating} and up; "
                f"yours is {rating:.0f}"
            )
        entry = Entry.objects.filter(tournament=event, user=user).first()
        if entry is None:
            players = event.entries.filter(withdrawn=False).count()
            if event.system == Tournament.System.ROUND_ROBIN and players >= MAX_ROUND_ROBIN_PLAYERS:
                raise TournamentError(
                    f"a round-robin has at most {MAX_ROUND_ROBIN_PLAYERS} players: it is full"
                )
            entry = Entry.objects.create(tournament=event, user=user, rating=rating)
        elif not entry.withdrawn:
            raise TournamentError("you are in this tournament already")
        else:
            entry.withdrawn, entry.missed = False, 0
            entry.save(update_fields=["withdrawn", "missed"])
        state.changed(event, user.pk)
        if event.status == Tournament.Status.RUNNING and event.system == Tournament.System.ARENA:
            rounds.pair_arena(event)
    return entry


def withdraw(user: Any, public_id: str) -> None:
    """``user`` leaves the event: before it starts, as if never joined; once running,
    they are paired no more (a game they play goes on and counts; a round-robin's
    games not yet started are dropped)."""
    with transaction.atomic():
        event = state.locked(public_id)
        entry = Entry.objects.filter(tournament=event, user=user, withdrawn=False).first()
        if entry is None:
            raise TournamentError("you are not playing in this tournament")
        if event.status == Tournament.Status.FINISHED:
            raise TournamentError("this tournament is over")
        _withdraw(event, entry)
        state.changed(event, user.pk)


def _withdraw(event: Tournament, entry: Entry) -> None:
    if event.status == Tournament.Status.CREATED:
        entry.delete()
        return
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    if event.system == Tournament.System.ROUND_ROBIN:
        rounds.drop_unplayed(event, entry.user_id)
        rounds.advance(event)


def start(user: Any, public_id: str) -> Tournament:
    """Its creator starts the event, once two players have joined."""
    with transaction.atomic():
        event = state.locked(public_id)
        if event.creator_id is None or user is None or event.creator_id != user.pk:
            raise NotAllowed("only the player who made this tournament can start it")
        if event.status != Tournament.Status.CREATED:
            raise TournamentError("this tournament has started already")
        if event.entries.filter(withdrawn=False).count() < 2:
            raise TournamentError("a tournament starts once two players have joined")
        rounds.begin(event)
    return event


def begin_due(public_id: str) -> bool:
    """Start an event at its start time (the worker's task); with fewer than two
    players it ends there, unplayed. Whether it started."""
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(public_id=public_id).first()
        if event is None or event.status != Tournament.Status.CREATED:
            return False
        if event.starts_at is not None and event.starts_at > timezone.now():
            return False  # moved later since: its own task comes then
        if event.entries.filter(withdrawn=False).count() < 2:
            rounds.finish(event)
            return False
        rounds.begin(event)
        return True


def berserk(user: Any, public_id: str) -> Game:
    """``user`` halves their own clock in their arena game, before their first move in
    it, for a point more if they win it; the game, as it stands after."""
    with transaction.atomic():
        event = state.locked(public_id)
        if not event.berserk:
            raise TournamentError("this tournament has no berserk")
        mine = Q(dark=user.pk) | Q(light=user.pk)
        pairing = event.pairings.filter(mine, result="").exclude(game=None).first()
        if pairing is None:
            raise TournamentError("you have no game going on in this tournament")
        game = Game.objects.locked(pairing.game.public_id)
        color = Color.DARK.value if pairing.dark_id == user.pk else Color.LIGHT.value
        if game.is_over or clocks.has_moved(game, color):
            raise TournamentError("berserk is before your first move of a game")
        if getattr(pairing, f"{color}_berserk"):
            raise TournamentError("you went berserk in this game already")
        setattr(pairing, f"{color}_berserk", True)
        pairing.save(update_fields=[f"{color}_berserk"])
        setattr(game, f"{color}_ms", game.clock_initial * 1000 // 2)
        game.save_change(f"{color}_ms")
        state.changed(event)
    return game


# An event's chat: its players, each at most this many lines a minute.
CHAT = limits.Limit("tournament-chat", requests=10, seconds=60)
MAX_MESSAGE = 200


class TooMuchTalk(TournamentError):
    status = 429


def say(user: Any, public_id: str, text: str) -> Message:
    """``user``, a player of the event, says ``text`` (one line, 200 characters at most)
    in its chat; everyone's page shows it."""
    text = " ".join(text.split())
    if not text:
        raise TournamentError("write something to say")
    if len(text) > MAX_MESSAGE:
        raise TournamentError(f"a line of the chat is {MAX_MESSAGE} characters at most")
    with transaction.atomic():
        event = state.locked(public_id)
        if not event.entries.filter(user=user).exists():
            raise NotAllowed("the chat is its players': join to talk")
        try:
            limits.count(CHAT, f"account:{user.pk}")
        except limits.Exceeded as exceeded:
            raise TooMuchTalk(str(exceeded)) from None
        message = Message.objects.create(tournament=event, user=user, name=user.username, text=text)
        state.changed(event)
    return message
