"""The load tests' own small HTTP/1.1 client, over raw sockets on asyncio: a stream
is a socket and a parser, and a request costs a few tens of microseconds of CPU
(``bench.load`` says why not httpx or locust). ``bench.load`` and ``bench.lobby``
both speak to the site through it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

TIMEOUT = 30.0  # for any one request, a stream's opening, or a move's events
POOL_SIZE = 64  # keep-alive connections for requests, per server
KEEPALIVE_SECONDS = 3.0  # a pooled connection idle longer is closed (gunicorn's keepalive is 5)

Address = tuple[str, int]
Headers = Mapping[str, str]
NO_HEADERS: Headers = MappingProxyType({})


class LoadError(Exception):
    """Something a working site would not have done; its text names the error's kind."""


class HttpProtocol(asyncio.Protocol):
    """HTTP/1.1 responses read off one socket: a head, then a body by length or chunks."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.lost = asyncio.get_running_loop().create_future()
        self._buffer = bytearray()
        self._state = "head"
        self._remaining = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        buffer = self._buffer
        while buffer:
            if self._state == "head":
                end = buffer.find(b"\r\n\r\n")
                if end < 0:
                    return
                lines = buffer[:end].decode("latin-1").split("\r\n")
                del buffer[: end + 4]
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                chunked = "chunked" in headers.get("transfer-encoding", "").lower()
                self._remaining = 0 if chunked else int(headers.get("content-length", 0))
                self._state = "size" if chunked else "body"
                self.on_head(int(lines[0].split(" ", 2)[1]), headers)
            elif self._state == "body":
                taken = min(self._remaining, len(buffer))
                if taken:
                    self.on_body(bytes(buffer[:taken]))
                    del buffer[:taken]
                    self._remaining -= taken
                if self._remaining:
                    return
                self._state = "head"
                self.on_end()
            elif self._state == "size":
                end = buffer.find(b"\r\n")
                if end < 0:
                    return
                self._remaining = int(bytes(buffer[:end]).split(b";")[0], 16)
                del buffer[: end + 2]
                self._state = "chunk" if self._remaining else "trailer"
            elif self._state == "chunk":
                if len(buffer) < self._remaining + 2:
                    return
                self.on_body(bytes(buffer[: self._remaining]))
                del buffer[: self._remaining + 2]
                self._state = "size"
            else:  # trailer: header lines up to an empty one
                end = buffer.find(b"\r\n")
                if end < 0:
                    return
                del buffer[: end + 2]
                if end == 0:
                    self._state = "head"
                    self.on_end()
        if self._state == "body" and not self._remaining:  # a head with no body
            self._state = "head"
            self.on_end()

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        raise NotImplementedError

    def on_body(self, data: bytes) -> None:
        raise NotImplementedError

    def on_end(self) -> None:
        raise NotImplementedError


def request_bytes(
    method: str, path: str, address: Address, body: Any = None, headers: Headers = NO_HEADERS
) -> bytes:
    """An HTTP/1.1 request, its body (if any) as JSON."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {address[0]}:{address[1]}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    content = b""
    if body is not None:
        content = json.dumps(body).encode()
        lines += ["Content-Type: application/json", f"Content-Length: {len(content)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + content


@dataclass
class Reply:
    status: int
    body: bytes
    sent: float  # perf_counter just before the request was written
    answered: float  # when its last byte arrived

    def json(self) -> Any:
        return json.loads(self.body)


class Connection(HttpProtocol):
    """A keep-alive connection for requests, one at a time."""

    def __init__(self) -> None:
        super().__init__()
        self.idle_since = time.monotonic()
        self.reusable = True
        self._waiter: asyncio.Future[Reply] | None = None
        self._status = 0
        self._body: list[bytes] = []
        self._sent = 0.0

    async def request(self, raw: bytes) -> Reply:
        assert self.transport is not None and self._waiter is None
        self._waiter = asyncio.get_running_loop().create_future()
        self._body = []
        self._sent = time.perf_counter()
        self.transport.write(raw)
        try:
            async with asyncio.timeout(TIMEOUT):
                return await self._waiter
        finally:
            self._waiter = None
            self.idle_since = time.monotonic()

    def on_head(self, status: int, headers: dict[str, str]) -> None:
        self._status = status
        self.reusable = headers.get("connection", "").lower() != "close"

    def on_body(self, data: bytes) -> None:
        self._body.append(data)

    def on_end(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            reply = Reply(self._status, b"".join(self._body), self._sent, time.perf_counter())
            self._waiter.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.reusable = False
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(LoadError("connection closed"))


async def connect(address: Address, factory: Callable[[], HttpProtocol]) -> Any:
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(TIMEOUT):
        _, protocol = await loop.create_connection(factory, *address)
    return protocol


class Pool:
    """Keep-alive connections to one server, at most ``size`` requests at once."""

    def __init__(self, address: Address, size: int = POOL_SIZE) -> None:
        self.address = address
        self._idle: list[Connection] = []
        self._slots = asyncio.Semaphore(size)

    async def request(
        self, method: str, path: str, body: Any = None, headers: Headers = NO_HEADERS
    ) -> Reply:
        raw = request_bytes(method, path, self.address, body, headers)
        async with self._slots:
            connection = self._take() or await connect(self.address, Connection)
            try:
                reply = await connection.request(raw)
            except BaseException:
                connection.close()
                raise
            if connection.reusable:
                self._idle.append(connection)
            else:
                connection.close()
            return reply

    def _take(self) -> Connection | None:
        while self._idle:
            connection = self._idle.pop()
            if connection.reusable and time.monotonic() - connection.idle_since < KEEPALIVE_SECONDS:
                return connection
            connection.close()
        return None

    def close(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()
