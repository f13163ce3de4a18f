"""The About / rules page: it renders and says what RULES.md says to players."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings

HEADINGS = [
    "Overview",
    "Objective",
    "How to Play",
    "Passing rules",
    "Placement limitations",
    "Thunder-stone rules",
    "Woden-stone rules",
    "Scoring",
    "Standard",
    "Simple",
    "The wraparound variant",
    "Notation",
    "Words of the game",
    "Options of a game",
    "Credits and licence",
]

TERMS = ["heorr", "freóndlíc heorr", "Þunor-stán", "wóden-stán", "frǽcenes", "mǽrstán"]

LINKS = [
    "https://creativecommons.org/licenses/by-sa/4.0/",
    "https://github.com/jaerrib/maerstanas",
    "https://codeberg.org/jaerrib/oferhlyp",
    "https://bosworthtoller.com/22190",
]


@pytest.fixture
def page(client) -> str:
    response = client.get("/about/")
    assert response.status_code == 200
    return response.content.decode()


def article(page: str) -> str:
    match = re.search(r'<article class="about">(.*?)</article>', page, re.S)
    assert match, 'the page has an <article class="about">'
    return match.group(1)


def headings(page: str) -> list[str]:
    found = re.findall(r"<h[1-3][^>]*>(.*?)</h[1-3]>", article(page), re.S)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", "", h).split())) for h in found]


@pytest.mark.django_db
def test_about_has_every_section(page: str) -> None:
    found = headings(page)
    for heading in HEADINGS:
        assert heading in found, f"missing heading {heading!r}; found {found}"


@pytest.mark.django_db
def test_about_explains_the_words_of_the_game(page: str) -> None:
    text = article(page)
    for term in TERMS:
        assert term in text, term
    assert "Mǽrstánas" in text
    assert "Advanced Mǽrstánas" in text


@pytest.mark.django_db
def test_about_says_the_decisions_of_the_rules(page: str) -> None:
    text = " ".join(article(page).split())
    assert "not given back" in text  # a removed special stone
    assert "thunder-stone or Woden-stone included" in text  # what a Woden-stone may replace
    assert "automatically" in text and "move list" in text  # the pass
    assert "neither player can move" in text  # the end of the game
    assert "dark stones always moves first" in text


@pytest.mark.django_db
def test_about_shows_the_notation(page: str) -> None:
    text = article(page)
    for sample in ["A1", "G7", "T E4xE3/D4", "W E4", "Pass", "Dark: 42, Light: 39"]:
        assert f"<code>{sample}</code>" in text, sample
    assert "......./......./......./......./......./......./....... d TWtw" in text


@pytest.mark.django_db
def test_about_credits_the_author_and_licences(page: str) -> None:
    text = article(page)
    assert "John Beers" in text
    assert "CC BY-SA 4.0" in text
    assert "AGPL" in text
    for link in LINKS:
        assert f'href="{link}"' in text, link


@pytest.mark.django_db
def test_about_external_links_are_noopener_and_page_has_no_inline_code(page: str) -> None:
    text = article(page)
    for tag in re.findall(r"<a\s[^>]*>", text):
        if 'href="http' in tag:
            assert re.search(r'rel="[^"]*\bnoopener\b', tag), tag
    assert "style=" not in text
    assert "<script" not in text


@pytest.mark.django_db
def test_about_credits_link_the_documents_that_come_with_the_code(client, page: str) -> None:
    text = article(page)
    for name, path in [("rules", "docs/RULES.md"), ("design", "docs/DESIGN.md")]:
        assert f'href="/docs/{name}.md"' in text, name
        response = client.get(f"/docs/{name}.md")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert response.content.decode() == (settings.BASE_DIR / path).read_text(encoding="utf-8")


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["README", "STYLE", "..%2Fsettings", "rules.md", "RULES"])
def test_only_the_project_documents_are_served(client, name: str) -> None:
    assert client.get(f"/docs/{name}.md").status_code == 404
    assert client.post("/docs/rules.md").status_code == 405
