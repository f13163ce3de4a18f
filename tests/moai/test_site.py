"""Moai through the site's seams: the home form, the placements and the two-step turn
without JavaScript, a whole game played to a stuck Moai on each board, records, the
API, pictures, lessons, the About page, the lobby, the watch list and the computer.
The engine's own tests are tests/moai/test_engine.py."""

from __future__ import annotations

import html
import json
import random

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.test import Client

from game import computer, play, records
from game.moai import Position, Rules
from game.models import Analysis, Game
from game.pages.about import arena_ratings
from game.registry import find_kind
from kit import audience, live, streams
from kit.audience import Audience
from lobby.models import Challenge
from tests.support import games
from tests.support.games import HTMX, created, match, page, post_move, square

pytestmark = pytest.mark.django_db

# White to move: the white Moai on D4, the black one on G7.
EXAMPLE = "#......#/......../......../...W..../......../......../......B./#......# w"
# White to move: a counter on G7 leaves the black Moai on H7 no move.
TRAP = "#......#/o......./......../......W./......../......oo/.......B/#.....o# w"


def new_game(client: Client, **fields: str) -> Game:
    """A hot-seat game of Moai made through the form, unless ``fields`` say otherwise."""
    return created(client, **({"game": "moai", "mode": "hotseat", "board": "square"} | fields))


def from_position(client: Client, text: str, rules: Rules | None = None) -> Game:
    """A hot-seat game set up from position text, both seats held by ``client``."""
    return games.from_position(client, Position.from_text(text, rules or Rules()))


# Starting a game ------------------------------------------------------------------------------


def test_the_home_form_offers_the_game_and_its_boards(client):
    home = client.get("/").content.decode()
    assert 'name="game" value="moai"' in home
    assert "<strong>Moai</strong>" in home and 'href="/about/moai/"' in home
    assert "moai/board.css" in home
    assert 'name="board" value="square"' in home and 'name="board" value="hex"' in home
    game = new_game(client)
    assert (game.kind, game.mode, game.position_text) == (
        "moai",
        "hotseat",
        Position.start().to_text(),
    )
    hexagon = new_game(client, board="hex")
    assert hexagon.rules == Rules("hex")
    assert hexagon.position_text == Position.start(Rules("hex")).to_text()


# The board, without JavaScript ---------------------------------------------------------------


def test_every_square_but_the_corners_places_the_moai(client):
    game = new_game(client)
    text = page(client, game)
    assert text.count('name="move" value="') == 60
    assert 'name="move" value="D4"' in square(text, "D4")
    assert text.count("sq--hole") == 4
    assert 'data-game="moai"' in text and 'data-columns="ABCDEFGH"' in text


def test_a_counter_is_picked_then_the_moai_moves_and_the_page_says_why_not(client):
    game = from_position(client, EXAMPLE)
    text = page(client, game)
    assert 'href="?counter=D1"' in square(text, "D1")
    assert "in line with neither Moai" in html.unescape(square(text, "E2"))
    picked = page(client, game, "?counter=D1")
    assert 'name="move" value="D1:D4-C2"' in square(picked, "C2")
    assert 'name="move" value="D1:D4-D6"' in square(picked, "D6")
    assert picked.count('name="move" value="') == 16
    assert "cannot reach" in html.unescape(square(picked, "C3"))
    assert "data-put-back" in picked and 'name="counter" value="D1"' in picked


def test_a_counter_in_line_with_both_moai_lets_the_player_pick_one(client):
    game = from_position(client, EXAMPLE)
    picked = page(client, game, "?counter=G4")
    assert 'href="?counter=G4:D4"' in square(picked, "D4")
    assert 'href="?counter=G4:G7"' in square(picked, "G7")
    one = page(client, game, "?counter=G4:G7")
    assert 'name="move" value="G4:G7-G5"' in square(one, "G5")
    assert 'name="move" value="G4:D4-E4"' not in one


def test_a_turn_is_played_and_marked(client):
    game = from_position(client, EXAMPLE)
    assert post_move(client, game, "D1:D4-C2").status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.turn, game.cached_record()) == (1, "light", ["D1:D4-C2"])
    text = page(client, game)
    assert "sq--last" in square(text, "C2") and "sq--from" in square(text, "D4")
    assert "sq--placed" in square(text, "D1") and 'data-piece="counter"' in square(text, "D1")


