"""Tournaments in headless Chromium against gunicorn's workers and the task worker:
an event made by one player, joined by two, started, its game reached by both pages
on their own, and its end on every page, live; on a phone, in both themes."""

from __future__ import annotations

import re

import pytest

from tests.game.test_browser import sign_up, troubles_of
from tests.lobby.test_browser import site  # noqa: F401  (the fixture: two workers, a worker)
from tests.support.axe import violations
from tests.support.servers import ARTIFACTS

pytestmark = pytest.mark.browser

LIVE_TIMEOUT_MS = 8000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def make_swiss(page, site, name: str) -> str:  # noqa: F811
    page.goto(f"{site.url}/tournaments/")
    page.check("[data-tournament-form] input[name=system][value=swiss]")
    assert page.is_hidden("[data-system-part=arena]")  # an arena's length is not asked
    page.fill("input[name=rounds]", "1")
    page.check("[data-tournament-form] input[name=speed][value=live]")
    page.select_option("[data-tournament-form] select[name=minutes]", "3")
    page.fill("[data-tournament-form] input[name=name]", name)
    page.click("[data-tournament-form] button[type=submit]")
    page.wait_for_url(re.compile(r"/tournaments/[^/]+/$"))
    return page.url


def test_a_swiss_from_the_form_to_its_winner_live(site, new_page):  # noqa: F811
    ann = new_page(bypass_csp=True)
    troubles = troubles_of(ann)
    sign_up(ann, site, "ann")
    url = make_swiss(ann, site, "Evening Swiss")
    assert ann.inner_text("h1") == "Evening Swiss"
    players = {}
    for name in ("bob", "cyd"):
        page = new_page()
        sign_up(page, site, name)
        page.goto(url)
        page.click("[data-join]")
        page.wait_for_selector("[data-withdraw]")
        players[name] = page
        # Ann's page, open all along, shows each player as they join.
        ann.wait_for_selector(f'[data-standings] tr[data-player="{name}"]', timeout=LIVE_TIMEOUT_MS)
    bob_seen = new_page()
    bob_seen.goto(f"{site.url}/tournaments/")
    assert bob_seen.locator("[data-tournament][data-status=created]").count() == 1
    ann.click("[data-start]")
    # Both players' pages go to their game by themselves.
    for page in players.values():
        page.wait_for_url(re.compile(r"/g/[^/]+/$"), timeout=LIVE_TIMEOUT_MS)
    game_url = players["bob"].url
    assert players["cyd"].url == game_url
    ann.wait_for_selector(
        f'[data-pairings] a[href$="{game_url[len(site.url) :]}"]', timeout=LIVE_TIMEOUT_MS
    )
    # The list, open elsewhere, moved the event to the running ones.
    bob_seen.wait_for_selector("[data-tournament][data-status=running]", timeout=LIVE_TIMEOUT_MS)
    # Bob resigns; the event ends with Cyd its winner, on Ann's page at once.
    players["bob"].click("text=Resign")
    ann.wait_for_selector('[data-tournament-page][data-status="finished"]', timeout=LIVE_TIMEOUT_MS)
    ann.wait_for_selector("[data-winner]", timeout=LIVE_TIMEOUT_MS)
    assert ann.inner_text("[data-winner]") == "cyd"
    assert ann.get_attribute('[data-standings] tr[data-player="cyd"]', "data-rank") == "1"
    assert ann.locator("[data-pairing][data-result]").count() == 1
    assert troubles == []
    assert violations(ann) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pages_on_a_phone_in_both_themes(site, new_page, scheme):  # noqa: F811
    page = new_page(color_scheme=scheme, bypass_csp=True, **PHONE)
    sign_up(page, site, f"phone{scheme}")
    url = make_swiss(page, site, f"Phone {scheme}")
    page.click("[data-join]")
    page.wait_for_selector("[data-withdraw]")
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert violations(page) == []
    page.screenshot(path=ARTIFACTS / f"tournament-{scheme}.png", full_page=True)
    page.goto(f"{site.url}/tournaments/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert violations(page) == []
    page.screenshot(path=ARTIFACTS / f"tournaments-{scheme}.png", full_page=True)
    assert url.startswith(site.url)


def test_without_script_the_forms_still_work(site, new_page):  # noqa: F811
    page = new_page(java_script_enabled=False)
    sign_up(page, site, "noscript")
    url = make_swiss_without_script(page, site)
    page.click("[data-join]")
    page.wait_for_url(url)
    assert page.get_attribute('[data-standings] tr[data-player="noscript"]', "data-rank") == "1"
    page.click("[data-withdraw]")
    page.wait_for_selector("[data-no-players]")


def make_swiss_without_script(page, site) -> str:  # noqa: F811
    page.goto(f"{site.url}/tournaments/")
    page.check("[data-tournament-form] input[name=system][value=swiss]")
    page.fill("input[name=rounds]", "3")
    page.check("[data-tournament-form] input[name=speed][value=correspondence]")
    page.click("[data-tournament-form] button[type=submit]")
    page.wait_for_url(re.compile(r"/tournaments/[^/]+/$"))
    return page.url


def test_the_chat_hides_live_the_lines_of_one_the_player_blocked(site, new_page):  # noqa: F811
    """Jude blocked Ivo: Ivo's line, pushed to every open page of the event, shows on
    Hild's and not on Jude's, while Jude's own line shows on both. (The site is the
    module's: its players have names of their own.)"""
    pages = {}
    for name in ("hild", "ivo", "jude"):
        pages[name] = new_page()
        sign_up(pages[name], site, name)
    url = make_swiss(pages["hild"], site, "Chatty Swiss")
    for name in ("ivo", "jude"):
        pages[name].goto(url)
        pages[name].click("[data-join]")
        pages[name].wait_for_selector("[data-chat-form]")
    jude = pages["jude"]
    jude.goto(f"{site.url}/players/ivo/")
    jude.click("[data-block] button[value='1']")
    jude.wait_for_selector("[data-blocked]")
    jude.goto(url)
    # Jude's line first (her page reloads as she sends it), then Ivo's, pushed.
    for name in ("jude", "ivo"):
        pages[name].fill("[data-chat-form] input[name=text]", f"{name} here")
        pages[name].click("[data-chat-form] button[type=submit]")
        pages["hild"].wait_for_selector(
            f'[data-message][data-author="{name}"]', timeout=LIVE_TIMEOUT_MS
        )
    revision = int(pages["hild"].get_attribute("[data-tournament-page]", "data-revision"))
    jude.wait_for_function(
        f"document.querySelector('[data-tournament-page]').dataset.revision >= {revision}",
        timeout=LIVE_TIMEOUT_MS,
    )
    assert jude.locator('[data-message][data-author="jude"]').count() == 1
    assert jude.locator('[data-message][data-author="ivo"]').count() == 0
    assert "ivo here" not in jude.inner_text("[data-tournament-chat]")
