"""The position page's parts: the rules named in a query (the options' codec), the
query of a position, reading a text (game/views/positions.py), and the editor's
squares and links (game/maerstanas/editor.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from game.engine import SQUARES, Position, Rules
from game.maerstanas.drawing import stone_image
from game.maerstanas.editor import CYCLE, EMPTY_TEXT, editor, query_of
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
        assert cell.image == (stone_image(color, kind) if color else "")
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