def test_a_refused_turn_is_shown_on_the_board_and_changes_nothing(client):
    game = from_position(client, EXAMPLE)
    response = client.post(
        f"/g/{game.public_id}/move", {"move": "D1:D4-C3", "ply": 0, "counter": "D1"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "cannot reach C3" in html.unescape(response.content.decode())
    game.refresh_from_db()
    assert game.ply == 0


def test_trapping_the_other_moai_wins_and_the_page_says_so(client):
    game = from_position(client, TRAP)
    assert post_move(client, game, "G7:G4-G3").status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result) == ("moai-stuck", "dark")
    text = html.unescape(page(client, game))
    assert "Black Moai stuck" in text and "White wins" in text


@pytest.mark.parametrize("board", ["square", "hex"])
def test_a_whole_game_is_played_through_the_site_to_a_stuck_moai(client, board):
    game = new_game(client, board=board)
    rng = random.Random(11)
    position = Position.start(Rules(board))
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        assert post_move(client, game, str(move)).status_code == 303, move
        position = position.play(move)
    game.refresh_from_db()
    assert game.status == "moai-stuck"
    assert game.result == position.winner.value
    assert game.cached_record() == list(position.record)
    read = client.get(f"/api/games/{game.public_id}").json()
    assert read["game"] == "moai" and read["record"] == list(position.record)
    assert read["rules"]["board"] == board
    assert read["legal"] == []


# Records, the API, pictures ------------------------------------------------------------------


def test_the_record_names_the_game_and_its_board_and_reads_back(client):
    game = games.played(
        client, ["D4", "G7", "D1:D4-C2"], game="moai", mode="hotseat", board="square"
    )
    text = client.get(f"/g/{game.public_id}/record.txt").content.decode()
    assert '[Variant "moai"]' in text and '[Board "square"]' in text
    assert text.endswith("1. D4 2. G7\n3. D1:D4-C2\n\n")
    record = records.read_record(text)
    assert record.kind.name == "moai" and record.moves == ("D4", "G7", "D1:D4-C2")
    hexagon = games.played(client, ["F6", "K1"], game="moai", mode="hotseat", board="hex")
    text = client.get(f"/g/{hexagon.public_id}/record.txt").content.decode()
    assert '[Board "hex"]' in text
    assert records.read_record(text).rules == Rules("hex")


def test_a_finished_record_ends_with_the_rule_books_score_line():
    record = records.make_record(rules=Rules(), moves=["G7:G4-G3"], start=Position.from_text(TRAP))
    assert record.text.rstrip().endswith("1. G7:G4-G3\nWhite wins: black Moai stuck")
    assert '[Result "white"]' in record.text or '[Result "dark"]' in record.text
    assert records.read_record(record.text).result in ("dark", "white")


def test_the_api_creates_reads_and_plays_a_moai_game(client):
    created_game = client.post(
        "/api/games",
        json.dumps({"game": "moai", "mode": "friend", "rules": {"board": "hex"}}),
        content_type="application/json",
    )
    assert created_game.status_code == 201, created_game.content
    body = created_game.json()
    game_id, token = body["id"], body["token"]
    read = client.get(f"/api/games/{game_id}").json()
    assert read["game"] == "moai" and read["rules"] == {"board": "hex"}
    assert read["legal"] == sorted(read["legal"]) and len(read["legal"]) == 91
    joined = client.post(
        f"/api/games/{game_id}/join",
        json.dumps({"invite": body["invite_url"]}),
        content_type="application/json",
    )
    assert joined.status_code == 200, joined.content
    moved = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "f6", "ply": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.content
    assert client.get(f"/api/games/{game_id}").json()["record"] == ["F6"]
    refused = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "F6", "ply": 1}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {joined.json()['token']}"},
    )
    assert refused.status_code == 400 and "F6 is taken" in refused.json()["error"]


