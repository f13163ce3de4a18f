"""Every action on a challenge, one transaction each; views and the API call these.

A challenge's changes are counted on the lobby's channel (``kit.live.bump``): each
open lobby page hears of them and asks for what changed since the revision it shows
(``lobby.live``). Changes that concern one account (a challenge to it, its
challenge accepted or declined) are counted on that account's channel too, which
its lobby page and a program's event stream listen to.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import salted_hmac

from game import clocks, play, seats
from game.models import Game
from game.options import Options
from game.ratings import START
from game.registry import kind_of
from game.surface import (
    Color,
)
from game.tokens import hash_token, new_seat_token
from kit import live
from lobby import signals
from lobby.models import Challenge
from players import blocking
from players.models import Block, Rating, blocks

LOBBY = "lobby"
DEFAULT_RATING = START


def user_channel(user_id: int) -> str:
    """The channel of one account's news: challenges to it, its challenges' fate."""
    return f"user:{user_id}"


class ChallengeError(play.PlayError):
    """A challenge refused for a reason the player should read; nothing changed."""


class ChallengeGone(ChallengeError):
    """Accepted by someone else, cancelled or withdrawn already."""

    status = 409


class NoSuchChallenge(ChallengeError):
    status = 404


class NotFromYou(ChallengeError):
    """The player asked blocked the one asking: said so in no more words than that."""

    status = 403


class TooManyToOne(ChallengeError):
    status = 429


# One account posting and cancelling challenges to one player sent them 30 mails in
# 2 s. A few an hour is room enough to change one's mind about the terms; past it the
# challenge is refused, and its poster told why, rather than posted unannounced: the
# player would then find challenges in the lobby they were never told of.
CHALLENGES_TO_ONE = 5


@dataclass(frozen=True)
class Who:
    """Whoever acts: an account, or a guest known by the key of "My games"; ``posted``,
    the challenges whose seat tokens its browser keeps (it posted them, perhaps as a
    guest before it logged in)."""

    owner: str
    user: Any = None
    guest_name: str = ""
    posted: frozenset[str] = frozenset()
    address: str = ""  # a guest's, as ``address_key`` keeps it

    @property
    def is_account(self) -> bool:
        return self.user is not None

    @cached_property
    def blocked_by(self) -> frozenset[int]:
        """The accounts that blocked this one, read once however many challenges ask."""
        if not self.is_account:
            return frozenset()
        return frozenset(
            Block.objects.filter(blocked=self.user).values_list("blocker_id", flat=True)
        )


def address_key(client: str) -> str:
    """A guest's address (``limits.client_of``) as a challenge keeps it: hashed with the
    site's secret, so the table holds no address."""
    return salted_hmac("lobby.address", client).hexdigest()[:32]


@dataclass(frozen=True)
class Terms:
    """What a challenge offers."""

    rules: Options
    speed: str
    color: str = Challenge.Color.RANDOM
    rated: bool = False
    initial: int = 0
    increment: int = 0
    days: int = 0
    rating_min: int | None = None
    rating_max: int | None = None


def rating_of(user: Any, family: str) -> float:
    """``user``'s rating in ``family``: the starting one until they play a rated game."""
    rating = Rating.objects.filter(user=user, family=family).values_list("value", flat=True)
    return next(iter(rating), DEFAULT_RATING)


def _changed(challenge: Challenge, *users: Any) -> None:
    """Count a change of ``challenge`` on the lobby's channel (and the channels of
    ``users``, the accounts it concerns), in the current transaction."""
    challenge.revision = live.bump(LOBBY)
    for user in users:
        if user is not None:
            live.bump(user_channel(user.pk))


