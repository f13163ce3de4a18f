"""Land Grab through the site's seams: the home form, drops and the two-step move
without JavaScript (a flip's targets lit, a capture's stone marked, the reasons on
the rest), the claims' outlines, a whole game played to its end, records, the API,
pictures, lessons, the About page, the computer, the lobby, the watch list, the
analysis, takeback, a rematch, a line tried and the position page. The engine's own tests are
tests/land_grab/test_engine.py."""

from __future__ import annotations

import html
import json
import random

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.test import Client

from game import computer, play, records
from game.land_grab import Position, Rules
from game.models import Analysis, Game
from game.registry import find_kind
from kit import audience, live, streams
from kit.audience import Audience
from lobby.models import Challenge
from tests.support import games
from tests.support.games import HTMX, created, match, page, post_move, square

pytestmark = pytest.mark.django_db

# Black's lone stone on A1; white's on H8, its claim cut off: A1-G7 takes it and wins.
TAKE_THE_LAST = "Bwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwwb/wwwwwwbW b 20 0 -"
# Black's claim is rows 1 to 4 but C2; white's stone on H5 guards rows 5 to 8.
HALVES = "bBbbbbbb/bbwbbbbb/bbbbbbbb/bbbbbbbb/wwwwwwwW/wwwwwwww/wwwwwwww/wwwwwwww b 10 0 -"
# White flips E7; then black's stone on A1 has nothing to do: the site passes for it,
# and as white has no flip either, the game ends on the claims.
STUCK = "Bwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwwbwwW/wwwwwwww w 11 0 -"
DROPS = ["D4", "C4", "F2", "D3"]


def new_game(client: Client, **fields: str) -> Game:
    """A hot-seat game of Land Grab made through the form, unless ``fields`` say otherwise."""
    return created(client, **({"game": "land-grab", "mode": "hotseat"} | fields))


def from_position(client: Client, text: str) -> Game:
    """A hot-seat game set up from position text, both seats held by ``client``."""
    return games.from_position(client, Position.from_text(text))


# Starting a game ------------------------------------------------------------------------------


def test_the_home_form_offers_the_game_and_starts_a_land_grab_game(client):
    home = client.get("/").content.decode()
    assert 'name="game" value="land-grab"' in home
    assert "<strong>Land Grab</strong>" in home and 'href="/about/land-grab/"' in home
    assert "land-grab/board.css" in home
    game = new_game(client)
    assert (game.kind, game.mode, game.position_text) == (
        "land-grab",
        "hotseat",
        Position.start().to_text(),
    )


# The board, without JavaScript ---------------------------------------------------------------


def test_every_tile_shows_its_face_and_black_drops_on_black_tiles(client):
    game = new_game(client)
    text = page(client, game)
    assert text.count('name="move" value="') == 32
    assert 'data-tile="black"' in square(text, "A1") and 'data-tile="white"' in square(text, "B1")
    assert 'name="move" value="A1"' in square(text, "A1")
    assert "B1 is a white tile: black drops on a black tile" in html.unescape(square(text, "B1"))
    assert 'data-game="land-grab"' in text and 'data-columns="ABCDEFGH"' in text


def test_a_stone_is_picked_and_its_targets_light_up_with_reasons_elsewhere(client):
    game = from_position(client, HALVES)
    text = page(client, game)
    assert 'href="?from=B1"' in square(text, "B1") and 'data-side="black"' in square(text, "B1")
    assert "href=" not in square(text, "H5")  # white's stone is not black's to pick
    picked = page(client, game, "?from=B1")
    assert 'name="move" value="B1-C2"' in square(picked, "C2")
    assert 'name="move" value="B1-H4"' in square(picked, "H4")  # a shift in its claim
    assert "that claim holds a white stone" in html.unescape(square(picked, "B5"))
    assert "data-put-back" in picked and 'name="from" value="B1"' in picked


def test_a_capture_marks_the_stone_it_takes_before_it_is_played(client):
    game = from_position(client, TAKE_THE_LAST)
    picked = page(client, game, "?from=A1")
    assert 'name="move" value="A1-G7xH8"' in square(picked, "G7")
    assert "data-takes" in square(picked, "H8") and "sq--takes" in square(picked, "H8")
    assert "data-takes" not in square(picked, "F6")
    assert "taking the stone on H8" in html.unescape(square(picked, "G7"))


