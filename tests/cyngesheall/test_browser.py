"""Cyngesheall played in a real browser (Debian's Chromium): a piece picked, then its
square, by mouse, by keyboard, by touch on a phone and without JavaScript; a friend
game pushed live to both players and a watcher; the computer's reply; a record
downloaded and imported; a set-up made in the position editor and played on; a game
analysed with its graph and a line tried from one of its moments; two accounts meeting
in the lobby for a rated game, whose rating is Cyngesheall's own."""

from __future__ import annotations

import re
import time
from urllib.parse import urlencode

import httpx
import pytest

from game.cyngesheall import Position
from game.registry import find_kind
from tests.game.test_browser import (
    LIVE_TIMEOUT_MS,
    REFRESH_TIMEOUT_MS,
    api,
    game_id_of,
    sign_up,
    site,
    start_game,
)
from tests.support.servers import ARTIFACTS

pytestmark = pytest.mark.browser

__all__ = ["site"]  # the served site, one for this module

# A short game from the start: light's commander takes dark's king on D5.
SHORT_GAME = [
    "D7-D2", "E2-E4", "C6-G6", "F3-E3", "B5-B2", "G4-G5", "B6-B4", "E3-A3",
    "C7-E7", "G5-E5", "B7-B6", "G3-C3", "A7-D7", "C3-B3", "D7-D5", "F2-C5",
]  # fmt: skip


def start_cyngesheall(page, site, mode: str = "hotseat", color: str = "dark", level: str = ""):
    return start_game(page, site, mode, color, level, game="cyngesheall")


def ply_of(page) -> int:
    return int(page.get_attribute("#game", "data-ply"))


def play_move(page, move: str, tap: bool = False) -> None:
    """Pick the piece, then its square, as a player does."""
    origin, target = move.split("x")[0].split("-")
    before = ply_of(page)
    act = page.tap if tap else page.click
    act(f'[data-square="{origin}"] a')
    page.wait_for_selector(f'#board[data-picked="{origin}"]')
    act(f'[data-square="{target}"] button')
    page.wait_for_selector(f'#game:not([data-ply="{before}"])', timeout=LIVE_TIMEOUT_MS * 3)


def test_a_hotseat_game_played_by_clicking_to_a_king_captured(site, new_page):
    page = new_page()
    game_id = start_cyngesheall(page, site)
    assert page.get_attribute('[data-square="A7"]', "data-piece") == "king"
    assert page.get_attribute('[data-square="G1"]', "data-goal") == "dark"
    for move in SHORT_GAME:
        play_move(page, move)
    final = Position.replay(None, SHORT_GAME)
    assert page.get_attribute("[data-result]", "data-result") == "light" == final.result
    assert "Dark's king was captured" in page.inner_text("[data-result]")
    assert api(site, game_id)["record"] == list(final.record)
    assert "F2-C5xD5" in page.inner_text("#move-list")
    assert page.locator("#board a, #board button[name=move]").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "cyngesheall-finished.png", full_page=True)


def test_a_picked_piece_says_why_a_square_is_out_of_reach_and_goes_back(site, new_page):
    page = new_page()
    start_cyngesheall(page, site)
    page.click('[data-square="B6"] a')
    page.wait_for_selector('#board[data-picked="B6"]')
    targets = page.eval_on_selector_all(
        "#board button[name=move]", "buttons => buttons.map(b => b.value)"
    )
    assert sorted(targets) == ["B6-C5", "B6-D4", "B6-E3"]
    page.click('[data-square="B2"] .sq__body')
    assert "B6 cannot move through B5" in page.inner_text("[data-board-preview]")
    page.click("[data-put-back]")
    page.wait_for_selector('#board[data-picked=""]')
    assert page.locator("#board button[name=move]").count() == 0


