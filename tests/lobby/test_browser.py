"""Finding an opponent in headless Chromium against gunicorn and the task worker: two
people meet in the live lobby and play a 1+0 game until a clock runs out."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator

import httpx
import pytest
from aiosmtpd.controller import Controller

from tests.game.test_browser import click_move, game_id_of, sign_up, troubles_of
from tests.site.test_mail import Inbox
from tests.support.accounts import PASSWORD
from tests.support.servers import (
    ARTIFACTS,
    Server,
    Worker,
    free_port,
    prepare,
    scratch_database,
    site_env,
)

pytestmark = pytest.mark.browser

LIVE_TIMEOUT_MS = 6000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with scratch_database(os.environ.get("DATABASE_URL")) as database_url:
        env = site_env(tmp_path_factory.mktemp("lobby-site"), database_url)
        prepare(env)
        server = Server(env, workers=2).start()
        worker = Worker(env).start()
        yield server
        worker.stop()
        server.stop()


def post_challenge(page, site: Server, minutes: str = "1", increment: str = "0") -> str:
    page.goto(f"{site.url}/lobby/")
    page.check("input[name=speed][value=live]")
    page.select_option("select[name=minutes]", minutes)
    page.fill("input[name=increment]", increment)
    page.check("input[name=color][value=dark]")
    page.click("[data-challenge-form] button[type=submit]")
    page.wait_for_selector(".challenge--mine")
    return page.get_attribute(".challenge--mine", "data-challenge")


def clock_ms(page, color: str) -> int:
    """What the clock of ``color`` shows now, in milliseconds."""
    text = page.inner_text(f'[data-clock="{color}"] [data-clock-time]')
    minutes, seconds = text.split(":")
    return round((int(minutes) * 60 + float(seconds)) * 1000)


def resize_the_chat_box(page) -> None:
    """Drag the chat's text box taller by its corner, as a player may: the browser
    keeps the new size in the element's style attribute."""
    box = page.locator("#chat-text").bounding_box()
    corner = (box["x"] + box["width"] - 3, box["y"] + box["height"] - 3)
    page.mouse.move(*corner)
    page.mouse.down()
    page.mouse.move(corner[0], corner[1] + 60, steps=5)
    page.mouse.up()
    assert page.get_attribute("#chat-text", "style"), "the text box kept no size"


# Where each side's name and clock are drawn, and the window's width.
SIDES = """() => [innerWidth, ...["dark", "light"].map((color) => {
    const box = (selector) => {
        const { left, top, right, bottom } = document.querySelector(selector)
            .getBoundingClientRect();
        return { left, top, right, bottom };
    };
    return { name: box(`[data-seat-name="${color}"]`), clock: box(`[data-clock="${color}"]`) };
})]"""


def assert_each_clock_beside_its_player(page) -> None:
    """Each side's clock touches its player's name (on the same line, or just under it
    where the name is long), dark's both on the left half, light's on the right."""
    width, dark, light = page.evaluate(SIDES)
    for side, half in ((dark, "left"), (light, "right")):
        name, clock = side["name"], side["clock"]
        across = max(name["left"] - clock["right"], clock["left"] - name["right"], 0)
        down = max(name["top"] - clock["bottom"], clock["top"] - name["bottom"], 0)
        assert across < 24 and down < 12, side
        for box in (name, clock):
            if half == "left":
                assert box["right"] <= width / 2, (half, side)
            else:
                assert box["left"] >= width / 2, (half, side)


