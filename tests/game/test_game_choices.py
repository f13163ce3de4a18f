"""The games as every page offers and credits them: the choices of game (the home
page's, the lobby's, the import page's), each game by its small board, its name and its
line, so a newcomer sees which game is which; the import page's rules, made from each
game's options; and the footer's credits."""

from __future__ import annotations

import dataclasses

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from game.forms import option_choices
from game.maerstanas.site import KIND as MAERSTANAS
from game.miniature import showcase
from game.registry import KINDS
from tests.support.accounts import account

pytestmark = pytest.mark.django_db


def choices_on(page: str) -> dict[str, BeautifulSoup]:
    """Each choice of game on ``page`` by the game it names."""
    soup = BeautifulSoup(page, "html.parser")
    return {
        label.select_one("input[name=game]")["value"]: label
        for label in soup.select("[data-game-choice] label.game-choice")
    }


@pytest.mark.parametrize("path", ["/", "/lobby/", "/import/"])
def test_every_choice_of_game_shows_its_small_board_name_and_line(client: Client, path):
    if path == "/lobby/":
        client = account("ann")
    choices = choices_on(client.get(path).content.decode())
    assert list(choices) == list(KINDS)
    for name, label in choices.items():
        kind = KINDS[name]
        board = label.select_one(".mini-board[role=img]")
        assert board["data-game"] == name and board["aria-label"].startswith("The board: ")
        # A board's cut-away squares keep their places, but are no squares of it.
        squares = board.select(".mini-board__sq:not(.mini-board__sq--hole)")
        assert len(squares) == len(kind.board.cells)
        assert f"{kind.title}: {kind.tagline}" in label.get_text()


def test_a_showcase_position_is_the_small_board_of_its_game():
    start = showcase(dataclasses.replace(MAERSTANAS, showcase=""))
    assert set(start.squares) == {""}  # none named: the start, an empty board
    assert showcase(MAERSTANAS).squares.count("dark-stone") == 5
    text = MAERSTANAS.start(MAERSTANAS.rules()).play("D4").play("E4").to_text()
    shown = showcase(dataclasses.replace(MAERSTANAS, showcase=text))
    assert shown.squares.count("dark-stone") == shown.squares.count("light-stone") == 1
    assert shown.label == "The board: 1 dark stone, 1 light stone"


def test_the_import_page_offers_each_games_rules_from_its_options():
    radios = option_choices(MAERSTANAS, {})
    assert ("special_stones", "on", "Special stones on", True) in radios
    assert ("special_stones", "off", "Special stones off", False) in radios
    assert ("scoring", "simple", "Scoring: Simple", False) in radios
    assert ("wraparound", "off", "Wraparound board off", True) in radios
    sent = option_choices(MAERSTANAS, {"wraparound": "on", "scoring": "simple"})
    assert ("wraparound", "on", "Wraparound board on", True) in sent
    assert ("scoring", "simple", "Scoring: Simple", True) in sent


def test_the_import_page_keeps_the_rules_sent_with_a_refused_list(client: Client):
    refused = client.post("/import/", {"record": "D4 D4", "wraparound": "on"})
    assert refused.status_code == 400
    soup = BeautifulSoup(refused.content.decode(), "html.parser")
    fieldset = soup.select_one('fieldset[data-for-game="maerstanas"]')
    assert fieldset.select_one("input[name=wraparound][value=on]").has_attr("checked")
    assert not fieldset.select_one("input[name=wraparound][value=off]").has_attr("checked")
    # A game without options has no rules to choose.
    assert not [
        kind
        for kind in KINDS.values()
        if not kind.rules.OPTIONS and soup.select_one(f'fieldset[data-for-game="{kind.name}"]')
    ]


# The watch list names its own list "games": the footer's are the site's.
@pytest.mark.parametrize("path", ["/lobby/", "/watch/", "/"])
def test_every_pages_footer_credits_each_game_and_links_its_about_page(client: Client, path):
    footer = BeautifulSoup(client.get(path).content.decode(), "html.parser").footer
    links = {link.get_text(): link["href"] for link in footer.select("a")}
    for kind in KINDS.values():
        assert links[kind.title] == str(kind.about_url)
        if kind.credit:
            assert f"{kind.title} {kind.credit}" in footer.get_text(" ", strip=True)
    assert "Mǽrstánas by John Beers (its rules: CC BY-SA 4.0)" in " ".join(footer.text.split())
    licences = footer.select('a[rel="license"]')
    assert [a["href"] for a in licences].count(MAERSTANAS.licence[1]) == 2  # both of his games


def test_the_home_page_says_how_many_games_it_plays(client: Client):
    home = BeautifulSoup(client.get("/").content.decode(), "html.parser")
    said = " ".join(home.select_one("[data-other-games]").get_text().split())
    assert said.startswith(f"The site plays {len(KINDS)} small games for two")
