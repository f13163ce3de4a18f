"""News of games, pushed to the pages that watch them as server-sent events.

Each server process keeps one ``Newsroom``. A page's stream subscribes to its game
there and waits, a coroutine and nothing more, until the newsroom tells it the game
changed. The newsroom hears of changes through the database every process already
shares, so a move made by another process, another host or the computer's worker
reaches every stream:

- on PostgreSQL, by ``LISTEN``: every change of a game sends ``NOTIFY`` in the
  transaction that makes it (``tell``, called by ``game.news.announce`` as it hears
  ``game.hooks.game_changed``), delivered when it commits;
- on SQLite (one host), by reading every ``LIVE_WATCH_SECONDS`` the games changed
  since its last look (an index on ``Game.updated`` makes that cost follow the
  moves, not the games watched), and at once after a change this process made.

Either way one thread per process does the listening, however many streams it
serves, and a stream filters what it hears by revision, so news heard twice or out
of order is never sent twice.

The kit reads its channels itself; the games' news it reads through the source the
game app adds as it starts (``add_source``: ``game.news``), so it knows no game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections, router, transaction
from django.utils import timezone

from kit import counters
from kit.models import Channel

logger = logging.getLogger(__name__)

# The PostgreSQL channel on which every change of a game is announced.
NEWS_CHANNEL = "maerstanas_news"

# How long a browser waits before reconnecting a stream that broke.
RETRY_MILLISECONDS = 1000
# SQLite's limit on a statement's parameters is far above this; chunks keep each
# statement small whatever it is.
CHUNK = 500


class Changing(Protocol):
    """What has news: a game, which counts its changes, its moves, and knows if it is over."""

    revision: int
    ply: int

    @property
    def is_over(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class News:
    """What a watching page needs to know of a game: that it changed, and where it is."""

    revision: int
    ply: int
    over: bool

    @classmethod
    def of(cls, game: Changing) -> News:
        """The news of a game as it is now."""
        return cls(game.revision, game.ply, game.is_over)

    def payload(self, game_id: str) -> str:
        """The ``NOTIFY`` payload of this news of game ``game_id`` (``parse`` reads it)."""
        return f"{game_id} {self.revision} {self.ply} {int(self.over)}"

    @classmethod
    def parse(cls, payload: str) -> tuple[str, News]:
        """The game id and news of a ``NOTIFY`` payload (``payload``'s)."""
        game_id, revision, ply, over = payload.split()
        return game_id, cls(int(revision), int(ply), over == "1")

    def event(self) -> str:
        """The server-sent event: its id is the revision, so a reconnect resumes there."""
        data = json.dumps({"revision": self.revision, "ply": self.ply, "over": self.over})
        return f"id: {self.revision}\nevent: move\ndata: {data}\n\n"


# How far back each look on SQLite reaches before the previous one: a change is
# stamped before its transaction commits, and may become visible a little later.
_OVERLAP = timedelta(seconds=0.5)
# And every so often the newsroom reads every watched game, in case a commit came
# later still (a stalled process): news is then late, never lost.
_SWEEP_SECONDS = 2.0


def read_once(game_id: str) -> News | None:
    """The news of one game, read by a stream as it opens; None if there is no such game."""
    return read_news([game_id]).get(game_id)


def _close_connections() -> None:
    """Close this thread's database connections, unless a transaction holds them."""
    # Closing a connection that never connected does nothing: whether the ones this
    # thread never opened are looked at too changes nothing.
    for connection in connections.all(initialized_only=True):  # pragma: no mutate
        if not connection.in_atomic_block:
            connection.close()


# A channel's topic is its name after this mark, which no game id holds.
CHANNEL = "~"


class Source(Protocol):
    """What keeps the topics that are not channels (the games): their news, read from
    the database. The app that keeps them adds itself with ``add_source``."""

    def changed(self, since: datetime) -> dict[str, News]:
        """The news of every topic changed since ``since``."""

    def read(self, topics: list[str]) -> dict[str, News]:
        """The news of each of these topics that exists."""


_sources: list[Source] = []


def add_source(source: Source) -> None:
    """Let the streams hear of ``source``'s topics (once, however often it is added)."""
    if source not in _sources:
        _sources.append(source)


def read_changed(since: datetime) -> dict[str, News]:
    """The news of every game and channel changed since ``since``."""
    news: dict[str, News] = {}
    for source in _sources:
        news |= source.changed(since)
    channels = Channel.objects.filter(updated__gte=since).values_list("name", "revision")
    return news | {CHANNEL + name: News(revision, 0, False) for name, revision in channels}


def read_news(topics: Iterable[str]) -> dict[str, News]:
    """The news of each of these games and channels that exists, read from the database."""
    ids, names = [], []
    for topic in topics:
        (names if topic.startswith(CHANNEL) else ids).append(topic.removeprefix(CHANNEL))
    found: dict[str, News] = {}
    for start in range(0, len(ids), CHUNK):
        for source in _sources:
            found |= source.read(ids[start : start + CHUNK])
    for start in range(0, len(names), CHUNK):
        rows = Channel.objects.filter(name__in=names[start : start + CHUNK])
        for name, revision in rows.values_list("name", "revision"):
            found[CHANNEL + name] = News(revision, 0, False)
    return found


def bump(name: str) -> int:
    """Count a change of channel ``name`` in the current transaction, tell the streams
    of every process as it commits (as ``announce`` does a game's), and return the
    channel's new revision."""
    # ``updated`` is set too: the newsroom on SQLite looks for what changed by it.
    values = (name, timezone.now())
    revision = counters.count_up(Channel, "name", "revision", "updated", values, restamp=True)
    tell(CHANNEL + name, News(revision, 0, False), router.db_for_write(Channel))
    return revision


class Subscription:
    """One stream's wait for news of its game, on its own event loop."""

    __slots__ = ("game_id", "loop", "_news", "_ready")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self._news: News | None = None
        self._ready = asyncio.Event()

    def deliver(self, news: News) -> None:
        """Hand ``news`` to the stream's event loop (from the newsroom's thread)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server stops
            self.loop.call_soon_threadsafe(self._receive, news)

    def _receive(self, news: News) -> None:
        """Keep the newest news; older news, heard late, is dropped."""
        # News of one revision is always the same news: keeping the first or the last
        # heard of it is all one.
        if self._news is None or news.revision > self._news.revision:  # pragma: no mutate
            self._news = news
            self._ready.set()

    async def next(self, timeout: float) -> News | None:
        """The newest news, once there is some; None if ``timeout`` seconds pass first."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            return None
        self._ready.clear()
        news, self._news = self._news, None
        return news


def _receive_all(deliveries: list[tuple[Subscription, News]]) -> None:
    for subscription, news in deliveries:
        subscription._receive(news)


class Newsroom:
    """The games this process's streams watch, and the one thread that listens for them."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscription]] = {}
        self._watching = threading.Event()  # set while any stream is open
        self._nudged = threading.Event()  # set when this process changed a game
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    def subscribe(self, game_id: str) -> Subscription:
        subscription = Subscription(game_id)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(subscription)
            self._watching.set()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="newsroom", daemon=True)
                self._thread.start()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            watchers = self._subscribers.get(subscription.game_id, set())
            watchers.discard(subscription)
            if not watchers:
                self._subscribers.pop(subscription.game_id, None)
            if not self._subscribers:
                self._watching.clear()

    def close(self, timeout: float = 5) -> None:
        """Stop the listening thread (within one look on SQLite, a second on PostgreSQL)."""
        self._closing.set()
        self._watching.set()
        self._nudged.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def streams(self) -> int:
        """How many streams are open in this process."""
        with self._lock:
            return sum(map(len, self._subscribers.values()))

    def publish(self, news_of: dict[str, News]) -> None:
        """Tell each stream watching one of these games its news: one call into each
        event loop, however many of its streams hear it (two thousand lobby pages
        woken one call each would queue two thousand wake-ups of the loop)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Subscription, News]]] = {}
        with self._lock:
            for game_id, news in news_of.items():
                for subscription in self._subscribers.get(game_id, ()):
                    by_loop.setdefault(subscription.loop, []).append((subscription, news))
        for loop, deliveries in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server stops
                loop.call_soon_threadsafe(_receive_all, deliveries)

    def _watched(self) -> list[str]:
        with self._lock:
            return list(self._subscribers)

    def _run(self) -> None:
        while not self._closing.is_set():
            try:
                if connections["default"].vendor == "postgresql":
                    self._listen()
                else:
                    self._watch()
            except Exception:
                logger.exception("the newsroom lost the database; listening again in 1 s")
                close_old_connections()
                time.sleep(1)

    def nudge(self) -> None:
        """Look at once: this process committed a change (SQLite)."""
        self._nudged.set()

    def _watch(self) -> None:
        """SQLite: every interval, or at once after a change here, read what changed."""
        known: dict[str, int] = {}
        since = datetime.now(UTC) - _OVERLAP
        swept = time.monotonic()
        while True:
            self._watching.wait()
            self._nudged.wait(self.interval)
            self._nudged.clear()
            if self._closing.is_set():
                return
            started = datetime.now(UTC)
            watched = self._watched()
            if time.monotonic() - swept > _SWEEP_SECONDS:
                fresh, swept = read_news(watched), time.monotonic()
            else:
                fresh = read_changed(since)
            changed = {
                game_id: news
                for game_id, news in fresh.items()
                if known.get(game_id) != news.revision and game_id in self._subscribers
            }
            known = {game_id: known[game_id] for game_id in known.keys() & set(watched)}
            known.update((game_id, news.revision) for game_id, news in changed.items())
            since = started - _OVERLAP
            if changed:
                self.publish(changed)

    def _listen(self) -> None:
        """PostgreSQL: wait for ``NOTIFY``; after (re)connecting, read what was missed."""
        import psycopg

        params = connections["default"].get_connection_params()
        with psycopg.connect(**params, autocommit=True) as connection:
            connection.execute(f"LISTEN {NEWS_CHANNEL}")
            try:  # what changed while nobody listened
                self.publish(read_news(self._watched()))
            finally:
                _close_connections()
            while not self._closing.is_set():
                for notice in connection.notifies(timeout=1):
                    game_id, news = News.parse(notice.payload)
                    self.publish({game_id: news})


