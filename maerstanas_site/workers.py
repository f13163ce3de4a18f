"""The gunicorn worker that serves the site: uvicorn's, with the site's limits."""

from __future__ import annotations

import asyncio
import inspect
import logging
import sys
from typing import Any

from gunicorn.arbiter import Arbiter
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from kit import capacity
from maerstanas_site.logs import RedactSecrets
from maerstanas_site.settings import env_bool

# A request's line and headers must arrive within this many seconds of the
# connection opening (or of the previous response): a client that sends them a
# byte at a time, or nothing at all, is cut off instead of holding its connection.
HEAD_SECONDS = 10.0
# A request's line and headers together may be this long: the site's own are well
# under 4 kB (its cookie included). Without a cap one connection sent an 89 MB
# header, which the parser kept in memory, and a 1 MB cookie was read.
MAX_HEAD_BYTES = 16 * 1024
_END_OF_HEAD = b"\r\n\r\n"

_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: 37\r\nConnection: close\r\n\r\nThe request did not arrive in time.\r\n"
)
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 53\r\nConnection: close\r\n"
    b"\r\nThe request's headers are longer than 16 kB allows.\r\n"
)


class Protocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's head, and a cap
    on its length (431, RFC 6585).

    uvicorn has a keep-alive timeout between requests but none for a request's
    head itself, nor a bound on it under httptools; the body's deadline and size are
    RequestGuard's (maerstanas_site/guard.py).
    """

    _head_deadline: asyncio.TimerHandle | None = None
    _in_head = True  # reading a request's line and headers
    _head_bytes = 0
    _tail = b""  # the last bytes read of the head, to find its end across two reads

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            window = self._tail + data
            end = window.find(_END_OF_HEAD)
            if end < 0:
                self._head_bytes += len(data)
                self._tail = window[-(len(_END_OF_HEAD) - 1) :]
            else:  # only the head's bytes count: a body may follow in the same read
                self._head_bytes += end + len(_END_OF_HEAD) - len(self._tail)
                self._in_head, self._tail = False, b""
            if self._head_bytes > MAX_HEAD_BYTES:
                self._disarm_head_deadline()
                if not self.transport.is_closing():
                    self.transport.write(_TOO_LARGE)
                    self.transport.close()
                return
        super().data_received(data)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head_bytes, self._tail = True, 0, b""

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
        # itself, and the rate limits (kit/limits.py) count per address.
        self.config.proxy_headers = env_bool("DJANGO_BEHIND_PROXY", env_bool("DJANGO_SECURE"))
        # Past this many connections at once a new one is answered 503 at once, below
        # the open-file limit; the live streams may hold all but a share of them
        # (kit/capacity.py), so the other requests are always served.
        limit = capacity.connection_limit(self.cfg.worker_connections)
        self.config.limit_concurrency = capacity.connections = limit
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(RedactSecrets())

    def load_wsgi(self) -> None:
        """Load the application, and refuse to serve one that is not ASGI: served here,
        ``maerstanas_site.wsgi`` answered 500 on every page."""
        super().load_wsgi()
        call = type(self.wsgi).__call__ if callable(self.wsgi) else None
        if not inspect.iscoroutinefunction(call):
            self.log.error(
                "%s is a WSGI application, and this worker serves ASGI: serve "
                "maerstanas_site.asgi (gunicorn maerstanas_site.asgi), or the WSGI "
                "application under a WSGI worker (--worker-class sync), which has no live "
                "streams (the pages then ask for news every second)",
                getattr(self.app, "app_uri", None) or "the application",
            )
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
