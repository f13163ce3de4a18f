"""The values the pages show, built from a game for one viewer (``game.pages``)."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import RequestFactory

from game import computer, play, records, seats
from game.engine import Position, Rules
from game.models import Analysis, BrowserGame, Game
from game.pages import (
    analysis_allowed,
    analysis_panel,
    game_page,
    game_record,
    game_urls,
    lesson_page,
    my_game_lines,
    position_keys,
)
from game.pages.detail import _takeback
from game.registry import DEFAULT
from tests.support.diagrams import CHECKERBOARD, board
from tests.support.games import OPENING, friends

pytestmark = pytest.mark.django_db


def request_for(game: Game, tokens: dict[str, str] | None = None, **query: str):
    """A GET request from a browser that holds ``tokens`` in ``game``."""
    request = RequestFactory().get("/", query)
    request.session = SessionStore()
    if tokens:
        request.session[seats.SESSION_KEY] = {game.public_id: tokens}
    return request


def played(mode: str, moves=OPENING, **options) -> tuple[Game, dict[str, str]]:
    game, tokens = play.create_game(mode, Rules(), **options)
    for move in moves:
        game = play.make_move(game.public_id, tokens, move)
    game.refresh_from_db()
    return game, tokens


def takeback_of(game: Game, *colors: str) -> str:
    game.refresh_from_db()
    return _takeback(game, frozenset(colors), game.position())


# Takebacks ---------------------------------------------------------------------------------


def test_hotseat_may_take_a_move_back_once_there_is_one():
    game, _ = played("hotseat", moves=[])
    assert takeback_of(game, "dark", "light") == ""
    game, _ = played("hotseat", moves=["D4"])
    assert takeback_of(game, "dark", "light") == "take"
    assert takeback_of(game) == ""  # a watcher


def test_a_finished_game_offers_no_takeback():
    game, tokens = played("hotseat")
    play.resign(game.public_id, tokens)
    assert takeback_of(game, "dark", "light") == ""


def test_a_friend_asks_for_a_takeback_only_after_a_move_of_their_own():
    game, dark, light = friends()
    play.make_move(game.public_id, dark, "D4")
    assert takeback_of(game, "dark") == "ask"
    assert takeback_of(game, "light") == ""  # only dark has moved
    play.make_move(game.public_id, light, "E4")
    assert takeback_of(game, "light") == "ask"


def test_a_friend_waits_for_the_answer_the_other_gives_it():
    game, dark, _ = friends()
    play.make_move(game.public_id, dark, "D4")
    play.take_back(game.public_id, dark)
    assert takeback_of(game, "dark") == "wait"
    assert takeback_of(game, "light") == "answer"


def test_a_friend_game_waiting_for_the_friend_offers_no_takeback():
    game, _ = played("friend", moves=[], creator="dark")
    assert game.status == Game.Status.WAITING
    assert takeback_of(game, "dark") == ""


def test_against_the_computer_only_your_own_move_can_be_taken_back():
    game, tokens = play.create_game("computer", Rules(), "light", level="cild")
    computer.reply.call(game.public_id, 0)  # the computer, dark, opens
    assert takeback_of(game, "light") == "" and game.ply == 1
    move = next(m for m in game.position().legal_moves() if not m.is_pass)
    play.make_move(game.public_id, tokens, str(move))
    assert takeback_of(game, "light") == "take"


def test_a_computer_game_with_your_move_played_offers_to_take_it_at_once():
    game, _ = played("computer", moves=["D4"], creator="dark", level="cild")
    assert takeback_of(game, "dark") == "take"  # not asked of anybody


# The game page -----------------------------------------------------------------------------


def test_a_game_in_play_offers_to_analyse_the_moment_and_shows_no_news_or_current_move():
    game, tokens = played("hotseat")
    page = game_page(request_for(game, tokens), game, choice="stone", error="")
    # Offered without stepping back, and nothing read: the board is redrawn each move.
    assert page.analysis.in_play and page.analysis.ply == 4
    assert (page.analysis.current, page.analysis.graph, page.analysis.review) == (None, "", None)
    assert page.news == "" and page.seen == 4
    assert not any(item.current for item in page.moves)
    assert page.takeback == "take"


def test_looking_back_marks_the_moment_in_the_move_list():
    game, tokens = played("hotseat")
    page = game_page(request_for(game, tokens), game, choice="stone", error="", ply=2, seen=4)
    assert [item.current for item in page.moves] == [False, True, False, False]
    assert page.analysis is not None and page.analysis.ply == 2
    assert (page.seen, page.news) == (4, "")


def test_an_imported_game_shows_its_analysis_at_every_moment():
    game = play.import_game(Rules(), Position.start(), OPENING[:2])
    page = game_page(request_for(game), game, choice="stone", error="")
    assert page.analysis is not None and page.analysis.ply == 2


def test_looking_back_the_player_hears_of_a_pass_played_since():
    start = board(CHECKERBOARD, hand="t")  # dark must pass: it does so at once
    game, tokens = play.create_game("hotseat", Rules(), start=start)
    assert game.cached_record() == ["Pass"]
    page = game_page(request_for(game, tokens), game, choice="stone", error="", ply=0, seen=0)
    assert page.news == "Dark passed." and page.announce == "Dark passed."
    assert page.seen == 0
    later = game_page(request_for(game, tokens), game, choice="stone", error="", ply=0, seen=9)
    assert later.news == "" and later.seen == 1  # a moment past now is now


# Analysis ----------------------------------------------------------------------------------


def analysed(game: Game, *moments: int, done: bool = True, best: str = "") -> list[str]:
    keys = position_keys(game)
    for ply in moments:
        Analysis.objects.create(
            key=keys[ply], dark_win=0.9 - 0.8 * (ply % 2) if done else None, move=best
        )
    return keys


def test_analysis_is_never_offered_for_a_game_between_people_or_a_rated_game_in_play():
    game, _ = played("computer", moves=[], level="cild")
    assert analysis_allowed(game)
    game.rated = True  # a bot account's rated game: the computer would play for one side
    assert not analysis_allowed(game)
    friend, _, _ = friends()
    assert not analysis_allowed(friend)
    assert game_page(request_for(friend), friend, choice="stone", error="").analysis is None
    game.status = Game.Status.RESIGNED
    game.result = "light"
    assert analysis_allowed(game)


def test_the_game_page_marks_the_moves_the_review_judged():
    game, tokens = played("hotseat", moves=[*OPENING, "A1"])
    game = play.resign(game.public_id, tokens)  # over: the review is shown at the end
    analysed(game, 2, 3, best="B7")  # dark's chances 90%, then 10%: C3 lost 80
    page = game_page(request_for(game, tokens), game, choice="stone", error="")
    marked = [(item.ply, item.judged and item.judged.kind) for item in page.moves]
    assert marked == [(1, None), (2, None), (3, "blunder"), (4, None), (5, None)]
    assert page.moves[2].judged.text == "C3 lost 80%: B7 was best"
    html = str(page.moves)
    assert 'data-mistake="3" data-best="B7" data-judgement="blunder"' in html
    dark, light = page.analysis.review.sides
    assert (dark.blunders, dark.judged, light.judged) == (1, 1, 0)


def test_the_analysis_panel_of_a_moment_with_nothing_analysed():
    game, _ = played("hotseat")
    panel = analysis_panel(game, 2)
    assert panel.urls == game_urls(game.public_id)
    assert (panel.ply, panel.current, panel.graph, panel.error) == (2, None, "", "")
    assert not panel.pending and not panel.whole
    assert analysis_panel(game, 2, error="too many").error == "too many"


def test_one_analysed_moment_draws_no_graph_and_two_do():
    game, _ = played("hotseat")
    analysed(game, 1)
    assert analysis_panel(game, 1).graph == ""
    analysed(game, 2)
    panel = analysis_panel(game, 1)
    assert panel.current.key == position_keys(game)[1] and panel.percent == 10
    assert panel.graph.startswith("<svg")
    assert "href=" not in panel.graph  # no best move known: no move judged
    assert (panel.analysed, panel.moments, panel.review) == (2, 5, None)
    assert 'class="estimate__now"' in panel.graph  # the moment shown is marked
    assert not panel.pending and not panel.whole


def test_the_panel_reads_only_this_games_moments_of_its_own_kind():
    game, _ = played("hotseat")
    keys = position_keys(game)
    Analysis.objects.create(key="another position", dark_win=None)
    Analysis.objects.create(kind="another-kind", key=keys[2], dark_win=0.5)
    panel = analysis_panel(game, 2)
    assert panel.current is None and not panel.pending and not panel.whole
    analysed(game, *range(len(keys)))
    assert analysis_panel(game, 2).whole


def test_a_moment_asked_for_and_not_done_keeps_the_panel_asking():
    game, _ = played("hotseat")
    analysed(game, 2, done=False)
    panel = analysis_panel(game, 2)
    assert panel.pending and panel.current is not None and panel.percent is None


# Records -----------------------------------------------------------------------------------


def test_an_imported_game_keeps_its_own_tags_but_is_named_by_this_site():
    record = records.read_record(
        '[Game "elsewhere-1"]\n[Site "https://example.org/"]\n[Dark "Ann"]\n'
        '[Event "Club night"]\nD4 E4',
        Rules(),
    )
    game = play.import_game(record.rules, record.start, record.moves, tags=dict(record.tags))
    tags = dict(game_record(request_for(game), game).tags)
    assert tags["Dark"] == "Ann" and tags["Light"] == "Player"
    assert tags["Event"] == "Club night"
    assert tags["Game"] == game.public_id
    assert tags["Site"] == f"http://testserver/g/{game.public_id}/"


def test_a_game_played_here_is_recorded_with_the_sites_tags_only():
    game, _ = played("hotseat", moves=["D4"])
    game.tags = {"Event": "left over"}
    tags = dict(game_record(request_for(game), game).tags)
    assert set(tags) == {"Game", "Site", "Date", "Dark", "Light"}


def test_a_game_from_a_set_up_position_is_recorded_from_it():
    start = Position.from_text("......./......./..S..../...Ss../......./......./....... l TWtw")
    game, tokens = play.create_game("hotseat", Rules(), start=start)
    game = play.make_move(game.public_id, tokens, "A1")
    made = game_record(request_for(game), game)
    assert made.start == start and made.moves == ("A1",)
    assert f'[Position "{start.to_text()}"]' in records.write_record(made)


# Lessons -----------------------------------------------------------------------------------


def test_a_lesson_page_links_its_neighbours_and_numbers_from_one():
    lessons = DEFAULT.lessons
    first = lesson_page(DEFAULT, 0, "", "")
    assert (first.number, first.previous, first.following) == (1, None, lessons[1])
    assert first.url == f"/learn/{lessons[0].slug}/"
    second = lesson_page(DEFAULT, 1, "", "")
    assert (second.number, second.previous, second.following) == (2, lessons[0], lessons[2])
    last = lesson_page(DEFAULT, len(lessons) - 1, "", "")
    assert (last.previous, last.following) == (lessons[-2], None)
    assert lesson_page(DEFAULT, len(lessons) - 2, "", "").following == lessons[-1]


def test_a_lesson_board_redraws_the_lesson_and_scores_the_move_tried():
    lesson = DEFAULT.lessons[0]
    page = lesson_page(DEFAULT, 0, "", "")
    assert page.board.stones.target == "#lesson"
    assert page.score == lesson.position.score() and page.result == ""
    move = next(str(m) for m in lesson.position.legal_moves() if not m.is_pass)
    tried = lesson_page(DEFAULT, 0, move, "")
    assert tried.score == lesson.position.play(move).score()
    assert tried.board.stones.target == "#lesson"


# My games ----------------------------------------------------------------------------------


def entry(game: Game, colors: str) -> BrowserGame:
    game.refresh_from_db()
    return BrowserGame(browser="b" * 32, game=game, colors=colors)


def test_my_games_says_whose_move_and_which_move_it_is():
    game, _ = played("hotseat", moves=OPENING[:3])
    (line,), finished = my_game_lines([entry(game, "dark light")])
    assert finished == []
    assert line.colors == ("dark", "light")
    assert line.your_turn and line.summary == "Light to move · move 4"


def test_my_games_marks_only_your_turn_in_a_game_going_on():
    waiting, _ = played("friend", moves=[], creator="dark")
    theirs, dark, _ = friends()
    play.make_move(theirs.public_id, dark, "D4")  # now light's move
    mine, _ = played("hotseat", moves=[])
    over, tokens = played("hotseat", moves=["D4"])
    play.resign(over.public_id, tokens)
    going_on, finished = my_game_lines(
        [
            entry(waiting, "dark"),
            entry(theirs, "dark"),
            entry(mine, "dark light"),
            entry(over, "light"),
        ]
    )
    assert [line.game for line in going_on] == [mine, waiting, theirs]  # your turn first
    assert [line.your_turn for line in going_on] == [True, False, False]
    assert going_on[1].summary == "Waiting for your friend"
    assert [line.game for line in finished] == [over] and not finished[0].your_turn


def test_my_games_does_not_mark_a_game_waiting_for_the_computers_move():
    game, _ = played("computer", moves=[], creator="light", level="cild")
    (line,), _ = my_game_lines([entry(game, "light")])
    assert game.computer_to_move and not line.your_turn
    assert line.summary == "Dark to move · move 1"
