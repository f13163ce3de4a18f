"""What a client may send, checked before Django reads a byte of it.

Django's ASGI handler reads a request's whole body before any middleware runs, into
memory and then a temporary file: a 100 MB upload would land on disk before the
CSRF check refused it, and a body sent a byte at a time would hold its request
for as long as the client liked. ``RequestGuard`` stands in front of Django and
reads the body itself, with a size limit and a deadline, and refuses at once
what no page of the site accepts: uploads to any URL but the one that takes a file
(a game record, at ``/import/``), forms in any encoding but UTF-8 (Django
refuses those too, but its error page reads the body again and fails with a 500),
and headers that may come once but came twice (RFC 9110, section 5.3: two
``Content-Type`` lines, or a ``charset`` given twice, are read one way here and
another by Django).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# Every form of the site is a few hundred bytes, and the API's bodies at most 4 kB
# (it says so itself, with a 413 of its own); this leaves room and refuses the rest.
MAX_BODY_BYTES = 16 * 1024
# A body this small arrives in well under a second on any connection that works.
BODY_SECONDS = 10.0
# The URLs that take a file, and their limits: a game record is at most 64 kB
# (game.records), plus the form's other fields and the upload's own framing.
UPLOADS = {"/import/": 80 * 1024}
# Headers a request may carry once: RFC 9110's singletons, and the cookie (RFC 6265,
# section 5.4), the CSRF token's and htmx's.
SINGLETONS = frozenset(
    {
        b"host",
        b"content-type",
        b"content-length",
        b"authorization",
        b"cookie",
        b"origin",
        b"referer",
        b"user-agent",
        b"x-csrftoken",
        b"hx-request",
        b"if-modified-since",
        b"last-event-id",
    }
)


class RequestGuard:
    """ASGI middleware: bound each request's body in size and time, and refuse uploads."""

    def __init__(
        self,
        app: App,
        max_body: int = MAX_BODY_BYTES,
        body_seconds: float = BODY_SECONDS,
        uploads: dict[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds
        self.uploads = UPLOADS if uploads is None else uploads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value for name, value in scope["headers"]}
        upload_limit = self.uploads.get(scope["path"])
        limit = upload_limit or self.max_body
        refusal = _repeated(scope["headers"]) or self._refusal(
            headers, limit, takes_files=upload_limit is not None
        )
        if refusal:
            await _answer(scope, send, *refusal)
            return
        if not _may_have_body(scope["method"], headers):  # most: nothing to read or wait for
            await self.app(scope, receive, send)
            return
        try:
            body = await asyncio.wait_for(self._read_body(receive, limit), self.body_seconds)
        except TimeoutError:
            await _answer(scope, send, 408, "the request's body did not arrive in time")
            return
        except _TooLarge:
            await _answer(scope, send, 413, _too_large(limit))
            return
        except _Disconnected:
            return
        await self.app(scope, _replay(body, receive), send)

    def _refusal(
        self, headers: dict[bytes, bytes], limit: int, takes_files: bool
    ) -> tuple[int, str] | None:
        """The status and message of a request refused on its headers alone, if it is."""
        length = headers.get(b"content-length", b"").strip()
        if length and (not length.isdigit() or int(length) > limit):
            return (413, _too_large(limit)) if length.isdigit() else (400, "bad length")
        has_body = (length and int(length) > 0) or b"transfer-encoding" in headers
        # Without a Content-Type, any default but the two types checked reads the same.
        media_type, _, params = headers.get(b"content-type", b"").partition(
            b";"
        )  # pragma: no mutate
        media_type = media_type.strip().lower()
        # The names are only compared with each other: folded to upper case, as alike.
        names = [
            param.partition(b"=")[0].strip().lower()  # pragma: no mutate
            for param in params.split(b";")
        ]
        names = [name for name in names if name]
        if len(set(names)) != len(names):
            return 400, "a parameter of the Content-Type comes twice"
        if has_body and media_type == b"multipart/form-data" and not takes_files:
            return 413, "this address takes no uploads: send forms urlencoded"
        if media_type == b"application/x-www-form-urlencoded" and not _is_utf8(params):
            return 400, "send forms encoded as UTF-8"
        return None

    async def _read_body(self, receive: Receive, limit: int) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _TooLarge
            chunks.append(chunk)
            # A missing more_body read as None is as false as the default.
            if not message.get("more_body", False):  # pragma: no mutate
                return b"".join(chunks)


def _repeated(headers: list[tuple[bytes, bytes]]) -> tuple[int, str] | None:
    """A refusal of a header that may come once but came more often, if one did."""
    seen: set[bytes] = set()
    for name, _ in headers:
        name = name.lower()
        if name in SINGLETONS:
            if name in seen:
                return 400, f"the {name.decode()} header comes more than once"
            seen.add(name)
    return None


def _may_have_body(method: str, headers: dict[bytes, bytes]) -> bool:
    """True unless the request says no body follows its head: a method that sends
    none (a GET) without a length or chunks (RFC 9112, section 6.3)."""
    if method in ("POST", "PUT", "PATCH") or b"transfer-encoding" in headers:
        return True
    length = headers.get(b"content-length", b"").strip()
    return length.isdigit() and int(length) > 0


class _TooLarge(Exception):
    pass


class _Disconnected(Exception):
    pass


def _too_large(limit: int) -> str:
    return f"the request's body is larger than this site takes ({limit // 1024} kB)"


def _is_utf8(params: bytes) -> bool:
    """True unless the Content-Type's parameters name a charset other than UTF-8."""
    for param in params.split(b";"):
        name, _, value = param.partition(b"=")
        if name.strip().lower() == b"charset":
            return value.strip().strip(b'"').lower() in (b"utf-8", b"utf8")
    return True


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then whatever the client sends."""
    # Only ``not sent`` is read: None would do as well as False.
    sent = False  # pragma: no mutate

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _answer(scope: Scope, send: Send, status: int, message: str) -> None:
    """Refuse: JSON under /api/ (as the API's own refusals), plain text elsewhere."""
    if scope["path"].startswith("/api/"):
        body = json.dumps({"error": message}).encode()
        content_type = b"application/json"
    else:
        body = (message[0].upper() + message[1:] + ".\n").encode()
        content_type = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body if scope["method"] != "HEAD" else b""})
