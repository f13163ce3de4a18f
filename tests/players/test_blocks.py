"""One player blocking another: the button on the profile and the list in the
settings, and what a block stops (challenges, by the pages and the API, chat in their
games, notices and their mail) and what it leaves (games going on)."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from game import play
from game.engine import Rules
from game.models import Game
from game.tokens import account_token
from lobby import challenges
from lobby.challenges import Who
from lobby.models import Challenge
from notifications.models import Notification, Preference
from players.models import Block
from tests.chat.test_chat import HTMX, chat_section, error_of, friend_game, page, say
from tests.notifications.test_notifications import match, move, notices, person, run_queued_mail
from tests.support.accounts import account

pytestmark = pytest.mark.django_db

LIVE_1_0 = {"speed": "live", "minutes": "1", "increment": "0", "color": "dark"}
LIVE_1_0 |= {"special_stones": "on", "scoring": "standard"}
TERMS = challenges.Terms(rules=Rules(), speed="correspondence", days=3)


def who(user) -> Who:
    return Who(f"account:{user.pk}", user)


def blocked_pairs() -> set[tuple[str, str]]:
    return set(Block.objects.values_list("blocker__username", "blocked__username"))


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


# The button, the list ---------------------------------------------------------------------


def test_a_player_blocks_another_from_their_page_and_unblocks_them_from_the_settings():
    ann = account("ann")
    account("bob")
    profile = BeautifulSoup(ann.get("/players/bob/").content, "html.parser")
    form = profile.select_one("form[data-block]")
    assert form["method"] == "post" and form["action"] == "/players/bob/block"
    assert form.select_one("input[name=csrfmiddlewaretoken]")
    assert form.select_one("button[name=on]")["value"] == "1"
    assert not profile.select("[data-blocked]")

    blocked = ann.post("/players/bob/block", {"on": "1"})
    assert blocked.status_code == 303 and blocked["Location"] == "/players/bob/"
    assert blocked_pairs() == {("ann", "bob")}
    assert ann.post("/players/BOB/block", {"on": "1"}).status_code == 303  # once is enough
    assert Block.objects.count() == 1
    profile = BeautifulSoup(ann.get("/players/bob/").content, "html.parser")
    assert "You blocked bob" in profile.select_one("[data-blocked]").text
    assert profile.select_one("form[data-block] button[name=on]")["value"] == "0"

    settings = BeautifulSoup(ann.get("/accounts/settings/").content, "html.parser")
    (listed,) = settings.select("[data-blocks] [data-blocked]")
    assert listed["data-blocked"] == "bob"
    assert listed.select_one("form[data-block]")["action"] == "/players/bob/block"
    assert ann.post("/players/bob/block", {"on": "0"}).status_code == 303
    assert blocked_pairs() == set()
    settings = BeautifulSoup(ann.get("/accounts/settings/").content, "html.parser")
    assert settings.select("[data-no-blocks]") and not settings.select("[data-blocks]")


def test_nobody_else_sees_the_block_and_bad_requests_change_nothing():
    ann = account("ann")
    bob = account("bob")
    ann.post("/players/bob/block", {"on": "1"})
    # The blocked player's view of the blocker's page is as it was.
    seen = bob.get("/players/ann/").content.decode()
    assert "data-blocked" not in seen and 'value="1"' in seen
    assert "data-block" not in Client().get("/players/bob/").content.decode()
    assert "data-block" not in ann.get("/players/ann/").content.decode()  # not oneself

    assert ann.post("/players/ann/block", {"on": "1"}).status_code == 400
    assert ann.post("/players/bob/block", {"on": "yes"}).status_code == 400
    assert ann.post("/players/nobody/block", {"on": "1"}).status_code == 404
    assert ann.get("/players/bob/block").status_code == 405  # no state-changing GET
    guest = Client().post("/players/bob/block", {"on": "0"})
    assert guest.status_code == 302 and guest["Location"].startswith("/accounts/login/")
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = ann.cookies
    assert strict.post("/players/bob/block", {"on": "0"}).status_code == 403
    assert blocked_pairs() == {("ann", "bob")}


# Challenges -------------------------------------------------------------------------------


def test_a_blocked_player_cannot_challenge_the_blocker_and_is_told_no_more(committed):
    ann, bob, cyn = account("ann"), account("bob"), account("cyn")
    ann.post("/players/bob/block", {"on": "1"})
    with committed():
        refused = bob.post("/players/ann/challenge", LIVE_1_0)
    assert refused.status_code == 403
    assert "Ann is not taking challenges from you" in refused.content.decode()
    assert not Challenge.objects.exists() and not Notification.objects.exists()
    # Anyone else still may, and the blocker may challenge the blocked player.
    with committed():
        assert cyn.post("/players/ann/challenge", LIVE_1_0).status_code == 303
        assert ann.post("/players/bob/challenge", LIVE_1_0).status_code == 303
    assert Challenge.objects.count() == 2


def test_blocking_withdraws_the_blocked_players_challenges_and_their_notices(committed):
    ann, bob = person("Ann"), person("Bob")
    Preference.objects.create(user=ann, email="each")
    with committed():
        offered, _ = challenges.create(who(bob), TERMS, to_user=ann)
        open_one, _ = challenges.create(who(bob), TERMS)
    assert len(notices(ann)) == 1
    blocker = Client()
    blocker.force_login(ann)
    with committed():
        assert blocker.post("/players/bob/block", {"on": "1"}).status_code == 303
    offered.refresh_from_db()
    open_one.refresh_from_db()
    assert (offered.status, open_one.status) == ("withdrawn", "open")
    assert notices(ann) == []
    assert run_queued_mail() == [False]
    assert mail.outbox == []


def test_a_blocked_player_cannot_accept_the_blockers_challenges_in_the_lobby():
    ann, bob = account("ann"), account("bob")
    ann.post("/players/bob/block", {"on": "1"})
    assert ann.post("/lobby/", LIVE_1_0).status_code == 303
    posted = Challenge.objects.get()
    row = bob.get("/lobby/").content.decode()
    assert "Ann is not taking challenges from you" in row
    refused = bob.post(f"/lobby/{posted.public_id}/accept")
    assert refused.status_code == 400
    assert "Ann is not taking challenges from you" in refused.content.decode()
    assert not Game.objects.exists()
    assert Client().post(f"/lobby/{posted.public_id}/accept").status_code == 303  # others may


def test_the_lobby_costs_one_query_more_for_an_account_however_many_challenges(
    django_assert_max_num_queries,
):
    ann = person("Ann")
    posters = [get_user_model().objects.create(username=f"poster{n}") for n in range(12)]
    for poster in posters:
        challenges.create(who(poster), TERMS)
    Block.objects.create(blocker=posters[0], blocked=ann)
    client = Client()
    client.force_login(ann)
    with django_assert_max_num_queries(12):
        lobby = BeautifulSoup(client.get("/lobby/").content, "html.parser")
    refusals = [refusal.text for refusal in lobby.select("[data-refusal]")]
    assert refusals == ["Poster0 is not taking challenges from you."]


# Notices ----------------------------------------------------------------------------------


def test_the_blocked_players_answers_and_takeback_requests_tell_the_blocker_nothing(committed, act):
    ann, bob = person("Ann"), person("Bob")
    Block.objects.create(blocker=ann, blocked=bob)
    with committed():
        declined, _ = challenges.create(who(ann), TERMS, to_user=bob)
        accepted, _ = challenges.create(who(ann), TERMS, to_user=bob)
    with committed():
        challenges.decline(declined.public_id, who(bob))
        challenges.accept(accepted.public_id, who(bob))
    assert notices(ann) == []
    # A game between them goes on, and its turns are still told.
    game = act(match, ann, bob)
    act(move, game, ann, "dark", "D4")
    act(move, game, bob, "light", "E4")
    act(play.take_back, game.public_id, {"light": account_token(bob.pk, game.public_id, "light")})
    assert [told.kind for told in notices(ann)] == ["your_turn"]


@pytest.fixture
def act(committed):
    def run(action, *args, **kwargs):
        with committed():
            return action(*args, **kwargs)

    return run


# Chat -------------------------------------------------------------------------------------


def test_a_blocked_player_cannot_write_to_the_blocker_whose_game_goes_on():
    ann, bob = account("ann"), account("bob")
    game = friend_game(ann, bob)  # ann plays dark, bob light
    say(bob, game, text="before the block")
    say(ann, game, text="ann speaks")
    assert ann.post("/players/bob/block", {"on": "1"}).status_code == 303

    refused = say(bob, game, text="after the block")
    assert "ann is not taking messages from you" in error_of(refused.content.decode())
    assert say(bob, game, htmx=False, quick="Thanks").status_code == 403
    assert say(ann, game, text="ann still speaks").status_code == 200
    texts = lambda box: re.findall(r'<span class="chat__text">([^<]*)</span>', box)  # noqa: E731
    assert texts(chat_section(page(ann, game))) == ["ann speaks", "ann still speaks"]
    assert texts(chat_section(page(bob, game))) == [
        "before the block",
        "ann speaks",
        "ann still speaks",
    ]

    # The game goes on: bob still moves, and, once it is over, watchers read what was
    # said before the block and nothing after it.
    assert ann.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0}).status_code == 303
    moved = bob.post(f"/g/{game.public_id}/move", {"move": "E4", "ply": 1}, headers=HTMX)
    assert moved.status_code == 200 and not error_of(moved.content.decode())
    assert ann.post(f"/g/{game.public_id}/resign").status_code == 303
    watched = texts(chat_section(page(Client(), game)))
    assert watched == ["before the block", "ann speaks", "ann still speaks"]
    assert "before the block" not in chat_section(page(ann, game))

    # Unblocked, they talk again.
    ann.post("/players/bob/block", {"on": "0"})
    assert say(bob, game, quick="Well played").status_code == 200
    assert "before the block" in chat_section(page(ann, game))