def test_the_picture_of_a_game_is_a_png(client):
    game = new_game(client)
    response = client.get(f"/g/{game.public_id}/image.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"


# Lessons and the About page ------------------------------------------------------------------


def test_the_lessons_are_listed_and_solved_by_the_engines_checks(client):
    index = client.get("/learn/").content.decode()
    for slug in ("moai-turn", "moai-bent", "moai-trap"):
        assert f'data-lesson-link="{slug}"' in index
    picked = client.get("/learn/moai-turn/?counter=D8").content.decode()
    assert 'name="move" value="D8:D4-D6"' in picked
    solved = client.get("/learn/moai-turn/?move=D8:D4-D6").content.decode()
    assert 'data-lesson-result="solved"' in solved
    missed = client.get("/learn/moai-turn/?move=G1:G7-G5").content.decode()
    assert 'data-lesson-result="try-again"' in missed and "black Moai" in missed
    assert 'data-lesson-result="solved"' in (
        client.get("/learn/moai-bent/?move=D1:D4-C2").content.decode()
    )
    assert 'data-lesson-result="solved"' in (
        client.get("/learn/moai-trap/?move=G7:G4-G3").content.decode()
    )


def test_the_about_page_credits_the_blog_post_and_links_the_rule_book(client):
    text = html.unescape(client.get("/about/moai/").content.decode())
    assert "New Game: Moai" in text and "11 May" in text and "2014" in text
    assert 'data-level="ariki"' in text
    assert "/docs/moai.md" in text and "six neighbour directions" in text
    rules = client.get("/docs/moai.md")
    assert rules.status_code == 200 and "moai-stuck" in rules.content.decode()


def test_the_about_page_rates_each_level_on_each_board_apart(client):
    text = client.get("/about/moai/").content.decode()
    head = text.split('<table class="levels">', 1)[1].split("</thead>", 1)[0]
    assert '<th scope="col">Elo, square</th><th scope="col">Elo, hex</th>' in head
    square, hexagonal = (arena_ratings(path) for _, path in find_kind("moai").board_arenas)
    for level in find_kind("moai").players.levels:
        row = text.split(f'<tr data-level="{level.id}">', 1)[1].split("</tr>", 1)[0]
        cells = [str(board.get(level.id, "not measured")) for board in (square, hexagonal)]
        assert "".join(f"<td>{cell}</td>" for cell in cells) in row, level.id


def test_the_computer_answers_a_move_at_every_level():
    kind = find_kind("moai")
    for level in kind.players.levels:
        game, tokens = play.create_game("computer", Rules(), "dark", level=level.id)
        play.make_move(game.public_id, tokens, "D4", 0)
        reply = computer.reply.call(game.public_id, 1)
        game.refresh_from_db()
        assert (game.ply, game.turn) == (2, "dark"), level.id
        assert Position.replay(["D4"]).is_legal(reply)


# Everything else a game has ------------------------------------------------------------------


def test_replay_takeback_and_resign(client):
    game = games.played(client, ["D4", "G7"], game="moai", mode="hotseat", board="square")
    text = page(client, game, "?ply=1")
    assert "data-reviewing" in text and "sq--last" in square(text, "D4")
    assert client.post(f"/g/{game.public_id}/takeback").status_code == 303
    game.refresh_from_db()
    assert game.cached_record() == ["D4"]
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert game.status == "resigned" and game.result == "dark"


def test_a_hint_is_asked_and_marked_on_the_board(client):
    game = games.played(client, ["D4", "G7"], game="moai", mode="hotseat", board="square")
    assert client.post(f"/g/{game.public_id}/hint").status_code == 303
    hint = computer.hint.call(game.public_id, 2)
    position = Position.replay(["D4", "G7"])
    assert position.is_legal(hint)
    text = page(client, game)
    assert "data-hint" in square(text, str(hint).split("-")[-1])


def test_importing_a_list_of_moves_as_moai(client):
    answer = client.post("/import/", {"record": "1. D4 2. G7 3. D1:D4-C2", "game": "moai"})
    assert answer.status_code == 303, answer.content.decode()[:300]
    game = Game.objects.get()
    assert (game.kind, game.cached_record()) == ("moai", ["D4", "G7", "D1:D4-C2"])


def test_the_position_page_sets_up_and_edits_a_moai_position(client):
    answer = client.get("/p/", {"game": "moai", "text": EXAMPLE})
    assert answer.status_code == 200
    text = html.unescape(answer.content.decode())
    assert 'data-game="moai"' in text and "White to move" in text
    # The cut-away corners keep their places, so each row has its eight squares.
    assert text.count("sq--hole") == 4
    # The editor's square B1 takes a counter on a click: its link writes the new text.
    assert "text=%23o.....%23" in answer.content.decode().replace("&amp;", "&")
    refused = client.get("/p/", {"game": "moai", "text": EXAMPLE.replace(" w", " b")})
    assert refused.status_code == 400
    assert "0 counters down it is white's turn" in html.unescape(refused.content.decode())


def test_the_analysis_of_a_moment_is_asked_and_answered(client):
    game = games.played(client, ["D4", "G7"], game="moai", mode="hotseat", board="square")
    response = client.post(f"/g/{game.public_id}/analyse", {"ply": 2})
    assert response.status_code in (200, 303)
    keys = [row.key for row in Analysis.objects.filter(kind="moai")]
    assert keys
    computer.analyse.call(keys, 0.05, "moai")
    found = Analysis.objects.get(kind="moai", key=keys[0])
    assert found.dark_win is not None and 0 <= found.dark_win <= 1
    assert Position.replay(["D4", "G7"]).is_legal(found.move)


def test_the_kind_stores_the_winners_seat():
    kind = find_kind("moai")
    finished = Position.from_text(TRAP).play("G7:G4-G3")
    assert kind.outcome(finished) == ("dark", "moai-stuck")
    assert kind.rating_family(Rules("hex")) == "hex"


def test_a_lobby_challenge_names_the_game_and_starts_a_moai_game():
    alice, bob = Client(), Client()
    answer = alice.post(
        "/lobby/",
        {
            "speed": "live",
            "minutes": "1",
            "increment": "0",
            "color": "dark",
            "game": "moai",
            "board": "square",
        },
    )
    assert answer.status_code == 303, answer.content.decode()[:500]
    challenge = Challenge.objects.get()
    assert challenge.kind == "moai"
    assert "Moai" in bob.get("/lobby/").content.decode()
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.speed) == ("moai", "live")