def create(who: Who, terms: Terms, to_user: Any = None) -> tuple[Challenge, str]:
    """Post a challenge; return it and the seat token its creator holds for the game it
    becomes (the browser keeps it until then, ``lobby.views``). Refused when it asks
    what its creator may not: a rated game as a guest, more open challenges than
    ``LOBBY_OPEN_CHALLENGES`` (a guest's, and its address's guests' together), a
    challenge to oneself."""
    if terms.rated and not who.is_account:
        raise ChallengeError("a rated game is between accounts: log in or sign up to offer one")
    if to_user is not None and not who.is_account:
        raise ChallengeError("log in or sign up to challenge a player by name")
    if to_user is not None and who.user.pk == to_user.pk:
        raise ChallengeError("you cannot challenge yourself")
    if to_user is not None and blocks(to_user.pk, who.user.pk):
        raise NotFromYou(f"{to_user.username} is not taking challenges from you")
    if (terms.rating_min is not None or terms.rating_max is not None) and not terms.rated:
        raise ChallengeError("a rating range is for rated challenges")
    if terms.speed == Game.Speed.LIVE and terms.initial <= 0:
        raise ChallengeError("a live game needs some time on its clocks")
    token = new_seat_token()
    limit = settings.LOBBY_OPEN_CHALLENGES
    with transaction.atomic():
        mine = Challenge.objects.select_for_update().filter(owner=who.owner, status="open")
        if len(mine.values_list("pk", flat=True)) >= limit:
            raise ChallengeError(
                f"you have {limit} open challenges already: cancel one to post another"
            )
        if not who.is_account and who.address:
            # A guest is a browser or a program: a new one costs nothing, an address more.
            here = Challenge.objects.select_for_update().filter(
                address=who.address, status="open", creator=None
            )
            if len(here.values_list("pk", flat=True)) >= limit:
                raise ChallengeError(
                    f"guests from your address have {limit} open challenges already: "
                    "wait for one to be taken, or log in to post yours"
                )
        if to_user is not None:
            _not_too_many_to(who.user, to_user)
        kind = kind_of(terms.rules)
        challenge = Challenge(
            kind=kind.name,
            options=terms.rules.to_mapping(),
            color=terms.color,
            rated=terms.rated,
            speed=terms.speed,
            initial=terms.initial if terms.speed == Game.Speed.LIVE else 0,
            increment=terms.increment if terms.speed == Game.Speed.LIVE else 0,
            days=terms.days if terms.speed == Game.Speed.CORRESPONDENCE else 0,
            rating_min=terms.rating_min,
            rating_max=terms.rating_max,
            creator=who.user,
            owner=who.owner,
            creator_name="" if who.is_account else who.guest_name,
            creator_rating=None,
            token_hash=hash_token(token),
            to_user=to_user,
            seen=timezone.now(),
            address="" if who.is_account else who.address,
        )
        if who.is_account:
            challenge.creator_rating = rating_of(who.user, challenge.rating_family)
        _changed(challenge, who.user, to_user)
        challenge.save()
        transaction.on_commit(lambda: signals.challenge_made.send(Challenge, challenge=challenge))
    return challenge, token


def _not_too_many_to(creator: Any, to_user: Any) -> None:
    """Raise ``TooManyToOne`` once ``creator`` challenged ``to_user`` ``CHALLENGES_TO_ONE``
    times within the hour, however each challenge ended. Counted on the challenges'
    own rows, under the creator's lock: the count holds across every server process."""
    since = timezone.now() - timedelta(hours=1)
    recent = Challenge.objects.filter(creator=creator, to_user=to_user, created__gte=since)
    if recent.count() >= CHALLENGES_TO_ONE:
        raise TooManyToOne(
            f"you have challenged {to_user.username} {CHALLENGES_TO_ONE} times in the last "
            "hour: wait for an answer, or try again later"
        )


def _open(public_id: str) -> Challenge:
    """The challenge, its row locked for the transaction; raise if it is not open."""
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("creator", "to_user")
        .filter(public_id=public_id)
        .first()
    )
    if challenge is None:
        raise NoSuchChallenge("there is no such challenge")
    if not challenge.is_open:
        words = {
            "accepted": "someone accepted it first",
            "cancelled": "its creator cancelled it",
            "declined": "it was declined",
            "withdrawn": "its creator left the lobby",
        }
        raise ChallengeGone(f"this challenge is no longer open: {words[challenge.status]}")
    return challenge


