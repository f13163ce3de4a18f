"""Clocks: Fischer arithmetic, first-move aborts, correspondence deadlines and the two
ways a timeout is found (anyone asking, the task at the deadline), under a fake clock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import close_old_connections
from django_tasks_db.models import DBTaskResult

from game import api, clocks, play, timekeeper
from game.maerstanas import Rules
from game.models import Game
from game.tokens import account_token
from players.models import RatingChange
from tests.support import games

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


class FakeClock:
    """The server's time, moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(clocks, "now", fake)
    return fake


def match(speed="live", initial=60, increment=0, days=0, rated=False, users=(None, None)):
    """A game between two people, live with a minute each unless told otherwise; its
    tokens by colour."""
    terms = {"speed": speed, "initial": initial, "increment": increment, "days": days}
    return games.match(users, rated=rated, **terms)


def user(name):
    return get_user_model().objects.create_user(name, password="x")


def move(game, tokens, color, text):
    return play.make_move(game.public_id, {color: tokens[color]}, text)


pytestmark = pytest.mark.django_db


def test_first_moves_are_free_then_the_clock_runs_and_the_increment_is_added(clock):
    game, tokens = match(initial=60, increment=2)
    assert game.deadline == START + timedelta(seconds=clocks.FIRST_MOVE_SECONDS)
    assert clocks.view(game, clock.now) == {
        "dark": 60000,
        "light": 60000,
        "increment": 2,
        "running": None,
    }
    clock.advance(20)  # dark's first move: free, and no increment
    game = move(game, tokens, "dark", "D4")
    assert (game.dark_ms, game.light_ms) == (60000, 60000)
    assert game.deadline == clock.now + timedelta(seconds=clocks.FIRST_MOVE_SECONDS)
    clock.advance(5)  # light's first move: free too
    game = move(game, tokens, "light", "A1")
    assert (game.dark_ms, game.light_ms) == (60000, 60000)
    # From now on dark's clock runs.
    assert clocks.view(game, clock.now)["running"] == "dark"
    assert game.deadline == clock.now + timedelta(seconds=60)
    clock.advance(7.5)
    assert clocks.left_ms(game, "dark", clock.now) == 52500
    assert clocks.left_ms(game, "light", clock.now) == 60000  # not running
    game = move(game, tokens, "dark", "G7")
    assert game.dark_ms == 60000 - 7500 + 2000
    assert clocks.view(game, clock.now)["running"] == "light"
    clock.advance(59)  # light's first move earned no increment
    assert clocks.left_ms(game, "light", clock.now) == 1000


def test_a_side_that_runs_out_loses_and_a_late_move_is_refused(clock):
    game, tokens = match(initial=15)
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    clock.advance(15.001)
    with pytest.raises(play.GameFinished, match="dark ran out of time"):
        move(game, tokens, "dark", "G7")
    game.refresh_from_db()
    assert (game.status, game.result) == ("timeout", "light")
    assert game.dark_ms == 0 and game.light_ms == 15000
    assert game.deadline is None
    assert game.moves.count() == 2  # the late move was not played
    body = api.state(game)
    assert body["end"] == "timeout" and body["result"] == "light"
    assert body["clock"] == {"dark": 0, "light": 15000, "increment": 0, "running": None}


def test_a_move_just_in_time_is_played(clock):
    game, tokens = match(initial=15)
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    clock.advance(14.999)
    game = move(game, tokens, "dark", "G7")
    assert game.ply == 3 and game.dark_ms == 1


def test_no_first_move_in_30_seconds_aborts_the_game_unrated(clock):
    alice, bob = user("alice"), user("bob")
    game, tokens = match(initial=60, rated=True, users=(alice, bob))
    clock.advance(clocks.FIRST_MOVE_SECONDS)
    assert play.expire(game.public_id) is not None
    game.refresh_from_db()
    assert (game.status, game.result) == ("aborted", "")
    assert not RatingChange.objects.exists()
    assert api.state(game)["end"] == "aborted"


def test_light_missing_its_first_move_aborts_too(clock):
    game, tokens = match(initial=60)
    game = move(game, tokens, "dark", "D4")
    clock.advance(29)
    assert play.expire(game.public_id) is None
    clock.advance(1)
    assert play.expire(game.public_id).status == "aborted"


