"""Parking Lot through the site's seams: the home form, the board's steps without
JavaScript (place, pick a piece, drive it, or end the turn), a whole hot-seat game by
form posts, refusals, the API, the record, the lessons, the About page and the
pictures. The engine's own tests are test_parking_lot_engine and its neighbours."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from game import records
from game.models import Game
from game.parking_lot import Position
from game.registry import find_kind
from tests.support.games import created, post_move

pytestmark = pytest.mark.django_db

KIND = find_kind("parking-lot")


def new_game(client: Client) -> Game:
    """A hot-seat game of Parking Lot made through the home form."""
    return created(client, game="parking-lot", mode="hotseat")


def page(client: Client, game: Game, query: str = "") -> str:
    response = client.get(f"/g/{game.public_id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def square(text: str, name: str) -> str:
    """The markup of one square of a page's board."""
    found = re.search(rf'<div class="sq[^"]*" data-square="{name}".*?</div>', text, re.S)
    assert found, name
    return found[0]


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
