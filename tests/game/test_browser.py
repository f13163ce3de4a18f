"""Real games in headless Chromium against gunicorn: clicks, two browsers, no JavaScript.

Needs Debian's Chromium (`apt-get install chromium`). Without it these tests skip,
unless MAERSTANAS_REQUIRE_BROWSER is set (as CI does), which makes that a failure.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError

from game import bots
from game.engine import Position, Rules
from tests.support.accounts import PASSWORD
from tests.support.axe import violations
from tests.support.servers import (
    ARTIFACTS,
    Server,
    Worker,
    prepare,
    scratch_database,
    site_env,
)

pytestmark = pytest.mark.browser

LIVE_TIMEOUT_MS = 2000  # the opponent's move must show within two seconds
REFRESH_TIMEOUT_MS = 12_000  # a page without script reloads itself every 2 s
# The screens new players used: a desktop's window and a phone's.
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path_factory.mktemp("browser-site"), database_url)
        prepare(env)
        server = Server(env, workers=3).start()
        worker = Worker(env).start()
        yield server
        worker.stop()
        server.stop()


def api(site: Server, game_id: str) -> dict:
    return httpx.get(f"{site.url}/api/games/{game_id}").json()


def game_id_of(page) -> str:
    return re.search(r"/g/([^/]+)/", page.url)[1]


def start_game(
    page,
    site: Server,
    mode: str = "hotseat",
    color: str = "dark",
    level: str = "",
    game: str = "maerstanas",
) -> str:
    page.goto(site.url + "/")
    page.check(f"input[name=game][value={game}]")
    page.check(f"input[name=mode][value={mode}]")
    if mode in ("friend", "computer"):
        page.check(f"input[name=color][value={color}]")
    if level:
        page.check(f"input[name=level][value={level}]")
    page.click(".new-game__form button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    return game_id_of(page)


def ply_of(page) -> int:
    return int(page.get_attribute("#game", "data-ply"))


def click_move(page, move: str) -> None:
    """Choose the stone kind, then click the square, as a player would."""
    kind = {"T": "thunder", "W": "woden"}.get(move[0], "stone") if " " in move else "stone"
    square = move.split()[-1].split("x")[0]
    if page.get_attribute("#board", "class").split()[1] != f"board--{kind}":
        page.click(f'[data-stone-choice="{kind}"]')
        page.wait_for_selector(f"#board.board--{kind}")
    before = ply_of(page)
    page.click(f'[data-square="{square}"] button')
    # The page's own CSP allows no eval, so wait on a selector, not a JS predicate.
    page.wait_for_selector(f'#game:not([data-ply="{before}"])', timeout=LIVE_TIMEOUT_MS * 3)


def record_with_everything() -> list[str]:
    """A game where both sides use both special stones and someone must pass."""
    rng = random.Random(2024)
    while True:
        pos = Position.start(Rules())
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
        record = pos.record
        specials = {(i % 2, m[0]) for i, m in enumerate(record) if m[:2] in ("T ", "W ")}
        if "Pass" in record and len(specials) == 4:
            return list(record)


def test_hotseat_game_played_to_the_end_by_clicking(site, new_page):
    record = record_with_everything()
    page = new_page()
    game_id = start_game(page, site)
    for move in record:
        if move != "Pass":
            click_move(page, move)
    final = Position.replay(Rules(), record)
    assert page.get_attribute("[data-result]", "data-result") == final.result
    assert int(page.inner_text('[data-score="dark"]')) == final.score().dark
    assert int(page.inner_text('[data-score="light"]')) == final.score().light
    moves = page.inner_text("#move-list")
    assert "Pass" in moves
    assert str(final.score()) in moves
    assert api(site, game_id)["record"] == record
    assert page.locator("button[name=move]").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "hotseat-finished.png", full_page=True)


@pytest.mark.timing
def test_a_whole_game_against_the_computer(site, new_page):
    """The player's move shows at once; the computer's reply arrives live, within its
    thinking time plus about a second, with a thinking mark meanwhile."""
    level = bots.LEVELS[1]
    page = new_page()
    game_id = start_game(page, site, mode="computer", color="light", level=level.id)
    assert page.get_attribute("[data-computer]", "data-level") == level.id
    rng = random.Random(8)
    replies = []
    answers = []  # the answers to the player's moves: each draws the thinking mark
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/move") else None)
    while True:
        started = time.monotonic()
        # The player's turn, the computer's thinking mark gone, or the end.
        page.wait_for_selector(
            "#game.game--to-move:not(:has([data-thinking])), [data-result]", timeout=10_000
        )
        replies.append(time.monotonic() - started)
        if page.locator("[data-result]").count():
            break
        state = api(site, game_id)
        move = rng.choice([m for m in state["legal"] if m != "Pass"])
        click_move(page, move)
        # The player's own move is drawn at once, and while the computer thinks, it says so.
        square = move.split()[-1]
        if not page.locator(f'[data-square="{square}"][data-stone^="light"]').count():
            # The reply was quicker than the look, and took or cleared the stone.
            reply = api(site, game_id)["record"][-1]
            assert reply.startswith(("T ", "W ")) and square in reply, (move, reply)
    final = api(site, game_id)
    assert final["over"] and final["players"]["dark"] == {"kind": "computer", "level": level.id}
    assert Position.replay(Rules(), final["record"]).result == final["result"]
    assert page.get_attribute("[data-result]", "data-result") == final["result"]
    assert max(replies) < level.seconds + 2.5, replies
    # The mark is drawn with the player's move; the reply, pushed, may replace it at once.
    drawn = ["data-thinking" in answer.text() for answer in answers]
    assert drawn and all(drawn[:-1]), drawn  # the last move may have ended the game
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "computer-finished.png", full_page=True)


def test_the_thinking_mark_and_a_hint_on_a_phone(site, new_page):
    page = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    start_game(page, site, mode="computer", color="dark", level=bots.STRONGEST.id)
    page.tap("[data-hint-button]")
    page.wait_for_selector("[data-hint]", timeout=int((bots.STRONGEST.seconds + 2.5) * 1000))
    hinted = page.get_attribute("[data-hint-move]", "data-hint-move")
    square = hinted.split()[-1]
    assert page.get_attribute("[data-hint]", "data-square") == square
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "phone-hint.png", full_page=True)
    target = '[data-square="D4"] button' if square != "D4" else '[data-square="C3"] button'
    page.tap(target)  # the first tap shows the move, the second plays it
    page.tap(target)
    page.wait_for_selector("[data-thinking]")
    page.screenshot(path=ARTIFACTS / "phone-thinking.png", full_page=True)
    page.wait_for_selector(
        "#game.game--to-move", timeout=int((bots.STRONGEST.seconds + 2.5) * 1000)
    )
    assert page.locator("[data-hint]").count() == 0


@pytest.mark.timing
def test_friend_game_is_live_in_two_browsers_and_watched_by_a_third(site, new_page):
    creator = new_page()
    game_id = start_game(creator, site, mode="friend", color="dark")
    invite = creator.get_attribute("[data-invite-url]", "data-invite-url")
    assert invite and "/invite/" in invite

    friend = new_page()
    friend.goto(invite)
    friend.wait_for_timeout(1000)  # opening the invite takes nothing: a click does
    assert "/invite/" in friend.url and api(site, game_id)["status"] == "waiting"
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    friend.wait_for_selector(".score--light >> text=(you)")
    watcher = new_page()
    watcher.goto(f"{site.url}/g/{game_id}/")
    assert watcher.locator("button[name=move]").count() == 0

    for mover, other, move in [
        (creator, friend, "D4"),
        (friend, creator, "E4"),
        (creator, friend, "A1"),
        (friend, creator, "G7"),
    ]:
        click_move(mover, move)
        started = time.monotonic()
        selector = f'[data-square="{move}"][data-stone]'
        other.wait_for_selector(selector, timeout=LIVE_TIMEOUT_MS)
        watcher.wait_for_selector(selector, timeout=LIVE_TIMEOUT_MS)
        assert time.monotonic() - started < LIVE_TIMEOUT_MS / 1000
        assert watcher.locator("button[name=move]").count() == 0
    assert int(friend.inner_text('[data-score="dark"]')) == 2  # A1: a corner, two edges
    assert api(site, game_id)["record"] == ["D4", "E4", "A1", "G7"]
    # The players see how many watch: the count is drawn again with each redraw (the
    # watcher's stream is counted within a few seconds of opening).
    creator.wait_for_timeout(2500)
    click_move(creator, "C6")
    for page in (creator, friend):
        page.wait_for_selector('p.audience[data-watchers="1"]', timeout=LIVE_TIMEOUT_MS)
        assert page.inner_text("[data-watchers]") == "1 watching"

    creator.click("text=Resign")  # the confirmation dialog is accepted
    creator.wait_for_selector('[data-result="light"]')
    friend.wait_for_selector('[data-result="light"]', timeout=LIVE_TIMEOUT_MS)
    watcher.wait_for_selector('[data-result="light"]', timeout=LIVE_TIMEOUT_MS)

    creator.click("[data-rematch]")
    creator.wait_for_url(re.compile(rf"/g/(?!{re.escape(game_id)}/)[^/]+/$"))
    rematch_id = game_id_of(creator)
    friend.reload()
    friend.click("[data-rematch]")
    friend.wait_for_url(f"{site.url}/g/{rematch_id}/")
    friend.wait_for_selector(".score--dark >> text=(you)")  # colours swapped
    click_move(friend, "C3")
    creator.wait_for_selector(
        '[data-square="C3"][data-stone="dark-stone"]', timeout=LIVE_TIMEOUT_MS
    )


def test_the_chat_starts_beside_the_board_in_the_first_screen(site, new_page):
    """At 1280×800 the chat box begins above the fold, in the board's row, for both
    players and a watcher, without scrolling, however long the list of moves."""
    creator = new_page(**DESKTOP)
    game_id = start_game(creator, site, mode="friend", color="dark")
    friend = new_page(**DESKTOP)
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_selector(".score--light >> text=(you)")
    record = record_with_everything()
    moves = record[: min(18, record.index("Pass"))]
    for ply, move in enumerate(moves):
        mover = creator if ply % 2 == 0 else friend
        mover.wait_for_selector(f'#game[data-ply="{ply}"]', timeout=LIVE_TIMEOUT_MS)
        click_move(mover, move)
    watcher = new_page(**DESKTOP)
    for page in (creator, friend, watcher):
        page.goto(f"{site.url}/g/{game_id}/")  # opened afresh, at its top
        chat = page.locator("section[data-chat]").bounding_box()
        board = page.locator(".board__grid").bounding_box()
        assert chat["y"] + 60 <= 800, chat  # its title and first lines are in sight
        assert chat["y"] < board["y"] + board["height"], (chat, board)  # the board's row
        assert chat["x"] >= board["x"] + board["width"], (chat, board)  # beside it
    ARTIFACTS.mkdir(exist_ok=True)
    creator.screenshot(path=ARTIFACTS / "chat-beside-the-board.png")


def test_friend_game_without_javascript(site, new_page):
    creator = new_page(java_script_enabled=False)
    friend = new_page(java_script_enabled=False)
    game_id = start_game(creator, site, mode="friend", color="dark")
    invite = creator.get_attribute("[data-invite-url]", "data-invite-url")
    friend.goto(invite)
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")

    creator.click('[data-square="D4"] button')
    creator.wait_for_selector('[data-square="D4"][data-stone="dark-stone"]')
    # The waiting page reloads itself until the move shows.
    friend.wait_for_selector(
        '[data-square="D4"][data-stone="dark-stone"]', timeout=REFRESH_TIMEOUT_MS
    )
    friend.click('[data-square="E4"] button')
    friend.wait_for_selector('[data-square="E4"][data-stone="light-stone"]')
    # Two tabs of one player: the second tab's move is stale, refused with a message.
    reload(creator)
    second_tab = creator.context.new_page()
    second_tab.goto(creator.url)
    creator.click('[data-square="A1"] button')
    creator.wait_for_selector('[data-square="A1"][data-stone="dark-stone"]')
    second_tab.click('[data-square="B2"] button')
    assert "turn" in second_tab.inner_text(".messages")
    assert api(site, game_id)["record"] == ["D4", "E4", "A1"]

    reload(friend)
    friend.click("text=Resign")
    friend.click("[data-confirm-resign]")
    friend.wait_for_selector('[data-result="dark"]')
    reload(creator)
    assert creator.get_attribute("[data-result]", "data-result") == "dark"


def reload(page) -> None:
    """Reload a page that may be reloading itself without script: a refresh
    that fires during our reload aborts it, but loads the same page."""
    for attempt in range(3):
        try:
            page.reload()
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) or attempt == 2:
                raise


def test_replay_by_keyboard_and_back_to_the_game(site, new_page):
    page = new_page()
    game_id = start_game(page, site)
    for move in ["D4", "E4", "C3", "E5"]:
        click_move(page, move)
    # On the board the arrows move over its squares; elsewhere they step the replay.
    # The square just played takes the focus once the board settles: leave it after.
    page.wait_for_selector('[data-square="E5"] > :focus')
    page.evaluate("document.activeElement.blur()")
    page.evaluate("window.samePage = true")  # each step redraws the game's part only
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#game[data-ply="3"]')
    assert page.url.endswith(f"/g/{game_id}/?ply=3")
    assert page.locator('[data-square="E5"][data-stone]').count() == 0
    page.keyboard.press("Home")
    page.wait_for_selector('#game[data-ply="0"]')
    assert page.locator("[data-square][data-stone]").count() == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.locator("[data-square][data-stone]").count() == 1
    page.click('.moves__item[data-ply="3"] a')
    page.wait_for_selector('#game[data-ply="3"]')
    page.click("#replay-back")
    page.wait_for_selector('#game[data-ply="2"]')
    assert page.evaluate("document.activeElement.id") == "replay-back"  # to step again
    page.keyboard.press("End")
    page.wait_for_url(f"{site.url}/g/{game_id}/")
    page.wait_for_selector('#game[data-ply="4"] button[name=move]')
    assert page.evaluate("window.samePage") is True
    page.go_back()  # the steps are in the history
    page.wait_for_selector('#game[data-ply="2"]')


def test_looking_back_a_player_hears_the_friend_s_move(site, new_page):
    creator = new_page()
    friend = new_page()
    game_id = start_game(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    click_move(creator, "D4")
    friend.wait_for_selector('[data-square="D4"][data-stone]', timeout=LIVE_TIMEOUT_MS)
    click_move(friend, "E4")
    creator.wait_for_selector('#game[data-ply="2"]', timeout=LIVE_TIMEOUT_MS)
    click_move(creator, "C3")
    friend.goto(f"{site.url}/g/{game_id}/?ply=1")
    assert friend.locator("button[name=move]").count() == 0  # looking back: no square plays
    # The creator takes back C3 only if the friend agrees: the friend is asked live.
    creator.click("[data-takeback]")
    creator.wait_for_selector("[data-takeback-asked]")
    friend.wait_for_selector("[data-takeback-accept]", timeout=LIVE_TIMEOUT_MS)
    assert ply_of(friend) == 1  # still the moment looked at
    friend.click("[data-takeback-accept]")
    friend.wait_for_selector('#game[data-ply="2"]')  # the answer shows the game now
    creator.wait_for_selector('#game[data-ply="2"] button[name=move]', timeout=LIVE_TIMEOUT_MS)
    assert api(site, game_id)["record"] == ["D4", "E4"]
    friend.goto(f"{site.url}/g/{game_id}/?ply=1")
    click_move(creator, "A1")
    friend.wait_for_selector("[data-news]", timeout=LIVE_TIMEOUT_MS)
    assert "Dark played A1." in friend.inner_text("[data-news]")
    assert ply_of(friend) == 1
    friend.click("[data-replay-back]")
    friend.wait_for_selector('#game[data-ply="3"] button[name=move]')


def test_takebacks_in_hotseat_and_against_the_computer(site, new_page):
    page = new_page()
    start_game(page, site)
    click_move(page, "D4")
    click_move(page, "E4")
    page.click("[data-takeback]")
    page.wait_for_selector('#game[data-ply="1"]')
    assert page.locator('[data-square="E4"][data-stone]').count() == 0
    game_id = start_game(page, site, mode="computer", color="dark", level=bots.LEVELS[0].id)
    click_move(page, "D4")
    page.wait_for_selector('#game[data-ply="2"].game--to-move', timeout=5000)
    page.click("[data-takeback]")
    page.wait_for_selector('#game[data-ply="0"].game--to-move')
    assert api(site, game_id)["record"] == []


def test_a_record_downloaded_imports_and_continues(site, new_page):
    page = new_page()
    game_id = start_game(page, site)
    for move in ["D4", "E4", "C3"]:
        click_move(page, move)
    page.click(".review-tools summary")
    with page.expect_download() as download:
        page.click("[data-record-link]")
    text = download.value.path().read_text()
    assert f'[Game "{game_id}"]' in text and "1. D4 2. E4\n3. C3\n" in text
    page.goto(f"{site.url}/import/")
    page.fill("#record", text)
    page.click("[data-import]")
    page.wait_for_selector('#game[data-ply="3"]')
    imported = game_id_of(page)
    assert imported != game_id and api(site, imported)["record"] == ["D4", "E4", "C3"]
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#game[data-ply="2"]')
    page.click(".review-tools summary")
    page.click('[data-continue="hotseat"]')
    page.wait_for_selector('#game[data-ply="2"] button[name=move]')
    assert game_id_of(page) not in (game_id, imported)
    click_move(page, "A1")
    assert api(site, game_id_of(page))["record"] == ["D4", "E4", "A1"]


def test_your_turn_shows_in_the_title_and_the_tab_s_icon(site, new_page):
    creator = new_page()
    friend = new_page()
    start_game(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    creator.wait_for_function(
        "() => document.title.startsWith('Your turn')", timeout=LIVE_TIMEOUT_MS
    )
    assert friend.title().startswith("Dark to move")
    icon = "document.querySelector('link[rel=icon]').getAttribute('href')"
    marked = f"() => {icon}.includes('favicon-turn')"
    creator.wait_for_function(marked, timeout=LIVE_TIMEOUT_MS)
    assert "favicon-turn" not in friend.evaluate(icon)
    click_move(creator, "D4")
    assert creator.title().startswith("Light to move")
    friend.wait_for_function(
        "() => document.title.startsWith('Your turn')", timeout=LIVE_TIMEOUT_MS
    )
    friend.wait_for_function(marked, timeout=LIVE_TIMEOUT_MS)
    creator.wait_for_function(f"() => !{icon}.includes('favicon-turn')")
    assert friend.is_visible("[data-signals]")  # the sound and notification choices


def test_the_newest_move_stays_in_sight_and_the_about_page_fits_a_phone(site, new_page):
    page = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    start_game(page, site)
    for move in record_with_everything()[:24]:
        click_move(page, move)
    page.wait_for_function(  # scrolled within the list, once the swap is laid out
        """() => { const list = document.getElementById('move-list');
        const last = list.querySelector('.moves__item:last-of-type').getBoundingClientRect();
        const box = list.getBoundingClientRect();
        return list.scrollTop > 0 && last.bottom <= box.bottom + 1 && last.top >= box.top - 1; }""",
        timeout=2000,
    )
    page.goto(f"{site.url}/about/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_a_move_by_keyboard_alone(site, new_page):
    """The board is one tab stop; arrows move over it; focus stays where the move was."""
    page = new_page()
    start_game(page, site)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "move":
            break
    square = page.evaluate("document.activeElement.value")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'[data-square="{square}"][data-stone="dark-stone"]')
    # Focus stays on the square just played, and the arrows go on from there.
    assert page.evaluate("document.activeElement.id") == f"sq-{square}"
    page.keyboard.press("ArrowRight")
    beside = page.evaluate("document.activeElement.id")
    assert beside == f"sq-{chr(ord(square[0]) + 1)}{square[1]}"
    page.keyboard.press("Enter")
    page.wait_for_selector('#game[data-ply="2"]')
    page.wait_for_function(f"() => document.activeElement.id === '{beside}'")
    # One Tab leaves the board: its 49 squares are a single stop.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#board') !== null")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#board') === null")
    # Resign is a few Tabs from the top of the page, not dozens.
    page.evaluate("document.activeElement.blur()")
    tabs = 0
    while page.evaluate("document.activeElement.textContent.trim()") != "Resign" and tabs < 30:
        page.keyboard.press("Tab")
        tabs += 1
    assert tabs < 20, tabs


def test_a_stone_chosen_by_keyboard_keeps_the_focus(site, new_page):
    page = new_page()
    start_game(page, site)
    page.focus('[data-stone-choice="thunder"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#board.board--thunder")
    assert page.evaluate("document.activeElement.id") == "stone-thunder"


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_chosen_stone_stays_in_view_on_a_scrolled_page(site, new_page, screen):
    """The redraw replaces the part of the page the browser anchored its scrolling to:
    it must not scroll the page away from the control the player is on."""
    page = new_page(**screen)
    start_game(page, site)
    for kind in ("thunder", "stone"):
        # The stones near the top of the window, the page scrolled down to them.
        page.evaluate(
            """(kind) => window.scrollBy(0,
                document.getElementById(`stone-${kind}`).getBoundingClientRect().top - 20)""",
            kind,
        )
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 50, scrolled
        page.focus(f"#stone-{kind}")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#board.board--{kind}")
        page.wait_for_timeout(300)  # settled, and any scrolling done
        focused = page.evaluate(
            """() => { const box = document.activeElement.getBoundingClientRect();
                return [document.activeElement.id, box.top, box.bottom, innerHeight]; }"""
        )
        name, top, bottom, height = focused
        assert name == f"stone-{kind}" and top >= 0 and bottom <= height, focused
        assert page.evaluate("window.scrollY") == scrolled


def test_a_first_tap_shows_the_move_and_a_second_plays_it(site, new_page):
    page = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    start_game(page, site)
    for move in ["D4", "E4"]:
        page.tap(f'[data-square="{move}"] button')
        page.wait_for_selector(f'[data-square="{move}"] button.is-armed')
        assert ply_of(page) == (0 if move == "D4" else 1)  # not played yet
        page.tap(f'[data-square="{move}"] button')
        page.wait_for_selector(f'[data-square="{move}"][data-stone]')
    page.tap('[data-stone-choice="thunder"]')
    page.wait_for_selector("#board.board--thunder")
    page.tap('[data-square="E5"] button')
    assert "T E5: clears E4" in page.inner_text("[data-board-preview]")
    assert (
        page.locator('[data-square="E4"]')
        .evaluate("square => getComputedStyle(square).backgroundImage")
        .startswith("repeating-radial-gradient")
    )
    page.tap('[data-square="D4"] .sq__body')  # a taken square says why
    assert "D4" in page.inner_text("[data-board-preview]")
    assert ply_of(page) == 2


def test_the_whole_board_fits_a_phone(site, new_page):
    """On a phone's first screen, unscrolled: the whole board, the stones to choose from
    (on one line) and whose turn it is, in hot-seat and against the computer."""
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    ARTIFACTS.mkdir(exist_ok=True)
    for mode in ("computer", "hotseat"):
        start_game(page, site, mode=mode, color="dark", level=bots.LEVELS[0].id)
        assert page.evaluate("window.scrollY") == 0
        width, height = page.evaluate("[window.innerWidth, window.innerHeight]")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in (".board__grid", ".stones", "[data-turn]"):
            box = page.locator(selector).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (mode, selector, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (mode, selector, box)
        tops = page.evaluate(
            "Array.from(document.querySelectorAll('.stones__choice'))"
            ".map((choice) => choice.getBoundingClientRect().top)"
        )
        assert len(tops) == 3 and len(set(tops)) == 1, tops  # the stones on one line
        page.screenshot(path=ARTIFACTS / f"phone-first-screen-{mode}.png")
    page.tap('[data-square="D4"] button')  # the first tap shows the move
    page.tap('[data-square="D4"] button')
    page.wait_for_selector('[data-square="D4"][data-stone="dark-stone"]')
    page.screenshot(path=ARTIFACTS / "phone.png", full_page=True)


def test_two_hosts_serve_one_friend_game_live(tmp_path, new_page):
    """Each player on a different gunicorn, one database: both see every move live."""
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        first, second = Server(env, workers=2).start(), Server(env, workers=2).start()
        try:
            creator = new_page()
            game_id = start_game(creator, first, mode="friend", color="dark")
            invite = creator.get_attribute("[data-invite-url]", "data-invite-url")
            friend = new_page()
            friend.goto(invite.replace(first.url, second.url))
            friend.click("[data-join]")
            friend.wait_for_url(f"{second.url}/g/{game_id}/")
            for mover, other, move in [
                (creator, friend, "D4"),
                (friend, creator, "E4"),
                (creator, friend, "B2"),
            ]:
                click_move(mover, move)
                other.wait_for_selector(
                    f'[data-square="{move}"][data-stone]', timeout=LIVE_TIMEOUT_MS
                )
            assert (
                api(first, game_id)["record"]
                == api(second, game_id)["record"]
                == [
                    "D4",
                    "E4",
                    "B2",
                ]
            )
        finally:
            first.stop()
            second.stop()


# Each page notes the revisions its game's stream announced, so that a test can tell a
# move pushed from one the page asked for.
HEAR_STREAM = """
window.heardRevisions = [];
const PlainEventSource = window.EventSource;
window.EventSource = class extends PlainEventSource {
  constructor(...options) {
    super(...options);
    this.addEventListener("move", (message) => window.heardRevisions.push(message.lastEventId));
  }
};
"""


@pytest.mark.timing
def test_moves_are_pushed_to_both_players_and_a_watcher_and_survive_a_restart(tmp_path, new_page):
    """Each move reaches the two other pages by their streams, within a second of showing
    on the mover's; after the server restarts, the pages reconnect and catch up by themselves."""
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path, database_url)
        prepare(env)
        server = Server(env, workers=2).start()

        def listening_page():
            page = new_page()
            page.add_init_script(HEAR_STREAM)
            return page

        try:
            creator = listening_page()
            game_id = start_game(creator, server, mode="friend", color="dark")
            friend = listening_page()
            friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
            friend.click("[data-join]")
            friend.wait_for_url(f"{server.url}/g/{game_id}/")
            watcher = listening_page()
            watcher.goto(f"{server.url}/g/{game_id}/")
            assert watcher.get_attribute("#live", "data-live-url").startswith(
                f"/g/{game_id}/live?revision="
            )
            delays = []
            moves = [(creator, "D4"), (friend, "E4"), (creator, "A1"), (friend, "G7")]
            for index, (mover, move) in enumerate(moves):
                if index == 2:
                    server.stop()  # every stream is cut
                    server.start()
                click_move(mover, move)
                shown = time.monotonic()
                revision = mover.get_attribute("#game", "data-revision")
                for other in {creator, friend, watcher} - {mover}:
                    # Just after the restart the pages may still be reconnecting:
                    # they catch up, by the stream or by asking, within seconds.
                    other.wait_for_selector(f'[data-square="{move}"][data-stone]', timeout=5000)
                    if index != 2:
                        # Pushed: the stream announced this very revision. (While the
                        # stream is open the page never asks on its own.)
                        assert revision in other.evaluate("window.heardRevisions"), move
                if index != 2:
                    delays.append(time.monotonic() - shown)
                else:
                    time.sleep(2)  # every page's stream is open again
            # A busy machine slows a delivery by tenths of a second, never to a second.
            assert max(delays) < 1.0, delays
            for page in (creator, friend, watcher):
                assert page.get_attribute("#game", "data-ply") == "4"
        finally:
            server.stop()


