"""``/watch/``: the games being played now between people, and against the strongest
computer player, newest move first, each with its players, a small board and how many
watch it; and the stream that tells the page when to look again.

The page's stream hears, through the newsroom every live page uses (``kit.live``),
of each game it shows and of the channel ``WATCH``, which is counted when a game
between people starts or ends: it then sends ``watch`` (at most one a second), and
the page asks for its list again (``?part=list``), each viewer the same list.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, NamedTuple

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, Prefetch, Q, QuerySet
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from game import clocks, hooks, people
from game.kinds import GameKind
from game.miniature import MiniBoard, mini_board
from game.models import Game, Seat
from game.registry import KINDS, named_apart
from game.surface import (
    Color,
)
from kit import audience, live
from kit.models import Channel
from kit.streams import admit_stream, no_stream_here, not_an_event_stream, streaming
from lobby import signals

# The channel counted when a game between people starts or ends.
WATCH = "watch"
# The most games the page lists.
SHOWN = 50
# A stream sends at most one event in this many seconds, however much happens.
EVENT_GAP = 1.0


def strongest(game: Game) -> bool:
    """Whether the computer plays ``game`` at its kind's strongest level."""
    top = game.game_kind.players.strongest.id
    return any(seat.level == top for seat in game.seats_by_color().values())


def shown(game: Game) -> bool:
    """Whether ``game`` is of those the page lists (going on or not)."""
    if game.mode == Game.Mode.FRIEND:
        return True
    return game.mode == Game.Mode.COMPUTER and strongest(game)


def watched_games() -> QuerySet[Game]:
    """The games the page lists: in play between people, or against the strongest
    level of their kind, the one moved (or changed) last first."""
    against_the_strongest = Q()
    for kind in KINDS.values():
        top = Seat.objects.of_each_game().at_level(kind.players.strongest.id)
        against_the_strongest |= Q(kind=kind.name) & Exists(top)
    return (
        Game.objects.filter(status=Game.Status.ACTIVE)
        .filter(Q(mode=Game.Mode.FRIEND) | (Q(mode=Game.Mode.COMPUTER) & against_the_strongest))
        .order_by("-updated", "-pk")
    )


class Side(NamedTuple):
    """Who plays one side of a listed game."""

    color: str
    name: str
    username: str  # "" for a guest or the computer
    rating: float | None  # an account's, in the game's family
    computer: bool
    bot: bool  # an account a program plays


class Listed(NamedTuple):
    """One game of the list."""

    game: Game
    sides: tuple[Side, ...]
    time_control: str  # "" for a game without a clock
    watchers: int
    board: MiniBoard
    kind: GameKind | None  # the game, when it is not the site's usual one


def _side(game: Game, color: str, seat: Seat | None, ratings: dict) -> Side:
    if seat is None:
        return Side(color, people.NOBODY, "", None, False, False)
    if seat.level:
        players = game.game_kind.players
        return Side(color, players.level(seat.level).name, "", None, True, False)
    if seat.user is None:
        person = people.of_guest(seat.guest_name)
    else:
        person = people.of_account(seat.user, ratings.get((seat.user_id, game.rating_family)))
    return Side(color, person.name, person.username, person.rating, False, person.bot)


def listed() -> list[Listed]:
    """The games of the page, each with what it shows: a few queries, however many."""
    seats = Seat.objects.select_related("user", "user__account")
    games = list(watched_games().prefetch_related(Prefetch("seats", queryset=seats))[:SHOWN])
    users = {seat.user_id for game in games for seat in game.seats.all() if seat.user_id}
    ratings = people.ratings_of(users, {game.rating_family for game in games})
    watchers = audience.watching_many(game.public_id for game in games)
    found = []
    for game in games:
        by_color = game.seats_by_color()
        sides = tuple(_side(game, c.value, by_color.get(c.value), ratings) for c in Color)
        timed = game.speed != Game.Speed.UNLIMITED
        terms = (game.speed, game.clock_initial, game.clock_increment, game.days)
        found.append(
            Listed(
                game=game,
                sides=sides,
                time_control=clocks.describe(*terms) if timed else "",
                watchers=watchers.get(game.public_id, 0),
                board=mini_board(game.kind, game.rules, game.position_text),
                kind=named_apart(game.kind),
            )
        )
    return found


@never_cache
@require_safe
def watch(request: HttpRequest) -> HttpResponse:
    """The games to watch; ``?part=list`` is the list alone, which the live page swaps."""
    context = {"games": listed()}
    if request.GET.get("part") == "list":
        return render(request, "lobby/_watch_list.html", context)
    return render(request, "lobby/watch.html", context)


# The live page ---------------------------------------------------------------------------