def test_two_players_meet_in_the_lobby_and_play_1_0_to_a_timeout(site, new_page):
    ann = new_page()
    bob = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    troubles = {"ann": troubles_of(ann), "bob": troubles_of(bob)}
    sign_up(ann, site, "Clock_Ann")  # an account: the chat has a text box for her
    bob.goto(f"{site.url}/lobby/")
    bob.wait_for_selector("[data-no-challenges]:not([hidden])")
    challenge_id = post_challenge(ann, site)
    # Bob's open lobby page shows the challenge without a reload.
    row = f'[data-challenge="{challenge_id}"]'
    bob.wait_for_selector(f"{row} .challenge__accept button", timeout=LIVE_TIMEOUT_MS)
    assert "1+0" in bob.inner_text(row)
    assert bob.locator(f"{row} .challenge__cancel").count() == 0
    assert ann.locator(f"{row} .challenge__accept").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=ARTIFACTS / "lobby-phone.png", full_page=True)
    bob.click(f"{row} .challenge__accept button")
    bob.wait_for_url(re.compile(r"/g/[^/]+/$"))
    game_id = game_id_of(bob)
    # Ann's lobby page goes to the game at once.
    ann.wait_for_url(f"{site.url}/g/{game_id}/", timeout=LIVE_TIMEOUT_MS)
    assert "Dark (you)" in ann.inner_text("#status")
    assert "Light (you)" in bob.inner_text("#status")
    assert ann.locator(".deadline--first").count() == 1  # 30 s for a first move
    for page in (ann, bob):  # a desktop and a phone
        assert_each_clock_beside_its_player(page)
    resize_the_chat_box(ann)
    click_move(ann, "D4")
    bob.wait_for_selector('#game[data-ply="1"]', timeout=LIVE_TIMEOUT_MS)
    bob.tap('[data-square="A1"] button')
    bob.tap('[data-square="A1"] button')
    ann.wait_for_selector('#game[data-ply="2"]', timeout=LIVE_TIMEOUT_MS)
    # Now dark's clock runs, on both pages, and light's stands.
    ann.wait_for_selector('[data-clock="dark"][data-running]')
    bob.wait_for_selector('[data-clock="dark"][data-running]', timeout=LIVE_TIMEOUT_MS)
    first = clock_ms(ann, "dark")
    time.sleep(3)  # the clock shows whole seconds: it has ticked at least twice
    assert clock_ms(ann, "dark") <= first - 2000
    assert clock_ms(bob, "light") == 60000
    ann.screenshot(path=ARTIFACTS / "clock-running.png", full_page=True)
    state = httpx.get(f"{site.url}/api/games/{game_id}").json()
    assert state["speed"] == "live" and state["clock"]["running"] == "dark"
    assert 50_000 < state["clock"]["dark"] < 60_000 and state["clock"]["light"] == 60_000
    # Under ten seconds the running clock warns.
    ann.wait_for_selector('[data-clock="dark"].is-low', timeout=60_000)
    # Nobody moves: the game ends on time, on both pages.
    for page in (ann, bob):
        page.wait_for_selector('[data-result="light"]', timeout=15_000)
        assert "Dark ran out of time" in page.inner_text("#status")
    bob.screenshot(path=ARTIFACTS / "timeout-phone.png", full_page=True)
    state = httpx.get(f"{site.url}/api/games/{game_id}").json()
    assert (state["end"], state["result"]) == ("timeout", "light")
    assert state["clock"] == {"dark": 0, "light": 60000, "increment": 0, "running": None}
    # The pages redrew the game again and again (moves, the clocks, the end), whatever
    # the browser or the player had done to their elements: no inline style was set.
    assert troubles == {"ann": [], "bob": []}


def test_a_row_heard_live_tells_its_creator_their_side_and_anyone_else_theirs(site, new_page):
    ann, bob = new_page(), new_page()
    first = post_challenge(ann, site)  # Ann's lobby page now knows her challenges
    bob.goto(f"{site.url}/lobby/")
    # Ann posts again from another tab: her open page hears of it as everyone's does.
    other_tab = ann.context.new_page()
    post_challenge(other_tab, site)
    mine = other_tab.eval_on_selector_all(
        ".challenge--mine", "rows => rows.map(row => row.dataset.challenge)"
    )
    (second,) = set(mine) - {first}
    row = f'[data-challenge="{second}"] .challenge__terms'
    for page in (ann, bob):
        page.wait_for_selector(row, timeout=LIVE_TIMEOUT_MS)
    assert "you play dark" in ann.inner_text(row) and "light" not in ann.inner_text(row)
    assert "you play light" in bob.inner_text(row) and "dark" not in bob.inner_text(row)
    for challenge in (first, second):
        ann.click(f'[data-challenge="{challenge}"] .challenge__cancel button')


def test_a_challenge_left_unanswered_until_nobody_moves_is_aborted(site, new_page):
    """An accepted game nobody starts: after 30 s the task worker aborts it, with no page
    asking (both left), and the lobby's list no longer holds the challenge."""
    ann, bob = new_page(), new_page()
    challenge_id = post_challenge(ann, site, minutes="0.25")
    bob.goto(f"{site.url}/lobby/")
    bob.click(f'[data-challenge="{challenge_id}"] .challenge__accept button')
    bob.wait_for_url(re.compile(r"/g/[^/]+/$"))
    started = time.monotonic()
    game_id = game_id_of(bob)
    ann.wait_for_url(f"{site.url}/g/{game_id}/", timeout=LIVE_TIMEOUT_MS)
    for page in (ann, bob):
        page.goto("about:blank")
    # The game's stream reads the game's row, and asks nothing of the clock: its end
    # is the worker's doing.
    with httpx.stream(
        "GET",
        f"{site.url}/g/{game_id}/live?revision=0",
        headers={"Accept": "text/event-stream"},
        timeout=60,
    ) as stream:
        for line in stream.iter_lines():
            if line == "event: end":
                break
    assert 28 < time.monotonic() - started < 45
    watcher = new_page()
    watcher.goto(f"{site.url}/lobby/")
    assert watcher.locator(f'[data-challenge="{challenge_id}"]').count() == 0
    state = httpx.get(f"{site.url}/api/games/{game_id}").json()
    assert (state["end"], state["result"], state["over"]) == ("aborted", None, True)


