"""Moai played in a real browser (Debian's Chromium): placements and a turn by click
(the counter's square, then the Moai's destination), the reason a square is out of
reach, a placement by keyboard alone, tap-tap on a phone with the whole hex board in
sight, a friend game without JavaScript, and its pages checked by axe in both themes."""

from __future__ import annotations

import re

import pytest

from game.moai import Position
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

OPENING = ["D4", "G7"]
TURN = "D1:D4-C2"


def start_moai(page, site, mode: str = "hotseat", color: str = "dark", board: str = "square"):
    """A game of Moai started from the home page's form, on ``board``."""
    page.goto(site.url + "/")
    page.check("input[name=game][value=moai]")
    page.check(f"input[name=board][value={board}]")
    if board == "square":
        return start_game(page, site, mode, color, game="moai")
    page.check(f"input[name=mode][value={mode}]")
    if mode in ("friend", "computer"):
        page.check(f"input[name=color][value={color}]")
    page.click(".new-game__form button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    return game_id_of(page)


def ply_of(page) -> int:
    return int(page.get_attribute("#game", "data-ply"))


def play_move(page, move: str, tap: bool = False) -> None:
    """A placement: click its square. A turn: the counter's square, then the Moai's
    destination."""
    before = ply_of(page)
    act = page.tap if tap else page.click
    if ":" in move:
        counter, rest = move.split(":")
        target = rest.split("-")[1]
        act(f'[data-square="{counter}"] a')
        page.wait_for_selector(f'#board[data-picked="{counter}"]')
    else:
        target = move
    act(f'[data-square="{target}"] button')
    page.wait_for_selector(f'#game:not([data-ply="{before}"])', timeout=LIVE_TIMEOUT_MS * 3)


def test_placements_and_a_turn_by_clicking(site, new_page):
    page = new_page()
    game_id = start_moai(page, site)
    for move in [*OPENING, TURN]:
        play_move(page, move)
    assert api(site, game_id)["record"] == [*OPENING, TURN]
    assert page.get_attribute('[data-square="C2"]', "data-side") == "white"
    assert page.get_attribute('[data-square="D1"]', "data-piece") == "counter"
    assert TURN in page.inner_text("#move-list")
    # The status bar's pieces are the white and the black Moai, as the board's are.
    assert "moai/white." in page.get_attribute(".score--dark img", "src")
    assert "moai/black." in page.get_attribute(".score--light img", "src")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "moai-turn.png", full_page=True)


def test_a_picked_counter_says_why_a_square_is_out_of_reach_and_goes_back(site, new_page):
    page = new_page()
    start_moai(page, site)
    for move in OPENING:
        play_move(page, move)
    page.click('[data-square="D1"] a')
    page.wait_for_selector('#board[data-picked="D1"]')
    targets = page.eval_on_selector_all(
        "#board button[name=move]", "buttons => buttons.map(b => b.value)"
    )
    expected = [m.text for m in Position.replay(OPENING).legal_moves() if m.text[:3] == "D1:"]
    assert sorted(targets) == sorted(expected)
    page.click('[data-square="C3"] .sq__body')
    assert "cannot reach C3" in page.inner_text("[data-board-preview]")
    page.click("[data-put-back]")
    page.wait_for_selector('#board[data-picked=""]')
    assert page.locator("#board button[name=move]").count() == 0


def test_a_placement_by_keyboard_alone(site, new_page):
    page = new_page()
    start_moai(page, site)
    page.evaluate("document.getElementById('sq-E5').focus()")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "sq-F5"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.id") == "sq-F6"
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.get_attribute('[data-square="F6"]', "data-side") == "white"


def test_tap_tap_on_a_phone_with_the_whole_hex_board_in_sight(site, new_page):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start_moai(page, site, board="hex")
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(".board__grid").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["y"] + box["height"] <= 844  # the whole board above the fold
    # The hexagon's rows are shifted half a cell: F7 lies right of F6 and below it.
    f6 = page.locator('[data-square="F6"]').bounding_box()
    f7 = page.locator('[data-square="F7"]').bounding_box()
    assert f7["y"] > f6["y"] and f7["x"] > f6["x"] + f6["width"] / 4
    # The slanting columns have no edge to letter: each empty cell shows its name.
    assert _shown_name(page, "F6") == '"F6"' and _shown_name(page, "A11") == '"A11"'
    for move in ["F6", "K1", "F1:F6-G4"]:
        play_move(page, move, tap=True)
    assert api(site, game_id_of(page))["record"] == ["F6", "K1", "F1:F6-G4"]
    assert _shown_name(page, "G4") == "none"  # a Moai stands there
    assert _shown_name(page, "F1") != '"F1"'  # a counter (drawn by its own ::after)
    assert _shown_name(page, "F6") == '"F6"'  # left again
    page.screenshot(path=ARTIFACTS / "moai-hex-phone.png", full_page=True)


def _shown_name(page, square: str) -> str:
    """A cell's ``::after`` content: its name (``"F6"``) where it is empty."""
    return page.evaluate(
        "name => getComputedStyle(document.querySelector(`[data-square='${name}']`),"
        " '::after').content",
        square,
    )


def test_a_friend_game_without_javascript(site, new_page):
    creator = new_page(java_script_enabled=False)
    friend = new_page(java_script_enabled=False)
    game_id = start_moai(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    creator.click('[data-square="D4"] button')
    creator.wait_for_selector('[data-square="D4"][data-side="white"]')
    friend.wait_for_selector('[data-square="D4"][data-side]', timeout=REFRESH_TIMEOUT_MS)
    friend.click('[data-square="G7"] button')
    friend.wait_for_selector('[data-square="G7"][data-side="black"]')
    reload(creator)
    creator.click('[data-square="D1"] a')
    creator.wait_for_url(re.compile(r"\?counter=D1$"))
    creator.click('[data-square="C2"] button')
    creator.wait_for_selector('[data-square="C2"][data-side="white"]')
    assert api(site, game_id)["record"] == [*OPENING, TURN]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pages_of_the_game_pass_axe(site, new_page, scheme):
    page = new_page(color_scheme=scheme, bypass_csp=True)
    found: dict[str, list[str]] = {}
    start_moai(page, site)
    for move in OPENING:
        play_move(page, move)
    found["game in progress"] = violations(page)
    page.click('[data-square="D1"] a')
    page.wait_for_selector('#board[data-picked="D1"]')
    found["a counter picked"] = violations(page)
    play_move(page, "C2")
    page.click("text=Resign")
    page.wait_for_selector("[data-result]")
    found["finished game"] = violations(page)
    start_moai(page, site, board="hex")
    found["hex board"] = violations(page)
    paths = ["/about/moai/", "/learn/moai-turn/?counter=D8", "/p/?game=moai"]
    paths += ["/learn/moai-trap/?move=G7:G4-G3", "/learn/moai-bent/?move=D8:D4-D6"]
    for path in paths:
        page.goto(f"{site.url}{path}")
        found[path] = violations(page)
    assert {name: seen for name, seen in found.items() if seen} == {}
