"""A plain HTTP visitor for tests against a live server: cookies, CSRF, no redirects followed."""

from __future__ import annotations

import http.client
import json
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


@dataclass
class Visitor:
    """One browser: its own cookie jar (so its own seats), talking to one server."""

    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30
    always: dict[str, str] = field(default_factory=dict)  # headers sent with every request

    def clone(self) -> Visitor:
        """Another tab of the same browser: same cookies, same seats."""
        return Visitor(self.base_url, dict(self.cookies), self.timeout, dict(self.always))

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        htmx: bool = False,
    ) -> Reply:
        parts = urlsplit(self.base_url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=self.timeout)
        sent = self.always | dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            sent["HX-Request"] = "true"
        body = None
        if data is not None:
            body = urlencode(data)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            if "csrftoken" in self.cookies:
                sent.setdefault("X-CSRFToken", self.cookies["csrftoken"])
            # Browsers name the page's origin on every POST; Django checks it over HTTPS.
            scheme = sent.get("X-Forwarded-Proto", parts.scheme)
            sent.setdefault("Origin", f"{scheme}://{parts.netloc}")
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    cookie, _, _ = value.partition(";")
                    key, _, val = cookie.partition("=")
                    self.cookies[key.strip()] = val
            headers_out = {k.lower(): v for k, v in response.getheaders()}
            return Reply(response.status, headers_out, text)
        finally:
            connection.close()

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
