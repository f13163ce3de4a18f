"""How a player is shown (``game.people``): one value for every place that names a
player, and who is looking worked out once a request."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from chat import talk
from game import people, play
from game.maerstanas import Rules
from game.models import Game
from game.tokens import hash_token, new_seat_token
from lobby import watch
from lobby.models import Challenge
from notifications import turns
from players.models import Account, Rating
from tests.chat.test_chat import friend_game, say
from tests.support.accounts import account

pytestmark = pytest.mark.django_db


def seated_game(dark=None, light=None, dark_name: str = "", light_name: str = "") -> Game:
    """A friend game under way between ``dark`` and ``light`` (accounts, or guests with
    the names given)."""
    sides = {"dark": (dark, dark_name), "light": (light, light_name)}
    taking = {
        color: play.Person(hash_token(new_seat_token()), user, name)
        for color, (user, name) in sides.items()
    }
    return play.create_match(Rules(), taking)


def test_a_guest_is_named_alike_on_the_board_the_watch_list_the_lobby_chat_and_notices():
    game = seated_game(dark_name="Wulf", light_name="")
    by_color = game.seats_by_color()

    assert game.people()["dark"]["name"] == "Wulf (guest)"
    assert watch._side(game, "dark", by_color["dark"], {}).name == "Wulf (guest)"
    assert Challenge(creator_name="Wulf").creator_display == "Wulf (guest)"
    assert talk._name(None, "Wulf", talk.PLAYERS) == "Wulf (guest)"
    assert turns.seat_name(by_color["dark"]) == "Wulf (guest)"
    # The nameless, as each place speaks of them.
    assert game.people()["light"]["name"] == "Guest"
    assert watch._side(game, "light", by_color["light"], {}).name == "Guest"
    assert turns.seat_name(by_color["light"]) == "a guest"
    assert talk._name(None, "", talk.WATCHERS) == "Watcher"


def test_an_account_is_shown_with_its_rating_in_the_games_family_and_its_bot_mark(
    django_user_model,
):
    ann = django_user_model.objects.create_user("ann")
    robot = django_user_model.objects.create_user("robot")
    Account.objects.create(user=robot, bot=True)
    game = seated_game(ann, robot)
    Rating.objects.create(user=ann, family=game.rating_family, value=1234.5)
    Rating.objects.create(user=ann, family="cyngesheall-standard", value=900.0)

    shown = game.people()
    assert shown["dark"] == {"name": "ann", "username": "ann", "rating": 1234.5, "bot": False}
    # An account without a rated game in the family starts where everyone does.
    assert shown["light"] == {"name": "robot", "username": "robot", "rating": 1000.0, "bot": True}
    ratings = people.ratings_of([ann.pk, robot.pk], [game.rating_family])
    listed = watch._side(game, "light", game.seats_by_color()["light"], ratings)
    assert (listed.name, listed.rating, listed.bot) == ("robot", 1000.0, True)


def test_naming_a_games_players_costs_three_queries_whoever_they_are(django_user_model):
    """The seats, their accounts and the ratings: a query each, not three a side."""
    guests = seated_game(dark_name="Wulf", light_name="Hild")
    accounts = seated_game(
        django_user_model.objects.create_user("ann"), django_user_model.objects.create_user("bo")
    )
    for game, most in ((guests, 1), (accounts, 3)):
        game = Game.objects.get(pk=game.pk)
        with CaptureQueriesContext(connection) as queries:
            game.people()
        assert len(queries) == most, [query["sql"] for query in queries]


def game_page_queries(client: Client, game: Game) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/g/{game.public_id}/")
    assert response.status_code == 200
    return len(queries)


def test_a_game_pages_queries_do_not_grow_with_the_watchers_named_in_its_chat():
    ann, bo = account("ann"), account("bob")
    game = friend_game(ann, bo)
    talkers = [account(f"osric{n}x") for n in range(5)]
    looking = account("eadgar")
    assert say(talkers[0], game, text="hello", room="watchers").status_code == 200
    few = game_page_queries(looking, game)
    for n, talker in enumerate(talkers[1:]):
        assert say(talker, game, text=f"hello {n}", room="watchers").status_code == 200
    page = BeautifulSoup(looking.get(f"/g/{game.public_id}/").content, "html.parser")
    assert "osric4x" in page.get_text()  # the watchers' names are shown…
    assert game_page_queries(looking, game) == few  # …at no cost a name


def test_who_is_looking_is_read_once_a_request(monkeypatch):
    """The move's view, the page it draws and the chat box all ask which seats the
    browser holds: the account's seats are read once."""
    ann, bo = account("ann"), account("bob")
    game = friend_game(ann, bo)
    with CaptureQueriesContext(connection) as queries:
        response = ann.post(
            f"/g/{game.public_id}/move", {"move": "D4", "ply": "0"}, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.ply == 1
    looking = [q for q in queries if '"game_seat"."user_id" =' in q["sql"]]
    assert len(looking) == 1, [query["sql"] for query in looking]


def test_seats_taken_in_a_request_are_seen_by_the_rest_of_it(rf, django_user_model):
    """What is read once is forgotten when the request's browser takes a seat."""
    from django.contrib.sessions.backends.db import SessionStore

    from game import seats

    game = seated_game(dark_name="Wulf", light_name="Hild")
    request = rf.get("/")
    request.session = SessionStore()
    request.user = django_user_model.objects.create_user("ann")
    assert seats.tokens_for(request, game.public_id) == {}
    seats.remember(request, game.public_id, {"dark": "a-token"})
    assert seats.tokens_for(request, game.public_id) == {"dark": "a-token"}
