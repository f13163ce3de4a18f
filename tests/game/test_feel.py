"""What players tripped over: each fix with the test that shows it."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from game import play
from game.engine import Color, Position, Rules, Stone
from game.maerstanas.drawing import draw_board
from game.models import Analysis
from game.pages import position_keys
from tests.support.games import HTMX, take_seats

pytestmark = pytest.mark.django_db

# Light to move: every empty square would give a plain stone a fourth hinge, and
# only light's Woden-stone can be played.
ONLY_WODEN = "S.sS.SS/W.Ss.s./s..sSss/SSsSs.s/.Ss.sSs/.SStS../sS..sSS l Tw"


def test_the_title_follows_the_game_after_each_move():
    game, tokens = play.create_game("hotseat", Rules())
    client = take_seats(Client(), game, tokens)
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "<title>Dark to move · Mǽrstánas</title>" in page
    answer = client.post(
        f"/g/{game.public_id}/move", {"move": "D4", "ply": 0}, headers=HTMX
    ).content.decode()
    assert "<title>Light to move · Mǽrstánas</title>" in answer


def test_a_friend_s_title_says_your_turn_and_the_page_marks_it():
    game, dark = play.create_game("friend", Rules(), "dark")
    game, _, light = play.join(game.public_id, play.invite_code(game))
    page = take_seats(Client(), game, dark).get(f"/g/{game.public_id}/").content.decode()
    assert "<title>Your turn · Mǽrstánas</title>" in page
    assert re.search(r'id="game"[^>]*data-your-turn', page, re.S)
    other = (
        take_seats(Client(), game, {"light": light}).get(f"/g/{game.public_id}/").content.decode()
    )
    assert "<title>Dark to move · Mǽrstánas</title>" in other
    assert not re.search(r'id="game"[^>]*data-your-turn', other, re.S)


def test_the_move_list_can_be_focused_to_scroll_it():
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4")
    play.resign(game.public_id, tokens)
    page = Client().get(f"/g/{game.public_id}/").content.decode()
    assert '<ol id="move-list"' in page
    assert re.search(r'<ol id="move-list"[^>]*tabindex="0"', page)


def test_when_only_a_special_stone_can_be_played_it_is_chosen_and_the_page_says_why():
    position = Position.from_text(ONLY_WODEN, Rules())
    assert {move.stone for move in position.legal_moves()} == {Stone.WODEN}
    board = draw_board(position, Color.LIGHT)
    assert board.stone is Stone.WODEN
    assert board.note == "No square takes a plain stone now: only your Woden-stone can be played"
    stone = next(c for c in board.stones.choices if c.kind == "stone")
    assert (stone.available, stone.note) == (False, "no square")
    assert sum(1 for cell in board.squares if getattr(cell, "value", "")) == len(
        position.legal_moves()
    )


def test_every_viewer_sees_the_stones_each_side_still_holds():
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4")
    play.make_move(game.public_id, tokens, "T E4")
    page = Client().get(f"/g/{game.public_id}/").content.decode()  # a watcher
    assert '<small class="score__hand" data-hand="dark">holds thunder and Woden' in page
    assert '<small class="score__hand" data-hand="light">holds Woden' in page


def test_a_watcher_is_told_so():
    game, _ = play.create_game("hotseat", Rules())
    assert "data-watching" in Client().get(f"/g/{game.public_id}/").content.decode()


def test_a_finished_friend_game_hears_of_a_rematch_without_a_reload():
    game, dark = play.create_game("friend", Rules(), "dark")
    game, _, light = play.join(game.public_id, play.invite_code(game))
    play.resign(game.public_id, dark)
    friend = take_seats(Client(), game, {"light": light})
    page = friend.get(f"/g/{game.public_id}/").content.decode()
    assert 'hx-trigger="every 3s"' in page
    game.refresh_from_db()
    poll = f"/g/{game.public_id}/poll/{game.revision}"
    assert friend.get(poll, headers=HTMX).status_code == 204
    play.rematch(game.public_id, dark)
    answer = friend.get(poll, headers=HTMX).content.decode()
    assert "Your opponent wants a rematch" in answer and "every 3s" not in answer


def test_a_refusal_without_javascript_starts_with_a_capital():
    game, tokens = play.create_game("hotseat", Rules())
    client = take_seats(Client(), game, tokens)
    page = client.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 3}, follow=True)
    text = re.search(r'<li class="message message--error">([^<]+)', page.content.decode())[1]
    assert text.startswith("The board changed since you saw it")


def test_the_board_explains_its_marks():
    game, _ = play.create_game("hotseat", Rules())
    page = Client().get(f"/g/{game.public_id}/").content.decode()
    assert "What the marks mean" in page and "Hatching: a square you cannot play" in page


def test_the_scoring_hinges_can_be_drawn_on_the_board():
    game, tokens = play.create_game("hotseat", Rules())
    for move in ["A1", "G7", "B1"]:
        play.make_move(game.public_id, tokens, move)
    client = Client()
    plain = client.get(f"/g/{game.public_id}/").content.decode()
    assert "hinge--" not in plain and "Show the scoring hinges" in plain
    page = client.get(f"/g/{game.public_id}/", {"hinges": "on"}).content.decode()

    def sides(square: str) -> list[str]:
        cell = re.search(rf'data-square="{square}".*?</div>', page, re.S)[0]
        return re.findall(r"hinge--([nwes])", cell)

    # A1: the north and west edges and its friend on B1; G7: two edges; B1: edge and A1.
    assert sides("A1") == ["n", "w", "e"] and sides("B1") == ["n", "w"]
    assert sides("G7") == ["e", "s"] and sides("D4") == []
    assert "Hide the scoring hinges" in page
    assert re.search(r'hx-get="[^"]*hinges=on&amp;stone=', page)  # kept by live redraws


def first_title(answer: str) -> str:
    """The text of an answer's first <title>, the one htmx makes the page's."""
    return re.search(r"<title[^>]*>([^<]*)</title>", answer)[1]


def test_an_answer_carrying_the_analysis_graph_names_the_page_first():
    rng = random.Random(7)
    position = Position.start(Rules())
    while not position.is_over:
        position = position.play(rng.choice(position.legal_moves()))
    moves = [move for move in position.record if move != "Pass"]
    game, tokens = play.create_game("hotseat", Rules())
    client = take_seats(Client(), game, tokens)
    for move in moves[:-1]:
        game = play.make_move(game.public_id, tokens, move)
    # The opening was analysed, in this game or another reaching it: the end shows a graph.
    for key in position_keys(game)[:2]:
        Analysis.objects.create(key=key, dark_win=0.5)
    answer = client.post(
        f"/g/{game.public_id}/move", {"move": moves[-1], "ply": game.ply}, headers=HTMX
    ).content.decode()
    assert '<title id="estimate-title">' in answer  # the graph's own, inside #game
    winner = "a tie" if position.result == "tie" else f"{position.result} wins"
    assert first_title(answer) == f"Neither side can move: {winner} · Mǽrstánas"


def test_looking_back_the_title_and_the_page_say_it_is_your_turn():
    game, dark = play.create_game("friend", Rules(), "dark")
    game, _, light = play.join(game.public_id, play.invite_code(game))
    for tokens, move in [(dark, "D4"), ({"light": light}, "E4"), (dark, "C3")]:
        play.make_move(game.public_id, tokens, move)
    waiting = take_seats(Client(), game, {"light": light})
    answer = waiting.get(f"/g/{game.public_id}/", {"ply": 1}, headers=HTMX).content.decode()
    assert first_title(answer) == "Your turn · move 1 of 3 · Mǽrstánas"
    assert re.search(r'id="game"[^>]*data-ply="1"[^>]*data-your-turn', answer, re.S)
    page = (
        take_seats(Client(), game, dark).get(f"/g/{game.public_id}/", {"ply": 1}).content.decode()
    )
    assert "<title>Move 1 of 3 · Mǽrstánas</title>" in page
    assert not re.search(r'id="game"[^>]*data-your-turn', page, re.S)


def test_looking_back_through_a_finished_game_never_says_your_turn():
    game, dark = play.create_game("friend", Rules(), "dark")
    game, _, light = play.join(game.public_id, play.invite_code(game))
    for tokens, move in [(dark, "D4"), ({"light": light}, "E4"), (dark, "C3")]:
        play.make_move(game.public_id, tokens, move)
    play.resign(game.public_id, {"light": light})
    for tokens, ply in [(dark, 2), ({"light": light}, 1)]:  # each player's side to move
        answer = take_seats(Client(), game, tokens).get(f"/g/{game.public_id}/", {"ply": ply})
        page = answer.content.decode()
        turn = "dark" if ply % 2 == 0 else "light"
        headline = re.search(r'<p class="headline" data-turn="(\w+)">([^<]*)</p>', page)
        assert headline.groups() == (turn, f"{turn.capitalize()} to move")
        assert "Your turn" not in page
        assert not re.search(r'id="game"[^>]*data-your-turn', page, re.S)
        assert f"<title>Move {ply} of 3 · Mǽrstánas</title>" in page
