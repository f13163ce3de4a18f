"""Rated games: a friend game between two accounts changes both ratings once, as it
ends, in the transaction that ends it; guests play on as before."""

from __future__ import annotations

import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test import Client

from game import play
from game.engine import Rules
from game.models import Game
from game.surface import (
    Outcome,
)
from players.models import Rating, RatingChange
from players.rating import rate
from tests.support.accounts import PASSWORD, account

pytestmark = pytest.mark.django_db


def rated_game(creator: Client, **fields: str) -> tuple[Game, str]:
    """A rated friend game its creator plays dark in; the game and its invite path."""
    data = {"mode": "friend", "color": "dark", "scoring": "standard", "rated": "on"} | fields
    response = creator.post("/", data)
    assert response.status_code == 303, response.content
    game = Game.objects.get(public_id=response["Location"].split("/")[2])
    page = creator.get(f"/g/{game.public_id}/").content.decode()
    invite = re.search(r'data-invite-url="http://testserver([^"]+)"', page)[1]
    return game, invite


def join(client: Client, game: Game, invite: str):
    return client.post(f"/g/{game.public_id}/join", {"invite": invite.rstrip("/").rsplit("/")[-1]})


def move(client: Client, game: Game, text: str, ply: int):
    return client.post(f"/g/{game.public_id}/move", {"move": text, "ply": ply})


def test_a_rated_game_played_and_resigned_changes_both_ratings_once():
    ann, bob = account("Ann"), account("Bob")
    game, invite = rated_game(ann)
    assert game.rated and game.status == Game.Status.WAITING
    assert join(bob, game, invite).status_code == 303
    assert move(ann, game, "D4", 0).status_code == 303
    assert move(bob, game, "E4", 1).status_code == 303
    assert bob.post(f"/g/{game.public_id}/resign").status_code == 303

    users = get_user_model().objects
    ann_rating = Rating.objects.get(user=users.get(username="Ann"))
    bob_rating = Rating.objects.get(user=users.get(username="Bob"))
    assert (ann_rating.value, bob_rating.value) == (1016.0, 984.0)
    assert ann_rating.family == bob_rating.family == "maerstanas-standard"
    assert (ann_rating.games, ann_rating.wins, bob_rating.losses) == (1, 1, 1)
    assert RatingChange.objects.filter(game=game).count() == 2

    state = Client().get(f"/api/games/{game.public_id}").json()
    assert state["rated"] is True
    assert state["players"]["dark"] == {
        "kind": "human",
        "name": "Ann",
        "username": "Ann",
        "rating": 1016.0,
    }
    assert state["players"]["light"]["username"] == "Bob"
    assert state["rating_change"] == {"dark": 16.0, "light": -16.0}
    page = Client().get(f"/g/{game.public_id}/").content.decode()
    assert 'data-seat-name="dark"' in page and "Ann" in page
    # Pages show whole points with their sign, a true minus; the API keeps its decimal.
    assert "(1016, +16)" in page and "(984, −16)" in page and "16.0" not in page
    assert "data-rated" in page

    # A second rating of the same game is refused by the database, and changes nothing.
    game.refresh_from_db()
    with pytest.raises(IntegrityError), transaction.atomic():
        rate(game, Outcome("dark", "resigned"))
    assert sorted(Rating.objects.values_list("value", flat=True)) == [984.0, 1016.0]


def test_a_rated_game_a_side_never_moved_in_is_not_rated():
    ann, bob = account("Ann"), account("Bob")
    game, invite = rated_game(ann)
    join(bob, game, invite)
    move(ann, game, "D4", 0)
    assert ann.post(f"/g/{game.public_id}/resign").status_code == 303  # Bob never moved
    game.refresh_from_db()
    assert game.is_over
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert "rating_change" not in Client().get(f"/api/games/{game.public_id}").json()


def test_a_guest_is_told_to_log_in_and_cannot_take_a_rated_seat():
    game, invite = rated_game(account("Ann"))
    guest = Client()
    page = guest.get(invite).content.decode()
    assert "data-rated-invite" in page and "/accounts/login/?next=" in page
    assert "data-join" not in page
    response = join(guest, game, invite)
    assert response.status_code == 303  # back to the game, saying why
    assert "log in or sign up to join it" in guest.get(response["Location"]).content.decode()
    game.refresh_from_db()
    assert game.free_seat() == "light" and game.status == Game.Status.WAITING
    # Through the API too, which has no accounts: the seat is for one.
    api = guest.post(
        f"/api/games/{game.public_id}/join",
        {"invite": invite},
        content_type="application/json",
    )
    assert api.status_code == 403 and "log in" in api.json()["error"]


def test_only_an_account_can_ask_for_a_rated_game_and_only_against_a_friend():
    guest = Client()
    response = guest.post("/", {"mode": "friend", "scoring": "standard", "rated": "on"})
    assert response.status_code == 400
    assert "Log in to play a rated game" in response.content.decode()
    assert not Game.objects.exists()
    assert 'name="rated"' not in guest.get("/").content.decode()

    ann = account("Ann")
    assert 'name="rated"' in ann.get("/").content.decode()
    response = ann.post("/", {"mode": "hotseat", "scoring": "standard", "rated": "on"})
    assert response.status_code == 400
    assert "Only a game against a friend is rated" in response.content.decode()
    assert not Game.objects.exists()


def test_a_rated_game_has_no_takebacks():
    ann, bob = account("Ann"), account("Bob")
    game, invite = rated_game(ann)
    join(bob, game, invite)
    move(ann, game, "D4", 0)
    response = ann.post(f"/g/{game.public_id}/takeback")
    assert response.status_code == 303  # back to the game, saying why
    assert "A rated game has no takebacks" in ann.get(response["Location"]).content.decode()
    game.refresh_from_db()
    assert game.ply == 1 and game.takeback_by == ""


