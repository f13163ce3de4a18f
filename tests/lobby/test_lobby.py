"""The lobby: posting, listing, accepting, cancelling and declining challenges; who
may accept which; limits; the live list's changes; guests' challenges withdrawn."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user_model
from django.db import close_old_connections
from django.test import Client
from django.utils import timezone

from game import play
from game.maerstanas import Rules
from game.models import Game
from game.tokens import hash_token, new_seat_token
from kit import live as game_live
from kit.live import News
from lobby import challenges, live, tasks
from lobby.models import Challenge
from players.models import Rating
from tests.players.test_api_tokens import make_token
from tests.support.accounts import PASSWORD, account, sign_up

pytestmark = pytest.mark.django_db

LIVE_1_0 = {
    "speed": "live",
    "minutes": "1",
    "increment": "0",
    "color": "dark",
    "special_stones": "on",
    "scoring": "standard",
}


def post_challenge(client: Client, **fields) -> Challenge:
    before = set(Challenge.objects.values_list("pk", flat=True))
    answer = client.post("/lobby/", {**LIVE_1_0, **fields})
    assert answer.status_code == 303, answer.content.decode()[:2000]
    (new,) = Challenge.objects.exclude(pk__in=before)
    return new


def ids_on(page) -> list[str]:
    return re.findall(r'data-challenge="([^"]+)"', page.content.decode())


def test_the_lobby_is_linked_from_the_home_page(client):
    assert 'href="/lobby/" data-lobby-link' in client.get("/").content.decode()
    page = client.get("/lobby/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="lobby"' in html and 'data-live-url="/lobby/live"' in html
    assert '<form method="post" action="/lobby/"' in html


def test_a_guest_posts_a_live_challenge_and_everyone_sees_it():
    alice, bob = Client(), Client()
    challenge = post_challenge(alice)
    assert (challenge.speed, challenge.initial, challenge.increment) == ("live", 60, 0)
    assert challenge.color == "dark" and not challenge.rated
    page = bob.get("/lobby/")
    assert ids_on(page) == [challenge.public_id]
    html = page.content.decode()
    assert "1+0" in html and "Guest" in html and f"/lobby/{challenge.public_id}/accept" in html
    # Its creator sees it as theirs, with a cancel button and no accept.
    own = alice.get("/lobby/").content.decode()
    assert f"/lobby/{challenge.public_id}/cancel" in own
    assert f"/lobby/{challenge.public_id}/accept" not in own


def test_accepting_starts_the_game_for_both_with_the_clock():
    alice, bob = Client(), Client()
    challenge = post_challenge(alice, minutes="0.5", increment="2")
    answer = bob.post(f"/lobby/{challenge.public_id}/accept")
    assert answer.status_code == 303
    game = Game.objects.get()
    assert answer["Location"] == f"/g/{game.public_id}/"
    assert (game.status, game.speed, game.clock_initial, game.clock_increment) == (
        "active",
        "live",
        30,
        2,
    )
    assert "Light (you)" in bob.get(answer["Location"]).content.decode()
    # The creator's page of the challenge sends it to the game, holding its seat.
    to_game = alice.get(f"/lobby/{challenge.public_id}/")
    assert to_game.status_code == 303 and to_game["Location"] == f"/g/{game.public_id}/"
    page = alice.get(to_game["Location"]).content.decode()
    assert "Dark (you)" in page and 'data-clock="dark"' in page and "0:30" in page
    challenge.refresh_from_db()
    assert challenge.status == "accepted" and challenge.game == game
    # Both lists of games hold it.
    assert game.public_id in alice.get("/games/").content.decode()
    assert game.public_id in bob.get("/games/").content.decode()
    assert ids_on(Client().get("/lobby/")) == []


def test_a_challenge_is_accepted_once():
    alice, bob, carol = Client(), Client(), Client()
    challenge = post_challenge(alice)
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303
    late = carol.post(f"/lobby/{challenge.public_id}/accept")
    assert late.status_code == 409
    assert "someone accepted it first" in late.content.decode()
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_accepting_at_once_start_one_game():
    alice = Client()
    challenge = post_challenge(alice)
    barrier = threading.Barrier(2)
    statuses = []

    def accept():
        client = Client()
        barrier.wait()
        try:
            statuses.append(client.post(f"/lobby/{challenge.public_id}/accept").status_code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=accept) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [303, 409]
    assert Game.objects.count() == 1


def test_nobody_accepts_their_own_challenge():
    alice = Client()
    challenge = post_challenge(alice)
    answer = alice.post(f"/lobby/{challenge.public_id}/accept")
    assert answer.status_code == 400 and "your own challenge" in answer.content.decode()
    assert not Game.objects.exists()


def test_an_account_accepts_its_own_challenge_neither_on_another_device_nor_by_its_program():
    alice = account("alice")
    challenge = post_challenge(alice, rated="on")
    again = Client()
    assert again.login(username="alice", password=PASSWORD)
    answer = again.post(f"/lobby/{challenge.public_id}/accept")
    assert answer.status_code == 400 and "your own challenge" in answer.content.decode()
    token = make_token(alice)
    by_program = Client().post(
        f"/api/challenges/{challenge.public_id}/accept",
        "{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert by_program.status_code == 400 and "your own challenge" in by_program.json()["error"]
    assert not Game.objects.exists() and Challenge.objects.get().status == "open"


def test_a_guest_who_signs_up_cannot_accept_the_challenge_it_posted_as_a_guest():
    guest = Client()
    challenge = post_challenge(guest)
    assert sign_up(guest, "alice").status_code == 302  # the browser's session goes on
    answer = guest.post(f"/lobby/{challenge.public_id}/accept")
    assert answer.status_code == 400 and "your own challenge" in answer.content.decode()
    assert not Game.objects.exists() and Challenge.objects.get().status == "open"


def test_a_match_between_one_account_and_itself_is_refused():
    alice = get_user_model().objects.create_user("alice", password=PASSWORD)
    people = {
        color: play.Person(hash_token(new_seat_token()), alice) for color in ("dark", "light")
    }
    with pytest.raises(play.PlayError, match="one account cannot play both sides") as refused:
        play.create_match(Rules(), people, rated=True)
    assert refused.value.status == 409
    assert not Game.objects.exists()


def test_the_creator_cancels_and_nobody_else_can():
    alice, bob = Client(), Client()
    challenge = post_challenge(alice)
    refused = bob.post(f"/lobby/{challenge.public_id}/cancel")
    assert refused.status_code == 403
    assert Challenge.objects.get().status == "open"
    assert alice.post(f"/lobby/{challenge.public_id}/cancel").status_code == 303
    assert Challenge.objects.get().status == "cancelled"
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 409
    assert ids_on(bob.get("/lobby/")) == []


def test_a_player_holds_a_few_open_challenges_at_most(settings):
    settings.LOBBY_OPEN_CHALLENGES = 2
    alice = Client()
    post_challenge(alice)
    post_challenge(alice)
    third = alice.post("/lobby/", LIVE_1_0)
    assert third.status_code == 400 and "2 open challenges already" in third.content.decode()
    assert Challenge.objects.count() == 2


def test_bad_fields_are_refused_with_a_message():
    alice = Client()
    cases = [
        ({"speed": "fast"}, "is not a speed"),
        ({"minutes": "7"}, "is not a number of minutes"),
        ({"increment": "61"}, "less than or equal to 60"),
        ({"speed": "correspondence", "days": "4"}, "is not a number of days"),
        ({"color": "blue"}, "is not a colour"),
    ]
    for fields, words in cases:
        answer = alice.post("/lobby/", {**LIVE_1_0, **fields})
        assert answer.status_code == 400, fields
        assert words in answer.content.decode(), (fields, answer.content.decode()[:3000])
    assert not Challenge.objects.exists()


def test_rated_challenges_are_for_accounts():
    guest = Client()
    answer = guest.post("/lobby/", {**LIVE_1_0, "rated": "on"})
    assert answer.status_code == 400 and "between accounts" in answer.content.decode()
    alice = account("alice")
    challenge = post_challenge(alice, rated="on")
    assert challenge.rated and challenge.creator.username == "alice"
    assert challenge.creator_rating == 1000.0
    refused = guest.post(f"/lobby/{challenge.public_id}/accept")
    assert refused.status_code == 400 and "log in or sign up" in refused.content.decode()
    bob = account("bob")
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303
    assert Game.objects.get().rated


def test_a_rating_range_limits_who_may_accept():
    alice = account("alice")
    challenge = post_challenge(alice, rated="on", rating_min="1100", rating_max="1400")
    bob = account("bob")
    page = bob.get("/lobby/").content.decode()
    assert "for ratings 1100–1400; yours is 1000" in page and "disabled" in page
    refused = bob.post(f"/lobby/{challenge.public_id}/accept")
    assert refused.status_code == 400 and "yours is 1000" in refused.content.decode()
    user = get_user_model().objects.get(username="bob")
    Rating.objects.create(user=user, family=challenge.rating_family, value=1234)
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303


def test_a_challenge_to_a_named_player_is_theirs_to_accept_or_decline():
    alice, bob, carol = account("alice"), account("bob"), account("carol")
    form = alice.get("/players/bob/challenge")
    assert form.status_code == 200 and 'name="speed"' in form.content.decode()
    answer = alice.post(
        "/players/bob/challenge", {**LIVE_1_0, "speed": "correspondence", "days": "3"}
    )
    assert answer.status_code == 303
    challenge = Challenge.objects.get()
    assert challenge.to_user.username == "bob" and challenge.days == 3
    # Not in the public list; in bob's lobby, with accept and decline.
    assert ids_on(carol.get("/lobby/")) == []
    mine = bob.get("/lobby/").content.decode()
    assert "Challenges to you" in mine and f"/lobby/{challenge.public_id}/decline" in mine
    assert carol.post(f"/lobby/{challenge.public_id}/accept").status_code == 400
    assert carol.post(f"/lobby/{challenge.public_id}/decline").status_code == 403
    assert bob.post(f"/lobby/{challenge.public_id}/decline").status_code == 303
    assert Challenge.objects.get().status == "declined"


def test_a_named_challenge_accepted_starts_a_correspondence_game():
    alice, bob = account("alice"), account("bob")
    alice.post("/players/bob/challenge", {**LIVE_1_0, "speed": "correspondence", "days": "2"})
    challenge = Challenge.objects.get()
    answer = bob.post(f"/lobby/{challenge.public_id}/accept")
    game = Game.objects.get()
    assert answer["Location"] == f"/g/{game.public_id}/"
    assert game.speed == "correspondence" and game.days == 2
    assert game.deadline - game.turn_started == timedelta(days=2)
    page = alice.get(f"/g/{game.public_id}/").content.decode()
    assert "Dark (you)" in page and "data-deadline=" in page and "1 day 23 hours left" in page


def test_guests_cannot_challenge_by_name_nor_anyone_themselves():
    account("bob")
    guest = Client()
    answer = guest.post("/players/bob/challenge", LIVE_1_0)
    assert answer.status_code == 400
    assert "sign up to challenge a player by name" in answer.content.decode()
    bob = Client()
    bob.login(username="bob", password="hinge-and-thunder-42")
    assert bob.post("/players/bob/challenge", LIVE_1_0).status_code == 400
    assert not Challenge.objects.exists()
    assert Client().get("/players/nobody/challenge").status_code == 404


def test_get_never_changes_a_challenge():
    alice, bob = Client(), Client()
    challenge = post_challenge(alice)
    for path in ("accept", "cancel", "decline"):
        assert bob.get(f"/lobby/{challenge.public_id}/{path}").status_code == 405
    assert Challenge.objects.get().status == "open"
    assert Client().get("/lobby/nosuchthing/").status_code == 404


def test_each_change_is_counted_on_the_lobby_channel_and_stamps_the_challenge():
    alice, bob = Client(), Client()
    start = live.revision()
    first = post_challenge(alice)
    second = post_challenge(alice)
    assert (first.revision, second.revision) == (start + 1, start + 2)
    bob.post(f"/lobby/{first.public_id}/accept")
    first.refresh_from_db()
    assert first.revision == start + 3 == live.revision()


def test_the_live_list_sends_what_changed_since_a_revision():
    alice, bob = Client(), Client()
    start = live.revision()
    first = post_challenge(alice)
    second = post_challenge(alice)
    bob.post(f"/lobby/{first.public_id}/accept")
    live.delta.cache_clear()
    change = json.loads(live.delta(start, live.revision()))
    assert [row["id"] for row in change["rows"]] == [second.public_id]
    assert change["gone"] == [{"id": first.public_id, "status": "accepted"}]
    assert f'data-challenge="{second.public_id}"' in change["rows"][0]["html"]
    # Drawn for anyone: the page decides which of its two forms stays.
    assert "challenge__accept" in change["rows"][0]["html"]
    assert "challenge__cancel" in change["rows"][0]["html"]
    later = json.loads(live.delta(start + 2, live.revision()))
    assert later["rows"] == [] and [gone["id"] for gone in later["gone"]] == [first.public_id]


def test_a_lobby_stream_sends_the_changes_since_its_page_then_each_change_it_hears_of(
    monkeypatch,
):
    monkeypatch.setattr(game_live.Newsroom, "_run", lambda self: None)  # the test tells
    monkeypatch.setattr(game_live, "_newsroom", None)
    live.delta.cache_clear()
    alice = Client()
    start = live.revision()
    first = post_challenge(alice)
    topic = game_live.CHANNEL + challenges.LOBBY

    async def scenario():
        events = live.stream(start, user_id=None)
        chunks = [await anext(events), await anext(events)]
        second = await sync_to_async(post_challenge)(alice)
        room = game_live.newsroom()
        room.publish({topic: News(first.revision, 0, False)})  # what the page has
        await asyncio.sleep(0.05)
        room.publish({topic: News(second.revision, 0, False)})
        chunks.append(await anext(events))
        listening = room.streams()
        await events.aclose()
        return chunks, second, listening, room.streams()

    (retry, caught_up, heard), second, listening, after = async_to_sync(scenario)()
    assert retry == f"retry: {game_live.RETRY_MILLISECONDS}\n\n"
    assert caught_up.startswith(f"id: {first.revision}\nevent: lobby\n".encode())
    assert first.public_id.encode() in caught_up
    assert heard.startswith(f"id: {second.revision}\nevent: lobby\n".encode())
    assert second.public_id.encode() in heard and first.public_id.encode() not in heard
    # The stream heard it through its process's one broadcast of the lobby, which
    # stops listening once no stream is left.
    assert (listening, after) == (1, 0)


def test_an_accounts_lobby_stream_hears_a_new_challenge_at_once(monkeypatch):
    """An account's page waits on the lobby's news and its own channel together: the
    first of the two wakes it (waiting for both kept it to its next keep-alive)."""
    monkeypatch.setattr(game_live.Newsroom, "_run", lambda self: None)  # the test tells
    monkeypatch.setattr(game_live, "_newsroom", None)
    live.delta.cache_clear()
    alice = Client()
    account("bob")
    start = live.revision()
    topic = game_live.CHANNEL + challenges.LOBBY
    bob_id = get_user_model().objects.get(username="bob").pk

    async def scenario():
        events = live.stream(start, user_id=bob_id)
        await anext(events)  # retry
        second = await sync_to_async(post_challenge)(alice)
        game_live.newsroom().publish({topic: News(second.revision, 0, False)})
        heard = await asyncio.wait_for(anext(events), 2)
        await events.aclose()
        return second, heard

    second, heard = async_to_sync(scenario)()
    assert heard.startswith(f"id: {second.revision}\nevent: lobby\n".encode())
    assert second.public_id.encode() in heard


def test_too_many_changes_ask_the_page_to_reload(monkeypatch):
    monkeypatch.setattr(live, "MAX_DELTA", 2)
    live.delta.cache_clear()
    alice = Client()
    start = live.revision()
    for _ in range(3):
        post_challenge(alice)
        Challenge.objects.update(status="cancelled")
    assert live.delta(start, live.revision()) is None
    assert "event: reload" in live._event(start, live.revision())


def test_a_guests_live_challenge_is_withdrawn_a_minute_after_its_page_went(
    django_capture_on_commit_callbacks,
):
    alice = Client()
    with django_capture_on_commit_callbacks(execute=True):
        challenge = post_challenge(alice)
    from django_tasks_db.models import DBTaskResult

    assert DBTaskResult.objects.filter(task_path="lobby.tasks.withdraw_if_gone").count() == 1
    # Its page was seen just now: it stands, and is looked at again later.
    assert tasks.withdraw_if_gone.call(challenge.public_id) is False
    assert DBTaskResult.objects.filter(task_path="lobby.tasks.withdraw_if_gone").count() == 2
    Challenge.objects.update(seen=timezone.now() - timedelta(seconds=61))
    assert tasks.withdraw_if_gone.call(challenge.public_id) is True
    assert Challenge.objects.get().status == "withdrawn"
    # An account's challenge is not withdrawn so.
    bob = account("bob")
    kept = post_challenge(bob)
    Challenge.objects.filter(pk=kept.pk).update(seen=timezone.now() - timedelta(hours=1))
    assert challenges.withdraw_if_gone(kept.public_id) is None
    assert Challenge.objects.get(pk=kept.pk).status == "open"


@pytest.mark.parametrize(
    "fields",
    [{"speed": "correspondence", "days": "3"}, {"speed": "unlimited"}],
    ids=["correspondence", "unlimited"],
)
def test_a_guests_slower_challenge_lapses_a_day_after_its_guest_went(
    django_capture_on_commit_callbacks, fields
):
    from django_tasks_db.models import DBTaskResult

    alice = Client()
    with django_capture_on_commit_callbacks(execute=True):
        challenge = post_challenge(alice, **fields)
    looks = DBTaskResult.objects.filter(task_path="lobby.tasks.withdraw_if_gone")
    assert looks.count() == 1
    # Seen 23 hours ago: it stands, and is looked at again within the hour.
    Challenge.objects.update(seen=timezone.now() - timedelta(hours=23))
    assert tasks.withdraw_if_gone.call(challenge.public_id) is False
    assert timedelta(minutes=59) < looks.latest("enqueued_at").run_after - timezone.now()
    assert looks.latest("enqueued_at").run_after - timezone.now() < timedelta(hours=1, seconds=2)
    # Its guest's lobby page keeps it standing, as it keeps a live one.
    alice.get("/lobby/")
    assert timezone.now() - Challenge.objects.get().seen < timedelta(seconds=5)
    revision = live.revision()
    Challenge.objects.update(seen=timezone.now() - timedelta(days=1, seconds=1))
    assert tasks.withdraw_if_gone.call(challenge.public_id) is True
    withdrawn = Challenge.objects.get()
    assert withdrawn.status == "withdrawn" and withdrawn.revision == live.revision() > revision
    assert ids_on(Client().get("/lobby/")) == []


def test_the_daily_pruning_withdraws_the_guests_challenges_whose_guests_went():
    """Those posted before every speed lapsed, or whose look was lost."""
    from game import housekeeping

    guest, bob = Client(), account("bob")
    live_one = post_challenge(guest)
    slow = post_challenge(guest, speed="correspondence", days="3")
    fresh = post_challenge(Client(), speed="unlimited")
    accounts = post_challenge(bob, speed="unlimited")
    now = timezone.now()
    Challenge.objects.filter(pk=live_one.pk).update(seen=now - timedelta(minutes=2))
    Challenge.objects.filter(pk=slow.pk).update(seen=now - timedelta(days=2))
    Challenge.objects.filter(pk=fresh.pk).update(seen=now - timedelta(hours=20))
    Challenge.objects.filter(pk=accounts.pk).update(seen=now - timedelta(days=30))
    housekeeping.prune_all()
    statuses = dict(Challenge.objects.values_list("public_id", "status"))
    assert statuses == {
        live_one.public_id: "withdrawn",
        slow.public_id: "withdrawn",
        fresh.public_id: "open",
        accounts.public_id: "open",
    }


def test_the_guests_of_one_address_hold_a_few_open_challenges_at_most(settings):
    """A guest is a browser or a program, and a new one costs nothing: their address
    is counted too, in the database."""
    settings.LOBBY_OPEN_CHALLENGES = 2
    post_challenge(Client(), speed="unlimited")
    post_challenge(Client(), speed="correspondence", days="7")
    third = Client().post("/lobby/", {**LIVE_1_0, "speed": "unlimited"})
    assert third.status_code == 400
    assert "Guests from your address have 2 open challenges" in third.content.decode()
    program = Client().post(
        "/api/challenges", {"speed": "unlimited"}, content_type="application/json"
    )
    assert program.status_code == 400 and "your address" in program.json()["error"]
    elsewhere = Client(REMOTE_ADDR="192.0.2.7").post("/lobby/", {**LIVE_1_0})
    assert elsewhere.status_code == 303
    assert account("bob").post("/lobby/", {**LIVE_1_0}).status_code == 303
    assert Challenge.objects.filter(status="open").count() == 4
    # Once one is taken, another guest of that address may post.
    first = Challenge.objects.filter(creator=None).order_by("created").first()
    account("carol").post(f"/lobby/{first.public_id}/accept")
    assert Client().post("/lobby/", {**LIVE_1_0}).status_code == 303


def test_the_lobby_page_keeps_a_guests_challenges_standing():
    alice = Client()
    challenge = post_challenge(alice)
    Challenge.objects.update(seen=timezone.now() - timedelta(seconds=50))
    alice.get("/lobby/")
    challenge.refresh_from_db()
    assert timezone.now() - challenge.seen < timedelta(seconds=5)


def test_the_stream_needs_an_event_stream_request_and_the_asgi_server(client):
    assert client.get("/lobby/live", headers={"Accept": "text/html"}).status_code == 406
    # Under WSGI a stream would hold a worker as long as the page stays open.
    assert client.get("/lobby/live", headers={"Accept": "text/event-stream"}).status_code == 503


def test_lobby_rules_reach_the_game():
    alice, bob = Client(), Client()
    challenge = post_challenge(alice, wraparound="on", scoring="simple", special_stones="")
    bob.post(f"/lobby/{challenge.public_id}/accept")
    game = Game.objects.get()
    assert game.rules == Rules(special_stones=False, wraparound=True, scoring="simple")


def test_the_daily_policy_prunes_closed_challenges_and_keeps_open_ones():
    from game import housekeeping

    alice = account("alice")
    closed, kept = post_challenge(alice), post_challenge(alice)
    alice.post(f"/lobby/{closed.public_id}/cancel")
    old = timezone.now() - timedelta(days=8)
    Challenge.objects.update(updated=old)
    assert "; 1 closed challenges" in str(housekeeping.prune_all())
    assert list(Challenge.objects.values_list("public_id", flat=True)) == [kept.public_id]


def test_a_correspondence_game_waiting_for_its_first_move_is_not_pruned():
    from game import housekeeping

    alice, bob = account("alice"), account("bob")
    alice.post("/players/bob/challenge", {**LIVE_1_0, "speed": "correspondence", "days": "5"})
    bob.post(f"/lobby/{Challenge.objects.get().public_id}/accept")
    Game.objects.update(updated=timezone.now() - timedelta(days=3))
    assert housekeeping.prune_empty_games() == 0
    assert housekeeping.prune_empty_games(now=timezone.now() + timedelta(days=6)) == 1


def test_the_newsrooms_quick_look_finds_a_channels_change():
    from django.db import transaction

    from kit import live as game_live

    since = timezone.now()
    with transaction.atomic():
        revision = game_live.bump("lobby")
    changed = game_live.read_changed(since)
    assert changed["~lobby"].revision == revision
    assert game_live.read_news(["~lobby", "~nothing"]) == {"~lobby": changed["~lobby"]}


def test_a_profile_offers_to_challenge_its_player_but_not_oneself():
    alice = account("alice")
    account("bob")
    assert (
        'href="/players/bob/challenge" data-challenge-player'
        in alice.get("/players/bob/").content.decode()
    )
    assert "data-challenge-player" not in alice.get("/players/alice/").content.decode()


def test_the_challenge_form_chooses_the_game_first_and_keeps_each_games_rules_apart():
    from bs4 import BeautifulSoup

    alice = Client()
    form = BeautifulSoup(alice.get("/lobby/").content, "html.parser").select_one(
        "[data-challenge-form]"
    )
    assert form.select_one("fieldset").has_attr("data-game-choice")
    rules = form.select_one('input[name="special_stones"]').find_parent("fieldset")
    assert rules["data-for-game"] == "maerstanas" and "Mǽrstánas" in rules.legend.get_text()
    # A Cyngesheall challenge refused still offers Mǽrstánas's rules, should the player
    # switch back, as they were sent.
    refused = alice.post(
        "/lobby/", {**LIVE_1_0, "game": "cyngesheall", "minutes": "", "wraparound": "on"}
    )
    assert refused.status_code == 400 and not Challenge.objects.exists()
    form = BeautifulSoup(refused.content, "html.parser").select_one("[data-challenge-form]")
    assert form.select_one('input[name="game"][checked]')["value"] == "cyngesheall"
    assert form.select_one('input[name="wraparound"]').has_attr("checked")
    assert form.select_one('input[name="scoring"][value="standard"]').has_attr("checked")


def test_a_challenges_row_tells_its_creator_their_own_side_and_anyone_else_theirs():
    alice, bob = Client(), Client()
    challenge = post_challenge(alice)  # alice plays dark

    def sides(client: Client) -> list[str]:
        row = (
            client.get("/lobby/").content.decode().split(f'data-challenge="{challenge.public_id}"')
        )
        return re.findall(r"you play (dark|light)", row[1].split("</li>", 1)[0])

    assert sides(alice) == ["dark"]
    assert sides(bob) == ["light"]
    own_page = alice.get(f"/lobby/{challenge.public_id}/").content.decode()
    assert "you play dark" in own_page and "you play light" not in own_page
    assert "you play light" in bob.get(f"/lobby/{challenge.public_id}/").content.decode()
    # Drawn once for everyone, the live row says both, marked, and the page keeps one.
    anyone = live.row(challenge)
    assert '<span data-side-text="owner">you play dark</span>' in anyone
    assert '<span data-side-text="others">you play light</span>' in anyone


def test_a_named_challenge_lists_the_side_its_creator_plays():
    alice = account("alice")
    account("bob")
    answer = alice.post("/players/bob/challenge", {**LIVE_1_0, "color": "light"})
    assert answer.status_code == 303
    mine = alice.get("/lobby/?part=mine").content.decode()
    assert "To <a" in mine and "you play light" in mine
