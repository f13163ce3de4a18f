"""The API for programs (game/api.py): create, join, move, poll, with Bearer seat tokens;
every refusal a 4xx JSON answer that changes nothing."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.test import Client, RequestFactory

from game import api, bots, computer, play
from game.cyngesheall import Rules as CyngesheallRules
from game.engine import Position, Rules
from game.models import Game
from game.surface import (
    Outcome,
)

pytestmark = pytest.mark.django_db


def post(client: Client, path: str, body: object, token: str | None = None, **extra):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, data, content_type="application/json", headers=headers, **extra)


def new_friend_game(client: Client, **body) -> dict:
    reply = post(client, "/api/games", {"mode": "friend"} | body)
    assert reply.status_code == 201, reply.content
    return reply.json()


def snapshot(game_id: str) -> tuple:
    game = Game.objects.get(public_id=game_id)
    return (
        game.revision,
        game.ply,
        game.record_text,
        game.status,
        game.seat_hash("dark"),
        game.seat_hash("light"),
    )


@pytest.fixture
def game_for_two(client) -> tuple[dict, dict]:
    """A friend game both seats of which are held: (creator as dark, joiner as light)."""
    created = new_friend_game(client, color="dark")
    joined = post(client, f"/api/games/{created['id']}/join", {"invite": created["invite_url"]})
    assert joined.status_code == 200, joined.content
    return created, joined.json()


def test_creating_a_friend_game_answers_its_seat_and_invite(client):
    body = {"rules": {"special_stones": False, "scoring": "simple", "wraparound": True}}
    created = new_friend_game(client, color="light", **body)
    game = Game.objects.get(public_id=created["id"])
    assert created["color"] == "light"
    assert created["url"] == f"http://testserver/g/{game.public_id}/"
    assert created["invite_url"].endswith(f"/g/{game.public_id}/invite/{play.invite_code(game)}/")
    assert game.holds_seat("light", created["token"]) and not game.seat_hash("dark")
    assert game.rules == Rules(special_stones=False, scoring="simple", wraparound=True)
    assert game.status == Game.Status.WAITING


def test_creating_a_game_against_the_computer(client, django_capture_on_commit_callbacks):
    level = bots.LEVEL_IDS[1]
    with django_capture_on_commit_callbacks(execute=True):
        reply = post(client, "/api/games", {"mode": "computer", "level": level, "color": "light"})
    assert reply.status_code == 201
    created = reply.json()
    assert "invite_url" not in created and created["color"] == "light"
    computer.reply.call(created["id"], 0)
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["players"] == {
        "dark": {"kind": "computer", "level": level},
        "light": {"kind": "human", "name": "Guest", "username": None, "rating": None},
    }
    assert state["ply"] == 1 and state["turn"] == "light"
    move = state["legal"][0]
    moved = post(
        client, f"/api/games/{created['id']}/moves", {"move": move, "ply": 1}, created["token"]
    )
    assert moved.status_code == 200 and moved.json()["record"][1] == move


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"mode": "hotseat"}, 400, "'hotseat' is not a kind of game here: use friend or computer"),
        ({"mode": 3}, 400, "'mode' must be a string"),
        (
            {"mode": "computer", "level": "nobody"},
            400,
            "'nobody' is not a level: choose one of " + ", ".join(bots.LEVEL_IDS),
        ),
        (
            {"mode": "computer"},
            400,
            "'' is not a level: choose one of " + ", ".join(bots.LEVEL_IDS),
        ),
        ({"color": "green"}, 400, "'green' is not a colour: choose dark, light or random"),
        (
            {"game": "chess"},
            400,
            "'chess' is not a game here: "
            "choose maerstanas or cyngesheall or seven-four or parking-lot or land-grab or moai",
        ),
        ({"game": 3}, 400, "'game' must be a string"),
        ({"rules": []}, 400, "'rules' must be an object"),
        ({"rules": {"special_stones": "yes"}}, 400, "'special_stones' must be true or false"),
        ({"rules": {"scoring": "golf"}}, 400, "'golf' is not a scoring: use standard or simple"),
        ({"rules": {"wraparound": 1}}, 400, "'wraparound' must be true or false"),
        (
            {"rules": {"nonsense": True}},
            400,
            "'nonsense' is not a rule of Mǽrstánas: its rules are special_stones, scoring"
            " and wraparound",
        ),
        (
            {"game": "cyngesheall", "rules": {"wraparound": True}},
            400,
            "'wraparound' is not a rule of Cyngesheall: it has no rules to choose",
        ),
        (
            {"mode": "friend", "wraparound": True},
            400,
            "'wraparound' is not a field here: send mode, game, rules, color, level or rated",
        ),
        ("[1, 2]", 400, "the body must be a JSON object"),
        ("{mode: friend}", 400, "the body is not JSON"),
        (b"\xff\xfe", 400, "the body is not JSON"),
        ("{" + " " * 5000 + "}", 413, "the body is longer than 4096 bytes"),
    ],
)
def test_a_bad_creation_is_refused_in_json_and_stores_nothing(client, body, status, words):
    reply = post(client, "/api/games", body)
    assert reply.status_code == status
    assert reply.json() == {"error": words}
    assert not Game.objects.exists()


def test_join_with_the_link_or_its_code_and_only_once(client):
    created = new_friend_game(client)
    code = created["invite_url"].rstrip("/").rsplit("/", 1)[1]
    joined = post(client, f"/api/games/{created['id']}/join", {"invite": code})
    assert joined.status_code == 200
    assert joined.json()["color"] == "light"
    game = Game.objects.get(public_id=created["id"])
    assert game.holds_seat("light", joined.json()["token"]) and game.status == Game.Status.ACTIVE
    again = post(client, f"/api/games/{created['id']}/join", {"invite": created["invite_url"]})
    assert again.status_code == 403
    assert again.json() == {"error": "both seats are taken: you can watch this game"}


def test_a_wrong_or_missing_invite_is_refused(client):
    created = new_friend_game(client)
    before = snapshot(created["id"])
    for body, status in (({"invite": "0" * 32}, 403), ({}, 400), ({"invite": 5}, 400)):
        reply = post(client, f"/api/games/{created['id']}/join", body)
        assert reply.status_code == status and reply.json()["error"]
    assert post(client, "/api/games/AAAAAAAAAAAA/join", {"invite": "x"}).status_code == 404
    assert snapshot(created["id"]) == before


def test_moves_answer_the_new_state_and_it_is_the_games_state(client, game_for_two):
    dark, light = game_for_two
    reply = post(client, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0}, dark["token"])
    assert reply.status_code == 200
    assert reply.json() == client.get(f"/api/games/{dark['id']}").json()
    assert reply.json()["record"] == ["D4"] and reply.json()["turn"] == "light"
    reply = post(client, f"/api/games/{dark['id']}/moves", {"move": "e4", "ply": 1}, light["token"])
    assert reply.json()["record"] == ["D4", "E4"]


@pytest.mark.parametrize(
    ("who", "body", "status", "words"),
    [
        ("light", {"move": "D4", "ply": 0}, 409, "it is dark's turn"),
        (
            "dark",
            {"move": "D4", "ply": 3},
            409,
            "the board changed since you saw it: look again and choose anew",
        ),
        ("dark", {"move": "H9", "ply": 0}, 400, "'H9' is not a move: squares run A1 to G7"),
        ("dark", {"move": "W D4", "ply": 0}, 400, "W D4: D4 is not your opponent's stone"),
        (
            "dark",
            {"move": "D4"},
            400,
            "send the ply you saw as 'ply', so a stale move is never played",
        ),
        ("dark", {"ply": 0}, 400, 'send the move as \'move\', e.g. "E4", "T E4" or "W E4"'),
        ("dark", {"move": "D4", "ply": "0"}, 400, "'ply' must be a whole number"),
        ("dark", {"move": "D4", "ply": True}, 400, "'ply' must be a whole number"),
        ("dark", {"move": ["D4"], "ply": 0}, 400, "'move' must be a string"),
        ("dark", "not json", 400, "the body is not JSON"),
        ("stranger", {"move": "D4", "ply": 0}, 403, "this token holds no seat in this game"),
        (
            None,
            {"move": "D4", "ply": 0},
            401,
            "send your seat token as Authorization: Bearer <token>",
        ),
    ],
)
def test_a_refused_move_says_why_and_changes_nothing(
    client, game_for_two, who, body, status, words
):
    dark, light = game_for_two
    tokens = {"dark": dark["token"], "light": light["token"], "stranger": "x" * 32, None: None}
    before = snapshot(dark["id"])
    reply = post(client, f"/api/games/{dark['id']}/moves", body, tokens[who])
    assert reply.status_code == status
    assert reply.json() == {"error": words}
    assert snapshot(dark["id"]) == before
    if status == 401:
        assert reply["WWW-Authenticate"].startswith("Bearer")


def test_a_token_of_another_game_and_a_cookie_alone_do_not_move(client, game_for_two):
    dark, _ = game_for_two
    other = new_friend_game(client)
    before = snapshot(dark["id"])
    reply = post(client, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0}, other["token"])
    assert reply.status_code == 403
    # A browser seated through the site, sending its cookie and no token:
    browser = Client(enforce_csrf_checks=True)
    game = Game.objects.get(public_id=dark["id"])
    assert browser.post(f"/g/{game.public_id}/seat/dark/{dark['token']}/").status_code in (403, 303)
    reply = post(browser, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0})
    assert reply.status_code == 401
    assert snapshot(dark["id"]) == before


def test_bearer_moves_need_no_csrf_token(game_for_two):
    dark, _ = game_for_two
    strict = Client(enforce_csrf_checks=True)
    reply = post(strict, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0}, dark["token"])
    assert reply.status_code == 200


def test_resign_through_the_api(client, game_for_two):
    dark, light = game_for_two
    assert post(client, f"/api/games/{dark['id']}/resign", {}, "y" * 30).status_code == 403
    reply = post(client, f"/api/games/{dark['id']}/resign", {}, light["token"])
    assert reply.status_code == 200
    assert (reply.json()["result"], reply.json()["resigned"]) == ("dark", "light")
    again = post(client, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0}, dark["token"])
    assert again.status_code == 409 and again.json() == {"error": "the game is over"}


def test_poll_waits_with_204_then_answers_the_state(client, game_for_two):
    dark, light = game_for_two
    assert client.get(f"/api/games/{dark['id']}/poll/0").status_code == 204
    post(client, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0}, dark["token"])
    news = client.get(f"/api/games/{dark['id']}/poll/0")
    assert news.status_code == 200 and news.json()["ply"] == 1
    assert client.get(f"/api/games/{dark['id']}/poll/1").status_code == 204
    post(client, f"/api/games/{dark['id']}/resign", {}, light["token"])
    assert client.get(f"/api/games/{dark['id']}/poll/1").json()["over"] is True
    missing = client.get("/api/games/AAAAAAAAAAAA/poll/0")
    assert missing.status_code == 404 and missing.json() == {"error": "there is no such game"}


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/api/games", 405),
        ("put", "/api/games/AAAAAAAAAAAA/moves", 405),
        ("post", "/api/games/AAAAAAAAAAAA", 405),
        ("get", "/api/games/AAAAAAAAAAAA", 404),
        ("get", "/api/games/not-an-id!", 404),
        ("get", "/api/nothing/here", 404),
        ("post", "/api/games/AAAAAAAAAAAA/poll/x", 404),
    ],
)
def test_wrong_methods_and_addresses_answer_json(client, method, path, status):
    reply = getattr(client, method)(path)
    assert reply.status_code == status
    assert reply["Content-Type"] == "application/json"
    assert reply.json()["error"]


def test_the_state_replays(client, game_for_two):
    dark, light = game_for_two
    tokens = [dark["token"], light["token"]]
    state = client.get(f"/api/games/{dark['id']}").json()
    while not state["over"]:
        move = state["legal"][-1]
        token = tokens[0 if state["turn"] == "dark" else 1]
        state = post(
            client, f"/api/games/{dark['id']}/moves", {"move": move, "ply": state["ply"]}, token
        ).json()
    position = Position.replay(Rules(), state["record"])
    assert position.is_over and state["result"] == position.result


def test_the_state_is_the_page_contracts_json(client):
    game, tokens = play.create_game("friend", Rules(wraparound=True, scoring="simple"), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    play.make_move(game.public_id, tokens, "A1", 0)
    play.make_move(game.public_id, {"light": light}, "B1", 1)
    position = Position.replay(game.rules, ["A1", "B1"])
    assert client.get(f"/api/games/{game.public_id}").json() == {
        "id": game.public_id,
        "game": "maerstanas",
        "rules": {"special_stones": True, "scoring": "simple", "wraparound": True},
        "mode": "friend",
        "rated": False,
        "players": {
            "dark": {"kind": "human", "name": "Guest", "username": None, "rating": None},
            "light": {"kind": "human", "name": "Guest", "username": None, "rating": None},
        },
        "status": "active",
        "record": ["A1", "B1"],
        "ply": 2,
        "turn": "dark",
        "score": {"dark": 0, "light": 0},
        "over": False,
        "result": None,
        "end": None,
        "resigned": None,
        "speed": "unlimited",
        "clock": None,
        "deadline": None,
        "position": position.to_text(),
        "legal": [str(move) for move in position.legal_moves()],
        "sides": {"dark": "Dark", "light": "Light"},
    }
    # On the flat board A2 would give A1 (two edges and B1) a fourth hinge.
    assert position.is_legal("A2") and not Position.replay(Rules(), ["A1", "B1"]).is_legal("A2")


@pytest.mark.parametrize(
    ("rules", "no_winner", "end"),
    [(Rules(), "tie", "no-moves"), (CyngesheallRules(), "draw", "repetition")],
)
def test_a_game_nobody_won_answers_its_kinds_word_as_before(client, rules, no_winner, end):
    game, _ = play.create_game("hotseat", rules)
    with transaction.atomic():
        play.finish(game, Outcome(no_winner, end))
        game.save()
    state = client.get(f"/api/games/{game.public_id}").json()
    assert (state["status"], state["over"], state["result"], state["end"]) == (
        "finished",
        True,
        no_winner,
        end,
    )
    assert state["sides"] == {"dark": "Dark", "light": "Light"}
    assert Game.objects.get(pk=game.pk).result == Game.Result.NO_WINNER


def test_cyngesheall_state_keeps_todays_bytes_and_adds_the_sides_after_them(client):
    game, tokens = play.create_game("hotseat", CyngesheallRules())
    play.make_move(game.public_id, tokens, "B6-C5", 0)
    game.refresh_from_db()
    guest = {"kind": "human", "name": "Guest", "username": None, "rating": None}
    today = {
        "id": game.public_id,
        "game": "cyngesheall",
        "rules": {},
        "mode": "hotseat",
        "rated": False,
        "players": {"dark": guest, "light": guest},
        "status": "active",
        "record": ["B6-C5"],
        "ply": 1,
        "turn": "light",
        "score": {"dark": 10, "light": 10},
        "over": False,
        "result": None,
        "end": None,
        "resigned": None,
        "speed": "unlimited",
        "clock": None,
        "deadline": None,
        "position": game.position_text,
        "legal": [str(move) for move in game.position().legal_moves()],
    }
    sides = ', "sides": {"dark": "Dark", "light": "Light"}}'
    assert client.get(f"/api/games/{game.public_id}").content.decode() == (
        json.dumps(today)[:-1] + sides
    )


def test_the_declared_length_is_checked_before_the_body_is_read(client, game_for_two):
    dark, _ = game_for_two
    path = f"/api/games/{dark['id']}/moves"
    body = {"move": "D4", "ply": 0}
    too_long = post(client, path, body, dark["token"], CONTENT_LENGTH="99999")
    assert too_long.status_code == 413
    assert too_long.json() == {"error": "the body is longer than 4096 bytes"}
    junk = post(client, path, body, dark["token"], CONTENT_LENGTH="many")
    assert junk.status_code == 400
    assert junk.json() == {"error": "Content-Length is not a number"}
    assert snapshot(dark["id"])[1] == 0


@pytest.mark.parametrize("header", ["bearer {}", "BEARER  {}", "Bearer {} "])
def test_the_bearer_scheme_in_any_case_and_spacing(client, game_for_two, header):
    dark, _ = game_for_two
    headers = {"Authorization": header.format(dark["token"])}
    reply = client.post(
        f"/api/games/{dark['id']}/moves",
        json.dumps({"move": "D4", "ply": 0}),
        content_type="application/json",
        headers=headers,
    )
    assert reply.status_code == 200


@pytest.mark.parametrize("header", ["Bearer", "Bearer a b", "Token abc", "Bearerabc"])
def test_a_malformed_authorization_is_refused(client, game_for_two, header):
    dark, _ = game_for_two
    reply = client.post(
        f"/api/games/{dark['id']}/moves",
        json.dumps({"move": "D4", "ply": 0}),
        content_type="application/json",
        headers={"Authorization": header},
    )
    assert reply.status_code == 401
    assert reply["WWW-Authenticate"] == 'Bearer realm="maerstanas"'


def test_a_body_of_the_largest_length_and_an_empty_one_are_read(client, game_for_two):
    dark, light = game_for_two
    body = json.dumps({"move": "D4", "ply": 0})
    padded = body[:-1] + " " * (4096 - len(body)) + "}"
    assert len(padded.encode()) == 4096
    path = f"/api/games/{dark['id']}/moves"
    assert post(client, path, padded, dark["token"]).status_code == 200
    resigned = post(client, f"/api/games/{dark['id']}/resign", "", light["token"])
    assert resigned.status_code == 200 and resigned.json()["resigned"] == "light"


def test_an_unknown_game_is_a_json_404_for_every_action(client):
    for path in ("moves", "resign", "join"):
        reply = post(client, f"/api/games/AAAAAAAAAAAA/{path}", {"invite": "x"}, "t" * 32)
        assert reply.status_code == 404
        assert reply.json() == {"error": "there is no such game"}
    assert client.get("/api/games/AAAAAAAAAAAA").json() == {"error": "there is no such game"}


def test_a_wrong_method_is_told_the_right_ones(client):
    reply = client.get("/api/games")
    assert reply.status_code == 405
    assert reply.json() == {"error": "use POST here"}
    assert reply["Allow"] == "POST"
    traced = client.generic("TRACE", "/api/nothing")
    assert traced.status_code == 405
    every = "GET or POST or PUT or PATCH or DELETE or HEAD or OPTIONS"
    assert traced.json() == {"error": f"use {every} here"}
    assert traced["Allow"] == "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"


@pytest.mark.parametrize(
    ("action", "body", "words"),
    [
        ("join", {"invite": "x", "code": "y"}, "'code' is not a field here: send invite"),
        (
            "moves",
            {"move": "D4", "ply": 0, "seen": "x"},
            "'seen' is not a field here: send move, ply or position",
        ),
    ],
)
def test_an_unknown_field_is_refused_naming_it_and_changes_nothing(
    client, game_for_two, action, body, words
):
    created, _ = game_for_two
    before = snapshot(created["id"])
    reply = post(client, f"/api/games/{created['id']}/{action}", body, created["token"])
    assert (reply.status_code, reply.json()) == (400, {"error": words})
    assert snapshot(created["id"]) == before


def test_an_empty_body_is_an_empty_object_and_a_deep_one_is_refused(client):
    created = new_friend_game(client)
    path = f"/api/games/{created['id']}/join"
    empty = client.generic("POST", path, b"", CONTENT_TYPE="application/json")
    assert empty.json() == {"error": "send the invite link or its code as 'invite'"}
    deep = post(client, f"/api/games/{created['id']}/join", "[" * 3000)
    assert deep.status_code == 400
    assert deep.json() == {"error": "the body is nested too deep"}


def test_a_chunked_body_is_refused_rather_than_read_as_empty(client, game_for_two):
    dark, _ = game_for_two
    before = snapshot(dark["id"])
    chunked = {"HTTP_TRANSFER_ENCODING": "chunked"}
    reply = post(
        client, f"/api/games/{dark['id']}/moves", {"move": "D4", "ply": 0}, dark["token"], **chunked
    )
    assert reply.status_code == 411
    assert reply.json() == {"error": "send the body with a Content-Length, not in chunks"}
    assert snapshot(dark["id"]) == before
    created = post(
        client, "/api/games", {"mode": "computer", "level": bots.LEVEL_IDS[0]}, **chunked
    )
    assert created.status_code == 411 and Game.objects.count() == 1


def test_an_invite_link_with_a_query_and_fragment_joins(client):
    created = new_friend_game(client)
    link = created["invite_url"] + "?from=mail#seat"
    joined = post(client, f"/api/games/{created['id']}/join", {"invite": f"  {link} "})
    assert joined.status_code == 200 and joined.json()["color"] == "light"


def test_a_host_the_site_does_not_serve_is_a_json_400_under_api_only(client, game_for_two):
    dark, _ = game_for_two
    before = snapshot(dark["id"])
    reply = post(
        client,
        f"/api/games/{dark['id']}/moves",
        {"move": "D4", "ply": 0},
        dark["token"],
        HTTP_HOST="evil.example",
    )
    assert reply.status_code == 400
    assert reply.json() == {"error": "this server does not answer to that host name"}
    assert snapshot(dark["id"]) == before
    page = client.get(f"/g/{dark['id']}/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_a_request_the_server_cannot_read_is_a_json_400_under_api():
    request = RequestFactory().get("/api/games")
    reply = api.bad_request(request, SuspiciousOperation("too many fields"))
    assert reply.status_code == 400
    assert json.loads(reply.content) == {"error": "the server cannot read this request"}


def test_a_failure_under_api_is_json_and_elsewhere_the_sites_page(client, monkeypatch):
    created = new_friend_game(client)

    def broken(game: Game) -> dict:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api, "state", broken)
    failing = Client(raise_request_exception=False)
    reply = failing.get(f"/api/games/{created['id']}")
    assert reply.status_code == 500
    assert reply.json() == {
        "error": "the server failed to answer: look at the game again before you retry"
    }
    page = api.server_error(RequestFactory().get(f"/g/{created['id']}/"))
    assert page.status_code == 500 and b"<html" in page.content.lower()


# --- Games that did not start on the empty board -----------------------------------------

# Stones on A2, C2 and B3 (dark, light, dark), light to move, both holding their
# special stones: T B2 clears all three.
SET_UP = "......./S.s..../.S...../......./......./......./....... l TWtw"


def api_state(client: Client, game: Game) -> dict:
    reply = client.get(f"/api/games/{game.public_id}")
    assert reply.status_code == 200, reply.content
    return reply.json()


def assert_the_state_is_the_games(state: dict, position: Position) -> None:
    """The API's position, turn and legal moves are those of ``position``, the game as
    the engine plays it from where it really started."""
    assert state["position"] == position.to_text()
    assert state["turn"] == position.turn.value
    assert state["legal"] == [str(move) for move in position.legal_moves()]
    assert state["score"] == {"dark": position.score().dark, "light": position.score().light}


def seat_of(client: Client, game: Game) -> dict[str, str]:
    return client.session["seats"][game.public_id]


def test_a_game_played_on_from_a_set_up_position_reads_as_that_game(client):
    reply = client.post("/p/continue", {"text": SET_UP, "mode": "hotseat"})
    game = Game.objects.get(public_id=reply["Location"].split("/")[2])
    start = Position.from_text(SET_UP, Rules())
    state = api_state(client, game)
    assert state["record"] == [] and state["ply"] == 0
    assert_the_state_is_the_games(state, start)
    assert "T B2" in state["legal"]
    play.make_move(game.public_id, seat_of(client, game), "T B2", expected_ply=0)
    state = api_state(client, game)
    assert state["record"] == ["T B2xA2/C2/B3"]
    assert_the_state_is_the_games(state, start.play("T B2"))
    # A player playing one of its legal moves is never refused.
    played = play.make_move(game.public_id, seat_of(client, game), state["legal"][0], 1)
    assert_the_state_is_the_games(
        api_state(client, played), start.play("T B2").play(state["legal"][0])
    )


def test_an_imported_game_and_its_continuation_read_as_those_games(client):
    record = f'[Position "{SET_UP}"]\n1. ... T B2 2. D4'
    reply = client.post("/import/", {"record": record})
    imported = Game.objects.get(public_id=reply["Location"].split("/")[2])
    start = Position.from_text(SET_UP, Rules())
    state = api_state(client, imported)
    assert state["record"] == ["T B2xA2/C2/B3", "D4"]
    assert_the_state_is_the_games(state, start.play("T B2").play("D4"))
    # Continued from its first move, against the computer's weakest level.
    reply = client.post(
        f"/g/{imported.public_id}/continue",
        {"ply": "1", "mode": "hotseat"},
    )
    game = Game.objects.get(public_id=reply["Location"].split("/")[2])
    assert game.start_text == SET_UP
    state = api_state(client, game)
    assert state["record"] == ["T B2xA2/C2/B3"]
    assert_the_state_is_the_games(state, start.play("T B2"))
    game = play.make_move(game.public_id, seat_of(client, game), "E5", expected_ply=1)
    state = api_state(client, game)
    assert state["record"] == ["T B2xA2/C2/B3", "E5"]
    assert_the_state_is_the_games(state, start.play("T B2").play("E5"))


def test_a_game_continued_from_a_moment_of_another_reads_as_that_game(client):
    game, tokens = play.create_game("hotseat", Rules(), start=Position.from_text(SET_UP))
    for ply, move in enumerate(["T B2", "D4", "E4"]):
        game = play.make_move(game.public_id, tokens, move, ply)
    reply = client.post(f"/g/{game.public_id}/continue", {"ply": "2", "mode": "hotseat"})
    new = Game.objects.get(public_id=reply["Location"].split("/")[2])
    position = Position.from_text(SET_UP).play("T B2").play("D4")
    assert_the_state_is_the_games(api_state(client, new), position)
    new = play.make_move(new.public_id, seat_of(client, new), "W D4", expected_ply=2)
    assert_the_state_is_the_games(api_state(client, new), position.play("W D4"))
    assert api_state(client, new)["record"] == ["T B2xA2/C2/B3", "D4", "W D4"]


def test_a_move_sent_with_the_position_it_was_meant_for_is_refused_in_another(client, game_for_two):
    dark, light = game_for_two
    game_id = dark["id"]
    seen = api_state(client, Game.objects.get(public_id=game_id))["position"]
    reply = post(
        client,
        f"/api/games/{game_id}/moves",
        {"move": "D4", "ply": 0, "position": seen.replace(" d ", " l ")},
        dark["token"],
    )
    assert reply.status_code == 409 and "the board changed" in reply.json()["error"]
    reply = post(
        client,
        f"/api/games/{game_id}/moves",
        {"move": "D4", "ply": 0, "position": 7},
        dark["token"],
    )
    assert reply.status_code == 400 and reply.json()["error"] == "'position' must be a string"
    reply = post(
        client,
        f"/api/games/{game_id}/moves",
        {"move": "D4", "ply": 0, "position": seen},
        dark["token"],
    )
    assert reply.status_code == 200 and reply.json()["record"] == ["D4"]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
def test_a_body_sent_as_anything_but_json_is_refused_and_starts_nothing(client, content_type):
    """A form or a no-cors fetch of another site reaches the API without the browser
    asking first: refused, it spends none of its visitors' allowance of new games."""
    body = b'{"mode": "friend"}' if content_type else b""
    headers = {"CONTENT_TYPE": content_type} if content_type else {}
    reply = client.generic("POST", "/api/games", body, **headers)
    assert reply.status_code == 415
    assert reply.json() == {"error": "send the body as JSON, with Content-Type: application/json"}
    assert not Game.objects.exists()
    charset = client.generic(
        "POST", "/api/games", body or b"{}", CONTENT_TYPE="application/json; charset=utf-8"
    )
    assert charset.status_code == 201


def test_posting_to_a_games_state_is_a_json_405_not_a_csrf_page(client, game_for_two):
    dark, _ = game_for_two
    reply = Client(enforce_csrf_checks=True).post(f"/api/games/{dark['id']}", {"x": "y"})
    assert reply.status_code == 405 and reply["Allow"] == "GET, HEAD"
    assert reply.json() == {"error": "use GET or HEAD here"}
