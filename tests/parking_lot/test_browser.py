"""Parking Lot played in a real browser (Debian's Chromium): a whole hot-seat game by
mouse, placements, drives and "end the turn" included; a turn by keyboard, a choice
taken back with Escape; turns without JavaScript, by links and buttons; and axe-core
finding nothing on its pages in either theme."""

from __future__ import annotations

import random
import re

import pytest

from game.parking_lot import Position
from tests.game.test_browser import LIVE_TIMEOUT_MS, api, game_id_of, site, start_game
from tests.support.axe import violations
from tests.support.servers import ARTIFACTS

pytestmark = pytest.mark.browser

__all__ = ["site"]  # the served site, one for this module


def ply_of(page) -> int:
    return int(page.get_attribute("#game", "data-ply"))


def play_turn(page, turn: str) -> None:
    """Play ``turn`` as a player does: its placement, then its drive or the end of the
    turn; a placement after which nothing could drive is one click."""
    place, *drive = turn.replace("-", " ").split()
    before = ply_of(page)
    button = page.locator(f'[data-square="{place}"] button[value="{place}"]')
    if button.count():
        button.click()
    else:
        page.click(f'[data-square="{place}"] a')
        page.wait_for_selector(f'#board[data-place="{place}"]')
        if drive:
            origin, target = drive
            page.click(f'[data-square="{origin}"] a')
            page.wait_for_selector(f'#board[data-picked="{origin}"]')
            page.click(f'[data-square="{target}"] button')
        else:
            page.click("[data-end-turn]")
    page.wait_for_selector(f'#game:not([data-ply="{before}"])', timeout=LIVE_TIMEOUT_MS * 3)


def a_game_with_drives(seed: int) -> list[str]:
    rng = random.Random(seed)
    pos = Position.start()
    while not pos.is_over:
        moves = pos.legal_moves()
        drives = [move for move in moves if move.drives]
        pos = pos.play(rng.choice(drives or moves))
    return list(pos.record)


def test_a_hotseat_game_played_by_clicking_to_its_end(site, new_page):
    page = new_page()
    game_id = start_game(page, site, game="parking-lot")
    turns = a_game_with_drives(4)
    for turn in turns:
        play_turn(page, turn)
    final = Position.replay(turns)
    seat = {"blue": "dark", "red": "light"}.get(final.outcome().result, "even")
    assert page.get_attribute("[data-result]", "data-result") in (seat, "draw")
    assert api(site, game_id)["record"] == turns
    assert page.locator("#board a, #board button[name=move]").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "parking-lot-finished.png", full_page=True)


def press_on(page, square: str, key: str = "Enter") -> None:
    """Focus ``square`` once the board has settled, and press ``key`` there (a
    person's keys come some way apart: the settling can take back one pressed at once)."""
    page.wait_for_timeout(300)
    page.evaluate(f"document.getElementById('sq-{square}').focus()")
    page.wait_for_timeout(150)
    page.keyboard.press(key)


def test_a_choice_is_taken_back_and_a_turn_played_by_keyboard(site, new_page):
    page = new_page()
    start_game(page, site, game="parking-lot")
    play_turn(page, "D4")
    play_turn(page, "A8")
    press_on(page, "A1")
    page.wait_for_selector('#board[data-place="A1"]')
    page.wait_for_timeout(300)
    page.keyboard.press("Escape")
    page.wait_for_selector('#board[data-place=""]')
    press_on(page, "A1")
    page.wait_for_selector('#board[data-place="A1"]')
    press_on(page, "D4")
    page.wait_for_selector('#board[data-picked="D4"]')
    press_on(page, "D1")
    page.wait_for_selector('#game[data-ply="3"]')
    assert api(site, game_id_of(page))["record"] == ["D4", "A8", "A1 D4-D1"]


def test_turns_without_javascript(site, new_page):
    page = new_page(java_script_enabled=False)
    game_id = start_game(page, site, game="parking-lot")
    page.click('[data-square="D4"] button')
    page.wait_for_selector('[data-square="D5"][data-color="dark"]')
    page.click('[data-square="A8"] button')
    page.wait_for_selector('[data-square="B8"][data-color="light"]')
    page.click('[data-square="A1"] a')
    page.wait_for_url(re.compile(r"\?turn=A1$"))
    page.click('[data-square="D4"] a')
    page.wait_for_url(re.compile(r"\?turn=A1%20D4$"))
    page.click('[data-square="G2"] button')
    page.wait_for_selector('[data-square="G2"][data-color="dark"]')
    page.click('[data-square="C3"] a')
    page.click("[data-end-turn]")
    page.wait_for_selector('[data-square="D3"][data-color="light"]')
    assert api(site, game_id)["record"] == ["D4", "A8", "A1 D4-G2", "C3"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_parking_lot_pages_pass_axe(site, new_page, scheme):
    page = new_page(color_scheme=scheme, bypass_csp=True)
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        found[name] = violations(page)

    start_game(page, site, game="parking-lot")
    check("the start")
    play_turn(page, "D4")
    play_turn(page, "A8")
    page.click('[data-square="A1"] a')
    page.wait_for_selector('#board[data-place="A1"]')
    check("a place chosen")
    page.click('[data-square="D4"] a')
    page.wait_for_selector('#board[data-picked="D4"]')
    check("a piece picked")
    paths = ["/about/parking-lot/", "/p/?game=parking-lot", "/learn/parking-lot-placing/"]
    paths += ["/learn/parking-lot-driving/?turn=A3", "/learn/parking-lot-the-end/?move=E6"]
    for path in paths:
        page.goto(f"{site.url}{path}")
        check(path)
    assert found == dict.fromkeys(found, [])
