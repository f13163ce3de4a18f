"""7-4-1776 through the site's seams: the home form, drops and the two-step slide
without JavaScript, a whole game played to the full board, records, the API,
pictures, lessons, the About page and the computer. The engine's own tests are
tests/seven_four/test_engine.py."""

from __future__ import annotations

import html
import json
import random

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.test import Client

from game import computer, play, records
from game.models import Analysis, Game
from game.registry import find_kind
from game.seven_four import Position, Rules
from kit import audience, live, streams
from kit.audience import Audience
from lobby.models import Challenge
from tests.support import games
from tests.support.games import HTMX, created, match, page, post_move, square

pytestmark = pytest.mark.django_db

# Blue to move, B1 and B2 empty, all else red but blue's lone A1 and C1: A1-B1 wins.
FILL_THE_BOARD = "B.BRRRRRRR/R.RRRRRRRR/" + "/".join(["RRRRRRRRRR"] * 8) + " b"
# Blue's lone B2 and F6, red's H3 and C8: B2-E5 and F6-C3 are blue's slides.
START_RED_TO_MOVE = Position.start().to_text()[:-1] + "r"
TWO_LONE = (
    "........../.B......../.......R../........../........../.....B..../"
    "........../..R......./........../.......... b"
)


def new_game(client: Client, **fields: str) -> Game:
    """A hot-seat game of 7-4-1776 made through the form, unless ``fields`` say otherwise."""
    return created(client, **({"game": "seven-four", "mode": "hotseat"} | fields))


def from_position(client: Client, text: str) -> Game:
    """A hot-seat game set up from position text, both seats held by ``client``."""
    return games.from_position(client, Position.from_text(text))


# Starting a game ------------------------------------------------------------------------------


def test_the_home_form_offers_the_game_and_starts_a_seven_four_game(client):
    home = client.get("/").content.decode()
    assert 'name="game" value="seven-four"' in home
    assert "<strong>7-4-1776</strong>" in home and 'href="/about/seven-four/"' in home
    assert "seven-four/board.css" in home
    game = new_game(client)
    assert (game.kind, game.mode, game.position_text) == (
        "seven-four",
        "hotseat",
        Position.start().to_text(),
    )


# The board, without JavaScript ---------------------------------------------------------------


def test_every_empty_square_drops_a_stone(client):
    game = new_game(client)
    text = page(client, game)
    assert text.count('name="move" value="') == 100
    assert 'name="move" value="E5"' in square(text, "E5")
    assert 'data-game="seven-four"' in text and 'data-columns="ABCDEFGHIJ"' in text


def test_a_lone_stone_is_picked_and_shows_where_it_lands_and_why_not_elsewhere(client):
    game = from_position(client, TWO_LONE)
    text = page(client, game)
    assert 'href="?from=B2"' in square(text, "B2") and 'data-side="blue"' in square(text, "B2")
    assert "href=" not in square(text, "H3")  # red's stone is not blue's to pick
    picked = page(client, game, "?from=B2")
    assert 'name="move" value="B2-E5"' in square(picked, "E5")
    assert picked.count('name="move" value="') == 1
    why = html.unescape(square(picked, "C5"))
    assert "C5 is not on a line from B2" in why
    assert "no lone blue stone is next to C3" in html.unescape(square(picked, "C3"))
    assert "data-put-back" in picked and 'name="from" value="B2"' in picked


def test_a_drop_and_a_slide_are_played_and_the_filled_squares_marked(client):
    game = from_position(client, TWO_LONE)
    assert post_move(client, game, "B2-E5").status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.turn, game.cached_record()) == (1, "light", ["B2-E5"])
    text = page(client, game)
    assert "sq--last" in square(text, "E5") and "sq--from" in square(text, "B2")
    assert "sq--filled" in square(text, "D4") and 'data-side="blue"' in square(text, "D4")
    assert post_move(client, game, "A1").status_code == 303
    game.refresh_from_db()
    assert game.cached_record() == ["B2-E5", "A1"]