def test_my_games_lists_a_moai_game(client):
    games.played(client, ["D4"], game="moai", mode="hotseat", board="square")
    assert "Moai" in client.get("/games/").content.decode()


def test_the_watch_list_shows_a_game_with_its_small_board_and_its_own_rating(monkeypatch):
    monkeypatch.setattr(live.Newsroom, "_run", lambda self: None)
    monkeypatch.setattr(live, "_newsroom", None)
    monkeypatch.setattr(streams, "_gate", None)
    monkeypatch.setattr(audience, "_audience", Audience("test:1:0", timer=False))
    user_model = get_user_model()
    people = (user_model.objects.create_user("ann"), user_model.objects.create_user("bob"))
    game, tokens = match(people, rules=Rules("hex"), rated=True)
    assert game.rating_family == "moai-hex"
    play.make_move(game.public_id, {"dark": tokens["dark"]}, "F6", 0)
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    (item,) = page.select(f'[data-watch-game="{game.public_id}"]')
    board = item.select_one(".mini-board[role=img]")
    assert board["data-game"] == "moai"
    assert len(board.select(".mini-board__sq--dark-moai")) == 1
    # The hexagon's small board is its rhombus of letters and rows, 11 by 11.
    assert len(board.select(".mini-board__sq")) == 121
    assert len(board.select(".mini-board__sq--hole")) == 30


def test_the_small_board_of_the_choice_of_game_shows_the_corners_gone_and_the_counters(client):
    home = BeautifulSoup(client.get("/").content, "html.parser")
    board = home.select_one('.mini-board[data-game="moai"]')
    assert len(board.select(".mini-board__sq")) == 64
    assert len(board.select(".mini-board__sq--hole")) == 4
    assert len(board.select(".mini-board__sq--neutral-counter")) == 18
    assert board["aria-label"] == "The board: 1 white piece, 1 black piece"


def test_the_hex_board_places_each_cell_on_the_pages_grid(client):
    game = new_game(client, board="hex")
    text = page(client, game)
    assert 'data-board-shape="hex"' in text and text.count('name="move" value="') == 91
    # F1 opens row 1, half a cell in from A6, which opens the widest row; F6 is the centre.
    assert 'data-hex-row="1" data-hex-column="6"' in square(text, "F1")
    assert 'data-hex-row="6" data-hex-column="1"' in square(text, "A6")
    assert 'data-hex-row="6" data-hex-column="11"' in square(text, "F6")
    assert 'data-hex-row="11" data-hex-column="6"' in square(text, "A11")
    # The other places of its rhombus of letters and rows are kept, hidden.
    assert text.count("sq--hole") == 121 - 91


@pytest.mark.parametrize("board", ["square", "hex"])
def test_the_position_page_starts_from_its_boards_empty_start(client, board):
    answer = client.get("/p/", {"game": "moai", "board": board})
    assert answer.status_code == 200
    text = html.unescape(answer.content.decode())
    assert f'value="{Position.start(Rules(board)).to_text()}"' in text
    assert "needs" not in text  # no refusal of a text the page chose itself


def test_the_position_page_sets_up_a_hex_position_and_the_api_refuses_another_board(client):
    text = Position.start(Rules("hex")).play("F6").to_text()
    answer = client.get("/p/", {"game": "moai", "board": "hex", "text": text})
    assert answer.status_code == 200
    page_text = html.unescape(answer.content.decode())
    assert 'data-board-shape="hex"' in page_text and "Black to move" in page_text
    assert 'data-square="F6" data-hex-row="6" data-hex-column="11"' in page_text
    refused = client.post(
        "/api/games",
        json.dumps({"game": "moai", "mode": "friend", "rules": {"board": "round"}}),
        content_type="application/json",
    )
    assert refused.status_code == 400 and "'round' is not a board" in refused.json()["error"]
    assert not Game.objects.exists()


def test_a_line_is_tried_on_a_board_of_its_own_keeping_its_line(client):
    game = games.played(client, ["D4", "G7"], game="moai", mode="hotseat", board="square")
    base = f"/g/{game.public_id}/try?ply=2"
    text = client.get(base).content.decode()
    assert "counter=D1" in text.replace("&amp;", "&")
    picked = client.get(f"{base}&counter=D1").content.decode()
    assert 'name="move" value="D1:D4-C2"' in picked
    tried = client.get(f"{base}&move=D1:D4-C2").content.decode()
    assert 'data-line="D1:D4-C2"' in tried
    game.refresh_from_db()
    assert game.ply == 2  # the game stays as it is
