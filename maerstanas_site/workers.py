"""The gunicorn worker that serves the site: uvicorn's, with the site's limits."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from maerstanas_site.logs import RedactSecrets
from maerstanas_site.settings import env_bool

# A request's line and headers must arrive within this many seconds of the
# connection opening (or of the previous response): a client that sends them a
# byte at a time, or nothing at all, is cut off instead of holding its connection.
HEAD_SECONDS = 10.0

_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: 37\r\nConnection: close\r\n\r\nThe request did not arrive in time.\r\n"
)


class Protocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's head.

    uvicorn has a keep-alive timeout between requests but none for a request's
    head itself; the body's deadline is RequestGuard's (maerstanas_site/guard.py).
    """

    _head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_deadline()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_head_deadline()

    def on_headers_complete(self) -> None:
        self._disarm_head_deadline()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_deadline()
        super().connection_lost(exc)

    def _arm_head_deadline(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(HEAD_SECONDS, self._head_timed_out)

    def _disarm_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.write(_TIMED_OUT)
            self.transport.close()


class Worker(UvicornWorker):
    """uvicorn's gunicorn worker (uvloop where installed), with ``Protocol``.

    Its logs keep no seat's secret (maerstanas_site/logs.py). A stopping worker
    gives open requests a few seconds and then closes them: the
    live pages' streams never end by themselves, and their browsers reconnect to
    the workers still running.
    """

    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "http": Protocol,
        "timeout_graceful_shutdown": 3,
        "server_header": False,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The client's address comes from X-Forwarded-For only behind a proxy (and
        # then only from GUNICORN_FORWARDED_ALLOW_IPS): else any client could name
        # itself, and the rate limits (game/limits.py) count per address.
        self.config.proxy_headers = env_bool("DJANGO_BEHIND_PROXY", env_bool("DJANGO_SECURE"))
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(RedactSecrets())