def test_wraparound_is_rated_apart():
    ann, bob = account("Ann"), account("Bob")
    game, invite = rated_game(ann, wraparound="on")
    join(bob, game, invite)
    move(ann, game, "D4", 0)
    move(bob, game, "E4", 1)
    ann.post(f"/g/{game.public_id}/resign")
    assert set(Rating.objects.values_list("family", flat=True)) == {"maerstanas-wraparound"}


def test_an_unrated_game_between_accounts_changes_no_rating():
    ann, bob = account("Ann"), account("Bob")
    game, invite = rated_game(ann, rated="")
    assert not game.rated
    join(bob, game, invite)
    move(ann, game, "D4", 0)
    move(bob, game, "E4", 1)
    ann.post(f"/g/{game.public_id}/resign")
    assert not RatingChange.objects.exists()
    players = Client().get(f"/api/games/{game.public_id}").json()["players"]
    assert players["dark"]["rating"] == 1000.0 and players["light"]["name"] == "Bob"


def test_a_rated_game_must_be_a_friend_game_from_the_empty_board_started_logged_in():
    with pytest.raises(play.PlayError, match="a rated game is a friend game"):
        play.create_game("friend", Rules(), rated=True)
    user = get_user_model().objects.create_user("Ann", password=PASSWORD)
    with pytest.raises(play.PlayError, match="a rated game is a friend game"):
        play.create_game("hotseat", Rules(), user=user, rated=True)
    game, _ = play.create_game("friend", Rules(), user=user, rated=True)
    assert game.rated and game.seat("dark").user == user


@pytest.mark.django_db(transaction=True)
def test_racing_to_end_a_rated_game_rates_it_once():
    """Both players resign and move at once, from two tabs each: one of them ends the
    game, and the ratings change once."""
    users = get_user_model().objects
    ann = users.create_user("Ann", password=PASSWORD)
    bob = users.create_user("Bob", password=PASSWORD)
    game, dark = play.create_game("friend", Rules(), user=ann, rated=True)
    _, _, light_token = play.join(game.public_id, play.invite_code(game), user=bob)
    tokens = dark | {"light": light_token}
    play.make_move(game.public_id, tokens, "D4", expected_ply=0)
    play.make_move(game.public_id, tokens, "E4", expected_ply=1)
    gate = threading.Barrier(4)
    outcomes: list[object] = []

    def act(action) -> None:
        gate.wait()
        try:
            outcomes.append(action())
        except Exception as exc:  # the assertions below say which
            outcomes.append(exc)
        finally:
            connection.close()

    actions = [
        lambda: play.resign(game.public_id, dark),
        lambda: play.resign(game.public_id, dark),
        lambda: play.resign(game.public_id, {"light": light_token}),
        lambda: play.resign(game.public_id, {"light": light_token}),
    ]
    threads = [threading.Thread(target=act, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    done = [outcome for outcome in outcomes if isinstance(outcome, Game)]
    assert len(done) == 1, outcomes
    assert RatingChange.objects.filter(game=game).count() == 2
    values = sorted(Rating.objects.values_list("value", flat=True))
    assert values == [984.0, 1016.0]
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]


def test_play_join_never_gives_an_account_a_second_seat_whatever_the_caller_holds():
    """The web and the API pass the seats the joiner holds; without them, the account
    alone is enough for ``play.join`` to refuse."""
    ann = get_user_model().objects.create_user("Ann", password=PASSWORD)
    game, _ = play.create_game("friend", Rules(), user=ann, rated=True)
    with pytest.raises(play.PlayError, match="you play dark in this game already") as refused:
        play.join(game.public_id, play.invite_code(game), user=ann)
    assert refused.value.status == 409
    game.refresh_from_db()
    assert game.seat("light") is None and game.status == Game.Status.WAITING


def test_an_account_logged_in_twice_cannot_join_its_own_rated_game():
    ann = account("Ann")
    game, invite = rated_game(ann)
    again = Client()
    assert again.login(username="Ann", password=PASSWORD)
    response = join(again, game, invite)
    assert response.status_code == 303
    assert "You play dark in this game already" in again.get(response["Location"]).content.decode()
    game.refresh_from_db()
    assert game.seat("light") is None and game.status == Game.Status.WAITING


def test_a_game_whose_two_seats_are_one_account_ends_unrated():
    """However it came to be (seats claimed before the rule), one account is not two
    players: the game ends, and no rating is written, let alone one row twice."""
    users = get_user_model().objects
    ann = users.create_user("Ann", password=PASSWORD)
    bob = users.create_user("Bob", password=PASSWORD)
    game, dark = play.create_game("friend", Rules(), user=ann, rated=True)
    _, _, light = play.join(game.public_id, play.invite_code(game), user=bob)
    game.seats.filter(color="light").update(user=ann)
    tokens = dark | {"light": light}
    play.make_move(game.public_id, tokens, "D4", expected_ply=0)
    play.make_move(game.public_id, tokens, "E4", expected_ply=1)
    play.resign(game.public_id, {"light": light})
    game.refresh_from_db()
    assert game.is_over and game.result == "dark"
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert "rating_change" not in Client().get(f"/api/games/{game.public_id}").json()


def test_a_change_of_rating_is_shown_in_whole_points_with_a_true_minus():
    from game.pages import signed

    assert [signed(change) for change in (16.0, -16.0, -15.6, 0.2, -0.4, 31.7)] == [
        "+16",
        "−16",
        "−16",
        "+0",
        "+0",
        "+32",
    ]
