"""Live friend games for locust: two browsers per game, polling as htmx does, and moves.

Each locust user is one game, set up over HTTP as two people would: the creator's
browser opens ``/``, starts a friend game and opens it (the page shows the invite);
the friend's browser opens the invite, takes the seat and opens the game. Then both
browsers poll ``/g/<id>/poll/<revision>`` every ``POLL_SECONDS`` from a random
phase, following the revision of the last partial they got; the player to move
waits until their page shows the opponent's move, thinks, and posts a random legal
move with the ply they saw, so a game sees a move about every ``MOVE_SECONDS``. A
finished game is followed by a new one. A client-side ``Position`` gives the legal
moves (the server plays automatic passes; so does the client).

``python -m bench.load`` runs this against a fresh server and reports; the locust
command runs it against any server: ``locust -f bench/locustfile.py --host URL``.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

import gevent
from locust import FastHttpUser, task
from locust.contrib.fasthttp import FastHttpSession

from game.engine import PASS, Color, Position

POLL_SECONDS = 1.5
MOVE_SECONDS = 20.0
CLOSE = {"Connection": "close"}  # a connection per request, as with gunicorn's sync workers
HTMX = {"HX-Request": "true"}

GAME_TAG = re.compile(r'<div id="game"[^>]*>')
MARK = re.compile(r'data-(revision|ply)="(\d+)"')
COOKIE = re.compile(r"(csrftoken|sessionid)=([^;]+)")


class GameError(Exception):
    """An answer a browser would not have got from a working site."""


@dataclass
class Browser:
    """One person's browser: its own cookies, and what its page shows."""

    session: FastHttpSession
    cookies: dict[str, str] = field(default_factory=dict)
    revision: int = 0
    ply: int = 0
    live: bool = True
    color: Color | None = None

    def send(self, method: str, path: str, name: str, **kwargs: object):
        headers = CLOSE | dict(kwargs.pop("headers", {}))  # type: ignore[arg-type]
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        response = self.session.request(
            method, path, name=name, headers=headers, allow_redirects=False, **kwargs
        )
        lines = (response.headers or {}).get("set-cookie", [])
        for line in [lines] if isinstance(lines, str) else lines:
            found = COOKIE.search(line)
            if found:
                self.cookies[found[1]] = found[2]
        return response

    def show(self, body: str) -> None:
        """Read the revision, ply and liveness from a game page or partial."""
        tag = GAME_TAG.search(body)
        if tag is None:
            raise GameError("the answer holds no game")
        marks = dict(MARK.findall(tag[0]))
        self.revision, self.ply = int(marks["revision"]), int(marks["ply"])
        self.live = "hx-get=" in tag[0]


def expect(response, status: int, what: str) -> None:
    if response.status_code != status:
        raise GameError(f"{what}: answered {response.status_code}, not {status}")


class FriendGame(FastHttpUser):
    """One live friend game between two browsers, played out over and over."""

    abstract = False
    connection_timeout = 10.0
    network_timeout = 10.0

    def on_start(self) -> None:
        self.rng = random.Random()
        self.new_game()

    def new_game(self) -> None:
        creator = Browser(self.client)
        friend = Browser(
            FastHttpSession(
                base_url=self.host, request_event=self.environment.events.request, user=self
            )
        )
        expect(creator.send("GET", "/", "setup: home"), 200, "home")
        created = creator.send(
            "POST",
            "/",
            "setup: create",
            data={"mode": "friend", "color": "dark", "special_stones": "on", "scoring": "standard"},
        )
        expect(created, 303, "create")
        path = created.headers["location"]
        page = creator.send("GET", path, "setup: page")
        expect(page, 200, "page")
        invite = re.search(r'data-invite-url="[^"]*(/g/[^"]+)"', page.text)
        if invite is None:
            raise GameError("the creator's page shows no invite")
        code = invite[1].rstrip("/").rsplit("/", 1)[1]
        expect(friend.send("GET", invite[1], "setup: invite"), 200, "invite")
        joined = friend.send("POST", f"{path}join", "setup: join", data={"invite": code})
        expect(joined, 303, "join")
        seen = friend.send("GET", path, "setup: page")
        expect(seen, 200, "page")
        friend.show(seen.text)
        creator.show(page.text)
        creator.color, friend.color = Color.DARK, Color.LIGHT
        self.path, self.browsers, self.position = path, (creator, friend), Position.start()
        now = time.monotonic()
        self.next_poll = [now + self.rng.uniform(0, POLL_SECONDS) for _ in self.browsers]
        self.next_move = now + self.think()

    def think(self) -> float:
        # Each player moves every other turn: half the game's pace each.
        return self.rng.uniform(0.5, 1.5) * MOVE_SECONDS / 2

    @task
    def live(self) -> None:
        """Wait for the next thing either browser does, and do it."""
        mover = next(b for b in self.browsers if b.color is self.position.turn)
        ready = mover.ply == self.position.ply and not self.position.is_over
        events = [(at, i) for i, at in enumerate(self.next_poll) if self.browsers[i].live]
        if ready:
            events.append((self.next_move, -1))
        if not events:
            self.new_game()
            return
        at, which = min(events)
        gevent.sleep(max(0.0, at - time.monotonic()))
        if which == -1:
            self.move(mover)
            self.next_move = time.monotonic() + self.think()
        else:
            self.poll(self.browsers[which])
            # htmx starts a new timer after each answer, with a little drift.
            self.next_poll[which] = time.monotonic() + POLL_SECONDS * self.rng.uniform(0.95, 1.05)

    def poll(self, browser: Browser) -> None:
        path = f"{self.path}poll/{browser.revision}?stone=stone"
        response = browser.send("GET", path, "poll", headers=HTMX)
        if response.status_code == 204:
            return
        expect(response, 200, "poll")
        browser.show(response.text)

    def move(self, browser: Browser) -> None:
        choice = self.rng.choice([m for m in self.position.legal_moves() if not m.is_pass])
        response = browser.send(
            "POST",
            f"{self.path}move",
            "move",
            headers=HTMX,
            data={"move": str(choice), "ply": str(self.position.ply)},
        )
        expect(response, 200, "move")
        if "data-error" in response.text:
            raise GameError(f"move {choice} refused")
        self.position = self.position.play(choice)
        while self.position.must_pass:
            self.position = self.position.play(PASS)
        browser.show(response.text)
        if browser.ply != self.position.ply:
            raise GameError(f"the board shows ply {browser.ply}, not {self.position.ply}")
