"""/watch/: the games being played now, how many watch each (on the game page too),
and the stream that keeps the list live."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import AsyncRequestFactory, Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import play, seats
from game.engine import Rules
from game.models import Game
from game.registry import find_kind
from game.tokens import new_seat_token
from game.views import games as game_views
from kit import audience, live, streams
from kit.audience import Audience
from kit.live import News
from kit.models import Audience as AudienceRow
from kit.models import Channel
from lobby import watch
from players.models import Rating
from tests.support.games import match

pytestmark = pytest.mark.django_db

LEVELS = find_kind("maerstanas").players.level_ids
STRONGEST, WEAKER = LEVELS[-1], LEVELS[0]


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    """A fresh newsroom whose thread hears nothing (the tests publish the news), a
    fresh gate, and an audience that writes only when told to."""
    monkeypatch.setattr(live.Newsroom, "_run", lambda self: None)
    monkeypatch.setattr(live, "_newsroom", None)
    monkeypatch.setattr(streams, "_gate", None)
    monkeypatch.setattr(audience, "_audience", Audience("test:1:0", timer=False))


def friend_game(users=(None, None), **terms) -> tuple[Game, dict[str, dict[str, str]]]:
    """A friend game that has started, and each side's seats (its token by its colour)."""
    game, tokens = match(users, **terms)
    return game, {color: {color: token} for color, token in tokens.items()}


def computer_game(level: str) -> tuple[Game, dict[str, str]]:
    return play.create_game("computer", Rules(), "dark", level=level)


def listed_ids(client: Client | None = None, path: str = "/watch/") -> list[str]:
    response = (client or Client()).get(path)
    assert response.status_code == 200
    page = BeautifulSoup(response.content, "html.parser")
    return [item["data-watch-game"] for item in page.select("[data-watch-game]")]


def moved_at(game: Game, seconds_ago: int) -> None:
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(seconds=seconds_ago))


# The list -------------------------------------------------------------------------------------


def test_the_list_shows_games_between_people_and_against_the_strongest_newest_move_first():
    people, people_tokens = friend_game()
    strongest, _ = computer_game(STRONGEST)
    weaker, _ = computer_game(WEAKER)
    hotseat, hotseat_tokens = play.create_game("hotseat", Rules())
    play.make_move(hotseat.public_id, hotseat_tokens, "D4")
    finished, finished_tokens = friend_game()
    play.resign(finished.public_id, finished_tokens["dark"])
    waiting, _ = play.create_game("friend", Rules(), "dark")
    play.make_move(people.public_id, people_tokens["dark"], "D4")
    moved_at(people, 30)
    moved_at(strongest, 10)
    assert listed_ids() == [strongest.public_id, people.public_id]
    moved_at(people, 5)
    assert listed_ids() == [people.public_id, strongest.public_id]
    assert weaker.public_id not in listed_ids() and waiting.public_id not in listed_ids()


def test_each_game_shows_its_players_ratings_time_moves_watchers_and_a_board():
    user_model = get_user_model()
    ann, bob = user_model.objects.create_user("ann"), user_model.objects.create_user("bob")
    game, tokens = friend_game(
        (ann, bob), rated=True, speed=Game.Speed.LIVE, initial=300, increment=3
    )
    Rating.objects.create(user=ann, family=game.rating_family, value=1234.4)
    play.make_move(game.public_id, tokens["dark"], "D4")
    audience.write("other:2:0", {game.public_id: {"a", "b", "c", "d"}})
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    (item,) = page.select(f'[data-watch-game="{game.public_id}"]')
    sides = {side["data-side"]: side for side in item.select("[data-side]")}
    assert "ann" in sides["dark"].get_text() and "bob" in sides["light"].get_text()
    assert sides["dark"].select_one("[data-rating]")["data-rating"] == "1234"
    assert sides["light"].select_one("[data-rating]")["data-rating"] == "1000"
    assert item.select_one("[data-time-control]").get_text() == "5+3"
    assert item.select_one("[data-moves]")["data-moves"] == "1"
    assert item.select_one("[data-watchers]").get_text() == "4 watching"
    assert item.select_one("a")["href"] == f"/g/{game.public_id}/"
    board = item.select_one(".mini-board[role=img]")
    squares = board.select(".mini-board__sq")
    assert len(squares) == 49
    assert len(board.select(".mini-board__sq--dark-stone")) == 1
    assert board["aria-label"] == "The board: 1 dark stone, 0 light stones"