def sign_up_with_mail(page, site: Server, username: str, address: str) -> None:
    page.goto(f"{site.url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", address)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("[data-form=signup] button[type=submit]")
    page.wait_for_selector(f'[data-username="{username}"]')


def test_a_correspondence_challenge_its_notification_and_its_mail(tmp_path, new_page):
    """Ann challenges Bob by name to a 3-days-a-move game; Bob, who asked for mail,
    sees the challenge in his notifications and lobby, accepts it; Ann moves, and
    Bob's turn is in his notifications, his "your turn" list, and his inbox, mailed
    by the worker, with the deadline on the board."""
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    env = site_env(
        tmp_path,
        os.environ.get("DATABASE_URL"),
        DJANGO_EMAIL_HOST="127.0.0.1",
        DJANGO_EMAIL_PORT=str(smtp.port),
        MAERSTANAS_SITE_URL="http://play.example.org",
    )
    with scratch_database(env.pop("DATABASE_URL", None)) as database_url:
        if database_url:
            env["DATABASE_URL"] = database_url
        prepare(env)
        server = Server(env, workers=1).start()
        worker = Worker(env).start()
        try:
            ann = new_page()
            bob = new_page(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
            sign_up_with_mail(ann, server, "Corr_Ann", "ann@example.org")
            sign_up_with_mail(bob, server, "Corr_Bob", "bob@example.org")
            inbox.wait(2)  # the two addresses' verification mails
            bob.goto(f"{server.url}/notifications/")
            bob.check("input[name=email][value=each]")
            bob.click("[data-notifications-email] button[type=submit]")
            bob.wait_for_selector("input[name=email][value=each]:checked")
            ann.goto(f"{server.url}/players/Corr_Bob/challenge")
            ann.check("input[name=speed][value=correspondence]")
            ann.select_option("select[name=days]", "3")
            ann.check("input[name=color][value=dark]")
            ann.click("[data-challenge-form] button[type=submit]")
            ann.wait_for_url(f"{server.url}/lobby/*")
            # Bob hears of it: a notification, mailed, and the challenge in his lobby.
            challenge_mail = inbox.wait(3)
            assert challenge_mail["To"] == "bob@example.org"
            assert "Corr_Ann" in challenge_mail.get_content()
            bob.goto(f"{server.url}/notifications/")
            assert "Corr_Ann" in bob.inner_text('[data-notification][data-kind="challenge"]')
            assert bob.get_attribute("[data-notifications]", "data-notifications") != "0"
            bob.goto(f"{server.url}/lobby/")
            bob.click("[data-to-me] button:text('Accept')")
            bob.wait_for_url(re.compile(r"/g/[^/]+/$"))
            game_id = game_id_of(bob)
            assert "3 days a move" in bob.inner_text("[data-clocks]")
            # Ann's lobby page goes to the game by itself as it starts.
            ann.wait_for_url(f"{server.url}/g/{game_id}/", timeout=10_000)
            assert "Dark must move by" in ann.inner_text("[data-deadline]")
            click_move(ann, "D4")
            # Bob's turn: mailed by the worker with a link to the game.
            turn_mail = inbox.wait(4, timeout=20)
            assert turn_mail["To"] == "bob@example.org"
            assert f"http://play.example.org/g/{game_id}/" in turn_mail.get_content()
            bob.goto(f"{server.url}/")
            item = bob.locator(f'[data-your-turn-list] [data-your-turn="{game_id}"]')
            assert "left" in item.inner_text()
            bob.goto(f"{server.url}/notifications/")
            assert bob.locator('[data-notification][data-kind="your_turn"]').count() == 1
            ARTIFACTS.mkdir(exist_ok=True)
            bob.screenshot(path=ARTIFACTS / "notifications-phone.png", full_page=True)
            bob.goto(f"{server.url}/g/{game_id}/")
            assert "Light must move by" in bob.inner_text("[data-deadline]")
            assert "2 days" in bob.inner_text("[data-deadline]")
        finally:
            worker.stop()
            server.stop()
            smtp.stop()
