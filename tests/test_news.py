"""The newsroom of live pages (game.live), in one process: news, subscriptions, streams."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from django.db import connections

from game import live, play
from game.engine import Rules
from game.live import News, Newsroom
from game.views.common import whole as _whole
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