class Broadcast:
    """One topic's news for every stream of one event loop that waits on it.

    Each stream of a game holds its own ``Subscription``: a game has a few pages
    open. The lobby has thousands, all on one topic, and each waking on its own
    (a task and a timer a stream a change) cost more than everything else a change
    does. A broadcast holds one subscription while any stream listens, keeps the
    newest news in ``latest``, and wakes its streams through one future.

    A stream enters ``listening()`` before it reads where it stands, then goes on
    while ``latest`` is newer than what it has sent, and otherwise waits on
    ``changed()``: news that comes between the two is in ``latest``, never lost.
    """

    def __init__(self, room: Newsroom, topic: str) -> None:
        self._room = room
        self.topic = topic
        self.latest: News | None = None
        self._listeners = 0
        self._changed: asyncio.Future[News] | None = None
        self._pump: asyncio.Task[None] | None = None
        self._subscription: Subscription | None = None

    @contextlib.contextmanager
    def listening(self) -> Iterator[Broadcast]:
        self._listeners += 1
        if self._pump is None:
            self.latest = None  # heard by a pump that has stopped: maybe stale
            self._subscription = self._room.subscribe(self.topic)
            self._pump = asyncio.get_running_loop().create_task(self._run(self._subscription))
        try:
            yield self
        finally:
            self._listeners -= 1
            if not self._listeners and self._pump is not None:
                self._pump.cancel()
                self._room.unsubscribe(self._subscription)
                self._pump = None

    def changed(self) -> asyncio.Future[News]:
        """A future that becomes the topic's next news."""
        if self._changed is None or self._changed.done():
            self._changed = asyncio.get_running_loop().create_future()
        return self._changed

    async def _run(self, subscription: Subscription) -> None:
        while True:
            news = await subscription.next(_PUMP_SECONDS)
            if news is None:
                continue
            if self.latest is None or news.revision > self.latest.revision:
                self.latest = news
            changed, self._changed = self._changed, None
            if changed is not None and not changed.done():
                changed.set_result(news)


