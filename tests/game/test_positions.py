"""The position page's parts: the rules named in a query (the options' codec), the
query of a position, reading a text (game/views/positions.py), and the editor's
squares and links (game/maerstanas/editor.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup

from game.drawing import piece_image
from game.engine import SQUARES, Position, Rules
from game.maerstanas.editor import CYCLE, EMPTY_TEXT, PAINTS, editor, painted, query_of
from game.registry import DEFAULT
from game.views.positions import read

pytestmark = pytest.mark.usefixtures("settings")  # static URLs without a collected manifest


def rules_from(query: dict[str, str]) -> Rules:
    return Rules.from_mapping(query)


ODD_RULES = Rules(special_stones=False, scoring="simple", wraparound=True)
PLAIN_WRAPPED = Rules(special_stones=False, wraparound=True)
# Every kind of square, light to move, dark holding its thunder-stone, light its Woden-stone.
TEXT = "T.s..../.S...../......./...w.../..t..../......./W.....s l Tw"
# What each character of a text shows: its colour, its kind and the words for it.
SHOWN = {
    ".": ("", "", "empty"),
    "S": ("dark", "stone", "dark stone"),
    "s": ("light", "stone", "light stone"),
    "T": ("dark", "thunder", "dark thunder"),
    "t": ("light", "thunder", "light thunder"),
    "W": ("dark", "woden", "dark woden"),
    "w": ("light", "woden", "light woden"),
}


@pytest.mark.parametrize(
    ("query", "rules"),
    [
        ({}, Rules()),
        ({"special_stones": "", "scoring": "", "wraparound": ""}, Rules()),
        ({"special_stones": "on", "scoring": "standard", "wraparound": "off"}, Rules()),
        ({"special_stones": " OFF ", "scoring": "simple", "wraparound": "Yes"}, ODD_RULES),
        ({"special_stones": "0", "scoring": "simple", "wraparound": "1"}, ODD_RULES),
        ({"special_stones": "false", "scoring": "simple", "wraparound": "true"}, ODD_RULES),
        (
            {"special_stones": "no", "wraparound": "on"},
            Rules(special_stones=False, wraparound=True),
        ),
    ],
)
def test_the_rules_a_query_names(query, rules):
    assert rules_from(query) == rules


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"special_stones": "maybe"}, "special stones: 'maybe' is neither on nor off"),
        ({"wraparound": "X" * 50}, f"wraparound: {'x' * 20!r} is neither on nor off"),
        ({"scoring": "fancy"}, "scoring: 'fancy' is not standard or simple"),
        ({"scoring": "y" * 50}, f"scoring: {'y' * 20!r} is not standard or simple"),
    ],
)
def test_a_bad_rule_in_a_query_is_named(query, message):
    with pytest.raises(ValueError) as error:
        rules_from(query)
    assert str(error.value) == message


@pytest.mark.parametrize("rules", [Rules(), ODD_RULES])
def test_a_position_s_query_names_its_text_and_every_rule(rules):
    query = parse_qs(query_of(TEXT, rules))
    assert query["text"] == [TEXT]
    assert rules_from({name: values[0] for name, values in query.items()}) == rules
    assert set(query) == {"text", "special_stones", "scoring", "wraparound"}


def test_reading_a_text_gives_its_position_or_why_not():
    valid = "T.s..../.S...../......./......./......./......./......s d Wtw"
    assert read(DEFAULT, valid, Rules()) == (Position.from_text(valid, Rules()), "")
    assert read(DEFAULT, TEXT, Rules()) == (
        None,
        "dark has 2 thunder-stones on the board and in hand; each side has one",
    )


def cells_of(found):
    return [cell for _, row in found.rows for cell in row]


def text_in(url: str, page: str = "/p/") -> str:
    parts = urlsplit(url)
    assert parts.path == page
    query = parse_qs(parts.query)
    assert rules_from({name: values[0] for name, values in query.items()}) == Rules()
    return query["text"][0]


def test_the_editor_draws_each_square_and_links_it_to_the_next_stone():
    found = editor(TEXT, Rules(), "/p/")
    assert [number for number, _ in found.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert all(len(row) == 7 for _, row in found.rows)
    squares = TEXT.split()[0].replace("/", "")
    for index, (square, cell) in enumerate(zip(SQUARES, cells_of(found), strict=True)):
        char = squares[index]
        color, kind, words = SHOWN[char]
        assert (cell.name, cell.color, cell.kind) == (str(square), color, kind)
        assert cell.image == (piece_image(color, kind) if color else "")
        assert cell.label == f"{square}, {words}: change it"
        following = CYCLE[(CYCLE.index(char) + 1) % len(CYCLE)]
        changed = squares[:index] + following + squares[index + 1 :]
        rows = "/".join(changed[i : i + 7] for i in range(0, 49, 7))
        assert text_in(cell.url) == f"{rows} l Tw"


def test_the_last_stone_of_the_cycle_turns_back_into_an_empty_square():
    found = editor(TEXT, Rules(), "/p/")
    d4 = next(cell for cell in cells_of(found) if cell.name == "D4")
    assert (d4.color, d4.kind) == ("light", "woden")
    assert text_in(d4.url).split()[0].split("/")[3] == "......."


def test_the_editor_s_side_to_move_hand_and_clearing_links():
    found = editor(TEXT, Rules(), "/p/")
    assert found.text == TEXT and found.rules == Rules()
    assert found.turn == "light"
    board = TEXT.split()[0]
    assert text_in(found.turn_url) == f"{board} d Tw"
    assert text_in(found.clear_url) == EMPTY_TEXT
    toggles = {toggle.letter: toggle for toggle in found.hand}
    assert [toggle.letter for toggle in found.hand] == ["T", "W", "t", "w"]
    assert {letter: (t.label, t.held) for letter, t in toggles.items()} == {
        "T": ("dark's thunder-stone", True),
        "W": ("dark's Woden-stone", False),
        "t": ("light's thunder-stone", False),
        "w": ("light's Woden-stone", True),
    }
    assert {letter: text_in(t.url).split()[2] for letter, t in toggles.items()} == {
        "T": "w",
        "W": "TWw",
        "t": "Ttw",
        "w": "T",
    }
    # A hand's link changes the hand alone: the board and the side to move stay.
    assert {text_in(t.url).split()[0] for t in found.hand} == {board}
    assert {text_in(t.url).split()[1] for t in found.hand} == {"l"}


def test_a_hand_with_nothing_in_it_is_written_as_a_dash():
    text = TEXT.replace(" Tw", " T")
    found = editor(text, Rules(), "/p/")
    dark_thunder = next(t for t in found.hand if t.letter == "T")
    assert text_in(dark_thunder.url).split()[2] == "-"
    assert editor(text.replace(" T", " -"), Rules(), "/p/").turn == "light"


def test_dark_to_move_and_no_special_stones():
    text = TEXT.replace(" l ", " d ")
    found = editor(text, ODD_RULES, "/elsewhere/")
    assert found.turn == "dark" and found.hand == ()
    parts = urlsplit(found.turn_url)
    assert parts.path == "/elsewhere/"
    assert parse_qs(parts.query)["text"] == [TEXT]
    assert parse_qs(urlsplit(found.clear_url).query)["special_stones"] == ["off"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a b",
        TEXT + " extra",
        TEXT.replace("/", "", 1),  # six rows
        TEXT.replace("T.s", "T.", 1),  # 48 squares
        TEXT.replace("T.s", "T.x", 1),  # not a stone
        TEXT.replace(" l ", " x "),  # not a side
        TEXT.replace(" Tw", " Tx"),  # not a special stone
        "......./......./......./......./......./......./.......// d -",  # eight rows
    ],
)
def test_text_the_editor_cannot_draw_starts_it_afresh(text):
    assert editor(text, Rules(), "/p/") is None


# The palette: pick a stone, then click squares to place it -------------------------------

FULL_HAND = "......./......./......./...s.../......./......./....... d TWtw"
# What each paint leaves on D4 (over a light stone), and the hand after it.
PAINTED = {
    "empty": (None, "TWtw"),
    "dark-stone": ("dark-stone", "TWtw"),
    "light-stone": ("light-stone", "TWtw"),
    "dark-thunder": ("dark-thunder", "Wtw"),
    "light-thunder": ("light-thunder", "TWw"),
    "dark-woden": ("dark-woden", "Ttw"),
    "light-woden": ("light-woden", "TWt"),
}


def page_of(client, **query: str) -> tuple[int, BeautifulSoup]:
    response = client.get("/p/", query)
    return response.status_code, BeautifulSoup(response.content, "html.parser")


def shown_text(page: BeautifulSoup) -> str:
    return page.select_one("[data-position-text]")["value"]


@pytest.mark.django_db
@pytest.mark.parametrize("paint", PAINTS)
def test_each_paint_puts_its_stone_on_a_square_in_one_request(client, paint):
    status, page = page_of(client, text=FULL_HAND, paint=paint, square="D4")
    assert status == 200 and not page.select("[data-error]")
    stone, hand = PAINTED[paint]
    assert page.select_one('[data-square="D4"]').get("data-stone") == stone
    assert shown_text(page).split()[2] == hand
    held = {a["data-hand-toggle"]: a["aria-pressed"] for a in page.select("[data-hand-toggle]")}
    assert held == {letter: str(letter in hand).lower() for letter in "TWtw"}
    # The palette keeps the paint chosen: the next click places the same again.
    (chosen,) = page.select('[data-paint][aria-pressed="true"]')
    assert chosen["data-paint"] == paint


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "paint", "hand"),
    [
        ("......./......./......./...W.../......./......./....... d Ttw", "empty", "TWtw"),
        ("......./......./......./...W.../......./......./....... d Ttw", "light-stone", "TWtw"),
        ("......./......./......./...t.../......./......./....... d TW", "dark-thunder", "Wt"),
    ],
)
def test_taking_a_special_stone_off_gives_it_back_to_its_side(client, text, paint, hand):
    status, page = page_of(client, text=text, paint=paint, square="d4")
    assert status == 200
    assert shown_text(page).split()[2] == hand


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "paint", "words"),
    [
        (
            "T....../......./......./......./......./......./....... d Wtw",
            "dark-thunder",
            "Dark's thunder-stone is already on A1, and each side has only one",
        ),
        (
            "......./......./......./......./......./......./......w d TWt",
            "light-woden",
            "Light's Woden-stone is already on G7, and each side has only one",
        ),
    ],
)
def test_a_second_special_stone_of_a_side_is_refused_and_nothing_changes(
    client, text, paint, words
):
    status, page = page_of(client, text=text, paint=paint, square="D4")
    assert status == 400
    assert page.select_one("[data-error]").get_text().startswith(words)
    assert shown_text(page) == text
    assert page.select_one('[data-square="D4"]').get("data-stone") is None


@pytest.mark.django_db
def test_without_special_stones_the_palette_has_plain_stones_only(client):
    status, page = page_of(client, text=FULL_HAND, special_stones="off")
    assert [a["data-paint"] for a in page.select("[data-paint]")] == [
        "empty",
        "dark-stone",
        "light-stone",
    ]
    status, page = page_of(
        client, text=FULL_HAND, special_stones="off", paint="dark-woden", square="D4"
    )
    assert status == 400
    assert page.select_one("[data-error]").get_text() == (
        "These rules have no special stones: a dark Woden-stone cannot go on D4."
    )
    assert page.select_one('[data-square="D4"]')["data-stone"] == "light-stone"


@pytest.mark.django_db
def test_the_palette_and_squares_are_plain_links_without_javascript(client):
    status, page = page_of(client, text=MIDDLE)
    choices = page.select("a[data-paint]")
    assert [a["data-paint"] for a in choices] == list(PAINTS)
    assert {a["aria-pressed"] for a in choices} == {"false"} and all(a["href"] for a in choices)
    woden = next(a for a in choices if a["data-paint"] == "light-woden")
    status, page = page_of(client, **query_in(woden["href"]))
    assert page.select_one('[data-paint="light-woden"]')["aria-pressed"] == "true"
    # Every square's link puts the chosen stone there: one click, one request.
    link = page.select_one('[data-square="B2"] a.sq__edit')
    assert link["aria-label"] == "B2, empty: put a light Woden-stone here"
    status, page = page_of(client, **query_in(link["href"]))
    assert status == 200
    assert page.select_one('[data-square="B2"]')["data-stone"] == "light-woden"
    assert shown_text(page) == "......./.w...../......./...S.../......./......./....... d TWt"
    # The other links keep the paint, and the text's form carries it too.
    for mark in ("[data-edit-turn]", "[data-hand-toggle]", '[data-paint="dark-stone"]'):
        assert "paint=" in page.select_one(mark)["href"]
    assert page.select_one('.position-text input[name="paint"]')["value"] == "light-woden"
    assert query_in(page.select_one("[data-edit-turn]")["href"])["paint"] == "light-woden"
    assert page.select_one("#palette-title").get_text() == "Stone to place"
    hint = page.select_one("[data-editor-hint]").get_text()
    assert hint == "Click a square to put the chosen stone there; choose another above."


@pytest.mark.django_db
def test_with_no_paint_chosen_the_hint_names_the_stones_a_click_steps_through(client):
    status, page = page_of(client, text=MIDDLE)
    assert page.select_one("[data-editor-hint]").get_text() == (
        "Choose a stone above, then click squares to place it. With none chosen, a click "
        "changes a square to the next stone: dark stone, light stone, dark thunder-stone, "
        "light thunder-stone, dark Woden-stone, light Woden-stone, and empty again."
    )


@pytest.mark.django_db
def test_the_hand_toggles_say_whether_they_are_on_and_the_rules_link_is_the_about_page(client):
    status, page = page_of(
        client, text="......./......./......./......./......./......./....... d Tw"
    )
    pressed = {a["data-hand-toggle"]: a["aria-pressed"] for a in page.select("[data-hand-toggle]")}
    assert pressed == {"T": "true", "W": "false", "t": "false", "w": "true"}
    assert all(
        "is-on" in a["class"] for a in page.select('[data-hand-toggle][aria-pressed="true"]')
    )
    hrefs = [a["href"] for a in page.select(".position-page a")]
    assert "/about/#notation" in hrefs and not any(h.startswith("/docs/") for h in hrefs)


@pytest.mark.django_db
def test_a_square_not_on_the_board_is_refused_by_name(client):
    status, page = page_of(client, text=MIDDLE, paint="dark-stone", square="Z9")
    assert status == 400
    assert "'Z9' is not a square: use A1 to G7" in page.select_one("[data-error]").get_text()
    assert shown_text(page) == MIDDLE


@pytest.mark.django_db
def test_a_wraparound_position_says_so_in_words(client):
    assert not page_of(client, text=MIDDLE)[1].select("[data-wraparound]")
    page = page_of(client, text=MIDDLE, wraparound="on")[1]
    assert "the edges join up" in page.select_one("[data-wraparound]").get_text()


def test_the_palette_names_each_paint_and_links_the_same_position_with_it():
    found = editor(TEXT, Rules(), "/p/", paint="dark-woden")
    assert [(choice.value, choice.label) for choice in found.palette] == [
        ("empty", "Empty square"),
        ("dark-stone", "Dark stone"),
        ("light-stone", "Light stone"),
        ("dark-thunder", "Dark thunder-stone"),
        ("light-thunder", "Light thunder-stone"),
        ("dark-woden", "Dark Woden-stone"),
        ("light-woden", "Light Woden-stone"),
    ]
    assert [choice.selected for choice in found.palette] == [False] * 5 + [True, False]
    for choice in found.palette:
        assert query_in(choice.url) == {"text": TEXT, "paint": choice.value, **Rules().to_query()}
        assert choice.image == (piece_image(choice.color, choice.kind) if choice.color else "")


def test_an_unknown_paint_is_no_paint_and_the_cycle_goes_on():
    found = editor(MIDDLE, Rules(), "/p/", paint="purple", at="A1")
    assert found.paint == "" and found.refusal == "" and found.text == MIDDLE
    assert not any(choice.selected for choice in found.palette)
    assert cells_of(found)[0].label == "A1, empty: change it"


def test_painting_the_stone_a_square_already_holds_changes_nothing():
    found = editor(MIDDLE, Rules(), "/p/", paint="dark-stone", at="D4")
    assert found.text == MIDDLE and found.refusal == ""
    board, held = MIDDLE.split()[0].replace("/", ""), {"T", "W", "t", "w"}
    assert painted(board, held, 24, "S", Rules()) == (board, held)


MIDDLE = "......./......./......./...S.../......./......./....... d TWtw"


def query_in(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    assert parts.path == "/p/"
    return {name: values[0] for name, values in parse_qs(parts.query).items()}