def test_a_rated_timeout_is_rated(clock):
    alice, bob = user("alice"), user("bob")
    game, _ = match(initial=60, rated=True, users=(alice, bob))
    tokens = {
        color: account_token(user.pk, game.public_id, color)
        for color, user in (("dark", alice), ("light", bob))
    }
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    clock.advance(61)
    play.expire(game.public_id)
    change = RatingChange.objects.get(color="light")
    assert change.after > change.before
    assert RatingChange.objects.get(color="dark").after < change.before + 1


def test_the_game_page_and_the_api_find_the_end_when_asked(clock, client):
    game, tokens = match(initial=60)
    clock.advance(31)
    answer = client.get(f"/api/games/{game.public_id}")
    assert answer.json()["end"] == "aborted"
    game, tokens = match(initial=60)
    clock.advance(31)
    page = client.get(f"/g/{game.public_id}/")
    assert b"Aborted" in page.content
    game.refresh_from_db()
    assert game.status == "aborted"


def test_every_deadline_sets_a_task_that_ends_the_game_then(
    clock, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game, tokens = match(initial=60)
    task = DBTaskResult.objects.get(task_path="game.timekeeper.expire")
    assert task.run_after == game.deadline
    assert task.args_kwargs["args"] == [game.public_id]
    # Run early (a move came in time meanwhile), it finds nothing to do.
    assert timekeeper.expire.call(game.public_id) is False
    clock.advance(31)
    assert timekeeper.expire.call(game.public_id) is True
    game.refresh_from_db()
    assert game.status == "aborted"
    assert timekeeper.expire.call(game.public_id) is False  # run twice: once only


def test_correspondence_deadline_is_days_per_move_and_a_late_move_loses(clock):
    game, tokens = match(speed="correspondence", initial=0, days=3)
    assert game.deadline == START + timedelta(days=3)
    assert clocks.view(game, clock.now) is None
    body = api.state(game)
    assert body["speed"] == "correspondence" and body["clock"] is None
    assert body["deadline"] == (START + timedelta(days=3)).isoformat()
    clock.advance(2 * 86400)
    game = move(game, tokens, "dark", "D4")
    assert game.deadline == clock.now + timedelta(days=3)
    clock.advance(3 * 86400 + 1)
    with pytest.raises(play.GameFinished, match="light ran out of time"):
        move(game, tokens, "light", "A1")
    game.refresh_from_db()
    assert (game.status, game.result) == ("timeout", "dark")


def test_resigning_stops_the_clocks_where_they_stood(clock):
    game, tokens = match(initial=60)
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    clock.advance(10)
    game = play.resign(game.public_id, {"dark": tokens["dark"]})
    assert (game.status, game.dark_ms, game.light_ms) == ("resigned", 50000, 60000)
    assert clocks.view(game, clock.now + timedelta(hours=1))["dark"] == 50000


def test_resigning_after_the_time_ran_out_is_a_timeout(clock):
    game, tokens = match(initial=60)
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    clock.advance(61)
    with pytest.raises(play.GameFinished, match="ran out of time"):
        play.resign(game.public_id, {"light": tokens["light"]})
    game.refresh_from_db()
    assert (game.status, game.result) == ("timeout", "light")


def test_describe_time_controls():
    assert clocks.describe("live", 60, 0) == "1+0"
    assert clocks.describe("live", 15, 0) == "¼+0"
    assert clocks.describe("live", 30, 1) == "½+1"
    assert clocks.describe("live", 300, 3) == "5+3"
    assert clocks.describe("correspondence", days=1) == "1 day a move"
    assert clocks.describe("correspondence", days=3) == "3 days a move"
    assert clocks.describe("unlimited") == "unlimited"


def test_a_game_without_a_clock_has_no_deadline(clock):
    game, tokens = play.create_game("hotseat", Rules())
    assert game.deadline is None and clocks.view(game, clock.now) is None
    game = play.make_move(game.public_id, tokens, "D4")
    assert game.deadline is None and game.turn_started is None
    assert api.state(game)["clock"] is None and api.state(game)["speed"] == "unlimited"


@pytest.mark.django_db(transaction=True)
def test_a_timeout_and_a_move_at_once_end_the_game_once(clock):
    """The task at the deadline and a late move race: the game ends once, by timeout,
    and the move is not played."""
    game, tokens = match(initial=15)
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    clock.advance(16)
    barrier = threading.Barrier(2)
    outcomes = []

    def late_move():
        barrier.wait()
        try:
            move(game, tokens, "dark", "G7")
            outcomes.append("played")
        except play.PlayError as refusal:
            outcomes.append(str(refusal))
        finally:
            close_old_connections()

    def task():
        barrier.wait()
        try:
            outcomes.append(play.expire(game.public_id) is not None)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=late_move), threading.Thread(target=task)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    game.refresh_from_db()
    assert (game.status, game.result, game.ply) == ("timeout", "light", 2)
    assert "played" not in outcomes
    # Exactly one of the two ended it; the other found it over.
    assert (True in outcomes) != any("ran out" in str(o) for o in outcomes)
    assert Game.objects.filter(status="timeout").count() == 1


