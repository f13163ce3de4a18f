"""Personal API tokens: a program holding one plays as the account through the API,
rated games included; revoked, it is refused; a browser's login is never the API's
credential. An account may say a program plays it (a bot)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game import tokens
from game.models import Game
from game.tokens import hash_token
from players.models import ApiToken, Rating
from tests.support.accounts import account

pytestmark = pytest.mark.django_db


def make_token(client: Client, name: str = "my program") -> str:
    response = client.post("/accounts/tokens/", {"action": "create", "name": name})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    return re.search(r'data-new-token="([^"]+)"', response.content.decode())[1]


def api(method: str, path: str, token: str, body: dict | None = None):
    client = Client()
    headers = {"Authorization": f"Bearer {token}"}
    if method == "GET":
        return client.get(path, headers=headers)
    return client.post(path, body or {}, content_type="application/json", headers=headers)


def test_a_token_is_shown_once_and_kept_only_as_its_hash():
    owner = account("Botwulf")
    token = make_token(owner)
    assert token.startswith("mt_") and len(token) > 40
    stored = ApiToken.objects.get()
    assert stored.name == "my program" and token not in stored.token_hash
    page = owner.get("/accounts/tokens/").content.decode()
    assert token not in page and "my program" in page and "never used" in page


def test_a_program_plays_a_rated_game_as_the_account_and_its_rating_changes():
    ann = account("Ann")
    bot = account("Botwulf")
    token = make_token(bot)
    created = api(
        "POST", "/api/games", token, {"mode": "friend", "color": "dark", "rated": True}
    ).json()
    game = Game.objects.get(public_id=created["id"])
    assert game.rated and game.seat("dark").user.username == "Botwulf"
    # A person joins with the invite, logged in; the program moves by its token.
    code = created["invite_url"].rstrip("/").rsplit("/", 1)[1]
    assert ann.post(f"/g/{game.public_id}/join", {"invite": code}).status_code == 303
    moved = api("POST", f"/api/games/{game.public_id}/moves", token, {"move": "D4", "ply": 0})
    assert moved.status_code == 200 and moved.json()["ply"] == 1
    assert ann.post(f"/g/{game.public_id}/move", {"move": "E4", "ply": 1}).status_code == 303
    resigned = api("POST", f"/api/games/{game.public_id}/resign", token)
    assert resigned.status_code == 200
    assert resigned.json()["rating_change"] == {"dark": -16.0, "light": 16.0}
    assert Rating.objects.get(user__username="Botwulf").value == 984.0
    assert ApiToken.objects.get().last_used is not None


def test_a_program_joins_a_rated_game_by_its_token():
    ann = account("Ann")
    ann.post("/", {"mode": "friend", "color": "dark", "scoring": "standard", "rated": "on"})
    game = Game.objects.get()
    page = ann.get(f"/g/{game.public_id}/").content.decode()
    invite = re.search(r'data-invite-url="([^"]+)"', page)[1]
    token = make_token(account("Botwulf"))
    joined = api("POST", f"/api/games/{game.public_id}/join", token, {"invite": invite})
    assert joined.status_code == 200 and joined.json()["color"] == "light"
    game.refresh_from_db()
    assert game.seat("light").user.username == "Botwulf"


def test_a_token_acts_only_in_the_accounts_own_games():
    ann = account("Ann")
    ann.post("/", {"mode": "hotseat", "scoring": "standard"})
    game = Game.objects.get()
    token = make_token(account("Botwulf"))
    response = api("POST", f"/api/games/{game.public_id}/moves", token, {"move": "D4", "ply": 0})
    assert response.status_code == 403
    assert response.json() == {"error": "this account holds no seat in this game"}
    game.refresh_from_db()
    assert game.ply == 0


def test_a_revoked_or_made_up_token_is_refused_and_changes_nothing():
    owner = account("Botwulf")
    token = make_token(owner)
    owner.post("/accounts/tokens/", {"action": "revoke", "token": ApiToken.objects.get().pk})
    assert not ApiToken.objects.exists()
    for used in (token, "mt_" + "x" * 43):
        response = api("POST", "/api/games", used, {"mode": "friend"})
        assert response.status_code == 401
        assert "not valid" in response.json()["error"]
    assert not Game.objects.exists()


def test_a_browsers_login_is_not_the_apis_credential():
    ann = account("Ann")
    response = ann.post(
        "/api/games", {"mode": "friend", "rated": True}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "started logged in" in response.json()["error"]


def test_only_the_owner_revokes_a_token_and_an_account_holds_ten_at_most():
    owner, other = account("Botwulf"), account("Eadric")
    make_token(owner)
    other.post("/accounts/tokens/", {"action": "revoke", "token": ApiToken.objects.get().pk})
    assert ApiToken.objects.count() == 1
    for number in range(9):
        make_token(owner, f"program {number}")
    refused = owner.post("/accounts/tokens/", {"action": "create", "name": "one more"})
    assert refused.status_code == 400 and "10 tokens at most" in refused.content.decode()
    assert ApiToken.objects.filter(user__username="Botwulf").count() == 10
    assert owner.post("/accounts/tokens/", {"action": "steal"}).status_code == 400


@pytest.mark.parametrize("token", ["abc", "1.5", "-1", "٣", "9" * 30, "", "99"])
def test_revoking_a_token_that_is_no_token_of_the_accounts_is_a_404(token):
    owner, other = account("Botwulf"), account("Eadric")
    make_token(owner)
    for client in (owner, other):
        response = client.post("/accounts/tokens/", {"action": "revoke", "token": token})
        assert response.status_code == 404
    theirs = {"action": "revoke", "token": ApiToken.objects.get().pk}
    assert other.post("/accounts/tokens/", theirs).status_code == 404
    assert ApiToken.objects.count() == 1


def test_a_bot_account_says_so_on_its_page_and_its_boards():
    bot = account("Botwulf")
    bot.post("/accounts/tokens/", {"action": "bot", "bot": "on"})
    assert "data-bot" in Client().get("/players/Botwulf/").content.decode()
    bot.post("/", {"mode": "friend", "color": "dark", "scoring": "standard"})
    game = Game.objects.get()
    assert "data-bot" in Client().get(f"/g/{game.public_id}/").content.decode()
    bot.post("/accounts/tokens/", {"action": "bot"})  # unticked
    assert "data-bot" not in Client().get("/players/Botwulf/").content.decode()
    assert get_user_model().objects.get().account.bot is False


def test_an_account_cannot_take_both_seats_of_its_own_game_through_the_api():
    token = make_token(account("Botwulf"))
    created = api("POST", "/api/games", token, {"mode": "friend", "rated": True}).json()
    joined = api(
        "POST", f"/api/games/{created['id']}/join", token, {"invite": created["invite_url"]}
    )
    assert joined.status_code == 409
    assert "you play dark in this game already" in joined.json()["error"]
    game = Game.objects.get()
    assert game.status == Game.Status.WAITING and game.seat("light") is None


def test_a_program_holding_a_seat_by_its_token_cannot_join_the_other():
    created = (
        Client().post("/api/games", {"mode": "friend"}, content_type="application/json").json()
    )
    joined = api(
        "POST",
        f"/api/games/{created['id']}/join",
        created["token"],
        {"invite": created["invite_url"]},
    )
    assert joined.status_code == 409
    assert "you play dark in this game already" in joined.json()["error"]
    assert Game.objects.get().seat("light") is None


@pytest.mark.parametrize(
    "token", ["mT_" + "a" * 29, "MT_" + "b" * 29, "mt_" + "d" * 29, "xT_" + "c" * 29]
)
def test_a_seat_token_is_never_taken_for_a_personal_one(token):
    """Seat tokens are 32 URL-safe characters: about one in 65,536 of those made before
    began with m, t and _ in some case, and the API answered them 401 as a personal
    token it did not know. The prefix is compared exactly, and a seat token's length is
    never a personal token's."""
    created = Client().post(
        "/api/games", {"mode": "computer", "level": "ceorl"}, "application/json"
    )
    game = Game.objects.get(public_id=created.json()["id"])
    game.seats.filter(color="dark").update(token_hash=hash_token(token))
    moved = api("POST", f"/api/games/{game.public_id}/moves", token, {"move": "D4", "ply": 0})
    assert moved.status_code == 200, moved.content
    assert moved.json()["ply"] >= 1


def test_a_new_seat_token_never_begins_as_a_personal_one(monkeypatch):
    made = iter(["mt_" + "a" * 29, "b" * 32])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda size: next(made))
    assert tokens.new_seat_token() == "b" * 32


def test_a_personal_token_is_still_known_by_its_prefix_and_a_wrong_one_refused():
    token = make_token(account("Botwulf"))
    assert api("POST", "/api/games", token, {"mode": "friend", "rated": True}).status_code == 201
    for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), "mt_" + "x" * 40):
        refused = api("POST", "/api/games", wrong, {"mode": "friend"})
        assert refused.status_code == 401 and "not valid" in refused.json()["error"]
    assert Game.objects.count() == 1
