"""Cyngesheall through the site's seams: the home form, the two-step board without
JavaScript, moves and refusals, the end by the rules, records, the API, lessons,
the About page and the computer. The engine's own tests are test_cyngesheall_engine."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.conf import settings
from django.test import Client

from game import computer, play, records
from game.cyngesheall import Position, Rules
from game.models import Analysis, Game
from game.registry import find_kind
from lobby.models import Challenge
from tests.support import games
from tests.support.games import HTMX, created, page, post_move, square

pytestmark = pytest.mark.django_db


def new_game(client: Client, **fields: str) -> Game:
    """A hot-seat game of Cyngesheall made through the form, unless ``fields`` say otherwise."""
    return created(client, **({"game": "cyngesheall", "mode": "hotseat"} | fields))


# Starting a game -----------------------------------------------------------------------------


def test_the_home_form_offers_the_game_and_starts_a_cyngesheall_game(client):
    home = client.get("/").content.decode()
    assert 'name="game" value="maerstanas"' in home and 'value="cyngesheall"' in home
    assert "<strong>Mǽrstánas</strong>: place stones to make hinges</span>" in home
    rules = '(<a href="/about/cyngesheall/">its rules</a>)'
    assert f"<strong>Cyngesheall</strong>: a race of kings {rules}" in home
    game = new_game(client)
    assert (game.kind, game.mode, game.position_text) == (
        "cyngesheall",
        "hotseat",
        Position.start().to_text(),
    )


def test_an_unknown_game_is_refused_by_the_form(client):
    response = client.post("/", {"game": "chess", "mode": "hotseat"})
    assert response.status_code == 400
    assert "&#x27;chess&#x27; is not a game" in response.content.decode()
    assert not Game.objects.exists()


def test_a_mastanas_level_for_a_cyngesheall_game_is_refused_in_a_players_words(client):
    answer = client.post(
        "/", {"game": "cyngesheall", "mode": "computer", "level": "ealdor", "color": "dark"}
    )
    assert answer.status_code == 400 and not Game.objects.exists()
    text = html.unescape(answer.content.decode())
    refusal = re.search(r'<p class="error" role="alert">([^<]*)</p>', text)[1]
    assert refusal == (
        "Ealdormann is a Mǽrstánas level: choose one of Cyngesheall's levels: "
        "Byrele, Scop, Duguþ, Gesíþ or Cyning."
    )
    # Shown in Cyngesheall's levels, where the player chooses again; the game stays chosen.
    levels = text.split('data-levels-of="cyngesheall"', 1)[1].split("</fieldset>", 1)[0]
    assert refusal in levels
    assert re.search(r'name="game" value="cyngesheall"[^>]*checked', text)


def test_a_game_without_script_is_started_whatever_level_is_checked_when_nobody_plays_it(
    client,
):
    # The page checks Mǽrstánas's weakest level at first, and sends it with any game.
    game = new_game(client, level=find_kind("maerstanas").players.levels[0].id)
    assert (game.kind, game.mode) == ("cyngesheall", "hotseat")
    Game.objects.all().delete()
    weakest = find_kind("cyngesheall").players.levels[0].id
    game = new_game(client, mode="computer", level=weakest, color="dark")
    assert game.seat("light").level == weakest


# The board, in two steps, without JavaScript -----------------------------------------------


def test_each_movable_piece_is_a_link_that_picks_it(client):
    game = new_game(client)
    text = page(client, game)
    commander = square(text, "B6")
    assert 'data-piece="commander"' in commander and 'data-color="dark"' in commander
    assert 'href="?from=B6"' in commander
    # The king on A7 is boxed in by its stones: nothing to pick there.
    assert "href=" not in square(text, "A7")
    assert 'data-piece="king"' in square(text, "A7")
    # Light's pieces are not dark's to pick.
    assert "href=" not in square(text, "F2")
    assert 'data-goal="dark"' in square(text, "G1") and 'data-goal="light"' in square(text, "A7")


def test_a_picked_piece_shows_its_destinations_as_buttons_with_ply_and_csrf(client):
    game = new_game(client)
    text = page(client, game, "?from=B6")
    assert 'name="move" value="B6-C5"' in square(text, "C5")
    assert 'name="move" value="B6-E3"' in square(text, "E3")
    assert 'name="ply" value="0"' in text and "csrfmiddlewaretoken" in text
    blocked = square(text, "B1")
    assert "B6 cannot move through B5" in html.unescape(blocked)
    assert "data-put-back" in text


def test_a_picked_square_that_is_not_yours_picks_nothing(client):
    game = new_game(client)
    text = page(client, game, "?from=F2")
    assert 'name="move"' not in text
    assert page(client, game, "?from=Z9").count('name="move"') == 0


def test_a_move_is_played_and_recorded_with_its_captures(client):
    game = new_game(client)
    response = post_move(client, game, "B6-C5")
    assert response.status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.turn, game.cached_record()) == (1, "light", ["B6-C5"])
    text = page(client, game)
    assert "sq--last" in square(text, "C5") and "sq--from" in square(text, "B6")


def test_a_refused_move_is_shown_on_the_board_and_changes_nothing(client):
    game = new_game(client)
    response = client.post(
        f"/g/{game.public_id}/move", {"move": "B6-B1", "ply": 0, "from": "B6"}, headers=HTMX
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "B6 cannot move through B5" in html.unescape(text)
    # The piece stays picked, to try another square.
    assert 'name="move" value="B6-D4"' in text
    game.refresh_from_db()
    assert game.ply == 0


def test_a_game_ends_by_its_rules_with_a_draw_or_a_win(client):
    start = Position.from_text("..C..../......./......./....k../....S../......./K...... d 0")
    game, tokens = play.create_game("hotseat", Rules(), start=start)
    for color, token in tokens.items():  # the seats, through their private links
        assert client.post(f"/g/{game.public_id}/seat/{color}/{token}/").status_code == 303
    response = post_move(client, game, "C1-E3")
    assert response.status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result) == ("king-captured", "dark")
    text = page(client, game)
    assert 'data-result="dark"' in text
    assert "Light&#x27;s king was captured: dark wins" in text


def test_threefold_repetition_is_seen_through_the_site(client):
    game = new_game(client)
    shuffle = ["B6-C5", "F2-E3", "C5-B6", "E3-F2"]
    for move in shuffle * 2:
        assert post_move(client, game, move).status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result, game.result_word) == ("repetition", "even", "draw")


# Records, the API, pictures ------------------------------------------------------------------


def test_the_record_names_the_game_and_reads_back_as_cyngesheall(client):
    game = new_game(client)
    for move in ("B6-C5", "F2-E3"):
        post_move(client, game, move)
    response = client.get(f"/g/{game.public_id}/record.txt")
    assert f'filename="cyngesheall-{game.public_id}.txt"' in response["Content-Disposition"]
    text = response.content.decode()
    assert '[Variant "cyngesheall"]' in text and "1. B6-C5 2. F2-E3" in text
    record = records.read_record(text)
    assert record.kind.name == "cyngesheall"
    assert record.moves == ("B6-C5", "F2-E3")


def test_a_finished_record_ends_with_its_result_line():
    start = Position.from_text("..C..../......./......./....k../....S../......./K...... d 0")
    record = records.make_record(rules=Rules(), moves=["C1-E3"], start=start)
    assert record.text.rstrip().endswith("1. C1-E3xE4\nDark wins: king captured")
    assert records.read_record(record.text).result == "dark"
    wrong = record.text.replace("Dark wins: king captured", "Draw: threefold repetition")
    with pytest.raises(records.RecordError, match="the moves give"):
        records.read_record(wrong)


def test_the_api_creates_reads_and_plays_a_cyngesheall_game(client):
    created = client.post(
        "/api/games",
        json.dumps({"game": "cyngesheall", "mode": "friend"}),
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    game_id = body["id"]
    token = body["token"]
    read = client.get(f"/api/games/{game_id}").json()
    assert read["game"] == "cyngesheall"
    assert "B6-C5" in read["legal"]
    # Light joins, then dark moves.
    joined = client.post(
        f"/api/games/{game_id}/join",
        json.dumps({"invite": body["invite_url"]}),
        content_type="application/json",
    )
    assert joined.status_code == 200, joined.content
    moved = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "B6-C5", "ply": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.content
    assert client.get(f"/api/games/{game_id}").json()["record"] == ["B6-C5"]
    refused = client.post(
        f"/api/games/{game_id}/moves",
        json.dumps({"move": "F2-A7", "ply": 1}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {joined.json()['token']}"},
    )
    assert refused.status_code == 400 and "error" in refused.json()


def test_the_picture_of_a_game_is_a_png(client):
    game = new_game(client)
    response = client.get(f"/g/{game.public_id}/image.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content[:8] == b"\x89PNG\r\n\x1a\n"


# Lessons and the About page ------------------------------------------------------------------


def test_the_lessons_list_cyngesheall_and_a_lesson_is_solved_in_two_steps(client):
    index = client.get("/learn/").content.decode()
    for slug in ("cyngesheall-moving", "cyngesheall-capture", "cyngesheall-draws"):
        assert f'data-lesson-link="{slug}"' in index
    picked = client.get("/learn/cyngesheall-capture/?from=G3").content.decode()
    assert 'name="move" value="G3-D3"' in picked
    solved = client.get("/learn/cyngesheall-capture/?move=G3-D3").content.decode()
    assert 'data-lesson-result="solved"' in solved


def test_a_lesson_move_that_misses_says_why(client):
    text = client.get("/learn/cyngesheall-draws/?move=F1-F3").content.decode()
    assert 'data-lesson-result="try-again"' in text
    assert "starts the count of quiet plies again" in text


def test_the_about_page_credits_the_author_and_links_the_rule_book(client):
    text = client.get("/about/cyngesheall/").content.decode()
    assert "John Beers" in text and "CC BY-SA 4.0" in text
    assert "/docs/cyngesheall.md" in text
    rules = client.get("/docs/cyngesheall.md")
    assert rules.status_code == 200 and "king-captured" in rules.content.decode()
    assert client.get("/about/chess/").status_code == 404


def test_the_computer_answers_a_cyngesheall_move_at_every_level():
    kind = find_kind("cyngesheall")
    for level in kind.players.levels:
        game, tokens = play.create_game("computer", Rules(), "dark", level=level.id)
        play.make_move(game.public_id, tokens, "B6-C5", 0)
        reply = computer.reply.call(game.public_id, 1)
        game.refresh_from_db()
        assert (game.ply, game.turn) == (2, "dark"), level.id
        assert Position.replay(None, ["B6-C5"]).is_legal(reply)
        assert game.cached_record()[1].startswith(str(reply))


# Everything else a game has ------------------------------------------------------------------


def played(client: Client, moves: list[str], **fields: str) -> Game:
    """A game of Cyngesheall made and played through the pages."""
    return games.played(client, moves, **({"game": "cyngesheall", "mode": "hotseat"} | fields))


def test_replay_shows_an_earlier_moment_and_its_move_list(client):
    game = played(client, ["B6-C5", "F2-E3"])
    text = page(client, game, "?ply=1")
    assert "data-reviewing" in text
    assert "sq--last" in square(text, "C5") and 'data-piece="commander"' in square(text, "F2")
    assert ">B6-C5<" in text and ">F2-E3<" in text


def test_a_takeback_in_hotseat_rewinds_the_last_move(client):
    game = played(client, ["B6-C5", "F2-E3"])
    response = client.post(f"/g/{game.public_id}/takeback")
    assert response.status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.cached_record()) == (1, ["B6-C5"])


def test_resigning_ends_the_game_and_a_rematch_is_cyngesheall_too(client):
    game = played(client, ["B6-C5"])
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result) == ("resigned", "dark")
    assert client.post(f"/g/{game.public_id}/rematch").status_code == 303
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert (rematch.kind, rematch.ply) == ("cyngesheall", 0)


def test_a_hint_is_asked_and_marked_on_the_board(client):
    game = played(client, [])
    assert client.post(f"/g/{game.public_id}/hint").status_code == 303
    hint = computer.hint.call(game.public_id, 0)
    assert Position.start().is_legal(hint)
    text = page(client, game)
    origin, target = str(hint).split("-")
    assert "data-hint" in square(text, origin) and "data-hint" in square(text, target)
    # The hinted piece is picked, so its square plays the hint.
    assert f'name="move" value="{hint}"' in square(text, target)


def test_a_line_is_tried_on_a_board_of_its_own_keeping_its_line(client):
    game = played(client, ["B6-C5", "F2-E3"])
    base = f"/g/{game.public_id}/try?ply=2"
    text = client.get(base).content.decode()
    assert html.escape(f"{base}&from=C5") in text or "ply=2&amp;from=C5" in text
    picked = client.get(f"{base}&from=C5").content.decode()
    assert 'name="move" value="C5-C2"' in picked
    tried = client.get(f"{base}&move=C5-C2").content.decode()
    assert 'data-line="C5-C2"' in tried
    game.refresh_from_db()
    assert game.ply == 2  # the game stays as it is


def test_the_analysis_of_a_moment_is_asked_and_answered(client):
    game = played(client, ["B6-C5"])
    response = client.post(f"/g/{game.public_id}/analyse", {"ply": 1})
    assert response.status_code in (200, 303)
    keys = [row.key for row in Analysis.objects.filter(kind="cyngesheall")]
    assert keys
    computer.analyse.call(keys, 0.05, "cyngesheall")
    found = Analysis.objects.get(kind="cyngesheall", key=keys[0])
    assert found.dark_win is not None and 0 <= found.dark_win <= 1
    assert Position.replay(None, ["B6-C5"]).is_legal(found.move)


def test_my_games_lists_a_cyngesheall_game(client):
    played(client, ["B6-C5"])
    text = client.get("/games/").content.decode()
    assert "Cyngesheall" in text


def test_a_lobby_challenge_names_the_game_and_starts_a_cyngesheall_game():
    alice, bob = Client(), Client()
    answer = alice.post(
        "/lobby/",
        {"speed": "live", "minutes": "1", "increment": "0", "color": "dark", "game": "cyngesheall"},
    )
    assert answer.status_code == 303, answer.content.decode()[:500]
    challenge = Challenge.objects.get()
    assert challenge.kind == "cyngesheall"
    assert "Cyngesheall" in bob.get("/lobby/").content.decode()
    accepted = bob.post(f"/lobby/{challenge.public_id}/accept")
    assert accepted.status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.speed) == ("cyngesheall", "live")
    refused = alice.post("/lobby/", {"speed": "live", "minutes": "1", "game": "go"})
    assert refused.status_code == 400 and Challenge.objects.count() == 1


def test_importing_a_bare_list_of_moves_as_cyngesheall_and_a_tagged_record(client):
    answer = client.post("/import/", {"record": "1. B6-E3 2. G4-D4", "game": "cyngesheall"})
    assert answer.status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.mode, game.cached_record()) == (
        "cyngesheall",
        "imported",
        ["B6-E3", "G4-D4"],
    )
    # The Variant tag decides, whatever options the form sends.
    tagged = '[Variant "cyngesheall"]\n\n1. B6-C5\n'
    answer = client.post("/import/", {"record": tagged, "special_stones": "on"})
    assert answer.status_code == 303
    assert Game.objects.filter(kind="cyngesheall").count() == 2
    refused = client.post("/import/", {"record": '[Variant "go"]\n\n1. B6-C5'})
    assert refused.status_code == 400 and "is not a game here" in refused.content.decode()
    # A refused list of moves keeps the game chosen for it; a fresh form offers the usual.
    refused = client.post("/import/", {"record": "1. B6-B2", "game": "cyngesheall"})
    assert refused.status_code == 400
    assert re.search(r'value="cyngesheall"[^>]* checked', refused.content.decode())
    fresh = client.get("/import/").content.decode()
    assert re.search(r'value="maerstanas"[^>]* checked', fresh)
    assert not re.search(r'value="cyngesheall"[^>]* checked', fresh)


def test_the_position_page_edits_a_cyngesheall_set_up_and_plays_on_from_it(client):
    start = Position.start().to_text()
    text = client.get("/p/", {"game": "cyngesheall", "text": start}).content.decode()
    assert "A Cyngesheall position" in text and "Standard rules" in text
    assert 'data-paint="dark-king"' in text
    assert '<p class="palette__title" id="palette-title">Piece to place</p>' in text
    assert (
        "a click changes a square to the next piece: dark stone, light stone, dark commander, "
        "light commander, dark king, light king, and empty again." in text
    )
    assert 'href="/about/cyngesheall/#notation" data-rules-link' in text
    painted = client.get(
        "/p/", {"game": "cyngesheall", "text": start, "paint": "dark-king", "square": "D4"}
    )
    assert painted.status_code == 400  # two dark kings: drawn, and refused with why
    assert "Dark has 2 kings; each side has at most 1" in html.unescape(painted.content.decode())
    moved = start.replace("SCS....", "S.S....").replace(".....ss/", ".....ss/", 1)
    moved = moved.replace("S.....s/", "S..C..s/")
    assert client.get("/p/", {"game": "cyngesheall", "text": moved}).status_code == 200
    picture = client.get("/p/image.png", {"game": "cyngesheall", "text": moved})
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    answer = client.post("/p/continue", {"game": "cyngesheall", "text": moved, "mode": "hotseat"})
    assert answer.status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.position_text) == ("cyngesheall", moved)


def test_a_whole_game_is_reviewed_with_its_graph_and_judged_moves(client):
    game = played(client, SHORT_GAME_START)
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    answer = client.post(f"/g/{game.public_id}/analyse", {"ply": 0, "whole": "on"})
    assert answer.status_code == 303
    keys = sorted({row.key for row in Analysis.objects.filter(kind="cyngesheall")})
    assert len(keys) == len(SHORT_GAME_START) + 1
    computer.analyse.call(keys, 0.05, "cyngesheall")
    text = page(client, game, "?ply=2")
    assert "<svg" in text and "estimate-desc" in text  # the graph of the chances
    assert "data-review-side" in text


SHORT_GAME_START = ["D7-D2", "E2-E4", "C6-G6", "F3-E3", "B5-B2", "G4-G5"]


def test_a_cyngesheall_game_between_people_is_listed_to_watch(client):
    game, tokens = play.create_game("friend", Rules(), "dark")
    play.join(game.public_id, play.invite_code(game))
    game.refresh_from_db()
    dark = {"dark": tokens["dark"]}
    play.make_move(game.public_id, dark, "B6-C5", 0)
    text = client.get("/watch/").content.decode()
    assert f'data-watch-game="{game.public_id}"' in text
    assert "Cyngesheall" in text
    assert 'aria-label="The board: 10 dark pieces, 10 light pieces"' in text


def test_the_api_says_how_a_cyngesheall_move_is_written():
    client = Client()
    body = client.post(
        "/api/games",
        json.dumps({"game": "cyngesheall", "mode": "friend", "color": "dark"}),
        content_type="application/json",
    ).json()
    answer = client.post(
        f"/api/games/{body['id']}/moves",
        json.dumps({"ply": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {body['token']}"},
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": 'send the move as \'move\', e.g. "B6-B2" or "C7-C3xC2/D3"'}


def test_the_about_page_shows_the_ladder_with_its_arena_ratings(client):
    text = client.get("/about/cyngesheall/").content.decode()
    levels = find_kind("cyngesheall").players.levels
    for level in levels:
        assert f'data-level="{level.id}"' in text
    saved = json.loads((settings.BASE_DIR / "game" / "cyngesheall" / "arena.json").read_text())
    row = re.search(r'<tr data-level="gesith">.*?</tr>', text, re.S)[0]
    assert f"<td>{saved['ratings']['gesith']}</td>" in row


def test_the_better_move_marks_the_square_its_piece_leaves_and_the_one_it_reaches(client):
    game = new_game(client)
    for move in ["B6-C5", "G4-D4"]:
        assert post_move(client, game, move).status_code == 303
    client.post(f"/g/{game.public_id}/resign")
    from game.analysis import position_keys

    for ply, key in enumerate(position_keys(game)):  # dark's B6-C5 loses 30 points
        Analysis.objects.create(
            kind="cyngesheall", key=key, dark_win=0.8 if ply < 1 else 0.5, move="A4-E4"
        )
    text = page(client, game, "?ply=0")
    marked = re.findall(r'data-square="(\w\d)"[^>]*data-better-move="A4-E4"', text)
    assert marked == ["A4", "E4"]
    assert "Next, dark played <strong>B6-C5</strong>, a blunder that lost 30%" in text
