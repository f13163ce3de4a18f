"""The newsroom of live pages (kit.live), in one process: news, subscriptions, streams."""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import sys
import threading
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError, connections, transaction

from game import play
from game.engine import Rules
from game.models import Game
from game.views.common import whole as _whole
from kit import live
from kit.live import News, Newsroom, Subscription
from tests.support import aio


@pytest.fixture(autouse=True)
def quiet_newsroom(monkeypatch):
    """A fresh newsroom whose thread hears nothing: the test publishes the news itself."""
    monkeypatch.setattr(live.Newsroom, "_run", lambda self: None)
    monkeypatch.setattr(live, "_newsroom", None)


def test_news_round_trips_through_a_notify_payload_and_becomes_an_event():
    game_id, news = News.parse("abcDEF123_-x 7 5 1")
    assert game_id == "abcDEF123_-x" and news == News(revision=7, ply=5, over=True)
    assert News.parse("g 2 1 0")[1].over is False
    event = News(7, 5, True).event()
    assert event.startswith("id: 7\nevent: move\ndata: ") and event.endswith("\n\n")
    assert json.loads(event.split("data: ", 1)[1]) == {"revision": 7, "ply": 5, "over": True}


@pytest.mark.parametrize(
    ("text", "revision"),
    [("12", 12), ("0", 0), (None, 0), ("", 0), ("-3", 0), ("x", 0), ("١٢", 0), ("9" * 12, 0)],
)
def test_a_revision_sent_by_the_browser_is_read_as_a_whole_number_or_zero(text, revision):
    assert _whole(text) == revision


def test_a_subscription_keeps_only_the_newest_news_and_times_out_without_any():
    async def scenario():
        room = Newsroom(interval=0.01)
        first, other = room.subscribe("a"), room.subscribe("b")
        assert room.streams() == 2
        room.publish({"a": News(3, 3, False)})
        room.publish({"a": News(2, 2, False)})  # heard late: older than what is waiting
        room.publish({"a": News(4, 4, False)})
        await asyncio.sleep(0)  # the deliveries run on the loop
        got = await first.next(timeout=1)
        nothing = await other.next(timeout=0.01)
        room.unsubscribe(first)
        room.unsubscribe(other)
        return got, nothing, room.streams(), room._watched()

    got, nothing, streams, watched = aio.run(scenario())
    assert got == News(4, 4, False)
    assert nothing is None
    assert streams == 0 and watched == []


def test_unsubscribing_one_stream_keeps_the_others_of_its_game():
    async def scenario():
        room = Newsroom(interval=0.01)
        one, two = room.subscribe("g"), room.subscribe("g")
        room.unsubscribe(one)
        room.publish({"g": News(1, 1, False)})
        return await two.next(timeout=1), room._watched(), room._watching.is_set()

    news, watched, watching = aio.run(scenario())
    assert news == News(1, 1, False) and watched == ["g"] and watching


@pytest.mark.django_db
def test_news_is_read_for_existing_games_only():
    game, _ = play.create_game("hotseat", Rules(), "dark")
    assert live.read_news([game.public_id, "AAAAAAAAAAAA"]) == {game.public_id: News(0, 0, False)}
    assert live.read_news([]) == {}


@pytest.mark.django_db
def test_a_stream_sends_the_current_state_to_a_page_behind_then_news_then_the_end():
    game, tokens = play.create_game("hotseat", Rules(), "dark")
    played = play.make_move(game.public_id, tokens, "D4", "0")

    async def scenario():
        events = live.stream(game.public_id, since=0)
        chunks = [await anext(events), await anext(events)]
        room = live.newsroom()
        assert room.streams() >= 1
        room.publish({game.public_id: News(played.revision, 1, False)})  # heard again
        room.publish({game.public_id: News(played.revision + 1, 1, True)})
        chunks += [await anext(events), await anext(events)]
        with pytest.raises(StopAsyncIteration):
            await anext(events)
        return chunks

    retry, current, ended, end = async_to_sync(scenario)()
    assert retry == f"retry: {live.RETRY_MILLISECONDS}\n\n"
    assert current == News(played.revision, 1, False).event()
    assert ended == News(played.revision + 1, 1, True).event()
    assert end == "event: end\ndata: over\n\n"
    assert live.newsroom().streams() == 0