def test_a_rematch_keeps_the_time_control_and_starts_its_clock_as_the_friend_joins(clock):
    game, tokens = match(initial=180, increment=2)
    play.resign(game.public_id, {"dark": tokens["dark"]})
    rematch, mine = play.rematch(game.public_id, {"dark": tokens["dark"]})
    assert (rematch.speed, rematch.clock_initial, rematch.clock_increment) == ("live", 180, 2)
    assert rematch.deadline is None  # nobody has joined yet
    clock.advance(100)
    rematch, _ = play.rematch(game.public_id, {"light": tokens["light"]})
    rematch.refresh_from_db()
    assert rematch.status == "active" and rematch.turn_started == clock.now
    assert rematch.deadline == clock.now + timedelta(seconds=clocks.FIRST_MOVE_SECONDS)
    assert clocks.view(rematch, clock.now)["dark"] == 180_000


def test_giving_up_a_timed_or_rated_game_before_both_moved_aborts_it(clock, client):
    alice, bob = user("alice"), user("bob")
    game, _ = match(initial=60, rated=True, users=(alice, bob))
    tokens = {
        color: account_token(person.pk, game.public_id, color)
        for color, person in (("dark", alice), ("light", bob))
    }
    assert game.abortable
    game = move(game, tokens, "dark", "D4")
    assert game.abortable  # light has yet to move
    game = play.resign(game.public_id, {"light": tokens["light"]})
    assert (game.status, game.result) == ("aborted", "")
    assert not RatingChange.objects.exists()
    # Once both have moved, giving up is resigning.
    game, tokens = match(initial=60)
    game = move(game, tokens, "dark", "D4")
    game = move(game, tokens, "light", "A1")
    assert not game.abortable
    game = play.resign(game.public_id, {"light": tokens["light"]})
    assert (game.status, game.result) == ("resigned", "dark")
    # An untimed casual game between friends is resigned as ever, moves or none.
    casual, seats_tokens = play.create_game("friend", Rules())
    play.join(casual.public_id, play.invite_code(casual))
    casual.refresh_from_db()
    assert not casual.abortable


def test_the_page_offers_to_abort_then_to_resign(clock):
    from django.test import Client

    from tests.lobby.test_lobby import post_challenge

    alice, bob = Client(), Client()
    challenge = post_challenge(alice)
    game_url = bob.post(f"/lobby/{challenge.public_id}/accept")["Location"]
    page = bob.get(game_url).content.decode()
    assert "data-abort" in page and "Abort the game" in page
    confirm = bob.get(f"{game_url}resign").content.decode()
    assert "Abort this game?" in confirm and "not rated" in confirm
    game = Game.objects.get()
    alice.get(f"/lobby/{challenge.public_id}/")  # to the game, holding its seat
    assert alice.post(f"{game_url}move", {"move": "D4", "ply": 0}).status_code in (200, 303)
    assert bob.post(f"{game_url}move", {"move": "A1", "ply": 1}).status_code in (200, 303)
    game.refresh_from_db()
    assert game.ply == 2
    page = bob.get(game_url).content.decode()
    assert "data-abort" not in page and ">Resign</a>" in page


@pytest.mark.parametrize("ending", ["timeout", "aborted"])
def test_a_timed_games_end_is_exported_and_imported_back(clock, client, ending):
    game, tokens = match(initial=60)
    if ending == "timeout":
        game = move(game, tokens, "dark", "D4")
        game = move(game, tokens, "light", "A1")
        clock.advance(61)
    else:
        clock.advance(31)
    game = play.expire(game.public_id)
    text = client.get(f"/g/{game.public_id}/record.txt").content.decode()
    assert f'[End "{ending}"]' in text
    assert ('[Result "light"]' if ending == "timeout" else '[Result "*"]') in text
    answer = client.post("/import/", {"record": text})
    assert answer.status_code in (302, 303), answer.content.decode()[:2000]
    imported = Game.objects.get(mode="imported")
    assert (imported.status, imported.result) == (game.status, game.result)
    assert imported.logged_record() == game.logged_record()
