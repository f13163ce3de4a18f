"""A plain HTTP visitor for tests against a live server: cookies, CSRF, no redirects followed."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

import httpx


@dataclass
class Reply:
    status: int
    headers: dict[str, str]  # lower-case names; repeated headers joined with ", "
    body: str
    set_cookies: list[str] = field(default_factory=list)  # each Set-Cookie line, whole

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


@dataclass
class Visitor:
    """One browser: its own cookies (so its own seats), talking to one server.

    Cookies are kept by name, whatever their flags: the tests send "Secure" cookies
    over plain HTTP when they play a TLS-terminating proxy (``X-Forwarded-Proto``).
    """

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30
    always: dict[str, str] = field(default_factory=dict)  # headers sent with every request
    # The address it connects from: another loopback address (127.0.0.2) is another
    # client to the server's limits and queue.
    local_address: str = ""

    def clone(self) -> Visitor:
        """Another tab of the same browser: same cookies, same seats."""
        return Visitor(
            self.base_url, dict(self.cookies), self.timeout, dict(self.always), self.local_address
        )

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        htmx: bool = False,
    ) -> Reply:
        sent = self.always | dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            sent["HX-Request"] = "true"
        body = None
        if data is not None:
            body = urlencode(data).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            if "csrftoken" in self.cookies:
                sent.setdefault("X-CSRFToken", self.cookies["csrftoken"])
            # Browsers name the page's origin on every POST; Django checks it over HTTPS.
            parts = urlsplit(self.base_url)
            scheme = sent.get("X-Forwarded-Proto", parts.scheme)
            sent.setdefault("Origin", f"{scheme}://{parts.netloc}")
        transport = httpx.HTTPTransport(local_address=self.local_address or None)
        with httpx.Client(transport=transport, timeout=self.timeout) as client:
            response = client.request(method, self.base_url + path, content=body, headers=sent)
        set_cookies = response.headers.get_list("set-cookie")
        for line in set_cookies:
            cookie, _, _ = line.partition(";")
            name, _, value = cookie.partition("=")
            self.cookies[name.strip()] = value
        return Reply(
            response.status_code,
            {name: response.headers[name] for name in response.headers},
            response.text,
            set_cookies,
        )

    def get(self, path: str, htmx: bool = False) -> Reply:
        return self.request("GET", path, htmx=htmx)

    def post(self, path: str, data: dict[str, str], htmx: bool = False) -> Reply:
        if "csrftoken" not in self.cookies:
            self.get("/")
        return self.request("POST", path, data=data, htmx=htmx)

    # The site's actions ---------------------------------------------------------------------

    def new_game(self, mode: str = "hotseat", color: str = "dark", **rules: str) -> str:
        data = {"mode": mode, "color": color, "special_stones": "on", "scoring": "standard"}
        reply = self.post("/", data | rules)
        assert reply.status == 303, (reply.status, reply.body[:500])
        return re.search(r"/g/([^/]+)/", reply.location)[1]

    def invite_url(self, game_id: str) -> str:
        page = self.get(f"/g/{game_id}/").body
        return re.search(r'data-invite-url="([^"]+)"', page)[1]

    def join(self, game_id: str, invite_url: str) -> None:
        code = invite_url.rstrip("/").rsplit("/", 1)[1]
        reply = self.post(f"/g/{game_id}/join", {"invite": code})
        assert reply.status == 303, reply.status
        assert "(you)" in self.get(f"/g/{game_id}/").body

    def move(self, game_id: str, move: str, ply: int, htmx: bool = True) -> Reply:
        return self.post(f"/g/{game_id}/move", {"move": move, "ply": str(ply)}, htmx=htmx)

    def state(self, game_id: str) -> dict:
        reply = self.get(f"/api/games/{game_id}")
        assert reply.status == 200, reply.status
        return json.loads(reply.body)


def applied(reply: Reply) -> bool:
    """True when a move's htmx answer is the new board without a refusal message."""
    return reply.status == 200 and "data-error" not in reply.body