def test_the_claims_are_outlined_with_their_sizes_on_demand(client):
    game = from_position(client, HALVES)
    plain = page(client, game)
    assert "data-claim-edges" not in plain and "Show the claims" in plain
    shown = page(client, game, "?hinges=on")
    assert "Hide the claims" in shown
    assert 'data-claim-size="31"' in square(shown, "A1")
    assert 'data-claim-size="1"' in square(shown, "C2")
    assert 'data-claim-edges="n e s w"' in square(shown, "C2")
    assert 'data-claim-edges="n w"' in square(shown, "A1")


def test_moves_are_played_and_a_refused_one_changes_nothing(client):
    game = from_position(client, HALVES)
    response = client.post(
        f"/g/{game.public_id}/move", {"move": "B1-B5", "ply": 0, "from": "B1"}, headers=HTMX
    )
    assert response.status_code == 200
    assert "that claim holds a white stone" in html.unescape(response.content.decode())
    game.refresh_from_db()
    assert game.ply == 0
    assert post_move(client, game, "B1-C2").status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.turn, game.cached_record()) == (1, "light", ["B1-C2"])
    text = page(client, game)
    assert "sq--last" in square(text, "C2") and 'data-tile="black"' in square(text, "C2")
    assert "sq--from" in square(text, "B1")


def test_capturing_the_last_stone_wins_and_the_page_says_so(client):
    game = from_position(client, TAKE_THE_LAST)
    assert post_move(client, game, "A1-G7").status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result) == ("all-captured", "dark")
    assert game.cached_record() == ["A1-G7xH8"]
    text = html.unescape(page(client, game))
    assert "All stones captured: black wins" in text.replace("Black wins", "black wins")


def test_a_forced_pass_is_played_by_the_site_and_the_claims_decide(client):
    game = from_position(client, STUCK)
    assert post_move(client, game, "H7-E7").status_code == 303
    game.refresh_from_db()
    assert game.cached_record() == ["H7-E7", "Pass"]
    assert (game.status, game.result) == ("no-flips", "light")
    text = html.unescape(page(client, game))
    assert "Black: 1, White: 63" in text


def test_a_whole_game_is_played_through_the_site_to_its_end(client):
    game = new_game(client)
    rng = random.Random(2014)
    position = Position.start()
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        if move.is_pass:
            position = position.play(move)
            continue
        assert post_move(client, game, str(move)).status_code == 303, move
        position = position.play(move)
    game.refresh_from_db()
    assert game.status == position.outcome().reason
    winner = position.winner
    assert game.result == (winner.value if winner else "even")
    assert game.cached_record() == list(position.record)
    read = client.get(f"/api/games/{game.public_id}").json()
    assert read["game"] == "land-grab" and read["record"] == list(position.record)
    assert read["legal"] == []


# Records, the API, pictures ------------------------------------------------------------------


def test_the_record_names_the_game_and_reads_back_as_land_grab(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    text = client.get(f"/g/{game.public_id}/record.txt").content.decode()
    assert '[Variant "land-grab"]' in text and "3. F2 4. D3" in text
    record = records.read_record(text)
    assert record.kind.name == "land-grab" and record.moves == tuple(DROPS)


def test_a_finished_record_ends_with_the_claims_and_the_result():
    start = Position.from_text(HALVES)
    cycle = ["B1-B2", "H5-H6", "B2-B1", "H6-H5"]
    record = records.make_record(rules=Rules(), moves=cycle * 2, start=start)
    last = record.text.rstrip().splitlines()[-1]
    assert last == "Black: 31, White: 32 1 — White wins on claims: threefold repetition"
    read = records.read_record(record.text)
    assert read.final.outcome() == ("white", "repetition")
    captured = records.make_record(
        rules=Rules(), moves=["A1-G7"], start=Position.from_text(TAKE_THE_LAST)
    )
    assert captured.text.rstrip().endswith("1. A1-G7xH8\nBlack wins: all stones captured")
    assert records.read_record(captured.text).final.outcome() == ("black", "all-captured")


def test_the_api_creates_reads_and_plays_a_land_grab_game(client):
    created_game = client.post(
        "/api/games",
        json.dumps({"game": "land-grab", "mode": "friend"}),
        content_type="application/json",
    )
    assert created_game.status_code == 201, created_game.content
    body = created_game.json()
    game_id, token = body["id"], body["token"]
    read = client.get(f"/api/games/{game_id}").json()
    assert read["game"] == "land-grab"
    assert read["legal"] == sorted(read["legal"]) and len(read["legal"]) == 32
    assert read["legal"][:3] == ["A1", "A3", "A5"]
    joined = client.post(
        f"/api/games/{game_id}/join",
        json.dumps({"invite": body["invite_url"]}),
        content_type="application/json",
    )
    assert joined.status_code == 200, joined.content
    moved = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "d4", "ply": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.content
    assert client.get(f"/api/games/{game_id}").json()["record"] == ["D4"]
    refused = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "D4", "ply": 1}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {joined.json()['token']}"},
    )
    assert refused.status_code == 400 and "D4 holds a stone" in refused.json()["error"]