def topics() -> dict[str, int]:
    """What a watch page's stream follows, with each one's revision now: every game
    listed, and the channel ``WATCH``."""
    games = watched_games().values_list("public_id", "revision")[:SHOWN]
    found = dict(games)
    channel = Channel.objects.filter(name=WATCH).values_list("revision", flat=True).first()
    found[live.CHANNEL + WATCH] = channel or 0
    return found


# The topics last read in this process, and when the read began (monotonic seconds).
_last_read: tuple[float, dict[str, int]] = (float("-inf"), {})


def topics_since(moment: float) -> dict[str, int]:
    """``topics()`` as read after ``moment``: every stream of the process hears of a
    change at once, and one read begun after it serves them all."""
    global _last_read
    began, found = _last_read
    if began >= moment:
        return found
    began = time.monotonic()
    found = topics()
    _last_read = (began, found)
    return found


async def _relay(subscription: live.Subscription, revision: int, hear: Callable[[], None]) -> None:
    """Call ``hear`` whenever the subscription's topic moves past ``revision``."""
    while True:
        news = await subscription.next(settings.LIVE_STREAM_SECONDS)
        if news is not None and news.revision > revision:
            revision = news.revision
            hear()


async def events(on_close: Callable[[], None] | None = None) -> AsyncIterator[str]:
    """The events of a watch page: ``watch`` when a game it lists, or the list itself,
    changed, at most once every ``EVENT_GAP`` seconds; a comment every
    ``LIVE_KEEPALIVE_SECONDS`` while nothing happens. It ends after
    ``LIVE_STREAM_SECONDS``, as a game's stream does; ``on_close`` is called once it
    ends, however it ends."""
    room = live.newsroom()
    heard = asyncio.Event()
    heard_at = time.monotonic()  # when the last news was heard
    relays: dict[str, tuple[live.Subscription, asyncio.Task]] = {}
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.LIVE_STREAM_SECONDS

    def hear() -> None:
        nonlocal heard_at
        heard_at = time.monotonic()
        heard.set()

    def follow(now: dict[str, int]) -> None:
        for topic in relays.keys() - now.keys():
            subscription, relay = relays.pop(topic)
            relay.cancel()
            room.unsubscribe(subscription)
        for topic, revision in now.items():
            if topic not in relays:
                subscription = room.subscribe(topic)
                relay = asyncio.ensure_future(_relay(subscription, revision, hear))
                relays[topic] = (subscription, relay)

    try:
        follow(await sync_to_async(topics_since)(heard_at))
        yield f"retry: {live.RETRY_MILLISECONDS}\n\n"
        sent, sent_at = 0, float("-inf")
        while True:
            left = ends - loop.time()
            if left <= 0:
                yield ": time to reconnect\n\n"
                return
            try:
                await asyncio.wait_for(heard.wait(), min(settings.LIVE_KEEPALIVE_SECONDS, left))
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            pause = sent_at + EVENT_GAP - loop.time()
            if pause > 0:  # what happens meanwhile goes with this event
                await asyncio.sleep(pause)
            heard.clear()
            sent, sent_at = sent + 1, loop.time()
            yield f"event: watch\ndata: {sent}\n\n"
            follow(await sync_to_async(topics_since)(heard_at))
    finally:
        for subscription, relay in relays.values():
            relay.cancel()
            room.unsubscribe(subscription)
        if on_close is not None:
            on_close()


@require_safe
async def stream(request: HttpRequest) -> HttpResponse:
    """The watch page's server-sent events (``events``)."""
    if refused := not_an_event_stream(request) or no_stream_here(request):
        return refused
    give_back = admit_stream(request)
    if isinstance(give_back, HttpResponse):
        return give_back
    return streaming(events(on_close=give_back), give_back)


# What changes the list -------------------------------------------------------------------


def bump() -> int:
    """Tell every watch page that the list changed; the channel's new revision."""
    with transaction.atomic():
        return live.bump(WATCH)


@receiver(hooks.game_finished, dispatch_uid="lobby.watch.finished")
def _finished(sender: type[Game], game: Game, **kwargs: Any) -> None:
    if shown(game):
        bump()


@receiver(signals.challenge_accepted, dispatch_uid="lobby.watch.accepted")
def _accepted(sender: type, game: Game, **kwargs: Any) -> None:
    bump()


@receiver(post_save, sender=Game, dispatch_uid="lobby.watch.joined")
def _joined(sender: type[Game], instance: Game, update_fields: Any = None, **kwargs: Any) -> None:
    """A friend game starts as its second player joins by the invite (its status becomes
    active); a move never saves its status while the game goes on."""
    if (
        update_fields
        and "status" in update_fields
        and instance.status == Game.Status.ACTIVE
        and instance.mode == Game.Mode.FRIEND
    ):
        transaction.on_commit(bump)