def test_a_refused_slide_is_shown_on_the_board_and_changes_nothing(client):
    game = from_position(client, TWO_LONE)
    response = client.post(
        f"/g/{game.public_id}/move", {"move": "B2-C3", "ply": 0, "from": "B2"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "no lone blue stone is next to C3" in html.unescape(response.content.decode())
    game.refresh_from_db()
    assert game.ply == 0


def test_filling_the_board_wins_and_the_page_says_so(client):
    game = from_position(client, FILL_THE_BOARD)
    assert post_move(client, game, "A1-B1").status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result) == ("board-full", "dark")
    text = html.unescape(page(client, game))
    assert "Board full, red cannot move: blue wins" in text


def test_a_whole_game_is_played_through_the_site_to_the_full_board(client):
    game = new_game(client)
    rng = random.Random(1776)
    position = Position.start()
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        assert post_move(client, game, str(move)).status_code == 303, move
        position = position.play(move)
    game.refresh_from_db()
    assert game.status == "board-full"
    assert game.result == position.winner.value
    assert game.cached_record() == list(position.record)
    read = client.get(f"/api/games/{game.public_id}").json()
    assert read["game"] == "seven-four" and read["record"] == list(position.record)
    assert read["legal"] == []


# Records, the API, pictures ------------------------------------------------------------------


def test_the_record_names_the_game_and_reads_back_as_seven_four(client):
    game = games.played(client, ["D4", "G7"], game="seven-four", mode="hotseat")
    response = client.get(f"/g/{game.public_id}/record.txt")
    text = response.content.decode()
    assert '[Variant "seven-four"]' in text and text.endswith("1. D4 2. G7\n\n")
    record = records.read_record(text)
    assert record.kind.name == "seven-four" and record.moves == ("D4", "G7")


def test_a_finished_record_ends_with_the_rule_books_score_line():
    record = records.make_record(
        rules=Rules(), moves=["A1-B1"], start=Position.from_text(FILL_THE_BOARD)
    )
    assert record.text.rstrip().endswith("1. A1-B1\nBlue wins: board full, red cannot move")
    assert records.read_record(record.text).result in ("dark", "blue")


def test_the_api_creates_reads_and_plays_a_seven_four_game(client):
    created_game = client.post(
        "/api/games",
        json.dumps({"game": "seven-four", "mode": "friend"}),
        content_type="application/json",
    )
    assert created_game.status_code == 201, created_game.content
    body = created_game.json()
    game_id, token = body["id"], body["token"]
    read = client.get(f"/api/games/{game_id}").json()
    assert read["game"] == "seven-four"
    assert read["legal"] == sorted(read["legal"]) and len(read["legal"]) == 100
    assert read["legal"][:3] == ["A1", "A10", "A2"]
    joined = client.post(
        f"/api/games/{game_id}/join",
        json.dumps({"invite": body["invite_url"]}),
        content_type="application/json",
    )
    assert joined.status_code == 200, joined.content
    moved = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "e5", "ply": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.content
    assert client.get(f"/api/games/{game_id}").json()["record"] == ["E5"]
    refused = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "E5", "ply": 1}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {joined.json()['token']}"},
    )
    assert refused.status_code == 400 and "E5 is taken" in refused.json()["error"]