def test_a_move_by_keyboard_alone(site, new_page):
    page = new_page()
    start_cyngesheall(page, site)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#board') !== null"):
            break
    # Arrows to B6, Enter picks it; Escape puts it back; Enter again, then to E3.
    page.evaluate("document.getElementById('sq-B6').focus()")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.id") == "sq-A6"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-picked="B6"]')
    # The focus stays on the piece's square through each redraw, once the board settles.
    on_b6 = "() => document.activeElement.id === 'sq-B6'"
    page.wait_for_function(on_b6, timeout=2000)
    page.keyboard.press("Escape")
    page.wait_for_selector('#board[data-picked=""]')
    page.wait_for_function(on_b6, timeout=2000)
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-picked="B6"]')
    page.wait_for_function(on_b6, timeout=2000)
    # A person's keys come some way apart: one pressed within milliseconds of the
    # board settling can still be taken back by the settling.
    page.wait_for_timeout(150)
    for key in ("ArrowRight", "ArrowUp", "ArrowRight", "ArrowUp", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.id") == "sq-E3"
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.get_attribute('[data-square="E3"]', "data-piece") == "commander"


def test_tap_tap_on_a_phone_with_the_whole_board_in_sight(site, new_page):
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    start_cyngesheall(page, site)
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(".board__grid").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    play_move(page, "B6-E3", tap=True)
    play_move(page, "G4-D4", tap=True)
    assert api(site, game_id_of(page))["record"] == ["B6-E3", "G4-D4"]
    page.screenshot(path=ARTIFACTS / "cyngesheall-phone.png", full_page=True)


@pytest.mark.timing
def test_a_friend_game_is_live_in_two_browsers_and_watched(site, new_page):
    creator = new_page()
    game_id = start_cyngesheall(creator, site, mode="friend", color="dark")
    invite = creator.get_attribute("[data-invite-url]", "data-invite-url")
    friend = new_page()
    friend.goto(invite)
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    watcher = new_page()
    watcher.goto(f"{site.url}/g/{game_id}/")
    for mover, other, move in [
        (creator, friend, "B6-E3"),
        (friend, creator, "G4-D4"),
        (creator, friend, "A4-A1"),
    ]:
        play_move(mover, move)
        started = time.monotonic()
        target = move.split("-")[1]
        selector = f'[data-square="{target}"][data-piece]'
        other.wait_for_selector(selector, timeout=LIVE_TIMEOUT_MS)
        watcher.wait_for_selector(selector, timeout=LIVE_TIMEOUT_MS)
        assert time.monotonic() - started < LIVE_TIMEOUT_MS / 1000
        assert watcher.locator("#board a, button[name=move]").count() == 0
    assert api(site, game_id)["record"] == ["B6-E3", "G4-D4", "A4-A1"]
    friend.click("text=Resign")
    for page in (creator, friend, watcher):
        page.wait_for_selector('[data-result="dark"]', timeout=LIVE_TIMEOUT_MS)


def test_a_friend_game_without_javascript(site, new_page):
    creator = new_page(java_script_enabled=False)
    friend = new_page(java_script_enabled=False)
    game_id = start_cyngesheall(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    creator.click('[data-square="B6"] a')
    creator.wait_for_url(re.compile(r"\?from=B6$"))
    creator.click('[data-square="E3"] button')
    creator.wait_for_selector('[data-square="E3"][data-piece="commander"]')
    friend.wait_for_selector('[data-square="E3"][data-piece]', timeout=REFRESH_TIMEOUT_MS)
    friend.click('[data-square="G4"] a')
    friend.click('[data-square="D4"] button')
    friend.wait_for_selector('[data-square="D4"][data-color="light"]')
    assert api(site, game_id)["record"] == ["B6-E3", "G4-D4"]


def test_the_computer_answers_live(site, new_page):
    level = find_kind("cyngesheall").players.levels[1]
    page = new_page()
    game_id = start_cyngesheall(page, site, mode="computer", color="dark", level=level.id)
    assert page.get_attribute("[data-computer]", "data-level") == level.id
    play_move(page, "B6-E3")
    page.wait_for_selector('#game[data-ply="2"]', timeout=(level.seconds + 3) * 1000)
    record = api(site, game_id)["record"]
    assert record[0] == "B6-E3" and len(record) == 2
    assert Position.replay(None, record).ply == 2


def test_a_record_downloaded_imports_as_cyngesheall(site, new_page):
    page = new_page()
    game_id = start_cyngesheall(page, site)
    for move in ["B6-E3", "G4-D4"]:
        play_move(page, move)
    page.click(".review-tools summary")
    with page.expect_download() as download:
        page.click("[data-record-link]")
    text = download.value.path().read_text()
    assert '[Variant "cyngesheall"]' in text and "1. B6-E3 2. G4-D4" in text
    page.goto(f"{site.url}/import/")
    page.fill("#record", text)
    page.click("[data-import]")
    page.wait_for_selector('#game[data-ply="2"]')
    imported = game_id_of(page)
    assert imported != game_id
    assert api(site, imported)["game"] == "cyngesheall"
    assert page.get_attribute('[data-square="D4"]', "data-piece") == "stone"


def test_a_hint_a_takeback_and_a_look_back_against_the_computer(site, new_page):
    players = find_kind("cyngesheall").players
    weakest = players.levels[0]
    page = new_page()
    game_id = start_cyngesheall(page, site, mode="computer", color="dark", level=weakest.id)
    page.click("[data-hint-button]")
    page.wait_for_selector("[data-hint]", timeout=int((players.strongest.seconds + 3) * 1000))
    hinted = page.get_attribute("[data-hint-move]", "data-hint-move")
    origin, target = hinted.split("-")
    assert page.get_attribute(f'[data-square="{target}"]', "data-hint") is not None
    # The hinted piece is picked: one click on its square plays the hint.
    page.click(f'[data-square="{target}"] button')
    page.wait_for_selector('#game[data-ply="2"].game--to-move', timeout=5000)
    assert api(site, game_id)["record"][0] == hinted
    page.click("[data-takeback]")
    page.wait_for_selector('#game[data-ply="0"].game--to-move')
    assert api(site, game_id)["record"] == []
    play_move(page, "B6-E3")
    page.wait_for_selector('#game[data-ply="2"].game--to-move', timeout=5000)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.get_attribute('[data-square="E3"]', "data-piece") == "commander"
    assert page.locator("#board a, #board button[name=move]").count() == 0
    page.keyboard.press("End")
    page.wait_for_selector('#game[data-ply="2"].game--to-move')


def test_a_set_up_made_in_the_editor_is_pictured_and_played_on(site, new_page):
    page = new_page()
    start = Position.start().to_text()
    page.goto(f"{site.url}/p/?{urlencode({'game': 'cyngesheall', 'text': start})}")
    assert page.inner_text("#palette-title") == "Piece to place"
    assert "next piece: dark stone, light stone" in page.inner_text("[data-editor-hint]")
    # The commander from B6 to D4, in two clicks of the palette and two of squares.
    page.click('[data-paint="empty"]')
    page.wait_for_selector('[data-paint="empty"][aria-pressed="true"]')
    page.click('[data-square="B6"] a.sq__edit')
    page.wait_for_selector('[data-square="B6"]:not([data-stone])')
    page.click('[data-paint="dark-commander"]')
    page.wait_for_selector('[data-paint="dark-commander"][aria-pressed="true"]')
    page.click('[data-square="D4"] a.sq__edit')
    page.wait_for_selector('[data-square="D4"][data-stone="dark-commander"]')
    text = page.input_value("[data-position-text]")
    set_up = Position.from_text(text)
    assert set_up.piece_at("D4") is not None and set_up.piece_at("B6") is None
    picture = httpx.get(site.url + page.get_attribute("[data-image-link]", "href"))
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    page.click('[data-continue="hotseat"]')
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    game_id = game_id_of(page)
    assert page.get_attribute('[data-square="D4"]', "data-piece") == "commander"
    move = next(str(m) for m in set_up.legal_moves() if str(m).startswith("D4-"))
    play_move(page, move)
    state = api(site, game_id)
    assert (state["game"], state["record"]) == ("cyngesheall", [move])


def test_a_resigned_game_is_analysed_with_its_graph_and_a_line_is_tried(site, new_page):
    page = new_page()
    game_id = start_cyngesheall(page, site)
    for move in SHORT_GAME[:4]:
        play_move(page, move)
    page.goto(f"{site.url}/g/{game_id}/resign")
    page.click("[data-confirm-resign]")
    page.wait_for_selector('[data-result="light"]')  # dark was to move, and resigned
    page.goto(f"{site.url}/g/{game_id}/?ply=2")
    page.click("[data-analyse-whole]")
    page.wait_for_selector(".estimate-graph svg", timeout=30_000)
    assert page.locator(".estimate-graph svg title").count() >= 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "cyngesheall-analysed.png", full_page=True)
    # From move 2, a line of its own: a dark stone moves, and the game stays as it was.
    page.click("[data-try-line]")
    page.wait_for_selector("#try")
    page.click('[data-square="C6"] a')
    page.wait_for_selector('#board[data-picked="C6"]')
    page.click('[data-square="C4"] button')
    page.wait_for_selector('#try[data-line="C6-C4"]')
    assert page.get_attribute('[data-square="C4"]', "data-piece") == "stone"
    assert page.get_attribute('[data-square="C6"]', "data-piece") is None
    page.click("[data-back-to-game]")
    page.wait_for_url(re.compile(rf"/g/{game_id}/\?ply=2$"))
    assert api(site, game_id)["record"] == SHORT_GAME[:4]


def test_two_accounts_meet_in_the_lobby_for_a_rated_game_rated_apart(site, new_page):
    ann = new_page()
    bob = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    sign_up(ann, site, "Cyn_Ann")
    sign_up(bob, site, "Cyn_Bob")
    ann.goto(f"{site.url}/lobby/")
    ann.check("input[name=speed][value=correspondence]")
    ann.check("input[name=color][value=dark]")
    ann.check("input[name=rated]")
    ann.check("input[name=game][value=cyngesheall]")
    ann.click("[data-challenge-form] button[type=submit]")
    ann.wait_for_selector(".challenge--mine")
    row = f'[data-challenge="{ann.get_attribute(".challenge--mine", "data-challenge")}"]'
    bob.goto(f"{site.url}/lobby/")
    assert "Cyngesheall" in bob.inner_text(row)
    bob.tap(f"{row} .challenge__accept button")
    bob.wait_for_url(re.compile(r"/g/[^/]+/$"))
    game_id = game_id_of(bob)
    ann.wait_for_url(f"{site.url}/g/{game_id}/", timeout=LIVE_TIMEOUT_MS)
    assert api(site, game_id)["game"] == "cyngesheall"
    play_move(ann, "B6-E3")
    bob.wait_for_selector('#game[data-ply="1"]', timeout=LIVE_TIMEOUT_MS)
    play_move(bob, "G4-D4", tap=True)
    ann.wait_for_selector('#game[data-ply="2"]', timeout=LIVE_TIMEOUT_MS)
    bob.goto(f"{site.url}/g/{game_id}/resign")
    bob.click("[data-confirm-resign]")
    ann.wait_for_selector('[data-result="dark"]', timeout=LIVE_TIMEOUT_MS)
    assert api(site, game_id)["rating_change"] == {"dark": 16.0, "light": -16.0}
    ann.goto(f"{site.url}/players/Cyn_Ann/?family=cyngesheall-standard")
    assert ann.get_attribute("[data-rating]", "data-rating") == "1016"
    ann.goto(f"{site.url}/players/Cyn_Ann/")  # Mǽrstánas's rating: untouched
    assert ann.get_attribute("[data-rating]", "data-rating") == "1000"
    ann.goto(f"{site.url}/games/")
    assert ann.inner_text(f'[data-game="{game_id}"] [data-kind]') == "Cyngesheall"
    bob.goto(f"{site.url}/players/?family=cyngesheall-standard")
    assert bob.get_attribute('[data-player="Cyn_Bob"]', "data-rating") == "984"
    bob.screenshot(path=ARTIFACTS / "cyngesheall-leaderboard-phone.png", full_page=True)