def refusal(challenge: Challenge, who: Who) -> str:
    """Why ``who`` may not accept ``challenge``, or "" when they may."""
    own_account = who.is_account and challenge.creator_id == who.user.pk
    if challenge.owner == who.owner or own_account or challenge.public_id in who.posted:
        return "this is your own challenge: wait for someone to accept it"
    if challenge.to_user_id is not None and (
        not who.is_account or who.user.pk != challenge.to_user_id
    ):
        return "this challenge is for another player"
    # A blocker's open challenges are not for the players they blocked; one they made to
    # such a player by name, they chose to make.
    if challenge.to_user_id is None and challenge.creator_id in who.blocked_by:
        return f"{challenge.creator.username} is not taking challenges from you"
    if challenge.rated and not who.is_account:
        return "a rated game is between accounts: log in or sign up to accept it"
    if challenge.rating_min is not None or challenge.rating_max is not None:
        if not who.is_account:
            return "this challenge is for accounts in a rating range: log in to accept it"
        rating = rating_of(who.user, challenge.rating_family)
        low, high = challenge.rating_min, challenge.rating_max
        if (low is not None and rating < low) or (high is not None and rating > high):
            bounds = f"{low if low is not None else 0}–{high if high is not None else '…'}"
            return f"this challenge is for ratings {bounds}; yours is {rating:.0f}"
    return ""


