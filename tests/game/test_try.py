"""Trying a line from a moment of a game (game/trying.py): a board of its own, in the
address, that never touches the game."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game import computer, play
from game.engine import Position, Rules
from game.models import Game
from tests.game.test_review import OPENING, hotseat

pytestmark = pytest.mark.django_db


def try_url(game: Game) -> str:
    return f"/g/{game.public_id}/try"


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.ply, game.revision, game.record_text, game.position_text, game.moves.count())


def test_moves_tried_from_a_moment_make_a_line_and_leave_the_game_as_it_was(client):
    game = hotseat(client)
    before = snapshot(game)
    page = client.get(try_url(game), {"ply": "2", "line": "C3", "move": "t e5", "stone": "stone"})
    html = page.content.decode()
    assert page.status_code == 200
    # The line is C3 then the thunder-stone on E5, written as the engine writes it.
    assert 'data-line="C3,T E5"' in html
    expected = Position.replay(Rules(), [*OPENING[:2], "C3", "T E5"])
    for square in ("D4", "C3"):
        assert f'data-square="{square}" data-stone="dark-stone"' in html
    assert 'data-square="E5" data-stone="light-thunder"' in html
    assert 'data-square="E4" data-stone' not in html  # cleared by the thunder-stone
    assert f'data-score="dark">{expected.score().dark}<' in html
    assert snapshot(game) == before
    # Each move of the line links to the line up to it; the way back is the moment.
    assert f'href="/g/{game.public_id}/try?ply=2&amp;line=C3"' in html
    assert f'href="/g/{game.public_id}/?ply=2" data-back-to-game' in html
    assert "data-undo" in html and "data-clear" in html
    assert 'aria-label="Board: choose a square for dark&#x27;s stone"' in html


def test_a_cyngesheall_line_is_tried_a_piece_picked_then_its_square(client):
    client.post("/", {"game": "cyngesheall", "mode": "hotseat"})
    game = Game.objects.get()
    for ply, move in enumerate(["B6-E3", "G4-D4"]):
        assert client.post(f"/g/{game.public_id}/move", {"move": move, "ply": ply}).status_code
    before = snapshot(game)
    html = client.get(try_url(game), {"ply": "1"}).content.decode()
    assert "No moves tried yet: pick a piece for light to move." in html
    html = client.get(try_url(game), {"ply": "1", "line": "G4-B4"}).content.decode()
    assert 'aria-label="Board: pick a piece for dark to move"' in html
    # A piece's link keeps the line, and picks it.
    assert f'href="/g/{game.public_id}/try?ply=1&amp;line=G4-B4&amp;from=E3"' in html
    html = client.get(try_url(game), {"ply": "1", "line": "G4-B4", "from": "E3"}).content.decode()
    assert 'data-picked="E3"' in html
    assert 'aria-label="Board: choose where the piece on E3 goes"' in html
    assert '<button type="submit" name="move" value="E3-E4"' in html
    html = client.get(
        try_url(game), {"ply": "1", "line": "G4-B4", "move": "E3-E4"}
    ).content.decode()
    assert 'data-line="G4-B4,E3-E4"' in html
    assert re.search(r'data-square="E4"[^>]*data-piece="commander"', html)
    assert snapshot(game) == before


def test_a_move_the_rules_refuse_is_said_and_a_line_that_does_not_follow_is_a_400(client):
    game = hotseat(client)
    refused = client.get(try_url(game), {"ply": "4", "move": "D4"})
    html = refused.content.decode()
    assert refused.status_code == 200 and "data-error" in html and 'data-line=""' in html
    bad = client.get(try_url(game), {"ply": "4", "line": "A1,A1"})
    assert bad.status_code == 400
    assert "Move 2 of the line, &#x27;A1&#x27;: A1 is taken." in bad.content.decode()
    assert client.get(try_url(game), {"ply": "9"}).status_code == 404
    too_long = ",".join(["A1"] * 70)
    assert client.get(try_url(game), {"line": too_long}).status_code == 400


def test_htmx_gets_the_board_alone_and_the_line_s_address_to_show(client):
    game = hotseat(client)
    answer = client.get(try_url(game), {"ply": "4", "move": "A1"}, headers={"HX-Request": "true"})
    assert answer.content.decode().startswith('<section id="try"')
    assert answer["HX-Push-Url"] == f"/g/{game.public_id}/try?ply=4&line=A1"


def test_a_game_between_people_still_played_has_no_line_board():
    game, dark = play.create_game("friend", Rules(), "dark")
    game, _, light = play.join(game.public_id, play.invite_code(game))
    client = Client()
    assert client.get(f"/g/{game.public_id}/try").status_code == 404
    assert client.post(f"/g/{game.public_id}/try/estimate", {"ply": "0"}).status_code == 404
    play.resign(game.public_id, dark)
    assert client.get(f"/g/{game.public_id}/try").status_code == 200


def test_the_position_a_line_reaches_is_estimated_on_request(
    client, django_capture_on_commit_callbacks
):
    game = hotseat(client)
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(f"/g/{game.public_id}/try/estimate", {"ply": "4", "line": "A1"})
    assert asked.status_code == 303
    assert asked["Location"] == f"/g/{game.public_id}/try?ply=4&line=A1"
    waiting = client.get(asked["Location"]).content.decode()
    assert "data-analysing" in waiting and 'hx-trigger="every 1s"' in waiting
    from django_tasks_db.models import DBTaskResult

    (task,) = DBTaskResult.objects.ready()
    keys, seconds, kind = task.args_kwargs["args"]
    assert computer.analyse.call(keys, 0.05, kind) == 1
    shown = client.get(asked["Location"]).content.decode()
    assert re.search(r'data-try-estimate="\d+"', shown) and "every 1s" not in shown
    bad = client.post(f"/g/{game.public_id}/try/estimate", {"ply": "4", "line": "D4"})
    assert bad.status_code == 400
    # A moment of thousands of digits is no moment, not an error of the server.
    huge = client.post(f"/g/{game.public_id}/try/estimate", {"ply": "9" * 5000})
    assert huge.status_code == 400


def test_the_analysis_panel_links_the_line_board_of_its_moment(client):
    game = hotseat(client)
    html = client.get(f"/g/{game.public_id}/?ply=2").content.decode()
    assert f'href="/g/{game.public_id}/try?ply=2" data-try-line' in html