def test_the_picture_of_a_game_is_a_png(client):
    game = new_game(client)
    response = client.get(f"/g/{game.public_id}/image.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"


# Lessons and the About page ------------------------------------------------------------------


def test_the_lessons_are_listed_and_solved_by_the_engines_checks(client):
    index = client.get("/learn/").content.decode()
    for slug in ("seven-four-moves", "seven-four-the-end", "seven-four-parity"):
        assert f'data-lesson-link="{slug}"' in index
    picked = client.get("/learn/seven-four-moves/?from=B2").content.decode()
    assert 'name="move" value="B2-E5"' in picked
    solved = client.get("/learn/seven-four-moves/?move=B2-E5").content.decode()
    assert 'data-lesson-result="solved"' in solved
    missed = client.get("/learn/seven-four-parity/?move=I9").content.decode()
    assert 'data-lesson-result="try-again"' in missed and "an odd number" in missed
    assert 'data-lesson-result="solved"' in (
        client.get("/learn/seven-four-the-end/?move=C1-B2").content.decode()
    )


def test_the_about_page_credits_the_blog_post_and_links_the_rule_book(client):
    text = html.unescape(client.get("/about/seven-four/").content.decode())
    assert "New Game: 7-4-1776" in text and "24 May" in text and "2014" in text
    assert 'data-level="general"' in text
    assert "/docs/seven-four.md" in text
    rules = client.get("/docs/seven-four.md")
    assert rules.status_code == 200 and "board-full" in rules.content.decode()


def test_the_computer_answers_a_move_at_every_level():
    kind = find_kind("seven-four")
    for level in kind.players.levels:
        game, tokens = play.create_game("computer", Rules(), "dark", level=level.id)
        play.make_move(game.public_id, tokens, "D4", 0)
        reply = computer.reply.call(game.public_id, 1)
        game.refresh_from_db()
        assert (game.ply, game.turn) == (2, "dark"), level.id
        assert Position.replay(["D4"]).is_legal(reply)


# Everything else a game has ------------------------------------------------------------------


def test_replay_takeback_and_resign(client):
    game = games.played(client, ["D4", "G7"], game="seven-four", mode="hotseat")
    text = page(client, game, "?ply=1")
    assert "data-reviewing" in text and "sq--last" in square(text, "D4")
    assert client.post(f"/g/{game.public_id}/takeback").status_code == 303
    game.refresh_from_db()
    assert game.cached_record() == ["D4"]
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert game.status == "resigned" and game.result == "dark"


def test_a_hint_is_asked_and_marked_on_the_board(client):
    game = games.played(client, [], game="seven-four", mode="hotseat")
    assert client.post(f"/g/{game.public_id}/hint").status_code == 303
    hint = computer.hint.call(game.public_id, 0)
    assert Position.start().is_legal(hint)
    text = page(client, game)
    assert "data-hint" in square(text, str(hint).split("-")[-1])


def test_importing_a_list_of_moves_as_seven_four(client):
    answer = client.post("/import/", {"record": "1. D4 2. G7 3. F4", "game": "seven-four"})
    assert answer.status_code == 303, answer.content.decode()[:300]
    game = Game.objects.get()
    assert (game.kind, game.cached_record()) == ("seven-four", ["D4", "G7", "F4"])


def test_the_position_page_sets_up_and_edits_a_seven_four_position(client):
    answer = client.get("/p/", {"game": "seven-four", "text": TWO_LONE})
    assert answer.status_code == 200
    text = html.unescape(answer.content.decode())
    assert 'data-game="seven-four"' in text and "Blue to move" in text
    # The editor's square A1 turns blue on a click: its link writes the new text.
    assert "text=B.........%2F.B" in answer.content.decode().replace("&amp;", "&")
    refused = client.get("/p/", {"game": "seven-four", "text": START_RED_TO_MOVE})
    assert refused.status_code == 400
    assert "Blue moves first: red cannot have moved" in html.unescape(refused.content.decode())


def test_the_analysis_of_a_moment_is_asked_and_answered(client):
    game = games.played(client, ["D4"], game="seven-four", mode="hotseat")
    response = client.post(f"/g/{game.public_id}/analyse", {"ply": 1})
    assert response.status_code in (200, 303)
    keys = [row.key for row in Analysis.objects.filter(kind="seven-four")]
    assert keys
    computer.analyse.call(keys, 0.05, "seven-four")
    found = Analysis.objects.get(kind="seven-four", key=keys[0])
    assert found.dark_win is not None and 0 <= found.dark_win <= 1
    assert Position.replay(["D4"]).is_legal(found.move)


def test_the_analysis_of_a_full_board_is_its_result():
    kind = find_kind("seven-four")
    finished = Position.from_text(FILL_THE_BOARD).play("A1-B1")
    assert kind.outcome(finished) == ("dark", "board-full")


def test_a_lobby_challenge_names_the_game_and_starts_a_seven_four_game():
    alice, bob = Client(), Client()
    answer = alice.post(
        "/lobby/",
        {"speed": "live", "minutes": "1", "increment": "0", "color": "dark", "game": "seven-four"},
    )
    assert answer.status_code == 303, answer.content.decode()[:500]
    challenge = Challenge.objects.get()
    assert challenge.kind == "seven-four"
    assert "7-4-1776" in bob.get("/lobby/").content.decode()
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.speed) == ("seven-four", "live")


def test_my_games_lists_a_seven_four_game(client):
    games.played(client, ["D4"], game="seven-four", mode="hotseat")
    assert "7-4-1776" in client.get("/games/").content.decode()


def test_the_watch_list_shows_a_game_with_its_small_board_and_its_own_rating(monkeypatch):
    monkeypatch.setattr(live.Newsroom, "_run", lambda self: None)
    monkeypatch.setattr(live, "_newsroom", None)
    monkeypatch.setattr(streams, "_gate", None)
    monkeypatch.setattr(audience, "_audience", Audience("test:1:0", timer=False))
    user_model = get_user_model()
    people = (user_model.objects.create_user("ann"), user_model.objects.create_user("bob"))
    game, tokens = match(people, rules=Rules(), rated=True)
    assert game.rating_family == "seven-four-standard"
    play.make_move(game.public_id, {"dark": tokens["dark"]}, "D4", 0)
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    (item,) = page.select(f'[data-watch-game="{game.public_id}"]')
    board = item.select_one(".mini-board[role=img]")
    assert board["data-game"] == "seven-four"
    assert len(board.select(".mini-board__sq")) == 100
    assert len(board.select(".mini-board__sq--dark-stone")) == 1
    assert board["aria-label"] == "The board: 1 blue stone, 0 red stones"