def test_the_strongest_computer_is_named_by_its_level():
    game, _ = computer_game(STRONGEST)
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    item = page.select_one(f'[data-watch-game="{game.public_id}"]')
    level = find_kind("maerstanas").players.strongest
    assert level.name in item.select_one('[data-side="light"]').get_text()
    assert "Guest" in item.select_one('[data-side="dark"]').get_text()
    assert not item.select("[data-time-control]")


def test_the_list_part_is_the_list_alone_and_the_page_has_the_live_url_and_a_reload_button():
    game, _ = friend_game()
    part = Client().get("/watch/?part=list")
    assert b"<html" not in part.content
    assert listed_ids(path="/watch/?part=list") == [game.public_id]
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    assert page.select_one("#watch")["data-live-url"] == "/watch/live"
    assert page.select_one("#watch form[method=get] button").get_text() == "Reload"
    assert page.select_one("nav [data-watch-link]")["href"] == "/watch/"


def test_an_empty_list_says_so():
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    assert page.select("[data-no-games]") and not page.select("[data-watch-game]")


def test_the_list_costs_a_few_queries_however_many_games(django_assert_max_num_queries):
    user_model = get_user_model()

    def add_games(count: int) -> None:
        for number in range(count):
            users = [user_model.objects.create_user(f"p{count}x{number}{side}") for side in "ab"]
            game, _ = friend_game(users)
            Rating.objects.create(user=users[0], family=game.rating_family, value=1100)
            computer_game(STRONGEST)

    add_games(1)
    with CaptureQueriesContext(connection) as few:
        assert len(listed_ids()) == 2
    add_games(12)
    with django_assert_max_num_queries(len(few)):
        assert len(listed_ids()) == 26
    assert len(few) <= 6


def test_at_most_fifty_games_are_listed(monkeypatch):
    monkeypatch.setattr(watch, "SHOWN", 3)
    for _ in range(4):
        friend_game()
    assert len(listed_ids()) == 3
    assert len(watch.topics()) == 4  # the three games and the channel


def test_the_streams_of_a_process_share_one_read_of_the_list_begun_after_the_news(
    django_assert_num_queries,
):
    game, _ = friend_game()
    heard = time.monotonic()
    with django_assert_num_queries(2):  # the games and the channel
        first = watch.topics_since(heard)
    with django_assert_num_queries(0):
        again = watch.topics_since(heard)
    channel = Channel.objects.filter(name=watch.WATCH).values_list("revision", flat=True)
    expected = {game.public_id: game.revision, live.CHANNEL + watch.WATCH: channel.first() or 0}
    assert first == again == expected
    later, _ = friend_game()
    assert later.public_id in watch.topics_since(time.monotonic())


# Counting watchers ----------------------------------------------------------------------------


def test_the_audience_counts_the_distinct_clients_of_the_fresh_rows_of_every_process():
    audience.write("a:1:0", {"g": {"x", "y"}, "h": {"x"}})
    audience.write("b:2:0", {"g": {"y", "z", "w"}})  # y watches through both processes
    AudienceRow.objects.create(
        process="dead:3:0", game_id="g", client="v", updated=timezone.now() - timedelta(minutes=1)
    )
    assert audience.watching("g") == 4
    assert audience.watching_many(["g", "h", "x"]) == {"g": 4, "h": 1}
    assert audience.watching_many([]) == {}
    assert audience.watching("nobody") == 0
    audience.write("a:1:0", {"g": {"x"}})  # a process replaces its own rows
    assert audience.watching("g") == 4 and audience.watching("h") == 0
    audience.write("b:2:0", {})
    assert audience.watching("g") == 1
    assert not AudienceRow.objects.filter(process="dead:3:0").exists()  # stale rows go


