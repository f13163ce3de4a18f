"""Three in a row through the site, under the settings that add it
(``tests.third_game.settings``): the home form, the game page's form posts, the API
and the record. ``tests/test_third_game.py`` runs this file in a process of its own;
pytest collects it only when named (it is no ``test_*.py``)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.conf import settings
from django.test import Client

from game import computer, play
from game.models import Analysis, Game
from game.registry import KINDS, find_kind
from game.surface import (
    InvalidPositionError,
)
from tests.third_game.engine import Position, Rules

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="session")
def django_db_modify_db_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A test database of its own: the run that started this one may hold its own open
    beside it, and on PostgreSQL both would otherwise have the same name."""
    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if database["ENGINE"] == "django.db.backends.sqlite3":
        test["NAME"] = str(tmp_path_factory.mktemp("database") / "test.sqlite3")
    else:
        test["NAME"] = f"test_{database['NAME']}_third_game"


# Dark's line along row 1, light answering on row 2 (not a line of its own).
WINNING = ("A1", "A2", "B1", "B2", "C1")


def test_the_settings_add_the_game_last_and_keep_the_usual_one_first():
    assert settings.INSTALLED_APPS[-1] == "tests.third_game"
    assert list(KINDS) == ["maerstanas", "cyngesheall", "parking-lot", "threeinrow"]
    assert find_kind("threeinrow").board.columns == "ABCDE"


def test_the_home_page_offers_the_game_and_its_levels(client: Client):
    home = client.get("/").content.decode()
    assert 'name="game" value="threeinrow"' in home
    assert "<strong>Three in a row</strong>: three of a colour in a line on a 5×4 board" in home
    assert 'data-levels-of="threeinrow"' in home and 'value="greedy"' in home
    assert "threeinrow/board.css" in home


def test_a_hot_seat_game_is_played_to_a_win_through_the_game_page(client: Client):
    # As a browser without script sends the form: Mǽrstánas's options and the first
    # level checked, which a game without options and nobody's level ignores.
    home = client.get("/").content.decode()
    checked = dict(re.findall(r'name="(level|scoring)" value="([^"]+)"[^>]* checked', home))
    assert set(checked) == {"level", "scoring"}
    assert re.search(r'name="special_stones"[^>]* checked', home)
    checked["special_stones"] = "on"
    answer = client.post("/", {"game": "threeinrow", "mode": "hotseat", **checked})
    assert answer.status_code == 303, answer.content
    game = Game.objects.get()
    assert (game.kind, game.mode, game.position_text) == (
        "threeinrow",
        "hotseat",
        "...../...../...../..... d",
    )
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert page.count("data-square=") == 20
    assert 'data-columns="ABCDE"' in page and 'data-rows="4"' in page
    assert 'data-game="threeinrow"' in page
    assert 'name="move" value="E4"' in page and 'value="F1"' not in page
    for ply, move in enumerate(WINNING):
        moved = client.post(f"/g/{game.public_id}/move", {"move": move, "ply": ply})
        assert moved.status_code == 303, moved.content
    game.refresh_from_db()
    assert (game.status, game.result, game.cached_record()) == (
        "three-in-a-row",
        "dark",
        list(WINNING),
    )
    assert (game.dark_score, game.light_score) == (3, 2)
    page = html.unescape(client.get(f"/g/{game.public_id}/").content.decode())
    assert 'data-result="dark"' in page and "Three in a row: dark wins" in page
    assert 'name="move"' not in page  # a finished board plays nothing


def test_a_taken_square_is_refused_on_the_board_and_changes_nothing(client: Client):
    client.post("/", {"game": "threeinrow", "mode": "hotseat"})
    game = Game.objects.get()
    client.post(f"/g/{game.public_id}/move", {"move": "C2", "ply": 0})
    refused = client.post(
        f"/g/{game.public_id}/move", {"move": "C2", "ply": 1}, headers={"HX-Request": "true"}
    )
    assert refused.status_code == 200
    assert "C2 is taken" in html.unescape(refused.content.decode())
    game.refresh_from_db()
    assert game.ply == 1


