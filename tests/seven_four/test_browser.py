"""7-4-1776 played in a real browser (Debian's Chromium): drops by click, a slide by
picking a lone stone and then its landing square, the reason a square is out of
reach, a move by keyboard alone, tap-tap on a phone with the whole board in sight,
a friend game without JavaScript, and its pages checked by axe in both themes."""

from __future__ import annotations

import re

import pytest

from game.seven_four import Position
from tests.game.test_browser import (
    LIVE_TIMEOUT_MS,
    REFRESH_TIMEOUT_MS,
    api,
    game_id_of,
    reload,
    site,
    start_game,
)
from tests.support.axe import violations
from tests.support.servers import ARTIFACTS

pytestmark = pytest.mark.browser

__all__ = ["site"]  # the served site, one for this module

# Blue's D4 and F4 are lone, so D4 may slide to E5, next to F4, filling around it.
OPENING = ["D4", "G7", "F4", "C8"]


def start_seven_four(page, site, mode: str = "hotseat", color: str = "dark"):
    return start_game(page, site, mode, color, game="seven-four")


def ply_of(page) -> int:
    return int(page.get_attribute("#game", "data-ply"))


def play_move(page, move: str, tap: bool = False) -> None:
    """A drop: click its square. A slide: pick the stone, then its landing square."""
    before = ply_of(page)
    act = page.tap if tap else page.click
    if "-" in move:
        origin, target = move.split("-")
        act(f'[data-square="{origin}"] a')
        page.wait_for_selector(f'#board[data-picked="{origin}"]')
    else:
        target = move
    act(f'[data-square="{target}"] button')
    page.wait_for_selector(f'#game:not([data-ply="{before}"])', timeout=LIVE_TIMEOUT_MS * 3)


def test_drops_and_a_slide_by_clicking_fill_the_squares_around(site, new_page):
    page = new_page()
    game_id = start_seven_four(page, site)
    for move in [*OPENING, "D4-E5"]:
        play_move(page, move)
    final = Position.replay([*OPENING, "D4-E5"])
    assert api(site, game_id)["record"] == list(final.record)
    for square in ("D4", "E4", "D5", "D6", "E6", "F5", "F6"):
        assert page.get_attribute(f'[data-square="{square}"]', "data-side") == "blue", square
    assert "sq--filled" in page.get_attribute('[data-square="D6"]', "class")
    assert "D4-E5" in page.inner_text("#move-list")
    # The status bar's stones are blue and red, as the board's are.
    assert "blue-stone" in page.get_attribute(".score--dark img", "src")
    assert "red-stone" in page.get_attribute(".score--light img", "src")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "seven-four-slide.png", full_page=True)


def test_a_picked_stone_says_why_a_square_is_out_of_reach_and_goes_back(site, new_page):
    page = new_page()
    start_seven_four(page, site)
    for move in OPENING:
        play_move(page, move)
    page.click('[data-square="D4"] a')
    page.wait_for_selector('#board[data-picked="D4"]')
    targets = page.eval_on_selector_all(
        "#board button[name=move]", "buttons => buttons.map(b => b.value)"
    )
    assert sorted(targets) == sorted(
        str(m) for m in Position.replay(OPENING).legal_moves() if m.origin == 33
    )
    page.click('[data-square="A1"] .sq__body')
    assert "No lone blue stone is next to A1" in page.inner_text("[data-board-preview]")
    page.click("[data-put-back]")
    page.wait_for_selector('#board[data-picked=""]')
    assert page.locator("#board button[name=move]").count() == 96


def test_a_drop_by_keyboard_alone(site, new_page):
    page = new_page()
    start_seven_four(page, site)
    page.evaluate("document.getElementById('sq-E5').focus()")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "sq-F5"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.id") == "sq-F6"
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.get_attribute('[data-square="F6"]', "data-side") == "blue"


def test_tap_tap_on_a_phone_with_the_whole_board_in_sight(site, new_page):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start_seven_four(page, site)
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(".board__grid").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["y"] + box["height"] <= 844  # the whole board above the fold
    for move in [*OPENING, "D4-E5"]:
        play_move(page, move, tap=True)
    assert api(site, game_id_of(page))["record"] == [*OPENING, "D4-E5"]
    page.screenshot(path=ARTIFACTS / "seven-four-phone.png", full_page=True)


def test_a_friend_game_without_javascript(site, new_page):
    creator = new_page(java_script_enabled=False)
    friend = new_page(java_script_enabled=False)
    game_id = start_seven_four(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    creator.click('[data-square="D4"] button')
    creator.wait_for_selector('[data-square="D4"][data-side="blue"]')
    friend.wait_for_selector('[data-square="D4"][data-side]', timeout=REFRESH_TIMEOUT_MS)
    friend.click('[data-square="G7"] button')
    friend.wait_for_selector('[data-square="G7"][data-side="red"]')
    reload(creator)
    creator.click('[data-square="F4"] button')
    creator.wait_for_selector('[data-square="F4"][data-side="blue"]')
    reload(friend)
    friend.click('[data-square="C8"] button')
    friend.wait_for_selector('[data-square="C8"][data-side="red"]')
    reload(creator)
    creator.click('[data-square="D4"] a')
    creator.wait_for_url(re.compile(r"\?from=D4$"))
    creator.click('[data-square="E5"] button')
    creator.wait_for_selector('[data-square="E5"][data-side="blue"]')
    assert api(site, game_id)["record"] == [*OPENING, "D4-E5"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pages_of_the_game_pass_axe(site, new_page, scheme):
    page = new_page(color_scheme=scheme, bypass_csp=True)
    found: dict[str, list[str]] = {}
    start_seven_four(page, site)
    for move in OPENING:
        play_move(page, move)
    found["game in progress"] = violations(page)
    page.click('[data-square="D4"] a')
    page.wait_for_selector('#board[data-picked="D4"]')
    found["a stone picked"] = violations(page)
    play_move(page, "E5")
    page.click("text=Resign")
    page.wait_for_selector("[data-result]")
    found["finished game"] = violations(page)
    paths = ["/about/seven-four/", "/learn/seven-four-moves/?from=B2", "/p/?game=seven-four"]
    paths += ["/learn/seven-four-parity/?move=I9", "/learn/seven-four-the-end/?move=A1-B1"]
    for path in paths:
        page.goto(f"{site.url}{path}")
        found[path] = violations(page)
    assert {name: seen for name, seen in found.items() if seen} == {}