def test_a_process_writes_its_watchers_when_they_change_and_refreshes_them_while_it_has_any():
    counted = Audience("p:1:0", timer=False)
    now = time.monotonic()
    assert not counted.due(now) and not counted.flush()
    counted.join("g", "x")
    counted.join("g", "y")
    counted.join("g", "y")  # a second stream of the same client
    counted.join("h", "x")
    assert counted.counts() == {"g": 2, "h": 1}
    assert counted.due(now)
    assert counted.flush()
    assert audience.watching_many(["g", "h"]) == {"g": 2, "h": 1}
    counted.leave("h", "x")
    later = time.monotonic()
    assert not counted.due(later)  # written just now: a change waits its turn
    assert counted.due(later + audience.WRITE_SECONDS)
    assert counted.flush(force=True)
    assert audience.watching_many(["g", "h"]) == {"g": 2}
    assert not counted.due(time.monotonic() + audience.WRITE_SECONDS)  # nothing changed
    assert counted.due(time.monotonic() + audience.REFRESH_SECONDS)  # but kept fresh
    counted.leave("g", "y")  # y still has a stream open
    assert counted.counts() == {"g": 2}
    counted.leave("g", "y")
    counted.leave("g", "x")
    counted.flush(force=True)
    assert counted.counts() == {} and not AudienceRow.objects.filter(process="p:1:0").exists()
    assert not counted.due(time.monotonic() + audience.REFRESH_SECONDS)


def test_a_ticket_leaves_once_however_often_it_is_used_and_keeps_the_address_hashed():
    counted = Audience("p:1:0", timer=False)
    leave = counted.ticket("g", "192.0.2.7")
    counted.ticket("g", "192.0.2.7")
    leave()
    leave()
    assert counted.counts() == {"g": 1}
    (client,) = counted.watchers()["g"]
    assert client == audience.client_key("192.0.2.7") and "192" not in client
    assert audience.client_key("192.0.2.8") != client


def test_a_process_is_named_by_its_host_its_id_and_its_start():
    host, pid, started = audience.process_name().rsplit(":", 2)
    assert host and int(pid) > 0 and abs(int(started) - time.time()) < 5


def open_stream(game: Game, tokens: dict[str, str] | None, settings) -> tuple[dict, dict, list]:
    """Open the game's stream as a browser holding ``tokens``; the audience while it
    is open and after it ended by itself, and what it sent."""
    settings.LIVE_STREAM_SECONDS = 0.2
    request = AsyncRequestFactory().get(
        f"/g/{game.public_id}/live", headers={"accept": "text/event-stream"}
    )
    request.session = {seats.SESSION_KEY: {game.public_id: tokens}} if tokens else {}
    request.user = AnonymousUser()
    counted = audience.audience()

    async def scenario():
        response = await game_views.stream(request, game.public_id)
        assert response.status_code == 200
        during = counted.counts()
        chunks = [chunk async for chunk in response.streaming_content]
        return during, counted.counts(), chunks

    return async_to_sync(scenario)()


def test_a_watchers_stream_counts_while_it_is_open(settings):
    game, _ = friend_game()
    during, after, chunks = open_stream(game, None, settings)
    assert during == {game.public_id: 1}
    assert after == {}
    assert chunks[-1] == b": time to reconnect\n\n"