def test_every_control_on_a_phone_is_a_finger_s_width(site, new_page):
    page = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    start_game(page, site)
    page.tap('[data-square="D4"] button')
    page.tap('[data-square="D4"] button')
    page.wait_for_selector('#game[data-ply="1"]')
    controls = (
        ".button, .stones__choice, .replay__step, .site-header a, .site-header summary, "
        ".site-header button, .rules-summary a, .moves__link, .review-tools summary, "
        ".legend summary, .review-tools a, .continue-form select"
    )

    def small() -> list:
        return page.evaluate(
            """(selector) => Array.from(document.querySelectorAll(selector))
                .filter((element) => element.getClientRects().length)
                .map((element) => [element.textContent.trim().slice(0, 20),
                                   element.getBoundingClientRect().height])
                .filter(([, height]) => height < 44)""",
            controls,
        )

    assert small() == []
    assert page.locator(controls).count() > 10
    page.tap(".site-menu summary")  # the header's menu, open: its links too
    assert page.locator(".site-menu__panel a:visible").count() >= 8
    assert small() == []
    page.tap(".site-menu summary")
    # A finished game's page, its record, picture, import and continue form open.
    page.tap("text=Resign")  # the confirmation dialog is accepted
    page.wait_for_selector("[data-result]")
    page.tap(".review-tools summary")
    page.wait_for_selector(".continue-form select")
    assert page.locator(".review-tools a:visible, .continue-form select:visible").count() == 5
    assert small() == []