@pytest.mark.django_db
def test_an_idle_stream_sends_a_comment(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.01
    game, _ = play.create_game("hotseat", Rules(), "dark")

    async def scenario():
        events = live.stream(game.public_id, since=5)
        await anext(events)  # retry
        comment = await anext(events)
        await events.aclose()
        return comment

    assert async_to_sync(scenario)() == ": keep-alive\n\n"
    assert live.newsroom().streams() == 0


@pytest.mark.django_db(transaction=True)
def test_the_newsroom_hears_a_change_made_by_another_thread(monkeypatch, settings):
    """The newsroom's own thread (no quiet fixture here) hears what changed: on SQLite
    by reading, on PostgreSQL by LISTEN."""
    monkeypatch.undo()  # the real thread
    monkeypatch.setattr(live, "_newsroom", None)
    game, tokens = play.create_game("hotseat", Rules(), "dark")

    def move(text: str, ply: int) -> None:  # as another process would, on a thread
        try:
            play.make_move(game.public_id, tokens, text, ply)
        finally:
            connections.close_all()  # this thread's: the test database is dropped after

    async def scenario():
        room = live.newsroom()
        watching = room.subscribe(game.public_id)
        other = room.subscribe("AAAAAAAAAAAA")  # a game that never changes
        await asyncio.sleep(0.2)  # the thread has looked once

        async def news_of(revision: int) -> News:
            # News of the game as it was may come first (its creation was a change
            # too): a stream would skip it, as it is not newer than what it sent.
            while (news := await watching.next(timeout=5)).revision < revision:
                pass
            return news

        await asyncio.to_thread(move, "D4", 0)
        heard = await news_of(1)
        await asyncio.to_thread(move, "E4", 1)
        again = await news_of(2)
        nothing = await other.next(timeout=0.3)
        room.unsubscribe(watching)
        room.unsubscribe(other)
        assert room.streams() == 0
        room.close()
        return heard, again, nothing, room._thread.is_alive()

    heard, again, nothing, alive = aio.run(scenario())
    assert not alive
    assert heard == News(1, 1, False) and again == News(2, 2, False) and nothing is None


@pytest.mark.django_db
def test_the_news_of_a_game_is_what_a_stream_reads_and_its_notify_payload_reads_back():
    game, tokens = play.create_game("hotseat", Rules(), "dark")
    play.make_move(game.public_id, tokens, "D4", 0)
    play.resign(game.public_id, tokens)
    game = Game.objects.get(pk=game.pk)
    news = News.of(game)
    assert news == live.read_once(game.public_id) and news.over and news.ply == 1
    assert news.payload(game.public_id) == f"{game.public_id} {game.revision} 1 1"
    assert News.parse(news.payload(game.public_id)) == (game.public_id, news)
    going_on = News(4, 3, False)
    assert News.parse(going_on.payload("g")) == ("g", going_on)


@pytest.mark.django_db
def test_the_games_changed_since_a_moment_are_read_with_their_news():
    before = datetime.now(UTC)
    untouched, _ = play.create_game("hotseat", Rules(), "dark")
    Game.objects.filter(pk=untouched.pk).update(updated=before - timedelta(minutes=1))
    game, tokens = play.create_game("hotseat", Rules(), "dark")
    play.make_move(game.public_id, tokens, "D4", 0)
    play.resign(game.public_id, tokens)
    revision = Game.objects.get(pk=game.pk).revision
    assert live.read_changed(before) == {game.public_id: News(revision, 1, True)}
    assert live.read_changed(datetime.now(UTC) + timedelta(minutes=1)) == {}


@pytest.mark.django_db
def test_the_news_of_many_games_is_read_five_hundred_at_a_time(django_assert_num_queries):
    first, _ = play.create_game("hotseat", Rules(), "dark")
    last, _ = play.create_game("hotseat", Rules(), "light")
    missing = [f"{number:012d}" for number in range(499)]
    with django_assert_num_queries(2):
        news = live.read_news([first.public_id, *missing, last.public_id])
    assert news == {first.public_id: News(0, 0, False), last.public_id: News(0, 0, False)}


@pytest.mark.django_db
def test_a_page_already_at_the_current_revision_is_sent_no_event_for_it(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.01
    game, tokens = play.create_game("hotseat", Rules(), "dark")
    played = play.make_move(game.public_id, tokens, "D4", 0)

    async def scenario():
        events = live.stream(game.public_id, since=played.revision)
        chunks = [await anext(events), await anext(events)]
        await events.aclose()
        return chunks

    assert async_to_sync(scenario)() == [
        f"retry: {live.RETRY_MILLISECONDS}\n\n",
        ": keep-alive\n\n",
    ]


def test_the_process_newsroom_looks_as_often_as_the_settings_say(settings):
    settings.LIVE_WATCH_SECONDS = 0.25
    room = live.newsroom()
    assert room.interval == 0.25 and live.newsroom() is room


def test_news_of_games_nobody_watches_and_a_second_goodbye_are_harmless():
    async def scenario():
        room = Newsroom(interval=0.01)
        subscription = room.subscribe("g")
        room.publish({"nobody": News(1, 1, False), "g": News(2, 2, False)})
        room.unsubscribe(subscription)
        room.unsubscribe(subscription)  # a stream's end, run twice
        return await subscription.next(timeout=1), room.streams(), room._watched()

    assert aio.run(scenario()) == (News(2, 2, False), 0, [])


def test_the_newsroom_listens_on_a_named_thread_that_never_keeps_the_process_alive():
    async def scenario():
        room = Newsroom(interval=0.01)
        room.unsubscribe(room.subscribe("g"))
        return room._thread

    thread = aio.run(scenario())
    assert thread.name == "newsroom" and thread.daemon


def test_news_for_a_stream_whose_event_loop_has_closed_is_dropped():
    async def opened() -> Subscription:
        return Subscription("g")

    subscription = aio.run(opened())  # the loop is closed once the coroutine returns
    subscription.deliver(News(1, 1, False))
    assert subscription._news is None


def test_closing_the_newsroom_wakes_its_thread_and_waits_for_it_a_bounded_time():
    room = Newsroom(interval=0.01)
    waits = []
    room._thread = SimpleNamespace(join=waits.append)
    room.close()
    room.close(timeout=0.5)
    assert waits == [5, 0.5]
    assert room._closing.is_set() and room._watching.is_set() and room._nudged.is_set()


@pytest.mark.django_db(transaction=True)
def test_closing_a_threads_connections_spares_one_inside_a_transaction():
    connection = connections["default"]
    with transaction.atomic():
        live._close_connections()
        assert Game.objects.count() == 0  # the transaction goes on
    connection.ensure_connection()
    live._close_connections()
    assert connection.connection is None


def test_the_newsroom_listens_on_postgresql_and_reads_on_sqlite(monkeypatch):
    monkeypatch.undo()  # the real loop of the thread, run here
    heard = []

    def run_on(vendor: str) -> None:
        room = Newsroom(interval=0.01)
        for way in ("_listen", "_watch"):
            monkeypatch.setattr(room, way, lambda way=way: (heard.append(way), room.close()))
        monkeypatch.setattr(connections["default"], "vendor", vendor)
        room._run()

    run_on("postgresql")
    run_on("sqlite")
    assert heard == ["_listen", "_watch"]


def test_a_newsroom_that_loses_the_database_says_so_and_listens_again_a_second_later(
    monkeypatch, caplog
):
    monkeypatch.undo()
    room = Newsroom(interval=0.01)
    looks, slept, reset = [], [], []

    def watch() -> None:
        looks.append(len(looks))
        if len(looks) == 1:
            raise OperationalError("database is locked")
        room.close()

    # Whichever the database, SQLite's watcher or PostgreSQL's listener.
    monkeypatch.setattr(room, "_watch", watch)
    monkeypatch.setattr(room, "_listen", watch)
    monkeypatch.setattr(live, "time", SimpleNamespace(sleep=slept.append))
    monkeypatch.setattr(live, "close_old_connections", lambda: reset.append(True))
    with caplog.at_level(logging.ERROR, logger="kit.live"):
        room._run()
    assert looks == [0, 1] and slept == [1] and reset == [True]
    assert [record.getMessage() for record in caplog.records] == [
        "the newsroom lost the database; listening again in 1 s"
    ]


class Watcher:
    """A newsroom's SQLite watcher on its own thread, looking when nudged, with the
    database and the monotonic clock stood in for: ``found`` is what a read finds,
    ``reads`` says what each look read, and the news it published is kept."""

    def __init__(self, monkeypatch, games: list[str], interval: float = 600) -> None:
        self.found: dict[str, News] = {}
        self.clock = 100.0
        self.reads: queue.SimpleQueue = queue.SimpleQueue()
        self.published: list[dict[str, News]] = []
        monkeypatch.setattr(live, "read_changed", self._read_changed)
        monkeypatch.setattr(live, "read_news", self._read_news)
        monkeypatch.setattr(live, "time", SimpleNamespace(monotonic=lambda: self.clock))
        self.room = Newsroom(interval)
        monkeypatch.setattr(self.room, "publish", self.published.append)

        async def subscribe() -> None:
            for game_id in games:
                self.room.subscribe(game_id)

        aio.run(subscribe())
        self.opened = datetime.now(UTC)
        self.thread = threading.Thread(target=self.room._watch, daemon=True)
        self.thread.start()

    def _read_changed(self, since: datetime) -> dict[str, News]:
        self.reads.put(("changed", since, datetime.now(UTC)))
        return dict(self.found)

    def _read_news(self, game_ids: list[str]) -> dict[str, News]:
        self.reads.put(("watched", game_ids, datetime.now(UTC)))
        return {game_id: news for game_id, news in self.found.items() if game_id in game_ids}

    def look(self, clock: float | None = None) -> tuple[str, object, datetime]:
        """Nudge the watcher (at ``clock``) and say what its look read."""
        if clock is not None:
            self.clock = clock
        self.room.nudge()
        return self.reads.get(timeout=10)

    def stop(self) -> list[dict[str, News]]:
        self.room.close()
        self.thread.join(10)
        assert not self.thread.is_alive()
        return self.published


def test_the_watcher_reads_what_changed_since_just_before_its_last_look(monkeypatch):
    watcher = Watcher(monkeypatch, ["a", "b"])
    watcher.found = {"a": News(1, 1, False), "z": News(5, 5, False)}  # nobody watches z
    first, since, at = watcher.look()
    watcher.found = {"a": News(1, 1, False), "b": News(2, 2, False)}  # a: heard already
    second, since_then, _ = watcher.look()
    published = watcher.stop()
    assert first == second == "changed"
    # A change is stamped before it commits: each look reaches back a little.
    assert watcher.opened - live._OVERLAP <= since <= at - live._OVERLAP
    assert since <= since_then <= at - live._OVERLAP
    assert published == [{"a": News(1, 1, False)}, {"b": News(2, 2, False)}]


def test_every_two_seconds_the_watcher_reads_every_watched_game(monkeypatch):
    watcher = Watcher(monkeypatch, ["a", "b"])
    watcher.found = {"a": News(1, 1, False)}
    assert watcher.look(clock=102.0)[0] == "changed"  # two seconds, not more
    read, game_ids, _ = watcher.look(clock=102.5)
    assert read == "watched" and sorted(game_ids) == ["a", "b"]
    watcher.found = {"a": News(1, 1, False), "b": News(3, 3, False)}
    assert watcher.look(clock=104.0)[0] == "changed"  # counted from the last sweep
    assert watcher.look(clock=104.6)[0] == "watched"
    assert watcher.stop() == [{"a": News(1, 1, False)}, {"b": News(3, 3, False)}]


def test_the_watcher_looks_every_interval_unnudged(monkeypatch):
    watcher = Watcher(monkeypatch, ["a"], interval=0.01)
    assert watcher.reads.get(timeout=10)[0] == "changed"
    assert watcher.reads.get(timeout=10)[0] == "changed"
    watcher.stop()


@pytest.mark.django_db
def test_on_postgresql_the_newsroom_listens_catches_up_and_publishes_what_it_hears(monkeypatch):
    game, _ = play.create_game("hotseat", Rules(), "dark")
    room = Newsroom(interval=0.01)

    async def subscribe() -> None:
        room.subscribe(game.public_id)
        room.subscribe("AAAAAAAAAAAA")

    aio.run(subscribe())
    published = []
    monkeypatch.setattr(room, "publish", published.append)
    notices = [[SimpleNamespace(payload=News(3, 2, False).payload(game.public_id))], []]

    class Connection:
        """psycopg's connection, as far as the newsroom uses it."""

        def __init__(self, **params: object) -> None:
            self.params, self.executed, self.timeouts = params, [], []

        def __enter__(self):
            return self

        def __exit__(self, *exc_info: object) -> None:
            pass

        def execute(self, statement: str) -> None:
            self.executed.append(statement)

        def notifies(self, timeout: float):
            self.timeouts.append(timeout)
            if not notices:
                room._closing.set()
            return iter(notices.pop(0) if notices else ())

    connected = []

    def connect(**params: object) -> Connection:
        connected.append(Connection(**params))
        return connected[-1]

    monkeypatch.setitem(sys.modules, "psycopg", SimpleNamespace(connect=connect))
    room._listen()
    (connection,) = connected
    params = connections["default"].get_connection_params()
    assert connection.params == params | {"autocommit": True}
    assert connection.executed == ["LISTEN maerstanas_news"]
    # Each wait for notices ends within a second, so closing is heard within one.
    assert len(connection.timeouts) == 3 and all(0 < t <= 1 for t in connection.timeouts)
    assert published == [{game.public_id: News(0, 0, False)}, {game.public_id: News(3, 2, False)}]


def test_a_broadcast_wakes_all_its_listeners_through_one_subscription_while_any_listens():
    async def scenario():
        room = Newsroom(interval=0.01)
        broadcast = live.Broadcast(room, "~lobby")
        with broadcast.listening(), broadcast.listening():
            await asyncio.sleep(0)  # the pump subscribes and waits
            subscribed = room.streams()
            first, second = broadcast.changed(), broadcast.changed()
            room.publish({"~lobby": News(5, 0, False)})
            heard = await asyncio.wait_for(asyncio.gather(first, second), 1)
            latest = broadcast.latest
        await asyncio.sleep(0)  # the pump, cancelled, gives its subscription back
        return subscribed, first is second, heard, latest, room.streams()

    subscribed, shared, heard, latest, left = aio.run(scenario())
    assert subscribed == 1 and shared
    assert heard == [News(5, 0, False)] * 2 and latest == News(5, 0, False)
    assert left == 0


def test_news_heard_before_a_listener_waits_stays_in_the_broadcast_and_older_news_is_not():
    async def scenario():
        room = Newsroom(interval=0.01)
        broadcast = live.Broadcast(room, "~lobby")
        with broadcast.listening():
            await asyncio.sleep(0)
            room.publish({"~lobby": News(7, 0, False)})  # while the stream reads the lobby
            for _ in range(3):
                await asyncio.sleep(0)
            room.publish({"~lobby": News(6, 0, False)})  # heard late
            for _ in range(3):
                await asyncio.sleep(0)
            kept = broadcast.latest
        with broadcast.listening():  # a new pump: what the old one heard may be stale
            fresh = broadcast.latest
        return kept, fresh

    assert aio.run(scenario()) == (News(7, 0, False), None)


def test_news_for_a_closed_event_loop_is_dropped_when_published():
    async def opened(room: Newsroom) -> Subscription:
        return room.subscribe("g")

    room = Newsroom(interval=0.01)
    subscription = aio.run(opened(room))
    room.publish({"g": News(1, 1, False)})  # no error: that server is stopping
    assert subscription._news is None
