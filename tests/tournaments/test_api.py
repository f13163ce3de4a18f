"""The tournaments' API: bots make, join, start and play whole events."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from lobby import api as lobby_api
from players.models import ApiToken
from tests.lobby.test_api_challenges import call, programmer
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SWISS = {
    "game": "maerstanas",
    "system": "swiss",
    "rounds": 2,
    "clock": {"initial": 180, "increment": 2},
    "rated": True,
}


def create(token: str, **body) -> dict:
    reply = call("POST", "/api/tournaments", token, SWISS | body)
    assert reply.status_code == 201, reply.content
    return reply.json()


def test_a_bot_makes_an_event_others_join_it_and_its_state_follows_the_games():
    _, ann = programmer("Ann")
    bots = [programmer(name, bot=True)[1] for name in ("Botwulf", "Eadbot", "Wigbot")]
    made = create(ann, name="Bots' Swiss")
    assert set(made) == {"id", "url"} and made["url"].endswith(f"/tournaments/{made['id']}/")
    path = f"/api/tournaments/{made['id']}"
    for token in bots:
        assert call("POST", path + "/join", token).status_code == 200
    state = call("GET", path).json()
    assert (state["system"], state["status"], state["round"]) == ("swiss", "created", 0)
    assert state["points"] == {"win": 1, "draw": 0.5, "loss": 0, "bye": 1}
    assert call("POST", path + "/start", bots[0]).status_code == 403
    assert call("POST", path + "/start", ann).status_code == 200
    state = call("GET", path).json()
    assert state["status"] == "running" and state["round"] == 1
    (game, bye) = sorted(state["pairings"], key=lambda p: p["light"] is None)
    assert bye["light"] is None and bye["game"] is None and bye["result"] == "bye"
    assert game["result"] is None and game["game"]
    # The game is the API's own: its dark player resigns.
    names = {"Botwulf": bots[0], "Eadbot": bots[1], "Wigbot": bots[2]}
    resign = call("POST", f"/api/games/{game['game']}/resign", names[game["dark"]])
    assert resign.status_code == 200, resign.content
    state = call("GET", path).json()
    assert state["round"] == 2
    first = next(p for p in state["pairings"] if p["game"] == game["game"])
    assert first["result"] == "light"
    players = {player["username"]: player for player in state["players"]}
    assert players[game["light"]]["score"] == 1 and players[bye["dark"]]["score"] == 1
    # Round 2 gives the bye to the lowest placed who has had none: the loser.
    (second_bye,) = [p for p in state["pairings"] if p["round"] == 2 and p["light"] is None]
    assert second_bye["dark"] == game["dark"] and players[game["dark"]]["score"] == 1
    # Three on one point: the win over the loser's point is the Sonneborn-Berger.
    winner = players[game["light"]]
    assert winner["rank"] == 1 and winner["tiebreaks"]["sonneborn_berger"] == 1
    assert sorted(p["rank"] for p in state["players"]) == [1, 2, 2]


def test_the_stream_tells_of_a_tournament_game():
    _, ann = programmer("Ann")
    bots = [programmer(name, bot=True)[1] for name in ("Botwulf", "Eadbot")]
    made = create(ann)
    for token in bots:
        call("POST", f"/api/tournaments/{made['id']}/join", token)
    call("POST", f"/api/tournaments/{made['id']}/start", ann)
    bot_id = ApiToken.objects.get(user__username="Botwulf").user_id
    lines = [json.loads(line) for line in lobby_api.news_for(bot_id, str, set(), set())]
    assert [line["type"] for line in lines] == ["gameStart", "tournamentGameStart"]
    assert lines[1]["tournament"] == made["id"] and lines[1]["game"] == lines[0]["game"]


def test_the_list_shows_events_and_refusals_are_json():
    _, ann = programmer("Ann")
    made = create(ann)
    listed = call("GET", "/api/tournaments").json()["tournaments"]
    assert [event["id"] for event in listed] == [made["id"]]
    assert "players" not in listed[0]
    assert call("GET", "/api/tournaments/nothing").status_code == 404
    assert call("POST", "/api/tournaments", "", SWISS).status_code == 401
    for body, words in [
        ({"system": "knockout"}, "'system'"),
        ({"rounds": 0}, "rounds"),
        ({"clock": None, "days": 4}, "'days'"),
        ({"clock": None}, "clock or days"),
        ({"system": "arena", "minutes": 721}, "minutes"),
        ({"starts_at": "tomorrow"}, "ISO 8601"),
        ({"starts_at": "2030-01-01T10:00"}, "offset"),
        ({"min_rating": 5000}, "min_rating"),
        ({"colour": "dark"}, "'colour' is not a field"),
        ({"rules": {"board": "hex"}}, "not a rule"),
    ]:
        body = {key: value for key, value in (SWISS | body).items() if value is not None}
        reply = call("POST", "/api/tournaments", ann, body)
        assert reply.status_code == 400 and words in reply.json()["error"], (body, reply.content)
    assert Tournament.objects.count() == 1
    assert Client().get(f"/api/tournaments/{made['id']}/join").status_code == 405


def test_a_private_event_and_a_rating_floor():
    _, ann = programmer("Ann")
    _, bot = programmer("Botwulf", bot=True)
    private = create(ann, password="club", starts_at="2099-01-01T18:00:00Z")
    path = f"/api/tournaments/{private['id']}/join"
    reply = call("POST", path, bot, {"password": "nope"})
    assert reply.status_code == 403 and "password" in reply.json()["error"]
    assert call("POST", path, bot, {"password": "club"}).status_code == 200
    state = call("GET", f"/api/tournaments/{private['id']}").json()
    assert state["private"] is True and state["starts_at"] == "2099-01-01T18:00:00Z"
    floor = create(ann, min_rating=1200)
    reply = call("POST", f"/api/tournaments/{floor['id']}/join", bot)
    assert reply.status_code == 403 and "1200" in reply.json()["error"]


def test_a_moai_hex_arena_keeps_its_board():
    _, ann = programmer("Ann")
    made = create(ann, game="moai", rules={"board": "hex"}, system="arena", minutes=30, rounds=None)
    state = call("GET", f"/api/tournaments/{made['id']}").json()
    assert state["game"] == "moai" and state["rules"] == {"board": "hex"}
    assert state["minutes"] == 30 and state["rounds"] is None


def test_a_bot_goes_berserk_through_the_api():
    _, ann = programmer("Ann")
    bots = [programmer(name, bot=True)[1] for name in ("Botwulf", "Eadbot")]
    made = create(ann, system="arena", minutes=20, rounds=None, berserk=True)
    path = f"/api/tournaments/{made['id']}"
    for token in bots:
        call("POST", path + "/join", token)
    started = call("POST", path + "/start", ann).json()
    assert started["points"]["berserk"] == 1 and started["berserk"] is True
    assert started["status"] == "running" and started["you"] is None  # Ann did not join
    (pairing,) = call("GET", path).json()["pairings"]
    names = {"Botwulf": bots[0], "Eadbot": bots[1]}
    answer = call("POST", path + "/berserk", names[pairing["light"]]).json()
    assert answer["you"] == {"withdrawn": False, "game": pairing["game"], "berserk": True}
    assert call("GET", path).json()["pairings"][0]["berserk"] == ["light"]
    game = call("GET", f"/api/games/{pairing['game']}").json()
    assert game["clock"]["light"] < game["clock"]["dark"], game["clock"]
    reply = call("POST", path + "/berserk", names[pairing["light"]])
    assert reply.status_code == 400 and "already" in reply.json()["error"]


def test_an_action_answers_the_event_in_brief_and_the_accounts_own_part():
    """Join, withdraw and start answer the event as the list shows it (no standings, no
    pairings: an arena's would be a thousand rows) and the account's own part."""
    _, ann = programmer("Ann")
    bots = [programmer(name, bot=True)[1] for name in ("Botwulf", "Eadbot")]
    made = create(ann, system="arena", minutes=20, rounds=None)
    path = f"/api/tournaments/{made['id']}"
    joined = call("POST", path + "/join", bots[0]).json()
    listed = call("GET", "/api/tournaments").json()["tournaments"][0]
    assert {key: value for key, value in joined.items() if key != "you"} == listed
    assert "players" not in joined and "pairings" not in joined
    assert joined["you"] == {"withdrawn": False, "game": None, "berserk": False}
    call("POST", path + "/join", bots[1])
    call("POST", path + "/start", ann)
    (pairing,) = call("GET", path).json()["pairings"]
    left = call("POST", path + "/withdraw", bots[0]).json()
    assert left["status"] == "running"
    assert left["you"] == {"withdrawn": True, "game": pairing["game"], "berserk": False}