# A broadcast's wait for news has no end of its own: its streams keep their time.
_PUMP_SECONDS = 3600.0
_broadcasts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Broadcast]] = (
    weakref.WeakKeyDictionary()
)


def broadcast(topic: str) -> Broadcast:
    """The running event loop's broadcast of ``topic``."""
    of_loop = _broadcasts.setdefault(asyncio.get_running_loop(), {})
    if topic not in of_loop:
        of_loop[topic] = Broadcast(newsroom(), topic)
    return of_loop[topic]


_newsroom: Newsroom | None = None
_newsroom_lock = threading.Lock()


def tell(topic: str, news: News, using: str) -> None:
    """Tell the streams of every process of ``topic``'s news, as the transaction on
    ``using`` commits: on PostgreSQL by ``NOTIFY`` (sent now, delivered at the commit);
    on SQLite this process's newsroom looks at once after the commit, the others at
    their next look."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [NEWS_CHANNEL, news.payload(topic)])
    room = _newsroom
    if room is not None:
        transaction.on_commit(room.nudge, using=using)


def newsroom() -> Newsroom:
    """This process's newsroom."""
    global _newsroom
    with _newsroom_lock:
        if _newsroom is None:
            _newsroom = Newsroom(settings.LIVE_WATCH_SECONDS)
        return _newsroom


async def stream(
    game_id: str, since: int, on_close: Callable[[], None] | None = None
) -> AsyncIterator[str]:
    """The events of a game's stream for a page at revision ``since``.

    It subscribes before it reads the game, so no change falls between the two. It
    ends, after saying so, once the game is over; while nothing happens it sends a
    comment every ``LIVE_KEEPALIVE_SECONDS`` so that proxies keep it open. After
    ``LIVE_STREAM_SECONDS`` it ends anyway and the browser opens a new one, from the
    revision it has: a stream left open by a forgotten tab is not kept for ever.
    ``on_close`` is called once it ends, however it ends.
    """
    room = newsroom()
    subscription = room.subscribe(game_id)
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.LIVE_STREAM_SECONDS
    try:
        news = await sync_to_async(read_once)(game_id)
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        while True:
            if news is not None:
                if news.revision > since:
                    since = news.revision
                    yield news.event()
                if news.over:
                    yield "event: end\ndata: over\n\n"
                    return
            left = ends - loop.time()
            if left <= 0:
                yield ": time to reconnect\n\n"
                return
            news = await subscription.next(min(settings.LIVE_KEEPALIVE_SECONDS, left))
            if news is None and loop.time() < ends:
                yield ": keep-alive\n\n"
    finally:
        room.unsubscribe(subscription)
        if on_close is not None:
            on_close()
