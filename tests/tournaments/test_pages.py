"""The tournaments' pages, without script: forms posted, pages answered."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from game.models import Game
from game.tokens import account_token
from tests.support.accounts import account
from tournaments import pages
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

ARENA = {
    "game": "maerstanas",
    "system": "arena",
    "duration": "30",
    "speed": "live",
    "minutes": "3",
    "increment": "2",
    "days": "3",
    "rated": "on",
    "name": "Friday arena",
    "scoring": "standard",
}


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.content, "html.parser")


def test_the_list_page_offers_the_form_to_accounts_only():
    text = Client().get("/tournaments/").content.decode()
    assert "<h1>Tournaments</h1>" in text and "data-tournament-form" not in text
    assert "Log in" in text
    assert "data-tournament-form" in account("ann").get("/tournaments/").content.decode()


def test_making_joining_and_starting_an_arena_by_forms():
    ann, bob, cy = account("ann"), account("bob"), account("cyd")
    response = ann.post("/tournaments/", ARENA)
    assert response.status_code == 303
    event = Tournament.objects.get()
    assert response["Location"] == f"/tournaments/{event.public_id}/"
    assert (event.name, event.system, event.minutes, event.initial) == (
        "Friday arena",
        "arena",
        30,
        180,
    )
    listed = soup(Client().get("/tournaments/"))
    assert listed.select_one(f'[data-tournament="{event.public_id}"][data-status="created"]')
    url = f"/tournaments/{event.public_id}/"
    page = soup(ann.get(url))
    assert page.select_one("[data-start]") and page.select_one("[data-join]")
    for client in (bob, cy):
        assert client.post(url + "join").status_code == 303
    assert Entry.objects.filter(tournament=event).count() == 2
    assert bob.post(url + "start").status_code == 403  # only its creator
    assert ann.post(url + "start").status_code == 303
    page = soup(bob.get(url))
    game = Game.objects.get()
    assert page.select_one("[data-my-game]")["data-my-game"] == f"/g/{game.public_id}/"
    rows = page.select("[data-standings] tbody tr")
    assert sorted(row["data-player"] for row in rows) == ["bob", "cyd"]
    assert page.select_one("[data-pairings] a")["href"] == f"/g/{game.public_id}/"
    assert page.select_one("[data-withdraw]").text == "Pause"


def test_a_refused_action_is_shown_on_the_page_and_changes_nothing():
    ann, bob = account("ann"), account("bob")
    ann.post("/tournaments/", ARENA | {"password": "club"})
    event = Tournament.objects.get()
    url = f"/tournaments/{event.public_id}/"
    response = bob.post(url + "join", {"password": "guess"})
    assert response.status_code == 403
    assert "password is needed" in soup(response).select_one("[data-error]").text
    assert not Entry.objects.exists()
    response = ann.post(url + "start")
    assert response.status_code == 400 and "two players" in response.content.decode()


def test_a_bad_form_is_a_400_with_the_reason():
    response = account("ann").post("/tournaments/", ARENA | {"system": "knockout"})
    assert response.status_code == 400
    assert "is not a system" in soup(response).select_one("[data-error]").text
    assert not Tournament.objects.exists()


def test_a_guest_is_sent_to_log_in_and_an_unknown_event_is_a_404():
    response = Client().post("/tournaments/", ARENA)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().get("/tournaments/nothing/").status_code == 404
    assert Client().post("/tournaments/nothing/join").status_code == 404
    assert Client().get("/tournaments/").status_code == 200


def test_no_action_is_a_get():
    ann = account("ann")
    ann.post("/tournaments/", ARENA)
    event = Tournament.objects.get()
    for action in ("join", "withdraw", "start"):
        assert ann.get(f"/tournaments/{event.public_id}/{action}").status_code == 405
    assert not Entry.objects.exists()


def test_a_round_robin_by_correspondence_shows_its_crosstable_and_its_winner():
    ann, bob, cy = account("ann"), account("bob"), account("cyd")
    form = ARENA | {"system": "round-robin", "speed": "correspondence", "name": "Club"}
    ann.post("/tournaments/", form)
    event = Tournament.objects.get()
    url = f"/tournaments/{event.public_id}/"
    for client in (ann, bob, cy):
        client.post(url + "join")
    ann.post(url + "start")
    assert Game.objects.count() == 3  # every game at once
    for game in Game.objects.all():
        seats = game.seats_by_color()
        loser = seats["light"].user_id
        token = account_token(loser, game.public_id, "light")
        Client().post(f"/api/games/{game.public_id}/resign", HTTP_AUTHORIZATION=f"Bearer {token}")
    page = soup(Client().get(url))
    assert page.select_one("[data-tournament-page]")["data-status"] == "finished"
    assert page.select_one("[data-winner]") is not None
    rows = page.select("[data-crosstable] tbody tr")
    cells = [td.text for row in rows for td in row.select("td")[:-1]]  # the score last
    assert sorted(cells) == ["0", "0", "0", "1", "1", "1", "—", "—", "—"]
    scores = sorted(row.select("td")[-1].text for row in rows)
    assert sum(map(float, scores)) == 3
    assert re.search(r"Finished: won by", page.select_one("[data-status-text]").text)


def test_the_home_page_and_the_lobby_offer_an_open_event_of_the_game_chosen():
    ann = account("ann")
    ann.post("/tournaments/", ARENA | {"game": "cyngesheall", "name": "Kings' arena"})
    ann.post("/tournaments/", ARENA | {"name": "Club night", "password": "club"})
    event = Tournament.objects.get(name="Kings' arena")
    home = soup(Client().get("/?game=cyngesheall"))
    assert home.select_one("[data-featured-tournament]")["data-featured-tournament"] == (
        event.public_id
    )
    # The private event is never offered; Mǽrstánas has no other.
    assert soup(Client().get("/")).select_one("[data-featured-tournament]") is None
    lobby = soup(Client().get("/lobby/"))
    assert "Kings' arena" in lobby.select_one("[data-featured-tournament]").text


def test_a_profile_lists_the_players_events_and_places():
    ann, bob = account("ann"), account("bob")
    ann.post("/tournaments/", ARENA | {"system": "swiss", "rounds": "1"})
    event = Tournament.objects.get()
    url = f"/tournaments/{event.public_id}/"
    for client in (ann, bob):
        client.post(url + "join")
    ann.post(url + "start")
    game = Game.objects.get()
    loser = game.seats_by_color()["dark"].user
    token = account_token(loser.pk, game.public_id, "dark")
    Client().post(f"/api/games/{game.public_id}/resign", HTTP_AUTHORIZATION=f"Bearer {token}")
    winner = "bob" if loser.username == "ann" else "ann"
    for name, place in ((winner, "1"), (loser.username, "2")):
        row = soup(Client().get(f"/players/{name}/")).select_one("[data-tournaments-played] li")
        assert row["data-place"] == place and "place " + place + " of 2" in row.text


def test_a_player_goes_berserk_from_the_game_page():
    ann, bob, cyd = account("ann"), account("bob"), account("cyd")
    ann.post("/tournaments/", ARENA | {"berserk": "on"})
    event = Tournament.objects.get()
    assert event.berserk
    url = f"/tournaments/{event.public_id}/"
    for client in (bob, cyd):
        client.post(url + "join")
    ann.post(url + "start")
    game = Game.objects.get()
    dark = bob if game.seats_by_color()["dark"].user.username == "bob" else cyd
    page = soup(dark.get(f"/g/{game.public_id}/"))
    note = page.select_one(f'[data-tournament-game="{event.public_id}"]')
    assert note.select_one("a")["href"] == url and note.select_one("[data-berserk]")
    assert soup(ann.get(f"/g/{game.public_id}/")).select_one("[data-berserk]") is None
    answer = dark.post(url + "berserk")
    assert answer.status_code == 303 and answer["Location"] == f"/g/{game.public_id}/"
    game.refresh_from_db()
    assert game.dark_ms == 90_000 and game.light_ms == 180_000
    page = soup(dark.get(f"/g/{game.public_id}/"))
    assert page.select_one("[data-berserked]")["data-berserked"] == "dark"
    assert page.select_one("[data-berserk]") is None
    again = dark.post(url + "berserk")
    assert again.status_code == 400 and "already" in again.content.decode()


def test_the_standings_come_a_page_at_a_time():
    from django.contrib.auth import get_user_model

    from tournaments import events, pages

    ann = account("ann")
    ann.post("/tournaments/", ARENA)
    event = Tournament.objects.get()
    for number in range(pages.PAGE_SIZE + 5):
        user = get_user_model().objects.create_user(f"player{number}")
        events.join(user, event.public_id)
    url = f"/tournaments/{event.public_id}/"
    first = soup(Client().get(url))
    assert len(first.select("[data-standings] tbody tr")) == pages.PAGE_SIZE
    assert [a["data-page"] for a in first.select("[data-standings-pages] a")] == ["2"]
    second = soup(Client().get(url + "?page=2"))
    assert len(second.select("[data-standings] tbody tr")) == 5
    assert second.select_one("[data-tournament-page]")["data-page"] == "2"
    shared = soup(Client().get(url + "?part=shared&page=2"))
    assert len(shared.select("[data-standings] tbody tr")) == 5
    assert shared.select_one("[data-join]") is None  # the part everyone shares has no forms
    assert len(soup(Client().get(url + "?page=junk")).select("[data-standings] tbody tr")) == 25
    mine = soup(ann.get(url + "?part=me"))
    assert mine.select_one("[data-join]") and mine.select_one("[data-start]")


def test_the_players_talk_in_the_events_chat_and_others_may_not():
    ann, bob = account("ann"), account("bob")
    ann.post("/tournaments/", ARENA)
    event = Tournament.objects.get()
    url = f"/tournaments/{event.public_id}/"
    bob.post(url + "join")
    page = soup(bob.get(url))
    assert page.select_one("[data-chat-form]") and page.select_one("[data-no-messages]")
    assert soup(ann.get(url)).select_one("[data-chat-form]") is None  # not playing
    assert bob.post(url + "chat", {"text": "  Good   luck <all>  "}).status_code == 303
    lines = soup(Client().get(url)).select("[data-messages] [data-message]")
    assert [line.text for line in lines] == ["bob Good luck <all>"]
    refused = ann.post(url + "chat", {"text": "hello"})
    assert refused.status_code == 403 and "join to talk" in refused.content.decode()
    assert bob.post(url + "chat", {"text": "   "}).status_code == 400
    assert bob.post(url + "chat", {"text": "x" * 201}).status_code == 400
    for _ in range(9):
        assert bob.post(url + "chat", {"text": "again"}).status_code == 303
    assert bob.post(url + "chat", {"text": "once more"}).status_code == 429
    assert event.messages.count() == 10


def test_a_player_does_not_read_the_lines_of_one_they_blocked():
    """The chat's lines are pushed to everyone with their authors' names; the page, and
    its shared part, drawn for one who blocked a player leave that player's lines out,
    and tell the page's script whose lines to hide as more come."""
    ann, bob, cyd = account("ann"), account("bob"), account("cyd")
    ann.post("/tournaments/", ARENA)
    event = Tournament.objects.get()
    url = f"/tournaments/{event.public_id}/"
    for player in (bob, cyd):
        player.post(url + "join")
    bob.post(url + "chat", {"text": "from bob"})
    cyd.post(url + "chat", {"text": "from cyd"})
    assert cyd.post("/players/bob/block", {"on": "1"}).status_code == 303

    def lines(page) -> list[str]:
        return [line["data-author"] for line in page.select("[data-messages] [data-message]")]

    assert lines(soup(cyd.get(url))) == ["cyd"]
    assert lines(soup(cyd.get(url + "?part=shared"))) == ["cyd"]
    assert json.loads(soup(cyd.get(url)).select_one("#tournament-blocked").string) == ["bob"]
    assert lines(soup(ann.get(url))) == ["bob", "cyd"]
    assert soup(ann.get(url)).select_one("#tournament-blocked") is None
    drawn = pages.shared_html(event.public_id, 10**6)[1]
    assert lines(BeautifulSoup(drawn, "html.parser")) == ["bob", "cyd"]


def test_the_list_shows_one_games_events_when_asked():
    ann = account("ann")
    ann.post("/tournaments/", ARENA | {"game": "cyngesheall", "name": "Kings"})
    ann.post("/tournaments/", ARENA | {"name": "Stones"})
    every = soup(Client().get("/tournaments/")).select("[data-tournament]")
    assert {li["data-game"] for li in every} == {"cyngesheall", "maerstanas"}
    kings = soup(Client().get("/tournaments/?game=cyngesheall"))
    assert [li["data-game"] for li in kings.select("[data-tournament]")] == ["cyngesheall"]
    assert kings.select_one("[data-game-filter] [aria-current]").text == "Cyngesheall"
    part = soup(Client().get("/tournaments/?game=cyngesheall&part=list"))
    assert [li["data-game"] for li in part.select("[data-tournament]")] == ["cyngesheall"]
    assert Client().get("/tournaments/?game=chess").status_code == 404