def test_a_game_against_the_computer_gets_its_answer(client: Client):
    answer = client.post(
        "/", {"game": "threeinrow", "mode": "computer", "level": "greedy", "color": "dark"}
    )
    assert answer.status_code == 303, answer.content
    game = Game.objects.get()
    assert game.seat("light").level == "greedy"
    client.post(f"/g/{game.public_id}/move", {"move": "A1", "ply": 0})
    # The worker's task, run here: the greedy level takes the middle of the board.
    assert computer.reply.call(game.public_id, 1) in ("B2", "C2", "D2", "B3", "C3", "D3")
    game.refresh_from_db()
    assert (game.ply, game.turn) == (2, "dark")


def test_the_api_creates_plays_and_reads_a_game(client: Client):
    created = client.post(
        "/api/games",
        json.dumps({"game": "threeinrow", "mode": "friend"}),
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    game_id, dark = body["id"], body["token"]
    joined = client.post(
        f"/api/games/{game_id}/join",
        json.dumps({"invite": body["invite_url"]}),
        content_type="application/json",
    )
    assert joined.status_code == 200, joined.content
    tokens = {"dark": dark, "light": joined.json()["token"]}
    state = client.get(f"/api/games/{game_id}").json()
    assert state["game"] == "threeinrow" and len(state["legal"]) == 20
    for ply, move in enumerate(WINNING):
        moved = client.post(
            f"/api/games/{game_id}/moves",
            json.dumps({"move": move, "ply": ply}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {tokens['dark' if ply % 2 == 0 else 'light']}"},
        )
        assert moved.status_code == 200, moved.content
    state = client.get(f"/api/games/{game_id}").json()
    assert state["record"] == list(WINNING)
    assert (state["status"], state["end"], state["result"]) == (
        "finished",
        "three-in-a-row",
        "dark",
    )
    assert state["legal"] == []
    assert state["score"] == {"dark": 3, "light": 2}


def test_the_api_refuses_a_square_off_the_board_saying_which_there_are(client: Client):
    created = client.post(
        "/api/games",
        json.dumps({"game": "threeinrow", "mode": "computer", "level": "random"}),
        content_type="application/json",
    ).json()
    refused = client.post(
        f"/api/games/{created['id']}/moves",
        json.dumps({"move": "F1", "ply": 0}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {created['token']}"},
    )
    assert refused.status_code == 400
    assert "squares run A1 to E4" in refused.json()["error"]


def test_the_record_is_named_for_the_game_and_imported_back(client: Client):
    client.post("/", {"game": "threeinrow", "mode": "hotseat"})
    game = Game.objects.get()
    for ply, move in enumerate(WINNING):
        client.post(f"/g/{game.public_id}/move", {"move": move, "ply": ply})
    download = client.get(f"/g/{game.public_id}/record.txt")
    assert download.status_code == 200
    assert f'filename="threeinrow-{game.public_id}.txt"' in download["Content-Disposition"]
    text = download.content.decode()
    assert (
        '[Variant "threeinrow"]' in text
        and "1. A1 2. A2\n3. B1 4. B2\n5. C1\nDark: 3, Light: 2" in text
    )
    imported = client.post("/import/", {"record": text})
    assert imported.status_code == 303, imported.content
    copy = Game.objects.exclude(pk=game.pk).get()
    assert (copy.kind, copy.mode, copy.cached_record(), copy.result) == (
        "threeinrow",
        "imported",
        list(WINNING),
        "dark",
    )


def test_a_bare_list_of_moves_is_imported_as_the_game_chosen(client: Client):
    imported = client.post("/import/", {"record": "1. C2 B2 2. c3", "game": "threeinrow"})
    assert imported.status_code == 303, imported.content
    game = Game.objects.get()
    assert (game.kind, game.cached_record()) == ("threeinrow", ["C2", "B2", "C3"])


def test_its_picture_about_page_rule_book_and_position_page_are_served(client: Client):
    client.post("/", {"game": "threeinrow", "mode": "hotseat"})
    game = Game.objects.get()
    picture = client.get(f"/g/{game.public_id}/image.png")
    assert picture.status_code == 200 and picture.content[:8] == b"\x89PNG\r\n\x1a\n"
    about = client.get("/about/threeinrow/")
    assert about.status_code == 200 and 'data-level="greedy"' in about.content.decode()
    rules = client.get("/docs/threeinrow.md")
    assert rules.status_code == 200 and rules.content.decode().startswith("# Three in a row")
    start = Position.start().to_text()
    editor = client.get("/p/", {"game": "threeinrow", "text": start, "paint": "dark-stone"})
    assert editor.status_code == 200
    found = re.findall(r'data-square="([A-Z]\d)"', editor.content.decode())
    assert len(found) == 20 and found[-1] == "E4"


def test_a_game_between_people_is_listed_to_watch_with_its_small_board(client: Client):
    game, tokens = play.create_game("friend", Rules(), "dark")
    play.join(game.public_id, play.invite_code(game))
    play.make_move(game.public_id, {"dark": tokens["dark"]}, "C2", 0)
    text = client.get("/watch/").content.decode()
    assert f'data-watch-game="{game.public_id}"' in text and "Three in a row" in text
    # Its squares name no kind of piece: the small board calls them the game's stones.
    assert 'aria-label="The board: 1 dark stone, 0 light stones"' in text
    assert text.count("mini-board__sq--dark-stone") == 1


def test_a_hint_and_an_analysis_come_from_its_strongest_level(client: Client):
    client.post("/", {"game": "threeinrow", "mode": "hotseat"})
    game = Game.objects.get()
    for ply, move in enumerate(("A1", "A2", "B1")):
        client.post(f"/g/{game.public_id}/move", {"move": move, "ply": ply})
    assert client.post(f"/g/{game.public_id}/hint").status_code == 303
    # Light blocks dark's row at once.
    assert computer.hint.call(game.public_id, 3) == "C1"
    assert "data-hint" in client.get(f"/g/{game.public_id}/").content.decode()
    client.post(f"/g/{game.public_id}/analyse", {"ply": 3})
    keys = [row.key for row in Analysis.objects.filter(kind="threeinrow")]
    assert computer.analyse.call(keys, 0.05, "threeinrow") == 1
    assert Analysis.objects.get(kind="threeinrow").move == "C1"


def test_a_full_board_without_a_line_is_a_draw(client: Client):
    full = "ssSSs/SSssS/ssSSs/SSssS"
    cells = full.replace("/", "")
    names = find_kind("threeinrow").board.names
    dark = [names[at] for at, on in enumerate(cells) if on == "S"]
    light = [names[at] for at, on in enumerate(cells) if on == "s"]
    moves = [move for pair in zip(dark, light, strict=True) for move in pair]
    client.post("/", {"game": "threeinrow", "mode": "hotseat"})
    game = Game.objects.get()
    for ply, move in enumerate(moves):
        assert (
            client.post(f"/g/{game.public_id}/move", {"move": move, "ply": ply}).status_code == 303
        )
    game.refresh_from_db()
    assert (game.status, game.result_word, game.position_text) == (
        "full-board",
        "draw",
        f"{full} d",
    )
    assert game.result == Game.Result.NO_WINNER  # stored as every game's draw is
    page = html.unescape(client.get(f"/g/{game.public_id}/").content.decode())
    assert "The board is full: a draw" in page


def test_the_engine_refuses_positions_no_game_reaches():
    assert Position.from_text("SSS../ss.../...../..... l").outcome() == ("dark", "three-in-a-row")
    for text, why in [
        ("SS.../s..../...../..... d", "light's turn"),
        ("SSS../sss../...../S.... l", "light has three in a row and is to move"),
        ("...../...../..... d", "four rows of five"),
        ("...../...../...../..... x", "not a side to move"),
    ]:
        with pytest.raises(InvalidPositionError, match=why):
            Position.from_text(text)
