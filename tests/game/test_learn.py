"""The lessons of /learn/: every task can be done and can be missed, the engine
says which, and the pages work with a plain link or form, without script."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from game.engine import SQUARES, Color, Position, Stone, parse_move, parse_square
from game.maerstanas import lessons
from game.maerstanas.drawing import draw_board
from game.maerstanas.lessons import BY_SLUG, LESSONS, attempt

pytestmark = pytest.mark.django_db  # the pages' tests; no lesson writes to it

# The moves that do each task, worked out by hand from the lesson's board; the
# praise names them, so a change to a board that moved them would mislead.
ANSWERS = {
    "hinges": {"D4", "G1"},
    "fourth-hinge": {"D3"},
    "closed-squares": {"A2", "B2", "C2"},
    "thunder": {"T D4", "T B7"},
    "woden": {"W G7"},
    "passing-and-the-end": {"A2"},
    "scoring": {"B1"},
    "first-tip": {"A2"},
    "simple-scoring": {"D4"},
    "wraparound": {"G4", "A3"},
    "break-the-pairs": {"T E1"},
    "score-and-close": {"D2"},
}


def solutions(lesson: lessons.Lesson) -> set[str]:
    return {str(m) for m in lesson.position.legal_moves() if attempt(lesson, str(m)).solved}


def test_a_dozen_lessons_at_most_each_with_its_own_address():
    assert 8 <= len(LESSONS) <= 12
    assert len(BY_SLUG) == len(LESSONS)
    assert set(ANSWERS) == set(BY_SLUG)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_each_task_is_done_exactly_by_its_answers(lesson):
    assert solutions(lesson) == ANSWERS[lesson.slug]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_the_praise_names_every_answer_square(lesson):
    for move in ANSWERS[lesson.slug]:
        assert move.split()[-1] in lesson.praise


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_a_move_that_misses_the_task_says_why_and_shows_the_board_after_it(lesson):
    start = lesson.position
    missed = [m for m in start.legal_moves() if str(m) not in ANSWERS[lesson.slug]]
    assert missed, "a task no move can miss teaches nothing"
    for move in missed:
        tried = attempt(lesson, str(move))
        assert not tried.solved and not tried.refused
        assert tried.message and tried.message != lesson.praise
        assert str(move) in {played.text.split("x")[0] for played in tried.position.history}


@pytest.mark.parametrize("text", ["", "Z9", "E", "pass pass", "T", "\x00", "E4" * 30])
def test_text_that_is_not_a_move_is_refused_and_the_board_stays(text):
    lesson = BY_SLUG["hinges"]
    tried = attempt(lesson, text)
    assert tried.refused and not tried.solved
    assert tried.position == lesson.position


def test_a_closed_square_is_refused_with_the_rules_reason():
    lesson = BY_SLUG["fourth-hinge"]
    own = attempt(lesson, "E4")
    neighbour = attempt(lesson, "D5")
    assert "E4" in own.refused and "four hinges" in own.refused
    assert "C5" in neighbour.refused
    assert own.position == neighbour.position == lesson.position


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("W D3", "W D3 cannot be played: D3 is not your opponent's stone"),
        ("D3", "D3 cannot be played: D3 is taken"),
    ],
)
def test_a_refusal_names_the_move_once(text, refusal):
    assert attempt(BY_SLUG["woden"], text).refused == refusal


def test_an_attempt_says_exactly_what_became_of_the_move():
    lesson = BY_SLUG["hinges"]
    start = lesson.position
    assert attempt(lesson, "zz") == lessons.Attempt(
        "zz",
        start,
        False,
        "",
        refused="'zz' is not a move: write a square like E4, or T E4, W E4, Pass",
        unreadable=True,
    )
    assert attempt(lesson, "d3") == lessons.Attempt(
        "D3", start, False, "", refused="D3 cannot be played: D3 is taken"
    )
    assert attempt(lesson, "d4") == lessons.Attempt(
        "D4", start.play(parse_move("D4")), True, lesson.praise
    )
    assert attempt(lesson, "A1") == lessons.Attempt(
        "A1",
        start.play(parse_move("A1")),
        False,
        "Your stone on A1 has 2 hinges (north: the edge, west: the edge). "
        "Look for a square with three sides already taken by stones or the edge",
    )


@pytest.mark.parametrize(
    ("square", "words"),
    [
        ("D4", "3 hinges (north: a dark stone, west: a light stone, east: a dark stone)"),
        ("G7", "2 hinges (east: the edge, south: the edge)"),
        ("A6", "2 hinges (west: the edge, south: a light stone)"),
        ("G3", "2 hinges (north: a dark stone, east: the edge)"),
        ("C5", "1 hinge (north: a light stone)"),
        ("B5", "0 hinges"),
    ],
)
def test_hinges_in_words_name_each_side_that_is_taken(square, words):
    assert lessons.hinges_in_words(BY_SLUG["hinges"].position, parse_square(square)) == words


def test_the_hinges_lesson_counts_each_side_in_words():
    tried = attempt(BY_SLUG["hinges"], "A1")
    assert "2 hinges (north: the edge, west: the edge)" in tried.message
    tried = attempt(BY_SLUG["hinges"], "D5")
    assert "1 hinge (north: a light stone)" not in tried.message  # D4 is empty
    assert "0 hinges" in tried.message


def test_taking_b1_is_not_closing_it():
    tried = attempt(BY_SLUG["closed-squares"], "B1")
    assert not tried.solved and "without playing on it" in tried.message


def test_a_plain_stone_where_a_special_one_is_asked_for_says_so():
    assert "choose your thunder-stone" in attempt(BY_SLUG["thunder"], "A1").message
    assert "choose your Woden-stone" in attempt(BY_SLUG["woden"], "A1").message


def test_the_woden_lesson_weighs_what_light_loses_too():
    lesson = BY_SLUG["woden"]
    start = lesson.position
    # D4 gains the most points for dark; G7 puts dark furthest ahead.
    gains = {
        str(m): lessons.gain(start, start.play(m), Color.DARK)
        for m in start.legal_moves()
        if m.stone is Stone.WODEN
    }
    assert max(gains, key=gains.get) == "W D4"
    assert "W D4" not in ANSWERS["woden"]


def test_after_the_passing_lesson_light_has_passed_and_dark_moves_again():
    after = attempt(BY_SLUG["passing-and-the-end"], "A2").position
    assert after.history[-1].move.is_pass and after.turn is Color.DARK
    assert not after.is_over
    assert all(m.stone is Stone.THUNDER for m in after.legal_moves())
    # The board still marks the stone just played, though a pass came after it.
    board = draw_board(after)
    assert [cell.name for cell in board.squares if getattr(cell, "is_last", False)] == ["A2"]


def test_the_first_tip_is_not_the_greedy_move():
    """The answer scores no more than other moves: it is best only counting the reply."""
    lesson = BY_SLUG["first-tip"]
    start = lesson.position
    gains = {str(m): lessons.gain(start, start.play(m), Color.DARK) for m in start.legal_moves()}
    greedy = {move for move, points in gains.items() if points == max(gains.values())}
    assert greedy - ANSWERS["first-tip"]
    for move in greedy - ANSWERS["first-tip"]:
        assert lessons.net_after_reply(start, lessons.parse_move(move)) < 0
    assert lessons.net_after_reply(start, lessons.parse_move("A2")) == 0


def test_the_boards_are_for_dark_to_move():
    for lesson in LESSONS:
        assert lesson.position.turn is Color.DARK
        assert not lesson.position.is_over


# The pages ---------------------------------------------------------------------------------


def squares(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-square="(\w\d)"(?:[^>]*?data-stone="([\w-]+)")?', html))


def test_the_lessons_are_listed_and_linked_from_home_and_about(client: Client):
    page = client.get("/learn/").content.decode()
    for lesson in LESSONS:
        assert f'href="/learn/{lesson.slug}/"' in page
    assert 'href="/learn/"' in client.get("/").content.decode()
    assert 'href="/learn/"' in client.get("/about/").content.decode()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_a_lesson_draws_its_board_for_dark_to_play(client: Client, lesson):
    response = client.get(f"/learn/{lesson.slug}/")
    html = response.content.decode()
    assert response.status_code == 200
    board = lesson.position.board()
    drawn = squares(html)
    for index, on in enumerate(board):
        assert drawn[str(SQUARES[index])] == (f"{on[0]}-{on[1]}" if on else "")
    assert escape(lesson.task) in html
    assert 'name="move"' in html and "data-lesson-result" not in html


def test_a_solved_task_says_so_and_leads_on(client: Client):
    html = client.get("/learn/hinges/?move=D4").content.decode()
    assert 'data-lesson-result="solved"' in html
    assert squares(html)["D4"] == "dark-stone"
    assert 'href="/learn/fourth-hinge/"' in html and "data-next-lesson" in html
    assert 'name="move"' not in html  # the board after the move is only looked at


def test_a_missed_task_says_why_and_offers_another_try(client: Client):
    html = client.get("/learn/hinges/?move=A1").content.decode()
    assert 'data-lesson-result="try-again"' in html
    assert "Not quite. Your stone on A1 has 2 hinges" in html
    assert "data-try-again-link" in html and "data-next-lesson" not in html


def test_a_closed_square_is_refused_on_the_board_still_to_play(client: Client):
    response = client.get("/learn/fourth-hinge/?move=E4")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-lesson-result="refused"' in html and "four hinges" in html
    assert 'value="D3"' in html  # the board is still there to play


@pytest.mark.parametrize("text", ["Z9", "%00", "hello", "E4" * 30])
def test_text_that_is_no_move_is_a_bad_request_that_says_so(client: Client, text):
    response = client.get(f"/learn/hinges/?move={text}")
    assert response.status_code == 400
    assert 'data-lesson-result="refused"' in response.content.decode()


def test_a_lesson_offers_only_the_stones_it_gives(client: Client):
    assert "data-stone-choice" not in client.get("/learn/hinges/").content.decode()
    thunder = client.get("/learn/thunder/").content.decode()
    assert set(re.findall(r'data-stone-choice="(\w+)"', thunder)) == {"stone", "thunder"}
    assert "spent" not in thunder


def test_the_lesson_s_stone_is_chosen_and_another_can_be(client: Client):
    assert "board--thunder" in client.get("/learn/thunder/").content.decode()
    assert "board--stone" in client.get("/learn/thunder/?stone=stone").content.decode()
    assert "board--stone" in client.get("/learn/thunder/?stone=nonsense").content.decode()


def test_htmx_redraws_the_lesson_alone_and_history_gets_the_whole_page(client: Client):
    part = client.get("/learn/thunder/?move=T+B7", headers={"HX-Request": "true"})
    html = part.content.decode()
    assert html.lstrip().startswith('<section id="lesson"')
    assert 'data-lesson-result="solved"' in html and 'id="announce"' in html
    assert part.headers["Vary"].count("HX-Request") == 1
    back = client.get(
        "/learn/thunder/?move=T+B7",
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert back.content.decode().lstrip().startswith("<!doctype html>")


def test_a_game_page_restored_from_history_is_whole(client: Client):
    created = client.post("/", {"mode": "hotseat", "special_stones": "on", "scoring": "standard"})
    game_id = created["Location"].split("/")[2]
    back = client.get(
        f"/g/{game_id}/?stone=thunder",
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert back.content.decode().lstrip().startswith("<!doctype html>")


def test_an_unknown_lesson_is_a_404_and_nothing_is_posted(client: Client):
    assert client.get("/learn/nope/").status_code == 404
    assert client.post("/learn/hinges/", {"move": "D4"}).status_code == 405


def test_lessons_save_nothing(client: Client, django_assert_num_queries):
    with django_assert_num_queries(0):
        client.get("/learn/scoring/?move=B1")


def test_the_scoring_lesson_draws_the_scoring_hinges(client: Client):
    html = client.get("/learn/scoring/").content.decode()
    start = BY_SLUG["scoring"].position
    assert start.scoring_sides(parse_square("A1")) == "nw"
    assert "hinge--n" in html and "hinge--w" in html


def test_every_lesson_start_is_a_position_the_rules_accept():
    for lesson in LESSONS:
        assert Position.from_text(lesson.start, lesson.rules).to_text() == lesson.start


# What a missed task says, word for word ---------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "move", "message"),
    [
        (
            "closed-squares",
            "B1",
            "Taking B1 stops light too, but this task is to close B1 without playing on it",
        ),
        (
            "closed-squares",
            "E1",
            "Light can still play B1 and score 3 points there: a stone on E1 leaves B1 and "
            "its neighbours with a free side",
        ),
        (
            "thunder",
            "T A1",
            "Your thunder-stone on A1 cleared nothing: no stone was next to it",
        ),
        (
            "thunder",
            "T C3",
            "Your thunder-stone on C3 cleared D3, C4: 2 light. Look for a square with three "
            "light stones around it",
        ),
        (
            "woden",
            "W G6",
            "Taking G6 gains you 1 point and costs light 2 points: another light stone does better",
        ),
        (
            "passing-and-the-end",
            "T A1",
            "Keep your thunder-stone: find the plain stone after which light has no open square",
        ),
        (
            "passing-and-the-end",
            "B3",
            "After B3 light still has a square to play: find the stone that closes them all",
        ),
        (
            "scoring",
            "E1",
            "E1 scores 1 point; one square scores 3 points. Remember the edge: a side on it "
            "scores too",
        ),
        (
            "simple-scoring",
            "A1",  # three points with standard scoring: here its edges score nothing
            "A1 scores 1 point; one square scores 3 points. Only pairs of your own stones "
            "score: look for three of them around a square",
        ),
        (
            "wraparound",
            "B4",
            "B4 scores 1 point; one square scores 2 points. A stone on one edge pairs with the "
            "stone on the square opposite",
        ),
        (
            "break-the-pairs",
            "T C5",
            "Your thunder-stone on C5 cleared 3 stones and cost light 0 points. Look for "
            "light's pairs: a stone in two pairs is worth more to light than two stones alone",
        ),
        (
            "score-and-close",
            "E1",
            "Taking E1 stops light, but scores you only 1 point: close it from nearby",
        ),
        (
            "score-and-close",
            "E2",
            "E2 closes E1, but scores you only 0 points: one move closes it and scores two",
        ),
        (
            "score-and-close",
            "A1",
            "A1 scores you 2 points, but light can still play E1 and score 3 points there. "
            "Which stone next to E1 could you bring to three hinges?",
        ),
    ],
)
def test_a_missed_task_says_what_the_move_did(slug, move, message):
    tried = attempt(BY_SLUG[slug], move)
    assert not tried.solved and tried.message == message


@pytest.mark.parametrize(
    ("n", "words"), [(1, "1 point"), (-1, "-1 point"), (0, "0 points"), (2, "2 points")]
)
def test_points_are_counted_in_words(n, words):
    assert lessons.points(n) == words


def test_the_lead_is_counted_for_either_side():
    position = Position.start().play("A1").play("D4")
    assert position.score() == (2, 0)
    assert lessons.lead(position, Color.DARK) == 2
    assert lessons.lead(position, Color.LIGHT) == -2


def test_the_best_reply_is_the_first_move_that_gains_the_most():
    # Every corner gains two; A1 comes first.
    assert lessons.best_reply(Position.start()) == (parse_move("A1"), 2)
    # A1 gains points too, but G1 the most.
    assert lessons.best_reply(BY_SLUG["hinges"].position) == (parse_move("G1"), 3)


def test_a_side_that_must_pass_has_no_reply_and_gains_nothing():
    after = BY_SLUG["passing-and-the-end"].position.play(parse_move("A2"))
    assert after.must_pass
    assert lessons.best_reply(after) == (None, 0)


def test_the_best_reply_may_gain_nothing_at_all():
    # The edges are light's and the corners closed: no square scores for dark.
    position = Position.from_text(".sssss./s.....s/s.....s/s.....s/s.....s/s.....s/.sssss. d -")
    move, gained = lessons.best_reply(position)
    assert move == position.legal_moves()[0] and gained == 0


def test_a_lesson_board_is_written_as_its_rows():
    rows = ("S......", ".......", ".......", ".......", ".......", ".......", "......s")
    assert lessons._rows(*rows) == "S....../......./......./......./......./......./......s"


def test_a_variant_s_lesson_is_drawn_and_played_by_its_rules(client: Client):
    html = client.get("/learn/wraparound/").content.decode()
    assert "board--wrap" in html and "data-wraparound" in html
    # G4's east side meets A4 across the join: two pairs, on this board only.
    solved = client.get("/learn/wraparound/", {"move": "G4"}).content.decode()
    assert "data-solved" in solved
    assert "board--wrap" not in client.get("/learn/scoring/").content.decode()


def test_every_lessons_words_for_a_move_end_as_one_sentence_does():
    from game.registry import KINDS

    said = [
        lesson.attempt(str(move)).sentence
        for kind in KINDS.values()
        for lesson in kind.lessons
        for move in lesson.position.legal_moves()
    ]
    assert said and all(words.endswith((".", "?", "!")) for words in said)
    assert not [words for words in said if words.endswith(("?.", "..", "!."))]
    assert sum(words.endswith("?") for words in said) > 1  # both games ask a question


@pytest.mark.parametrize(
    ("path", "question"),
    [
        ("/learn/score-and-close/?move=A1", "could you bring to three hinges?"),
        ("/learn/cyngesheall-capture/?move=G3-G2", "which piece can reach it?"),
    ],
)
def test_a_lesson_that_asks_a_question_ends_it_with_its_question_mark(client, path, question):
    html = client.get(path).content.decode()
    words = re.search(r"<p[^>]*data-try-again>(.*?)</p>", html, re.S)[1]
    assert words.endswith(question) and "?." not in html


def test_the_lessons_list_marks_those_this_browser_solved(client: Client):
    def solved() -> list[str]:
        html = client.get("/learn/").content.decode()
        items = re.findall(r"<li[^>]*data-lesson-solved[^>]*>(.*?)</li>", html, re.S)
        assert all(">Solved</strong>" in item for item in items)
        return [re.search(r'data-lesson-link="([\w-]+)"', item)[1] for item in items]

    assert solved() == []
    client.get("/learn/hinges/?move=A1")  # missed: not solved
    assert solved() == [] and "lessons_solved" not in client.session
    for path in [
        "/learn/hinges/?move=D4",
        "/learn/hinges/?move=D4",
        "/learn/cyngesheall-capture/?move=G3-D3",
    ]:
        assert 'data-lesson-result="solved"' in client.get(path).content.decode()
    assert solved() == ["hinges", "cyngesheall-capture"]
    # Kept in the browser's own session cookie, small: each lesson's slug once.
    assert client.session["lessons_solved"] == ["cyngesheall-capture", "hinges"]
    assert Client().get("/learn/").content.decode().count("data-lesson-solved") == 0
