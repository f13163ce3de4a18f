"""Players' profiles, their JSON and the leaderboard: built from the ratings that
rated games changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from game import play
from game.cyngesheall import Rules as CyngesheallRules
from game.engine import Rules
from players.graph import rating_graph
from players.models import Rating, RatingChange
from tests.support.accounts import PASSWORD

pytestmark = pytest.mark.django_db


def user(username: str):
    return get_user_model().objects.create_user(username, password=PASSWORD)


def rated(dark, light, loser: str, rules: Rules | CyngesheallRules | None = None):
    """A rated game between two accounts, both moving once, then ``loser`` resigns."""
    game, tokens = play.create_game("friend", rules or Rules(), user=dark, rated=True)
    _, _, token = play.join(game.public_id, play.invite_code(game), user=light)
    tokens |= {"light": token}
    moves = ("B6-E3", "G4-D4") if isinstance(rules, CyngesheallRules) else ("D4", "E4")
    play.make_move(game.public_id, tokens, moves[0], expected_ply=0)
    play.make_move(game.public_id, tokens, moves[1], expected_ply=1)
    play.resign(game.public_id, {loser: tokens[loser]})
    return game


def test_a_profile_shows_the_rating_record_history_and_games(client):
    ann, bob = user("Ann"), user("Bob")
    first = rated(ann, bob, "light")
    second = rated(bob, ann, "light")  # Ann, light, resigns
    going, _ = play.create_game("friend", Rules(), user=ann)
    page = client.get("/players/ann/")  # any case
    assert page.status_code == 200
    soup = BeautifulSoup(page.content, "html.parser")
    ann_rating = Rating.objects.get(user=ann).value
    assert soup.select_one("[data-rating]")["data-rating"] == str(round(ann_rating))
    assert soup.select_one("[data-games]")["data-games"] == "2"
    assert soup.select_one("[data-wins]")["data-wins"] == "1"
    assert soup.select_one("[data-losses]")["data-losses"] == "1"
    assert soup.select_one("[data-ties]")["data-ties"] == "0"
    assert soup.select_one("svg.rating-graph polyline")["points"].count(",") == 3
    finished = {item["data-game"] for item in soup.select('[data-games="finished"] [data-game]')}
    assert finished == {first.public_id, second.public_id}
    assert soup.select_one('[data-games="going-on"] [data-game]')["data-game"] == going.public_id


def test_a_profile_names_whom_each_game_was_against(client):
    ann, bob = user("Ann"), user("Bob")
    first = rated(ann, bob, "light")
    going, _ = play.create_game("friend", Rules(), user=ann)
    soup = BeautifulSoup(client.get("/players/Ann/").content, "html.parser")
    against = {
        item["data-game"]: item.select_one("[data-opponent]").get_text()
        for item in soup.select("[data-games] [data-game]")
    }
    assert against == {first.public_id: "Against Bob, rated", going.public_id: "Against a friend"}
    soup = BeautifulSoup(client.get("/players/Bob/").content, "html.parser")
    assert soup.select_one("[data-games] [data-opponent]").get_text() == "Against Ann, rated"


def test_the_players_json_is_the_page_contracts():
    ann, bob = user("Ann"), user("Bob")
    game = rated(ann, bob, "light")
    body = Client().get("/api/players/Ann").json()
    change = RatingChange.objects.get(user=ann)
    assert body == {
        "username": "Ann",
        "family": "maerstanas-standard",
        "rating": 1016.0,
        "games": 1,
        "wins": 1,
        "losses": 0,
        "ties": 0,
        "history": [
            {"game": game.public_id, "before": 1000.0, "after": 1016.0, "at": change.at.isoformat()}
        ],
    }
    fresh = Client().get("/api/players/Bob?family=maerstanas-wraparound")
    assert fresh.status_code == 404  # nobody has a wraparound rating yet


@pytest.mark.parametrize(
    "path",
    ["/players/nobody/", "/api/players/nobody", "/players/Ann/?family=chess", "/players/a%20b/"],
)
def test_an_unknown_player_or_family_is_a_404(client, path):
    user("Ann")
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert response.json() == {"error": "there is no player of that name"}


def test_a_player_with_no_rated_game_starts_at_1000(client):
    user("Cuthbert")
    page = client.get("/players/Cuthbert/").content.decode()
    assert 'data-rating="1000"' in page and "No rated game yet" in page
    assert Client().get("/api/players/cuthbert").json()["rating"] == 1000.0


def test_the_leaderboard_ranks_the_players_of_the_last_90_days(client):
    ann, bob, cyn, old = user("Ann"), user("Bob"), user("Cyn"), user("Old")
    rated(ann, bob, "light")
    rated(cyn, bob, "light")
    rated(old, bob, "light")
    RatingChange.objects.filter(user=old).update(at=timezone.now() - timedelta(days=91))
    soup = BeautifulSoup(client.get("/players/").content, "html.parser")
    rows = [(row["data-player"], row["data-rating"]) for row in soup.select("[data-player]")]
    ratings = {r.user.username: round(r.value) for r in Rating.objects.select_related("user")}
    assert [name for name, _ in rows] == ["Ann", "Cyn", "Bob"]
    assert [int(rating) for _, rating in rows] == [ratings["Ann"], ratings["Cyn"], ratings["Bob"]]
    assert "Old" not in [name for name, _ in rows]


def test_the_leaderboard_keeps_families_apart_and_searches_names(client):
    ann, bob = user("Ann"), user("Bob")
    rated(ann, bob, "light", Rules(wraparound=True))
    assert client.get("/players/").content.decode().count("data-player=") == 0
    wrapped = client.get("/players/?family=maerstanas-wraparound").content.decode()
    assert wrapped.count("data-player=") == 2
    assert "The best rated (Mǽrstánas, wraparound)" in wrapped
    found = BeautifulSoup(client.get("/players/?q=an").content, "html.parser")
    assert [a.text for a in found.select("[data-search-results] a")] == ["Ann"]
    assert "No player's name" in client.get("/players/?q=zz").content.decode()


def test_each_game_s_ratings_are_named_by_the_game_and_kept_apart(client):
    ann, bob = user("Ann"), user("Bob")
    rated(ann, bob, "light")
    cyngesheall = rated(ann, bob, "dark", CyngesheallRules())
    soup = BeautifulSoup(client.get("/players/Ann/").content, "html.parser")
    families = {a["data-family"]: a.get_text() for a in soup.select("nav.families a")}
    assert families == {"maerstanas-standard": "Mǽrstánas", "cyngesheall-standard": "Cyngesheall"}
    assert soup.select_one("nav.families a[aria-current]")["data-family"] == "maerstanas-standard"
    assert "Rating (Mǽrstánas)" in soup.select_one(".profile__figures").get_text()
    assert soup.select_one("[data-wins]")["data-wins"] == "1"
    kinds = [span.get_text() for span in soup.select('[data-games="finished"] [data-kind]')]
    assert sorted(kinds) == ["Cyngesheall", "Mǽrstánas"]
    page = client.get("/players/Ann/", {"family": "cyngesheall-standard"})
    soup = BeautifulSoup(page.content, "html.parser")
    assert "Rating (Cyngesheall)" in soup.select_one(".profile__figures").get_text()
    assert soup.select_one("[data-losses]")["data-losses"] == "1"
    assert soup.select_one("[data-wins]")["data-wins"] == "0"
    expected = round(Rating.objects.get(user=ann, family=cyngesheall.rating_family).value)
    assert soup.select_one("[data-rating]")["data-rating"] == str(expected) != "1000"
    board = BeautifulSoup(
        client.get("/players/", {"family": "cyngesheall-standard"}).content, "html.parser"
    )
    assert "The best rated (Cyngesheall)" in board.get_text()
    assert [row["data-player"] for row in board.select("[data-player]")] == ["Bob", "Ann"]
    assert client.get("/players/", {"family": "chess-standard"}).status_code == 404


def test_a_name_is_escaped_wherever_it_shows(client):
    ann = get_user_model().objects.create_user("Ann", password=PASSWORD)
    bob = get_user_model().objects.create_user("Bob", password=PASSWORD)
    get_user_model().objects.filter(pk=ann.pk).update(username="<i>x")  # past the rules
    rated(get_user_model().objects.get(pk=ann.pk), bob, "light")
    for path in ["/players/?q=x", "/players/", "/players/%3Ci%3Ex/"]:
        page = client.get(path).content.decode()
        assert "<i>x" not in page and "&lt;i&gt;x" in page, path


def test_the_rating_graph_draws_each_rating_and_says_what_it_shows():
    svg = rating_graph([1000.0, 1016.0, 1000.5])
    assert svg.split('points="')[1].split('"')[0].count(",") == 3 and 'role="img"' in svg
    assert "From 1000 to 1000 over 2 rated games; highest 1016, lowest 1000." in svg