CONTRAST = """([one, other]) => {
    const channel = (c) => {
        c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (color) => {
        const [r, g, b] = color.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const [a, b] = [luminance(one), luminance(other)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_s_labels_and_marks_stand_out_from_the_wood(site, new_page, scheme):
    page = new_page(color_scheme=scheme)
    start_game(page, site)
    for move in ["D4", "D5", "T D6"]:
        click_move(page, move)  # the thunder-stone clears D5: a ring marks it
    wood = page.evaluate("getComputedStyle(document.querySelector('.board__grid')).backgroundColor")
    colors = page.evaluate(
        """() => ({
            label: getComputedStyle(document.querySelector('.board__label')).color,
            last: getComputedStyle(document.querySelector('.sq--last'), '::before').borderTopColor,
            cleared: getComputedStyle(document.querySelector('.sq--cleared'), '::after')
                .borderTopColor,
        })"""
    )
    ratios = {name: page.evaluate(CONTRAST, [color, wood]) for name, color in colors.items()}
    assert ratios["label"] >= 4.5 and ratios["last"] >= 3 and ratios["cleared"] >= 3, ratios


# Each piece of text in an element, with its colour and the colour under it: the
# backgrounds from the page's down to the element's, laid one over the other.
TEXT_ON_BACKGROUND = """(element) => {
    const rgba = (c) => {
        const [r, g, b, a = 1] = c.match(/\\d+(\\.\\d+)?/g).map(Number);
        return [r, g, b, a];
    };
    const layers = [];
    for (let e = element; e; e = e.parentElement) layers.unshift(e);
    let under = [255, 255, 255];
    for (const layer of layers) {
        const [r, g, b, a] = rgba(getComputedStyle(layer).backgroundColor);
        under = [r, g, b].map((c, i) => c * a + under[i] * (1 - a));
    }
    const texts = [element, ...element.querySelectorAll("*")].filter((e) =>
        e.getClientRects().length && e.getBoundingClientRect().width > 1 &&
        [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
    return texts.map((e) => [e.textContent.trim(), getComputedStyle(e).color,
                             `rgb(${under.join(",")})`]);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_hovered_move_in_the_list_keeps_its_text_readable(site, new_page, scheme):
    page = new_page(color_scheme=scheme)
    start_game(page, site)
    for move in ["D4", "E4", "C3"]:
        click_move(page, move)  # the newest in the colour of the last move
    links = page.locator("#move-list .moves__link")
    ratios = []
    for n in range(links.count()):
        links.nth(n).hover()
        for text, color, under in links.nth(n).evaluate(TEXT_ON_BACKGROUND):
            ratios.append((text, round(page.evaluate(CONTRAST, [color, under]), 2)))
    assert {text for text, _ in ratios} >= {"Dark", "Light", "D4", "E4", "C3"}
    assert all(ratio >= 4.5 for _, ratio in ratios), ratios


# Accounts ----------------------------------------------------------------------------------


def sign_up(page, site: Server, username: str) -> None:
    page.goto(f"{site.url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("[data-form=signup] button[type=submit]")
    page.wait_for_selector(f'[data-username="{username}"]')


# Where an element is drawn: None when it is not drawn at all (a closed menu's link).
WHERE = """(element) => {
    if (!element.getClientRects().length) return null;
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
}"""

# The site's destinations, each a link of the header on every page.
DESTINATIONS = ["/", "/lobby/", "/watch/", "/tournaments/", "/games/", "/players/", "/about/"]


def in_sight(page, selector: str) -> bool:
    """The element is drawn, whole, within the window (as it is, unscrolled sideways)."""
    width, height = page.evaluate("[innerWidth, innerHeight]")
    box = page.locator(selector).first.evaluate(WHERE)
    return box is not None and (
        box["left"] >= 0 and box["right"] <= width and box["top"] >= 0 and box["bottom"] <= height
    )


def assert_no_sideways_scroll(page) -> None:
    """Neither the page nor any part of it (the header was a strip scrolled sideways)
    is wider than the window."""
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url
    wider = page.evaluate(
        """() => Array.from(document.querySelectorAll("body *"))
            .filter((e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX)
                && e.scrollWidth > e.clientWidth + 1)
            .map((e) => e.className || e.tagName)"""
    )
    assert wider == [], (page.url, wider)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_phone_header_reaches_every_page_and_keeps_the_notices_in_sight(site, new_page, scheme):
    """At 390 px: who you are and your unread notices stay in the header's one line;
    the menu, opened by a tap (and without JavaScript), holds every other
    destination; no page scrolls sideways; axe finds nothing, menu open or closed."""
    name = f"Hdr_{scheme}"
    phone = new_page(color_scheme=scheme, bypass_csp=True, **PHONE)
    sign_up(phone, site, name)
    challenger = new_page()
    sign_up(challenger, site, f"Hdr_by_{scheme}")
    challenger.goto(f"{site.url}/players/{name}/challenge")
    challenger.check("input[name=speed][value=correspondence]")
    challenger.click("[data-challenge-form] button[type=submit]")  # a notice for the phone
    game_id = start_game(phone, site)
    for path in [*DESTINATIONS, "/learn/", "/notifications/", f"/g/{game_id}/"]:
        phone.goto(f"{site.url}{path}")
        assert_no_sideways_scroll(phone)
        assert in_sight(phone, f'[data-username="{name}"]'), path
        assert phone.get_attribute("a[data-notifications]", "data-notifications") == "1"
        assert in_sight(phone, "a[data-notifications] .badge"), path
        assert in_sight(phone, "a[data-notifications]"), path
        assert not in_sight(phone, '.site-header a[href="/lobby/"]'), path  # folded away
    # The name is read whole, not cut short (the brand keeps its stone to make room).
    assert phone.locator("[data-username]").evaluate("e => e.scrollWidth <= e.clientWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.goto(f"{site.url}/g/{game_id}/")
    phone.screenshot(path=ARTIFACTS / f"phone-header-{scheme}.png")
    assert violations(phone) == []
    phone.tap(".site-menu summary")
    for href in DESTINATIONS:
        assert in_sight(phone, f'.site-menu a[href="{href}"]'), href
    assert in_sight(phone, ".site-menu .account-nav button")  # Log out
    assert violations(phone) == []
    phone.screenshot(path=ARTIFACTS / f"phone-menu-{scheme}.png")
    phone.tap('.site-menu a[href="/lobby/"]')
    phone.wait_for_url(f"{site.url}/lobby/")
    assert not in_sight(phone, '.site-header a[href="/watch/"]')  # the new page's is closed
    # A tap outside closes the menu, and so does Escape.
    phone.tap(".site-menu summary")
    phone.touchscreen.tap(195, 820)  # below the open menu
    phone.wait_for_selector('.site-menu a[href="/watch/"]', state="hidden")
    phone.tap(".site-menu summary")
    assert in_sight(phone, '.site-menu a[href="/watch/"]')
    phone.keyboard.press("Escape")
    phone.wait_for_selector('.site-menu a[href="/watch/"]', state="hidden")
    assert phone.evaluate("document.activeElement.tagName") == "SUMMARY"
    # A guest's menu holds Log in and Sign up; without JavaScript it opens all the same.
    guest = new_page(color_scheme=scheme, java_script_enabled=False, **PHONE)
    guest.goto(f"{site.url}/about/")
    assert_no_sideways_scroll(guest)
    assert in_sight(guest, "[data-guest-name]")
    assert not in_sight(guest, '.site-header a[href="/accounts/login/"]')
    guest.tap(".site-menu summary")
    for href in [*DESTINATIONS, "/accounts/login/", "/accounts/signup/"]:
        assert in_sight(guest, f'.site-menu a[href="{href}"]'), href
    guest.click('.site-menu a[href="/accounts/signup/"]')
    guest.wait_for_url(f"{site.url}/accounts/signup/")
    # On a desktop the same links stand in the header, with no menu to open.
    desk = new_page(color_scheme=scheme, **DESKTOP)
    desk.goto(f"{site.url}/about/")
    assert not in_sight(desk, ".site-menu summary")
    for href in [*DESTINATIONS, "/accounts/login/", "/accounts/signup/"]:
        assert in_sight(desk, f'.site-header a[href="{href}"]'), href


def test_a_guests_game_follows_the_account_to_a_phone(site, new_page):
    """A guest plays, signs up, and on a phone logs in: the game is in My games there,
    and the phone plays the next move in it, with no seat link."""
    desk = new_page()
    game_id = start_game(desk, site)
    click_move(desk, "D4")
    sign_up(desk, site, "Wulfgar")
    assert desk.locator(f'[data-game="{game_id}"]').count() == 1
    phone = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    phone.goto(f"{site.url}/accounts/login/")
    phone.fill("#id_login", "wulfgar")
    phone.fill("#id_password", PASSWORD)
    phone.click("[data-form=login] button[type=submit]")
    phone.wait_for_selector('[data-username="Wulfgar"]')
    phone.goto(f"{site.url}/games/")
    phone.click(f'[data-game="{game_id}"] a')
    phone.wait_for_selector('#game[data-ply="1"]')
    phone.tap('[data-square="E4"] button')
    phone.tap('[data-square="E4"] button')
    phone.wait_for_selector('#game[data-ply="2"]')
    assert api(site, game_id)["record"][:2] == ["D4", "E4"]
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=ARTIFACTS / "account-phone.png", full_page=True)
    phone.click(".site-menu summary")  # Log out is in the phone's menu
    phone.click(".account-nav button")
    phone.wait_for_selector("[data-guest-name]")
    phone.click(".site-menu summary")
    phone.wait_for_selector(".account-nav a[href='/accounts/login/']")
    phone.goto(f"{site.url}/g/{game_id}/")
    assert phone.locator('[data-square="F4"] button').count() == 0  # a watcher now


def test_two_accounts_play_a_rated_game_and_both_ratings_change(site, new_page):
    ann, bob = new_page(), new_page(viewport={"width": 375, "height": 740}, is_mobile=True)
    sign_up(ann, site, "Rated_Ann")
    sign_up(bob, site, "Rated_Bob")
    ann.goto(site.url + "/")
    ann.check("input[name=mode][value=friend]")
    ann.check("input[name=color][value=dark]")
    ann.check("input[name=rated]")
    ann.click(".new-game__form button[type=submit]")
    ann.wait_for_url(re.compile(r"/g/[^/]+/$"))
    game_id = game_id_of(ann)
    bob.goto(ann.get_attribute("[data-invite-url]", "data-invite-url"))
    bob.click("[data-join]")
    bob.wait_for_selector('[data-seat-name="light"]')
    ann.wait_for_selector('[data-seat-name="light"]', timeout=LIVE_TIMEOUT_MS * 3)
    assert "Rated_Bob" in ann.inner_text('[data-seat-name="light"]')
    click_move(ann, "D4")
    bob.wait_for_selector('#game[data-ply="1"]', timeout=LIVE_TIMEOUT_MS * 3)
    click_move(bob, "E4")
    ann.wait_for_selector('#game[data-ply="2"]', timeout=LIVE_TIMEOUT_MS * 3)
    assert ann.locator("text=Take back").count() == 0  # no takebacks in a rated game
    bob.goto(f"{site.url}/g/{game_id}/resign")
    bob.click("[data-confirm-resign]")
    bob.wait_for_selector("[data-result]")
    ann.wait_for_selector("[data-result]", timeout=LIVE_TIMEOUT_MS * 3)
    for page in (ann, bob):
        page.goto(f"{site.url}/g/{game_id}/")
        assert page.get_attribute('[data-seat-name="dark"] [data-rating]', "data-rating") == "1016"
        assert page.get_attribute('[data-seat-name="light"] [data-rating]', "data-rating") == "984"
        assert "+16" in page.inner_text("[data-players]")
        assert "−16" in page.inner_text("[data-players]")
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=ARTIFACTS / "rated-phone.png", full_page=True)
    state = api(site, game_id)
    assert state["rating_change"] == {"dark": 16.0, "light": -16.0}
    ann.goto(f"{site.url}/players/")
    assert ann.get_attribute('[data-player="Rated_Ann"]', "data-rating") == "1016"
    assert ann.get_attribute('[data-player="Rated_Bob"]', "data-rating") == "984"
    ann.click('[data-player="Rated_Bob"] a')
    ann.wait_for_selector('[data-profile="Rated_Bob"] svg.rating-graph')
    assert ann.get_attribute("[data-losses]", "data-losses") == "1"
    ann.screenshot(path=ARTIFACTS / "profile.png", full_page=True)


# Learning ----------------------------------------------------------------------------------


def test_a_lesson_by_mouse_and_by_keyboard(site, new_page):
    page = new_page()
    page.goto(f"{site.url}/")
    page.click("[data-learn-link]")
    page.click('[data-lesson-link="hinges"]')
    page.click('[data-square="A1"] button')  # a stone with two hinges: not the task
    page.wait_for_selector('#lesson[data-lesson-result="try-again"]')
    assert "Your stone on A1 has 2 hinges" in page.inner_text("[data-try-again]")
    assert page.url.endswith("/learn/hinges/?stone=stone&move=A1")  # the try has its address
    page.click("[data-try-again-link]")
    page.wait_for_selector("#lesson:not([data-lesson-result])")
    assert page.locator('[data-square="A1"] button').count() == 1
    # By keyboard: the board is one stop, the arrows reach D4, Enter plays it.
    page.focus("#sq-D3")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.id") == "sq-D4"
    page.keyboard.press("Enter")
    page.wait_for_selector('#lesson[data-lesson-result="solved"]')
    assert page.evaluate("document.activeElement.id") == "sq-D4"
    assert "Well done!" in page.inner_text("[data-solved]")
    page.click("[data-next-lesson]")
    page.wait_for_url(re.compile(r"/learn/fourth-hinge/$"))
    page.click('[data-square="E4"] .sq__body')  # closed: the board says why
    assert "E4 would have four hinges" in page.inner_text("[data-board-preview]")
    page.go_back()
    page.wait_for_url(re.compile(r"/learn/hinges/"))
    page.go_back()
    page.wait_for_url(re.compile(r"/learn/hinges/$"))
    page.wait_for_selector("#lesson:not([data-lesson-result])")
    assert page.locator("header.site-header").count() == 1  # the whole page came back


def test_a_lesson_without_javascript(site, new_page):
    page = new_page(java_script_enabled=False)
    page.goto(f"{site.url}/learn/thunder/")
    page.click('[data-square="C1"] button')  # clears nothing
    page.wait_for_selector('#lesson[data-lesson-result="try-again"]')
    assert "cleared nothing" in page.inner_text("[data-try-again]")
    page.click("[data-try-again-link]")
    page.click('[data-stone-choice="stone"]')
    page.wait_for_selector("#board.board--stone")
    page.click('[data-square="C1"] button')
    assert "choose your thunder-stone" in page.inner_text("[data-try-again]")
    page.click("[data-try-again-link]")
    page.click('[data-square="B7"] button')
    page.wait_for_selector('#lesson[data-lesson-result="solved"]')
    assert page.locator('[data-square="A7"][data-stone]').count() == 0  # cleared


def test_a_lesson_on_a_phone(site, new_page):
    page = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page.goto(f"{site.url}/learn/thunder/")
    page.tap('[data-square="D4"] button')
    assert "T D4: clears D3, C4, E4, D5" in page.inner_text("[data-board-preview]")
    assert page.locator("#lesson[data-lesson-result]").count() == 0  # not played yet
    page.tap('[data-square="D4"] button')
    page.wait_for_selector('#lesson[data-lesson-result="solved"]')
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
                '.button, .stones__choice, .lesson-page__nav a, .lesson-page__crumbs a'))
            .filter((element) => element.getClientRects().length)
            .map((element) => [element.textContent.trim(), element.getBoundingClientRect().height])
            .filter(([, height]) => height < 44)"""
    )
    assert small == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "lesson-phone.png", full_page=True)


# Accessibility: axe-core finds nothing wrong on any page, in either theme ----------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe(site, new_page, scheme):
    page = new_page(color_scheme=scheme, bypass_csp=True)
    friend = new_page(color_scheme=scheme, bypass_csp=True)
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        found[name] = violations(page)

    page.goto(f"{site.url}/")
    check("home")
    game_id = start_game(page, site)
    for move in ["D4", "E4", "C3"]:
        click_move(page, move)
    check("game in progress")
    page.goto(f"{site.url}/g/{game_id}/?ply=1")
    check("a moment looked back at")
    page.goto(f"{site.url}/g/{game_id}/resign")
    check("resign")
    page.goto(f"{site.url}/g/{game_id}/")
    page.click("text=Resign")
    page.wait_for_selector("[data-result]")
    check("finished game")
    start_game(page, site, mode="friend", color="dark")
    check("friend game waiting")
    friend.goto(page.get_attribute("[data-invite-url]", "data-invite-url"))
    found["invite"] = violations(friend)
    friend.click("[data-join]")
    friend.wait_for_selector(".messages")  # "You play light."
    found["a flash message"] = violations(friend)
    start_game(page, site, mode="computer", color="dark", level=bots.LEVELS[0].id)
    click_move(page, "D4")
    check("game against the computer")
    start_game(page, site, mode="computer", color="dark", level=bots.LEVELS[0].id)
    hold_the_computer_s_reply(page)
    click_move(page, "D4")
    page.wait_for_selector("[data-thinking]")
    page.evaluate(FAINTEST)  # the pulsing mark at its faintest
    check("the computer thinking")
    page.unroute_all()
    start_game(page, site)
    page.click("[data-hint-button]")
    page.wait_for_selector("[data-hint]", timeout=int((bots.STRONGEST.seconds + 4) * 1000))
    check("a hint shown")
    start_game(page, site, game="cyngesheall")
    page.click('[data-square="B6"] a')
    page.wait_for_selector('#board[data-picked="B6"]')
    check("Cyngesheall: a piece picked")
    paths = ["/about/", "/games/", "/import/", "/p/", "/p/?text=nonsense", "/g/nope/"]
    paths += ["/learn/", "/learn/thunder/", "/learn/hinges/?move=A1", "/learn/scoring/?move=B1"]
    paths += [
        "/learn/fourth-hinge/?move=E4",
        "/learn/wraparound/",
        "/learn/score-and-close/?move=D2",
    ]
    paths += ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    paths += ["/accounts/guest-name/", "/lobby/", "/watch/", "/notifications/"]
    paths += ["/about/cyngesheall/", "/learn/cyngesheall-capture/?from=G3"]
    paths += ["/p/?game=cyngesheall", "/learn/cyngesheall-draws/?move=F1-F3"]
    for path in paths:
        page.goto(f"{site.url}{path}")
        check(path)
    page.goto(f"{site.url}/import/")
    page.fill("#record", "D4 E4 D4")
    page.click("[data-import]")
    check("import refused")
    # A record of its own for each scheme: analysed once, a position is every game's.
    page.fill("#record", f"D4 E4 C3 E5 {'B2' if scheme == 'light' else 'B6'}")
    page.click("[data-import]")
    page.wait_for_selector("[data-analyse-whole]")
    check("imported game")
    page.click("[data-analyse-whole]")
    page.wait_for_selector("[data-review]", timeout=30_000)
    check("imported game reviewed")
    page.click("[data-try-line]")
    page.wait_for_selector("#try")
    page.click("#try [data-square] button >> nth=0")
    page.wait_for_selector('#try:not([data-line=""])')
    check("a line tried")
    page.goto(f"{site.url}/accounts/signup/")
    page.fill("#id_username", "ab")
    page.click("[data-form=signup] button[type=submit]")
    check("sign-up refused")
    sign_up(page, site, f"axe_{scheme}")
    check("logged in: my games")
    for path in ["settings", "password/change", "email", "tokens", "delete"]:
        page.goto(f"{site.url}/accounts/{path}/")
        check(path)
    for path in ["/players/", "/players/?q=axe", f"/players/axe_{scheme}/"]:
        page.goto(f"{site.url}{path}")
        check(path)
    # The lobby with a challenge in it, seen by its creator and by another player,
    # a challenge's page, the form to challenge a player, and the notifications.
    page.goto(f"{site.url}/lobby/")
    page.click("[data-challenge-form] button[type=submit]")
    page.wait_for_selector(".challenge--mine")
    check("lobby with my challenge")
    friend.goto(f"{site.url}/lobby/")
    found["lobby with a challenge to accept"] = violations(friend)
    challenge_id = page.get_attribute(".challenge--mine", "data-challenge")
    page.goto(f"{site.url}/lobby/{challenge_id}/")
    check("a challenge")
    sign_up(friend, site, f"axe_friend_{scheme}")
    friend.goto(f"{site.url}/players/axe_{scheme}/challenge")
    found["challenge a player"] = violations(friend)
    friend.check("input[name=speed][value=correspondence]")
    friend.click("[data-challenge-form] button[type=submit]")
    page.goto(f"{site.url}/notifications/")
    check("notifications")
    page.goto(f"{site.url}/lobby/")
    page.click("[data-to-me] button:text('Accept')")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    check("correspondence game")
    page.goto(f"{site.url}/lobby/")
    page.click(f'[data-challenge="{challenge_id}"] .challenge__cancel button')
    page.goto(f"{site.url}/accounts/logout/")
    check("log out")
    assert {name: found for name, found in found.items() if found} == {}


# Newcomers: accessibility, phone, no JavaScript ---------------------------------------------


def hold_the_computer_s_reply(page) -> None:
    """Keep the page showing the computer thinking: its news of the reply (the stream and
    the polls) never arrives."""
    page.route(re.compile(r"/g/[^/]+/(live|poll/)"), lambda route: route.abort())


FAINTEST = """() => document.getAnimations().forEach((animation) => {
    animation.pause();
    animation.currentTime = animation.effect.getComputedTiming().duration;
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hint_ring_and_the_thinking_mark_stand_out(site, new_page, scheme):
    page = new_page(color_scheme=scheme)
    start_game(page, site)
    page.click("[data-hint-button]")
    page.wait_for_selector("[data-hint]", timeout=int((bots.STRONGEST.seconds + 4) * 1000))
    wood = page.evaluate("getComputedStyle(document.querySelector('.board__grid')).backgroundColor")
    ring = page.evaluate(
        "getComputedStyle(document.querySelector('.sq--hint'), '::before').borderTopColor"
    )
    assert page.evaluate(CONTRAST, [ring, wood]) >= 3
    start_game(page, site, mode="computer", color="dark", level=bots.LEVELS[0].id)
    hold_the_computer_s_reply(page)
    click_move(page, "D4")
    mark = page.locator("[data-thinking]")
    # The pulse at a few moments of its cycle, its faintest included: the text's colour
    # as it shows, blended into the page's by the opacity, against the page's.
    shown = mark.evaluate(
        """(mark) => {
            const [animation] = mark.getAnimations();
            const duration = animation.effect.getComputedTiming().duration;
            animation.pause();
            const page = getComputedStyle(document.documentElement).backgroundColor;
            const rgb = (c) => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
            return [0, 0.25, 0.5, 0.75, 1].map((part) => {
                animation.currentTime = duration * part;
                const style = getComputedStyle(mark);
                const alpha = Number(style.opacity);
                const under = rgb(page);
                const mixed = rgb(style.color).map((c, i) => c * alpha + under[i] * (1 - alpha));
                return [`rgb(${mixed.join(",")})`, page];
            });
        }"""
    )
    ratios = [page.evaluate(CONTRAST, pair) for pair in shown]
    assert min(ratios) >= 4.5, ratios


def test_after_resigning_the_focus_is_on_the_result(site, new_page):
    page = new_page()
    start_game(page, site)
    click_move(page, "D4")
    page.focus("text=Resign")
    page.keyboard.press("Enter")  # the confirmation dialog is accepted
    page.wait_for_selector("[data-result]")
    page.wait_for_selector("[data-result]:focus", timeout=2000)
    assert page.get_attribute("[data-result]", "tabindex") == "-1"


def test_without_javascript_a_hint_shows_without_a_reload(site, new_page):
    page = new_page(java_script_enabled=False)
    start_game(page, site)
    assert "reloads itself" not in page.inner_text("body")  # your own turn: nothing to wait for
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
    page.click("[data-hint-button]")
    page.wait_for_selector("[data-hint]", timeout=int((bots.STRONGEST.seconds + 4) * 1000))
    assert page.get_attribute("[data-hint]", "data-square") in page.inner_text("[data-hint-move]")
    assert "reloads itself" not in page.inner_text("body")


@pytest.mark.timing
def test_without_javascript_the_computer_s_reply_shows_within_seconds(site, new_page):
    page = new_page(java_script_enabled=False)
    start_game(page, site, mode="computer", color="dark", level=bots.LEVELS[0].id)
    assert "reloads itself" not in page.inner_text("body")
    page.click('[data-square="D4"] button')
    started = time.monotonic()
    page.wait_for_selector('#game[data-ply="2"]', timeout=3000)
    assert time.monotonic() - started < 3
    assert page.locator("button[name=move]").count() > 0
    assert "reloads itself" not in page.inner_text("body")


def test_without_javascript_a_guest_sees_the_rematch_offered(site, new_page):
    creator = new_page(java_script_enabled=False)
    friend = new_page(java_script_enabled=False)
    game_id = start_game(creator, site, mode="friend", color="dark")
    assert "reloads itself" in creator.inner_text("body")  # waiting for the friend
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_url(f"{site.url}/g/{game_id}/")
    assert "reloads itself" in friend.inner_text("body")  # dark to move
    creator.wait_for_selector("button[name=move]", timeout=4000)  # the friend sat down
    assert "reloads itself" not in creator.inner_text("body")  # the creator's turn
    creator.click("text=Resign")
    creator.click("[data-confirm-resign]")
    creator.wait_for_selector('[data-result="light"]')
    friend.wait_for_selector('[data-result="light"]', timeout=4000)
    creator.click("[data-rematch]")
    creator.wait_for_url(re.compile(rf"/g/(?!{re.escape(game_id)}/)[^/]+/$"))
    rematch_id = game_id_of(creator)
    friend.wait_for_selector("text=Your opponent wants a rematch", timeout=4000)
    friend.click("[data-rematch]")
    friend.wait_for_url(f"{site.url}/g/{rematch_id}/")
    friend.wait_for_selector(".score--dark >> text=(you)")


# Newcomers: the title, the tab's icon, a quiet console -------------------------------------

TURN_ICON = "document.querySelector('link[rel=icon]').getAttribute('href')"
# Every violation of the page's Content Security Policy, said on the console, where the
# test hears it with the page's own errors.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => {
    console.error(`CSP ${event.violatedDirective}: ${event.sourceFile}:${event.lineNumber}`
        + ` ${event.sample}`);
});"""


def troubles_of(page) -> list[str]:
    """The console's errors, CSP violations included, and the script errors of ``page``
    from now on, as a list that grows."""
    found: list[str] = []
    page.add_init_script(REPORT_VIOLATIONS)

    def heard(message) -> None:
        if message.type == "error":
            found.append(f"{page.url}: {message.text}")

    page.on("console", heard)
    page.on("pageerror", lambda error: found.append(f"{page.url}: {error}"))
    return found


def test_a_game_that_ends_with_its_graph_says_the_result_in_the_title(site, new_page):
    """The answer to the last move carries the analysis graph, whose SVG has titles of
    its own: the tab's title is still the game's."""
    record = [move for move in record_with_everything() if move != "Pass"]
    page = new_page()
    # Another game analyses the opening: every game reaching those moments shares it.
    start_game(page, site)
    click_move(page, record[0])
    page.goto(f"{page.url}?ply=0")
    page.click("[data-analyse-whole]")
    page.wait_for_selector(".estimate-graph svg", timeout=10_000)
    start_game(page, site)
    for move in record:
        click_move(page, move)
    final = Position.replay(Rules(), record_with_everything())
    assert page.locator("#game .estimate-graph svg title").count() >= 1  # the end's answer
    winner = "a tie" if final.result == "tie" else f"{final.result} wins"
    assert page.title() == f"Neither side can move: {winner} · Mǽrstánas"


def test_looking_back_the_title_and_the_tab_s_icon_say_your_turn(site, new_page):
    creator = new_page()
    friend = new_page()
    game_id = start_game(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    click_move(creator, "D4")
    friend.wait_for_selector('[data-square="D4"][data-stone]', timeout=LIVE_TIMEOUT_MS)
    click_move(friend, "E4")
    creator.wait_for_selector('#game[data-ply="2"]', timeout=LIVE_TIMEOUT_MS)
    friend.goto(f"{site.url}/g/{game_id}/?ply=1")
    assert not friend.title().startswith("Your turn")
    assert "favicon-turn" not in friend.evaluate(TURN_ICON)
    click_move(creator, "C3")
    friend.wait_for_selector("[data-news]", timeout=LIVE_TIMEOUT_MS)
    assert ply_of(friend) == 1  # still the moment looked at
    assert friend.title().startswith("Your turn")
    assert "1 of 3" in friend.title()
    friend.wait_for_function(f"() => {TURN_ICON}.includes('favicon-turn')", timeout=LIVE_TIMEOUT_MS)
    assert "favicon-turn" not in creator.evaluate(TURN_ICON)
    friend.reload()  # a page opened looking back says so too
    assert friend.title().startswith("Your turn") and ply_of(friend) == 1
    friend.wait_for_function(f"() => {TURN_ICON}.includes('favicon-turn')")
    friend.click("[data-replay-back]")
    friend.wait_for_selector('#game[data-ply="3"] button[name=move]')
    assert friend.title().startswith("Your turn")


def test_moves_make_no_console_error_nor_csp_violation(site, new_page):
    creator = new_page()
    friend = new_page()
    troubles = {"creator": troubles_of(creator), "friend": troubles_of(friend)}
    start_game(creator, site, mode="friend", color="dark")
    friend.goto(creator.get_attribute("[data-invite-url]", "data-invite-url"))
    friend.click("[data-join]")
    friend.wait_for_selector(".score--light >> text=(you)")
    for mover, other, move in [
        (creator, friend, "D4"),
        (friend, creator, "E4"),
        (creator, friend, "A1"),
        (friend, creator, "G7"),
    ]:
        click_move(mover, move)
        other.wait_for_selector(f'[data-square="{move}"][data-stone]', timeout=LIVE_TIMEOUT_MS)
    creator.wait_for_timeout(500)  # the last redraws settle
    game_id = start_game(creator, site, mode="computer", color="dark", level=bots.LEVELS[0].id)
    for _ in range(3):
        creator.wait_for_selector("#game.game--to-move:not(:has([data-thinking]))")
        move = next(m for m in api(site, game_id)["legal"] if " " not in m and m != "Pass")
        click_move(creator, move)
    creator.wait_for_selector("#game.game--to-move:not(:has([data-thinking]))")
    creator.wait_for_timeout(500)
    assert troubles == {"creator": [], "friend": []}


# Newcomers: editor and small things --------------------------------------------------------


# The empty board's position text, as a query's value.
EMPTY_QUERY_TEXT = "......./......./......./......./......./......./.......%20d%20TWtw"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_editor_places_a_light_woden_stone_in_one_click(site, new_page, scheme):
    page = new_page(color_scheme=scheme, bypass_csp=True)
    page.goto(f"{site.url}/p/")
    page.click('[data-paint="light-woden"]')
    page.wait_for_selector('[data-paint="light-woden"][aria-pressed="true"]')
    loads = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    page.click('[data-square="D4"] a.sq__edit')
    page.wait_for_selector('[data-square="D4"][data-stone="light-woden"]')
    assert len(loads) == 1
    assert page.input_value("[data-position-text]").split()[1:] == ["d", "TWt"]
    # The hand's toggles look on or off, whatever the theme.
    looks = page.evaluate(
        """() => ['true', 'false'].map((pressed) => {
            const style = getComputedStyle(
                document.querySelector(`[data-hand-toggle][aria-pressed="${pressed}"]`));
            return [style.backgroundColor, style.color, style.borderStyle];
        })"""
    )
    assert looks[0] != looks[1] and looks[0][2] == "solid" and looks[1][2] == "dashed"
    found = {"editor": violations(page)}
    page.goto(f"{site.url}/p/?text={EMPTY_QUERY_TEXT}&paint=dark-thunder&square=A1&wraparound=on")
    page.click('[data-square="B2"] a.sq__edit')  # a second dark thunder-stone: refused
    page.wait_for_selector("[data-error]")
    found["refused, wrapped"] = violations(page)
    page.goto(f"{site.url}/")
    page.check("input[name=wraparound]")
    page.click(".new-game__form button[type=submit]")
    for move in ["A1", "G7", "B1"]:
        click_move(page, move)
    page.click("[data-hinges-toggle]")
    page.wait_for_selector(".sq__hinges--dark")
    page.click(".legend summary")
    found["hinges and wraparound"] = violations(page)
    assert {name: found for name, found in found.items() if found} == {}


def test_the_new_game_form_shows_the_level_and_colour_only_where_they_apply(site, new_page):
    page = new_page()
    page.goto(site.url + "/")
    level, color = '[data-for-modes="computer"]', '[data-for-modes="friend computer"]'

    def shown() -> tuple[bool, bool]:
        return page.is_visible(level), page.is_visible(color)

    assert shown() == (False, False)  # hot-seat, chosen at first
    page.check("input[name=mode][value=computer]")
    assert shown() == (True, True)
    page.check("input[name=mode][value=friend]")
    assert shown() == (False, True)
    page.check("input[name=mode][value=hotseat]")
    assert shown() == (False, False)
    page.click(".new-game__form button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))


def test_each_game_shows_only_its_own_levels_and_rules_and_keeps_the_level_chosen(site, new_page):
    page = new_page()
    page.goto(site.url + "/")
    page.check("input[name=mode][value=computer]")
    parts = {
        "mǽrstánas levels": '[data-levels-of="maerstanas"]',
        "cyngesheall levels": '[data-levels-of="cyngesheall"]',
        "mǽrstánas rules": '[data-game-rules="maerstanas"]',
    }

    def shown() -> set[str]:
        return {name for name, selector in parts.items() if page.is_visible(selector)}

    def level() -> str:
        return page.eval_on_selector("input[name=level]:checked", "input => input.value")

    assert shown() == {"mǽrstánas levels", "mǽrstánas rules"} and level() == "cild"
    page.check("input[name=game][value=cyngesheall]")
    assert shown() == {"cyngesheall levels"} and level() == "byrele"
    page.check("input[name=level][value=gesith]")
    page.check("input[name=game][value=maerstanas]")
    assert shown() == {"mǽrstánas levels", "mǽrstánas rules"} and level() == "cild"
    page.check("input[name=game][value=cyngesheall]")
    assert level() == "gesith"  # the level chosen for the game is kept
    page.check("input[name=mode][value=hotseat]")
    assert shown() == set()
    page.check("input[name=mode][value=computer]")
    page.click(".new-game__form button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    assert page.get_attribute("[data-computer]", "data-level") == "gesith"
    page.goto(site.url + "/lobby/")
    rules = '[data-challenge-form] [data-game-rules="maerstanas"]'
    assert page.is_visible(rules)
    page.check("[data-challenge-form] input[name=game][value=cyngesheall]")
    assert not page.is_visible(rules)


# Newcomers: hints, takebacks, My games

# Light to move, holding its thunder-stone alone: a plain stone may go on E5 too, but
# every winning move is a thunder-stone, and the strongest level's is the one on E5.
THUNDER_TO_WIN = "s.SS.sS/SsS.s../.Ss.SSs/sSS.Ss./S.sS.Ss/s..s.../S..sssS l t"


def test_a_thunder_hint_is_chosen_for_the_player_and_its_ring_plays_it(site, new_page):
    page = new_page()
    page.goto(f"{site.url}/p/?{urlencode({'text': THUNDER_TO_WIN})}")
    page.select_option(".continue-form select[name=color]", "light")
    page.select_option(".continue-form select[name=level]", bots.LEVELS[0].id)
    page.click('.continue-form [data-continue="computer"]')
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    game_id = game_id_of(page)
    assert page.get_attribute("#board", "data-placing") == "stone"
    page.click("[data-hint-button]")
    page.wait_for_selector("[data-hint]", timeout=int((bots.STRONGEST.seconds + 2.5) * 1000))
    assert page.get_attribute("[data-hint-move]", "data-hint-move") == "T E5"
    assert "thunder-stone on E5, clearing E4, D5 and F5" in page.inner_text("[data-hint-move]")
    assert page.get_attribute("#board", "data-placing") == "thunder"
    assert page.get_attribute("#stone-thunder", "aria-current") == "true"
    page.click("[data-hint] button")
    page.wait_for_selector('#game:not([data-ply="0"])', timeout=LIVE_TIMEOUT_MS * 3)
    assert api(site, game_id)["record"][0] == "T E5xE4/D5/F5"


def test_a_line_tried_from_a_moment_leaves_the_game_as_it_was(site, new_page):
    """From a moment looked back at, a board of its own: moves for both sides, a
    thunder-stone chosen, one taken back, the address kept; the game is unchanged."""
    page = new_page()
    game_id = start_game(page, site)
    for move in ["D4", "E4", "C3"]:
        click_move(page, move)
    page.goto(f"{site.url}/g/{game_id}/?ply=2")
    page.click("[data-try-line]")
    page.wait_for_selector("#try")
    page.click('[data-square="A1"] button')  # dark, from move 2
    page.wait_for_selector('#try[data-line="A1"]')
    page.click('[data-stone-choice="thunder"]')
    page.wait_for_selector("#board.board--thunder")
    page.click('[data-square="E5"] button')  # light's thunder-stone
    page.wait_for_selector('#try[data-line="A1,T E5"]')
    assert page.url.endswith(f"/g/{game_id}/try?ply=2&line=A1%2CT+E5")
    assert page.get_attribute('[data-square="E5"]', "data-stone") == "light-thunder"
    assert page.locator("[data-line-moves] li").count() == 2
    page.click("[data-undo]")
    page.wait_for_selector('#try[data-line="A1"]')
    page.click("[data-back-to-game]")
    page.wait_for_url(re.compile(rf"/g/{game_id}/\?ply=2$"))
    page.click("[data-replay-back]")
    page.wait_for_selector('#game[data-ply="3"]')
    assert page.get_attribute('[data-square="A1"]', "data-stone") is None
    assert page.get_attribute('[data-square="C3"]', "data-stone") == "dark-stone"


# Each tone the page starts, by its frequency: the page's own sounds, heard by the test.
COUNT_TONES = """
window.tones = [];
const Context = window.AudioContext;
window.AudioContext = class extends Context {
  createOscillator() {
    const tone = super.createOscillator();
    const start = tone.start.bind(tone);
    tone.start = (...when) => { window.tones.push(tone.frequency.value); return start(...when); };
    return tone;
  }
};
"""


def test_moves_click_once_the_player_turns_it_on_and_stones_settle_unless_motion_is_unwelcome(
    site, new_page
):
    page = new_page(bypass_csp=True)
    page.add_init_script(COUNT_TONES)
    start_game(page, site)
    click_move(page, "D4")
    assert page.evaluate("window.tones") == []  # off unless turned on
    page.check("[data-signal=moves]")  # a sample of the sound
    click_move(page, "E4")
    # The click sounds once the answer settles, a moment after the board shows the move.
    page.wait_for_function("() => window.tones.length > 1", timeout=2000)
    assert page.evaluate("window.tones") == [320, 320]
    animation = "getComputedStyle(document.querySelector('.sq--last img')).animationName"
    assert page.evaluate(animation) == "place"
    page.reload()  # the choice is kept in this browser
    assert page.is_checked("[data-signal=moves]")
    page.uncheck("[data-signal=moves]")
    click_move(page, "C3")
    assert page.evaluate("window.tones") == []
    calm = new_page(reduced_motion="reduce")
    start_game(calm, site)
    click_move(calm, "D4")
    assert calm.evaluate(animation) == "none"
