"""Land Grab played in a real browser (Debian's Chromium): the drops and a flip by
click, a picked stone's targets and the reason a square is out of reach, the claims
shown, the drops and a flip by keyboard alone, tap-tap on a phone with the whole board in sight, a
friend game without JavaScript, and its pages checked by axe in both themes."""

from __future__ import annotations

import re

import pytest

from game.land_grab import Position
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

# The four drops; then black's D4 may flip D5, D7, E4 or G4 (C4's white stone blocks
# the row to the west, and the diagonals meet only black tiles).
DROPS = ["D4", "C4", "F2", "D3"]


def start_land_grab(page, site, mode: str = "hotseat", color: str = "dark"):
    return start_game(page, site, mode, color, game="land-grab")


def ply_of(page) -> int:
    return int(page.get_attribute("#game", "data-ply"))


def play_move(page, move: str, tap: bool = False) -> None:
    """A drop: click its square. A move: pick the stone, then its target."""
    before = ply_of(page)
    act = page.tap if tap else page.click
    if "-" in move:
        origin, target = move.split("x")[0].split("-")
        act(f'[data-square="{origin}"] a')
        page.wait_for_selector(f'#board[data-picked="{origin}"]')
    else:
        target = move
    act(f'[data-square="{target}"] button')
    page.wait_for_selector(f'#game:not([data-ply="{before}"])', timeout=LIVE_TIMEOUT_MS * 3)


def test_the_drops_and_a_flip_by_clicking_turn_the_tile_over(site, new_page):
    page = new_page()
    game_id = start_land_grab(page, site)
    assert page.get_attribute('[data-square="D5"]', "data-tile") == "white"
    for move in [*DROPS, "D4-D5"]:
        play_move(page, move)
    final = Position.replay([*DROPS, "D4-D5"])
    assert api(site, game_id)["record"] == list(final.record)
    assert page.get_attribute('[data-square="D5"]', "data-tile") == "black"
    assert page.get_attribute('[data-square="D5"]', "data-side") == "black"
    assert "D4-D5" in page.inner_text("#move-list")
    assert "black-stone" in page.get_attribute(".score--dark img", "src")
    assert "white-stone" in page.get_attribute(".score--light img", "src")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "land-grab-flip.png", full_page=True)


def test_a_picked_stone_lights_its_targets_and_says_why_elsewhere(site, new_page):
    page = new_page()
    start_land_grab(page, site)
    for move in DROPS:
        play_move(page, move)
    page.click('[data-square="D4"] a')
    page.wait_for_selector('#board[data-picked="D4"]')
    targets = page.eval_on_selector_all(
        "#board button[name=move]", "buttons => buttons.map(b => b.value)"
    )
    expected = [str(m) for m in Position.replay(DROPS).legal_moves() if m.origin == 27]
    assert sorted(targets) == sorted(expected)
    page.click('[data-square="A1"] .sq__body')
    assert "A1 is not in the claim of D4" in page.inner_text("[data-board-preview]")
    page.click("[data-put-back]")
    page.wait_for_selector('#board[data-picked=""]')
    page.click("[data-claims-toggle]")
    page.wait_for_selector("[data-claim-size]")
    assert page.locator("[data-claim-size]").count() == 64  # a checkerboard: 64 claims


def test_the_drops_and_a_flip_by_keyboard_alone(site, new_page):
    page = new_page()
    start_land_grab(page, site)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#board') !== null"):
            break
    assert page.evaluate("document.activeElement.closest('#board') !== null")
    # E5 is black; F5 white (it says why not), G5 black: arrows cross both, Enter drops.
    page.evaluate("document.getElementById('sq-E5').focus()")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "sq-F5"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "sq-G5"
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.get_attribute('[data-square="G5"]', "data-side") == "black"
    for ply, name in enumerate(["C4", "F2", "D3"], start=2):
        # A person's keys come some way apart: one pressed within milliseconds of the
        # board settling can still be taken back by the settling.
        page.wait_for_timeout(150)
        page.evaluate(f"document.getElementById('sq-{name}').focus()")
        page.wait_for_function(f"() => document.activeElement.id === 'sq-{name}'")
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#game[data-ply="{ply}"]')
    # The drops are over: Enter picks black's G5, ArrowDown reaches G6, Enter flips it.
    page.wait_for_timeout(150)
    page.evaluate("document.getElementById('sq-G5').focus()")
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-picked="G5"]')
    on_g5 = "() => document.activeElement.id === 'sq-G5'"
    page.wait_for_function(on_g5, timeout=2000)
    page.wait_for_timeout(150)
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.id") == "sq-G6"
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-ply="5"]')
    assert page.get_attribute('[data-square="G6"]', "data-tile") == "black"
    assert page.get_attribute('[data-square="G6"]', "data-side") == "black"


def test_tap_tap_on_a_phone_with_the_whole_board_in_sight(site, new_page):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start_land_grab(page, site)
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(".board__grid").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["y"] + box["height"] <= 844  # the whole board above the fold
    for move in [*DROPS, "D4-D5"]:
        play_move(page, move, tap=True)
    assert api(site, game_id_of(page))["record"] == [*DROPS, "D4-D5"]
    page.screenshot(path=ARTIFACTS / "land-grab-phone.png", full_page=True)


def test_a_friend_game_without_javascript(site, new_page):
    creator = new_page(java_script_enabled=False)
    friend = new_page(java_script_enabled=False)
    game_id = start_land_grab(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    creator.click('[data-square="D4"] button')
    creator.wait_for_selector('[data-square="D4"][data-side="black"]')
    friend.wait_for_selector('[data-square="D4"][data-side]', timeout=REFRESH_TIMEOUT_MS)
    friend.click('[data-square="C4"] button')
    friend.wait_for_selector('[data-square="C4"][data-side="white"]')
    reload(creator)
    creator.click('[data-square="F2"] button')
    creator.wait_for_selector('[data-square="F2"][data-side="black"]')
    reload(friend)
    friend.click('[data-square="D3"] button')
    friend.wait_for_selector('[data-square="D3"][data-side="white"]')
    reload(creator)
    creator.click('[data-square="D4"] a')
    creator.wait_for_url(re.compile(r"\?from=D4$"))
    creator.click('[data-square="D5"] button')
    creator.wait_for_selector('[data-square="D5"][data-side="black"]')
    assert api(site, game_id)["record"] == [*DROPS, "D4-D5"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pages_of_the_game_pass_axe(site, new_page, scheme):
    page = new_page(color_scheme=scheme, bypass_csp=True)
    found: dict[str, list[str]] = {}
    start_land_grab(page, site)
    for move in DROPS:
        play_move(page, move)
    found["game in progress"] = violations(page)
    page.click('[data-square="D4"] a')
    page.wait_for_selector('#board[data-picked="D4"]')
    found["a stone picked"] = violations(page)
    play_move(page, "D5")
    page.click("[data-claims-toggle]")
    page.wait_for_selector("[data-claim-size]")
    found["the claims shown"] = violations(page)
    page.click("text=Resign")
    page.wait_for_selector("[data-result]")
    found["finished game"] = violations(page)
    paths = ["/about/land-grab/", "/learn/land-grab-claims/?from=B1", "/p/?game=land-grab"]
    paths += ["/learn/land-grab-claims/?move=B1-B2", "/learn/land-grab-capture/?move=A1-G7"]
    for path in paths:
        page.goto(f"{site.url}{path}")
        found[path] = violations(page)
    assert {name: seen for name, seen in found.items() if seen} == {}