def test_the_picture_of_a_game_is_a_png(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    response = client.get(f"/g/{game.public_id}/image.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"


# Lessons and the About page ------------------------------------------------------------------


def test_the_lessons_are_listed_and_solved_by_the_engines_checks(client):
    index = client.get("/learn/").content.decode()
    for slug in ("land-grab-drops", "land-grab-claims", "land-grab-capture"):
        assert f'data-lesson-link="{slug}"' in index
    assert 'data-lesson-result="solved"' in (
        client.get("/learn/land-grab-drops/?move=D4").content.decode()
    )
    picked = client.get("/learn/land-grab-claims/?from=B1").content.decode()
    assert 'name="move" value="B1-C2"' in picked
    solved = client.get("/learn/land-grab-claims/?move=B1-C2").content.decode()
    assert 'data-lesson-result="solved"' in solved
    missed = client.get("/learn/land-grab-claims/?move=B1-B2").content.decode()
    assert 'data-lesson-result="try-again"' in missed and "no tile turned over" in missed
    assert 'data-lesson-result="solved"' in (
        client.get("/learn/land-grab-capture/?move=A1-G7").content.decode()
    )


def test_the_about_page_credits_the_blog_post_and_tells_our_ends(client):
    text = html.unescape(client.get("/about/land-grab/").content.decode())
    assert "New Game: Land Grab" in text and "21 May" in text and "2014" in text
    assert "20 plies without a flip" in text and "threefold repetition" in text
    assert "200 plies" in text
    assert 'data-level="baron"' in text
    assert "/docs/land-grab.md" in text
    rules = client.get("/docs/land-grab.md")
    assert rules.status_code == 200 and "quiet-plies" in rules.content.decode()


def test_the_computer_answers_a_move_at_every_level():
    kind = find_kind("land-grab")
    for level in kind.players.levels:
        game, tokens = play.create_game("computer", Rules(), "dark", level=level.id)
        play.make_move(game.public_id, tokens, "D4", 0)
        reply = computer.reply.call(game.public_id, 1)
        game.refresh_from_db()
        assert (game.ply, game.turn) == (2, "dark"), level.id
        assert Position.replay(["D4"]).is_legal(reply)


# Everything else a game has ------------------------------------------------------------------


def test_replay_takeback_and_resign(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    text = page(client, game, "?ply=1")
    assert "data-reviewing" in text and "sq--last" in square(text, "D4")
    assert client.post(f"/g/{game.public_id}/takeback").status_code == 303
    game.refresh_from_db()
    assert game.cached_record() == DROPS[:3]
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert game.status == "resigned" and game.result == "dark"


def test_a_rematch_after_a_resignation_starts_a_new_game(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    assert client.post(f"/g/{game.public_id}/rematch").status_code == 303
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert (rematch.kind, rematch.ply) == ("land-grab", 0)


def test_a_line_is_tried_on_a_board_of_its_own(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    base = f"/g/{game.public_id}/try?ply=4"
    picked = client.get(f"{base}&from=D4").content.decode()
    assert 'name="move" value="D4-D5"' in picked
    tried = client.get(f"{base}&move=D4-D5").content.decode()
    assert 'data-line="D4-D5"' in tried
    game.refresh_from_db()
    assert game.ply == 4


def test_a_hint_is_asked_and_marked_on_the_board(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    assert client.post(f"/g/{game.public_id}/hint").status_code == 303
    hint = computer.hint.call(game.public_id, 4)
    assert Position.replay(DROPS).is_legal(hint)
    text = page(client, game)
    assert "data-hint" in square(text, str(hint).split("-")[0])


def test_importing_a_list_of_moves_as_land_grab(client):
    answer = client.post("/import/", {"record": "1. D4 2. C4 3. F2", "game": "land-grab"})
    assert answer.status_code == 303, answer.content.decode()[:300]
    game = Game.objects.get()
    assert (game.kind, game.cached_record()) == ("land-grab", ["D4", "C4", "F2"])


def test_the_position_page_sets_up_and_edits_a_land_grab_position(client):
    answer = client.get("/p/", {"game": "land-grab", "text": HALVES})
    assert answer.status_code == 200
    text = html.unescape(answer.content.decode())
    assert 'data-game="land-grab"' in text and "Black to move" in text
    # The editor's square A1, a black tile, turns white on a click: its link writes it.
    links = answer.content.decode().replace("&amp;", "&")
    assert "text=wBbbbbbb%2F" in links
    refused = client.get("/p/", {"game": "land-grab", "text": HALVES.replace(" b 10", " w 10")})
    assert refused.status_code == 400
    assert "it is black's turn" in html.unescape(refused.content.decode())


def test_the_analysis_of_a_moment_is_asked_and_answered(client):
    game = games.played(client, DROPS, game="land-grab", mode="hotseat")
    response = client.post(f"/g/{game.public_id}/analyse", {"ply": 4})
    assert response.status_code in (200, 303)
    keys = [row.key for row in Analysis.objects.filter(kind="land-grab")]
    assert keys
    computer.analyse.call(keys, 0.05, "land-grab")
    found = Analysis.objects.filter(kind="land-grab", dark_win__isnull=False).first()
    assert found is not None and 0 <= found.dark_win <= 1


def test_the_analysis_of_a_finished_game_is_its_result():
    kind = find_kind("land-grab")
    finished = Position.from_text(TAKE_THE_LAST).play("A1-G7")
    assert kind.outcome(finished) == ("dark", "all-captured")


def test_a_lobby_challenge_names_the_game_and_starts_a_land_grab_game():
    alice, bob = Client(), Client()
    answer = alice.post(
        "/lobby/",
        {"speed": "live", "minutes": "1", "increment": "0", "color": "dark", "game": "land-grab"},
    )
    assert answer.status_code == 303, answer.content.decode()[:500]
    challenge = Challenge.objects.get()
    assert challenge.kind == "land-grab"
    assert "Land Grab" in bob.get("/lobby/").content.decode()
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.speed) == ("land-grab", "live")


def test_my_games_lists_a_land_grab_game(client):
    games.played(client, ["D4"], game="land-grab", mode="hotseat")
    assert "Land Grab" in client.get("/games/").content.decode()


def test_the_watch_list_shows_a_game_with_its_small_board_and_its_own_rating(monkeypatch):
    monkeypatch.setattr(live.Newsroom, "_run", lambda self: None)
    monkeypatch.setattr(live, "_newsroom", None)
    monkeypatch.setattr(streams, "_gate", None)
    monkeypatch.setattr(audience, "_audience", Audience("test:1:0", timer=False))
    user_model = get_user_model()
    people = (user_model.objects.create_user("ann"), user_model.objects.create_user("bob"))
    game, tokens = match(people, rules=Rules(), rated=True)
    assert game.rating_family == "land-grab-standard"
    play.make_move(game.public_id, {"dark": tokens["dark"]}, "D4", 0)
    page = BeautifulSoup(Client().get("/watch/").content, "html.parser")
    (item,) = page.select(f'[data-watch-game="{game.public_id}"]')
    board = item.select_one(".mini-board[role=img]")
    assert board["data-game"] == "land-grab"
    assert len(board.select(".mini-board__sq")) == 64
    assert len(board.select(".mini-board__sq--dark-stone")) == 1