def test_many_streams_from_a_few_addresses_count_as_those_few_watchers(settings):
    game, _ = friend_game()
    settings.LIVE_STREAM_SECONDS = 0.3  # each ends by itself once read on
    settings.LIVE_STREAMS_PER_CLIENT = 50
    counted = audience.audience()

    def request(address: str):
        made = AsyncRequestFactory().get(
            f"/g/{game.public_id}/live", headers={"accept": "text/event-stream"}
        )
        made.META["REMOTE_ADDR"] = address
        made.session, made.user = {}, AnonymousUser()
        return made

    async def scenario():
        streams = []
        for address in ["192.0.2.1"] * 40 + ["192.0.2.2"] * 30 + ["192.0.2.3"] * 36:
            response = await game_views.stream(request(address), game.public_id)
            assert response.status_code == 200, response.content
            content = response.streaming_content
            await anext(content)  # the stream is open
            streams.append(content)
        during = counted.counts()
        for content in streams:
            async for _ in content:
                pass
        return during, counted.counts()

    during, after = async_to_sync(scenario)()
    assert during == {game.public_id: 3} and after == {}
    counted.flush(force=True)
    assert audience.watching(game.public_id) == 0


def test_a_players_stream_is_no_watcher(settings):
    game, tokens = friend_game()
    during, after, _ = open_stream(game, tokens["light"], settings)
    assert during == {} and after == {}


def test_a_browser_with_a_stale_token_of_the_game_watches(settings):
    game, _ = friend_game()
    during, _, _ = open_stream(game, {"dark": new_seat_token()}, settings)
    assert during == {game.public_id: 1}


# The game page --------------------------------------------------------------------------------


def test_the_game_page_says_how_many_watch_it():
    game, tokens = friend_game()
    url = f"/g/{game.public_id}/"
    page = BeautifulSoup(Client().get(url).content, "html.parser")
    assert not page.select("[data-watchers]")
    audience.write("a:1:0", {game.public_id: {"x", "y"}})
    audience.write("b:2:0", {game.public_id: {"z"}})
    page = BeautifulSoup(Client().get(url).content, "html.parser")
    (shown,) = page.select("p.audience[data-watchers]")
    assert shown["data-watchers"] == "3" and shown.get_text() == "3 watching"


def test_each_redraw_of_the_game_counts_its_watchers_afresh_in_one_read():
    game, tokens = friend_game()
    client = Client()  # dark's player, by the seat's private link
    client.post(f"/g/{game.public_id}/seat/dark/{tokens['dark']['dark']}/")
    url = f"/g/{game.public_id}/"
    page = BeautifulSoup(client.get(url).content, "html.parser")
    assert not page.select("[data-watchers]")  # nobody watched when the page was drawn
    audience.write("a:1:0", {game.public_id: {"x", "y"}})
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers={"HX-Request": "true"})
    part = BeautifulSoup(response.content, "html.parser")
    (shown,) = part.select("p.audience[data-watchers]")
    assert shown["data-watchers"] == "2" and shown.get_text() == "2 watching"
    assert not part.select("[hx-preserve]")  # drawn afresh, not kept from the page
    assert len([q for q in queries if AudienceRow._meta.db_table in q["sql"]]) == 1
    audience.write("a:1:0", {})
    part = BeautifulSoup(client.get(url, headers={"HX-Request": "true"}).content, "html.parser")
    assert not part.select("[data-watchers]")


def test_a_finished_game_shows_no_count():
    game, tokens = friend_game()
    audience.write("a:1:0", {game.public_id: {"x", "y"}})
    play.resign(game.public_id, tokens["dark"])
    page = BeautifulSoup(Client().get(f"/g/{game.public_id}/").content, "html.parser")
    assert not page.select("[data-watchers]") and not page.select("#audience")


# The live list --------------------------------------------------------------------------------


def channel_revision() -> int:
    return Channel.objects.filter(name=watch.WATCH).values_list("revision", flat=True).first() or 0


