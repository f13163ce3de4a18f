"""Parking Lot through the site's seams: the home form, the board's steps without
JavaScript (place, pick a piece, drive it, or end the turn), a whole hot-seat game by
form posts, refusals, the API, the record, the lessons, the About page and the
pictures. The engine's own tests are tests/parking_lot/test_engine.py and its neighbours."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from game import computer, play, records
from game.models import Analysis, Game
from game.parking_lot import Position, Rules
from game.registry import find_kind
from lobby.models import Challenge
from tests.support import games
from tests.support.games import created, page, post_move, square

pytestmark = pytest.mark.django_db

KIND = find_kind("parking-lot")


def new_game(client: Client) -> Game:
    """A hot-seat game of Parking Lot made through the home form."""
    return created(client, game="parking-lot", mode="hotseat")


def a_random_game(seed: int) -> list[str]:
    """The turns of a random game, as the record writes them."""
    rng = random.Random(seed)
    pos = Position.start()
    while not pos.is_over:
        pos = pos.play(pos.random_move(rng))
    return list(pos.record)


def test_the_home_form_offers_the_game_and_starts_it(client):
    home = client.get("/").content.decode()
    assert 'value="parking-lot"' in home
    assert "<strong>Parking Lot</strong>: park two-square cars in one big block" in home
    game = new_game(client)
    assert (game.kind, game.mode, game.position_text) == (
        "parking-lot",
        "hotseat",
        Position.start().to_text(),
    )


def test_a_first_placement_is_one_button_where_it_fits(client):
    game = new_game(client)
    text = page(client, game)
    # No piece could drive after blue's first placement: the square plays it at once.
    assert 'name="move" value="E4"' in square(text, "E4")
    # Blue's pieces stand upright: none is anchored on row 8.
    assert 'name="move"' not in square(text, "E8")
    assert "would leave the board" in square(text, "E8")


def test_a_turn_in_three_steps_without_javascript(client):
    game = new_game(client)
    for move in ("D4", "A8"):
        assert post_move(client, game, move).status_code in (302, 303)
    text = page(client, game)
    # Step 1: the places where a drive could follow are links that keep the choice.
    assert 'href="?turn=A1"' in square(text, "A1")
    text = page(client, game, "?turn=A1")
    assert "sq--pending" in square(text, "A1") and "sq--pending" in square(text, "A2")
    assert 'name="move" value="A1" data-end-turn' in text
    assert 'href="?turn=A1%20D4"' in square(text, "D4")
    # Step 3: the picked piece's places are buttons; elsewhere, why not.
    text = page(client, game, "?turn=A1%20D4")
    assert 'name="move" value="A1 D4-D1"' in square(text, "D1")
    assert 'name="move" value="A1 D4-G2"' in square(text, "G2")
    assert "does not fit" in square(text, "A7")
    assert post_move(client, game, "A1 D4-G2").status_code in (302, 303)
    game.refresh_from_db()
    assert game.record_text.splitlines() == ["D4", "A8", "A1 D4-G2"]


def test_an_illegal_turn_is_refused_and_adds_nothing(client):
    game = new_game(client)
    response = post_move(client, game, "E8", htmx=True)
    assert response.status_code == 200
    assert "would leave the board" in response.content.decode()
    game.refresh_from_db()
    assert game.ply == 0


def test_a_whole_hot_seat_game_by_form_posts_and_the_api(client):
    game = new_game(client)
    turns = a_random_game(36)
    for turn in turns:
        assert post_move(client, game, turn).status_code in (302, 303)
    game.refresh_from_db()
    final = Position.replay(turns)
    assert game.ply == 16 and game.is_over
    assert game.status == final.outcome().reason
    assert game.position_text == final.to_text()
    read = client.get(f"/api/games/{game.public_id}").json()
    assert read["game"] == "parking-lot"
    assert read["record"] == turns
    assert read["legal"] == []
    expected = {"blue": "dark", "red": "light"}.get(final.outcome().result, "even")
    assert game.result == expected
    text = page(client, game)
    assert str(final.score()) in text  # each side's groups, as the status shows them
    largest = f'data-score="dark">{final.score().dark}</strong>'
    assert largest in text
    assert "parking-lot/dark-car.svg" in text and "parking-lot/light-car.svg" in text
    assert f'data-result="{expected}"' in text


def test_the_api_lists_legal_turns_in_the_rule_books_notation(client):
    game = new_game(client)
    for move in ("D4", "A8"):
        post_move(client, game, move)
    read = client.get(f"/api/games/{game.public_id}").json()
    assert read["game"] == "parking-lot"
    assert read["legal"] == [str(move) for move in Position.replay(["D4", "A8"]).legal_moves()]
    assert "A1 D4-G2" in read["legal"] and read["record"] == ["D4", "A8"]


def test_a_record_names_the_game_and_reads_back():
    turns = a_random_game(7)
    final = Position.replay(turns)
    text = records.write_record(records.make_record(rules=KIND.rules(), moves=turns))
    assert '[Variant "parking-lot"]' in text
    assert text.rstrip().endswith(KIND.final_line(final))
    assert "16. " in text and f"16. {turns[-1]}" in text
    again = records.read_record(text)
    assert again.kind is KIND and list(again.moves) == turns
    assert again.final.outcome() == final.outcome()


def test_a_record_of_an_unfinished_game_ends_with_the_groups_and_reads_back():
    turns = a_random_game(8)[:5]
    text = records.write_record(records.make_record(rules=KIND.rules(), moves=turns))
    assert text.rstrip().endswith(str(Position.replay(turns).score()))
    assert list(records.read_record(text).moves) == turns
    wrong = text.rstrip().rsplit("\n", 1)[0] + "\nBlue 9, Red 9\n"
    with pytest.raises(records.RecordError, match="the record ends 'Blue 9, Red 9'"):
        records.read_record(wrong)


def test_the_lessons_are_solved_by_their_answers():
    for lesson in KIND.lessons:
        position = lesson.position
        answers = [
            move
            for move in position.legal_moves()
            if lesson.check(position, position.play(move), move) is None
        ]
        assert answers, lesson.slug
        assert lesson.attempt(str(answers[0])).solved
        wrong = next(
            move
            for move in position.legal_moves()
            if lesson.check(position, position.play(move), move)
        )
        assert not lesson.attempt(str(wrong)).solved


def test_the_about_page_credits_the_blog_post_and_lists_the_levels(client):
    text = client.get("/about/parking-lot/").content.decode()
    assert "New Game: Parking Lot" in text
    for level in KIND.players.levels:
        assert f'data-level="{level.id}"' in text
    assert client.get("/docs/parking-lot.md").status_code == 200


def test_a_picture_of_a_position_is_a_png():
    picture = KIND.picture(Position.replay(a_random_game(3)), caption="A game")
    assert picture.startswith(b"\x89PNG")


def played(client: Client, moves: list[str]) -> Game:
    """A hot-seat game of Parking Lot made and played through the pages."""
    return games.played(client, moves, game="parking-lot", mode="hotseat")


def test_the_computer_answers_a_turn_at_every_level():
    for level in KIND.players.levels:
        game, tokens = play.create_game("computer", Rules(), "dark", level=level.id)
        play.make_move(game.public_id, tokens, "D4", 0)
        reply = computer.reply.call(game.public_id, 1)
        game.refresh_from_db()
        assert (game.ply, game.turn) == (2, "dark"), level.id
        assert Position.replay(["D4"]).is_legal(reply)
        assert game.cached_record() == ["D4", str(reply)]


def test_a_hint_is_asked_and_marked_on_the_board(client):
    game = played(client, ["D4", "A8"])
    assert client.post(f"/g/{game.public_id}/hint").status_code == 303
    hint = computer.hint.call(game.public_id, 2)
    assert Position.replay(["D4", "A8"]).is_legal(hint)
    text = page(client, game)
    assert "data-hint" in square(text, str(hint).split()[0])


def test_a_takeback_resign_and_rematch(client):
    game = played(client, ["D4", "A8"])
    assert client.post(f"/g/{game.public_id}/takeback").status_code == 303
    game.refresh_from_db()
    assert (game.ply, game.cached_record()) == (1, ["D4"])
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result) == ("resigned", "dark")
    assert client.post(f"/g/{game.public_id}/rematch").status_code == 303
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert (rematch.kind, rematch.ply) == ("parking-lot", 0)


def test_a_line_is_tried_on_a_board_of_its_own(client):
    game = played(client, ["D4", "A8"])
    base = f"/g/{game.public_id}/try?ply=2"
    picked = client.get(f"{base}&turn=A1+D4").content.decode()
    assert 'name="move" value="A1 D4-D1"' in picked
    tried = client.get(f"{base}&move=A1+D4-D1").content.decode()
    assert 'data-line="A1 D4-D1"' in tried
    game.refresh_from_db()
    assert game.ply == 2


def test_the_analysis_of_a_moment_is_asked_and_answered(client):
    game = played(client, ["D4"])
    response = client.post(f"/g/{game.public_id}/analyse", {"ply": 1})
    assert response.status_code in (200, 303)
    keys = [row.key for row in Analysis.objects.filter(kind="parking-lot")]
    assert keys
    computer.analyse.call(keys, 0.05, "parking-lot")
    found = Analysis.objects.get(kind="parking-lot", key=keys[0])
    assert found.dark_win is not None and 0 <= found.dark_win <= 1
    assert Position.replay(["D4"]).is_legal(found.move)


def test_the_position_page_and_its_editor_read_the_position_text(client):
    mid = Position.replay(["D4", "E4", "B2", "B1", "F2 D4-D6", "A8", "G5", "F8 B1-D2"])
    answer = client.get("/p/", {"game": "parking-lot", "text": mid.to_text()})
    assert answer.status_code == 200
    refused = client.get("/p/", {"game": "parking-lot", "text": "B......./" * 7 + "........ b"})
    assert refused.status_code == 400


def test_a_lobby_challenge_starts_a_parking_lot_game_rated_apart():
    alice, bob = Client(), Client()
    answer = alice.post(
        "/lobby/",
        {"speed": "live", "minutes": "1", "increment": "0", "color": "dark", "game": "parking-lot"},
    )
    assert answer.status_code == 303, answer.content.decode()[:500]
    challenge = Challenge.objects.get()
    assert challenge.kind == "parking-lot"
    assert "Parking Lot" in bob.get("/lobby/").content.decode()
    assert bob.post(f"/lobby/{challenge.public_id}/accept").status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.speed) == ("parking-lot", "live")


def test_importing_a_numbered_list_of_turns_and_a_tagged_record(client):
    answer = client.post("/import/", {"record": "1. D4 2. A8 3. A1 D4-G2", "game": "parking-lot"})
    assert answer.status_code == 303
    game = Game.objects.get()
    assert (game.kind, game.mode, game.cached_record()) == (
        "parking-lot",
        "imported",
        ["D4", "A8", "A1 D4-G2"],
    )
    tagged = '[Variant "parking-lot"]\n\n1. D4 2. A8, 3. A1, D4 - G2\n'
    assert client.post("/import/", {"record": tagged}).status_code == 303
    second = Game.objects.exclude(pk=game.pk).get()
    assert second.cached_record() == ["D4", "A8", "A1 D4-G2"]
    refused = client.post("/import/", {"record": "1. D4 2. D4", "game": "parking-lot"})
    assert refused.status_code == 400
    assert "Move 2 (red&#x27;s): illegal turn" in refused.content.decode()


def test_the_editor_paints_squares_and_the_page_plays_on_from_it(client):
    start = Position.start().to_text()
    text = client.get("/p/", {"game": "parking-lot", "text": start}).content.decode()
    assert 'data-paint="dark-car"' in text and 'data-paint="light-car"' in text
    painted = client.get(
        "/p/", {"game": "parking-lot", "text": start, "paint": "dark-car", "square": "D4"}
    ).content.decode()
    assert "D4" in painted
    assert client.get("/p/", {"game": "parking-lot", "text": start}).status_code == 200