def accept(public_id: str, who: Who) -> tuple[Challenge, Game, dict[str, str]]:
    """Accept an open challenge: the game starts at once. Return the challenge, the
    game and the seat token of the one who accepted, by colour."""
    token = new_seat_token()
    with transaction.atomic():
        challenge = _open(public_id)
        if why := refusal(challenge, who):
            raise ChallengeError(why)
        color = challenge.color
        if color == Challenge.Color.RANDOM:
            color = random.SystemRandom().choice([c.value for c in Color])
        theirs = Color(color).opponent.value
        people = {
            color: play.Person(challenge.token_hash, challenge.creator, challenge.creator_name),
            theirs: play.Person(hash_token(token), who.user, "" if who.user else who.guest_name),
        }
        game = play.create_match(
            challenge.rules,
            people,
            rated=challenge.rated,
            speed=challenge.speed,
            initial=challenge.initial,
            increment=challenge.increment,
            days=challenge.days,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.game = game
        _changed(challenge, challenge.creator, who.user)
        challenge.save(update_fields=["status", "game", "revision", "updated"])
        # Both players' lists of games hold it, whoever goes to the game first.
        seats.list_game(challenge.owner, game, [color])
        seats.list_game(who.owner, game, [theirs])
        transaction.on_commit(
            lambda: signals.challenge_accepted.send(Challenge, challenge=challenge, game=game)
        )
    return challenge, game, {theirs: token}


def cancel(public_id: str, who: Who) -> Challenge:
    """The creator takes back an open challenge."""
    with transaction.atomic():
        challenge = _open(public_id)
        if challenge.owner != who.owner:
            raise play.NotSeated("only the player who posted this challenge can cancel it")
        _cancelled(challenge, Challenge.Status.CANCELLED)
    return challenge


def _cancelled(challenge: Challenge, status: str) -> None:
    """Close ``challenge`` unanswered (``status``: cancelled or withdrawn), in the
    current transaction; its notice goes once that commits."""
    challenge.status = status
    _changed(challenge, challenge.creator, challenge.to_user)
    challenge.save(update_fields=["status", "revision", "updated"])
    transaction.on_commit(lambda: signals.challenge_cancelled.send(Challenge, challenge=challenge))


@receiver(blocking.player_blocked, dispatch_uid="lobby.withdraw_blocked")
def _withdraw_on_block(sender: Any, blocker: Any, blocked: Any, **kwargs: Any) -> None:
    withdraw_blocked(blocker, blocked)


def withdraw_blocked(blocker: Any, blocked: Any) -> int:
    """Withdraw the open challenges ``blocked`` made to ``blocker``, who has just
    blocked them; how many. Part of the caller's transaction."""
    found = Challenge.objects.select_for_update().filter(
        creator=blocked, to_user=blocker, status=Challenge.Status.OPEN
    )
    withdrawn = list(found.select_related("creator", "to_user"))
    for challenge in withdrawn:
        _cancelled(challenge, Challenge.Status.WITHDRAWN)
    return len(withdrawn)


def decline(public_id: str, who: Who) -> Challenge:
    """The named player says no to a challenge to them."""
    with transaction.atomic():
        challenge = _open(public_id)
        if challenge.to_user_id is None or not who.is_account:
            raise play.NotSeated("only the player this challenge is for can decline it")
        if who.user.pk != challenge.to_user_id:
            raise play.NotSeated("only the player this challenge is for can decline it")
        challenge.status = Challenge.Status.DECLINED
        _changed(challenge, challenge.creator, challenge.to_user)
        challenge.save(update_fields=["status", "revision", "updated"])
        transaction.on_commit(
            lambda: signals.challenge_declined.send(Challenge, challenge=challenge)
        )
    return challenge


# A guest's challenge stands while its guest is there: its lobby page says so (``seen``)
# at least every ``SEEN_EVERY``, as a program does by asking about its challenge. A
# live one is taken as gone ``GONE`` after, a correspondence or unlimited one
# ``GONE_UNHURRIED`` after: a game of days may wait for its guest's next visit, not
# for ever.
SEEN_EVERY = timedelta(seconds=20)
GONE = timedelta(seconds=60)
GONE_UNHURRIED = timedelta(days=1)


def gone_after(speed: str) -> timedelta:
    """How long after its guest was last there a guest's challenge of ``speed`` lapses."""
    return GONE if speed == Game.Speed.LIVE else GONE_UNHURRIED


def seen(owner: str) -> int:
    """The guest ``owner`` is there: its challenges stand; how many."""
    return Challenge.objects.filter(owner=owner, status="open", creator=None).update(
        seen=timezone.now()
    )


def withdraw_if_gone(public_id: str) -> timedelta | None:
    """Withdraw a guest's challenge whose guest has gone (``gone_after``); if it is still
    there, how long until it should be looked at again (None: nothing to do)."""
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(public_id=public_id).first()
        if challenge is None or not challenge.is_open or challenge.creator_id is not None:
            return None
        now = timezone.now()
        last = challenge.seen or challenge.created
        gone = gone_after(challenge.speed)
        if now - last < gone:
            return last + gone - now + timedelta(seconds=1)
        _cancelled(challenge, Challenge.Status.WITHDRAWN)
    return None


def withdraw_lapsed() -> int:
    """Withdraw every guest's challenge whose guest has gone, its look-up lost or never
    set (those posted before every speed lapsed); how many. The daily pruning's."""
    now = timezone.now()
    lapsed = Challenge.objects.filter(status="open", creator=None).filter(
        Q(speed=Game.Speed.LIVE, seen__lt=now - GONE)
        | (~Q(speed=Game.Speed.LIVE) & Q(seen__lt=now - GONE_UNHURRIED))
        | Q(seen=None, created__lt=now - GONE_UNHURRIED)
    )
    ids = list(lapsed.values_list("public_id", flat=True))
    for public_id in ids:
        withdraw_if_gone(public_id)
    return Challenge.objects.filter(public_id__in=ids, status=Challenge.Status.WITHDRAWN).count()


def open_challenges(limit: int = 200):
    """The lobby's open challenges, newest first (those to a named player are not)."""
    return (
        Challenge.objects.filter(status="open", to_user=None)
        .select_related("creator", "creator__account")
        .order_by("-revision")[:limit]
    )


def clock_terms(challenge: Challenge) -> str:
    return clocks.describe(challenge.speed, challenge.initial, challenge.increment, challenge.days)