def test_the_stream_sends_watch_after_a_move_in_a_game_it_lists(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.05
    game, tokens = friend_game()

    async def scenario():
        events = watch.events()
        chunks = [await anext(events)]
        room = live.newsroom()
        room.publish({game.public_id: News(game.revision, 0, False)})  # what it read
        chunks.append(await anext(events))
        moved = await sync_to_async(play.make_move)(game.public_id, tokens["dark"], "D4")
        room.publish({game.public_id: News.of(moved)})
        chunks.append(await anext(events))
        room.publish({"AAAAAAAAAAAA": News(9, 9, False)})  # a game it does not list
        chunks.append(await anext(events))
        await events.aclose()
        return chunks, room.streams()

    chunks, streams = async_to_sync(scenario)()
    assert chunks == [
        f"retry: {live.RETRY_MILLISECONDS}\n\n",
        ": keep-alive\n\n",
        "event: watch\ndata: 1\n\n",
        ": keep-alive\n\n",
    ]
    assert streams == 0


def test_the_stream_sends_at_most_one_event_a_second(settings, monkeypatch):
    monkeypatch.setattr(watch, "EVENT_GAP", 0.3)
    game, tokens = friend_game()

    async def scenario():
        events = watch.events()
        await anext(events)
        room = live.newsroom()
        loop = asyncio.get_running_loop()
        room.publish({game.public_id: News(game.revision + 1, 1, False)})
        first, at = await anext(events), loop.time()
        room.publish({game.public_id: News(game.revision + 2, 2, False)})
        room.publish({game.public_id: News(game.revision + 3, 3, False)})
        second, later = await anext(events), loop.time()
        await events.aclose()
        return first, second, later - at

    first, second, gap = async_to_sync(scenario)()
    assert first == "event: watch\ndata: 1\n\n" and second == "event: watch\ndata: 2\n\n"
    assert gap >= 0.29


def test_the_stream_hears_the_channel_and_follows_the_games_listed_since(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.05

    async def scenario():
        events = watch.events()
        await anext(events)
        room = live.newsroom()
        game, _ = await sync_to_async(friend_game)()
        before = set(room._watched())
        revision = await sync_to_async(watch.bump)()
        room.publish({live.CHANNEL + watch.WATCH: News(revision, 0, False)})
        heard = await anext(events)
        await anext(events)  # the list read again meanwhile
        after = set(room._watched())
        await events.aclose()
        return heard, game.public_id, before, after

    heard, game_id, before, after = async_to_sync(scenario)()
    assert heard == "event: watch\ndata: 1\n\n"
    assert game_id not in before and live.CHANNEL + watch.WATCH in before
    assert game_id in after


def test_a_game_between_people_starting_or_ending_bumps_the_channel(
    django_capture_on_commit_callbacks,
):
    def committed(action, *args):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args)

    before = channel_revision()
    game, tokens = committed(play.create_game, "friend", Rules(), "dark")
    assert channel_revision() == before  # waiting for the friend
    committed(play.join, game.public_id, play.invite_code(game))
    joined = channel_revision()
    assert joined == before + 1
    committed(play.resign, game.public_id, tokens)
    assert channel_revision() == joined + 1
    hotseat, hotseat_tokens = committed(play.create_game, "hotseat", Rules())
    committed(play.make_move, hotseat.public_id, hotseat_tokens, "D4")
    committed(play.resign, hotseat.public_id, hotseat_tokens)
    weaker, weaker_tokens = committed(computer_game, WEAKER)
    committed(play.resign, weaker.public_id, weaker_tokens)
    assert channel_revision() == joined + 1
    strongest, strongest_tokens = committed(computer_game, STRONGEST)
    committed(play.resign, strongest.public_id, strongest_tokens)
    assert channel_revision() == joined + 2


def test_a_challenge_accepted_bumps_the_channel():
    from lobby import signals

    before = channel_revision()
    game, _ = friend_game()
    signals.challenge_accepted.send(sender=None, challenge=None, game=game)
    assert channel_revision() == before + 1


def test_the_watch_stream_needs_the_asgi_server_and_asks_for_event_streams():
    client = Client()
    assert client.get("/watch/live", headers={"Accept": "text/html"}).status_code == 406
    assert client.get("/watch/live", headers={"Accept": "text/event-stream"}).status_code == 503
