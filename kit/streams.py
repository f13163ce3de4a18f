"""Who may open a live page's stream, and what every stream view answers before it
streams: the gate of each process (``Gate``), and the refusals that come before it.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from kit import capacity, limits


class Refusal(str):
    """Why a stream may not open, and the status that says so: 429 for a client past
    its own limits, 503 for a process whose streams hold all they may."""

    status: int

    def __new__(cls, text: str, status: int = 429) -> Refusal:
        refusal = super().__new__(cls, text)
        refusal.status = status
        return refusal


class Gate:
    """Who may open a stream in this process: a client holds at most ``per_client``
    open, and opens at most ``opens`` in ``window`` seconds; all clients together hold
    at most ``budget`` (``kit.capacity``: the connections the process
    keeps for its other requests are never a stream's), or any number for None.

    One address opened 3,000 idle streams in five seconds, and with them every file
    the processes could open: the site stopped accepting anyone. Then 34 addresses,
    each within its limit, held every connection, and every other request got 503.
    Counted here in the process's memory, at no cost to the database a stream would
    otherwise add: what is bounded is this process's connections.
    """

    def __init__(
        self, per_client: int, opens: int, window: float = 60.0, budget: int | None = None
    ) -> None:
        self.per_client = per_client
        self.opens = opens
        self.window = window
        self.budget = budget
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}
        self._total = 0
        self._opened: dict[str, tuple[int, int]] = {}  # client: (window number, opens)

    def admit(self, client: str, now: float | None = None) -> str:
        """Let ``client`` open a stream and return "", or say why it may not (a
        ``Refusal``, whose ``status`` is the answer's)."""
        now = time.monotonic() if now is None else now
        window = int(now // self.window)
        with self._lock:
            if self._open.get(client, 0) >= self.per_client:
                return Refusal(
                    f"too many live pages open: at most {self.per_client} from one address"
                )
            if self.budget is not None and self._total >= self.budget:
                return Refusal(
                    "the server has as many live pages open as it can hold; the page asks "
                    "for news by itself meanwhile",
                    status=503,
                )
            started, opens = self._opened.get(client, (window, 0))
            opens = opens + 1 if started == window else 1
            if opens > self.opens:
                return Refusal(
                    f"too many live pages opened: at most {self.opens} a minute from one "
                    "address; the page asks for news by itself meanwhile"
                )
            self._opened[client] = (window, opens)
            if len(self._opened) > 4 * self.opens * self.per_client:  # forget old windows
                self._opened = {c: o for c, o in self._opened.items() if o[0] == window}
            self._open[client] = self._open.get(client, 0) + 1
            self._total += 1
            return ""

    def ticket(self, client: str) -> Callable[[], None]:
        """What gives ``client``'s admitted stream back, once, however often it is called."""
        given_back = threading.Event()

        def give_back() -> None:
            if not given_back.is_set():
                given_back.set()
                self.leave(client)

        return give_back

    def leave(self, client: str) -> None:
        """A stream of ``client`` closed."""
        with self._lock:
            held = self._open.get(client, 0)
            if held > 1:
                self._open[client] = held - 1
            else:
                self._open.pop(client, None)
            if held:
                self._total -= 1

    def total(self) -> int:
        """How many streams are open here, all clients together."""
        with self._lock:
            return self._total

    def held(self, client: str) -> int:
        """How many streams ``client`` holds open here."""
        with self._lock:
            return self._open.get(client, 0)


_gate: Gate | None = None
_gate_lock = threading.Lock()


def gate() -> Gate:
    """This process's gate for streams."""
    global _gate
    with _gate_lock:
        if _gate is None:
            served = capacity.connections
            _gate = Gate(
                settings.LIVE_STREAMS_PER_CLIENT,
                settings.LIVE_STREAM_OPENS_PER_MINUTE,
                budget=None if served is None else capacity.stream_budget(served),
            )
        return _gate


# Server-sent event streams: what every stream view refuses before it streams ---------

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def not_an_event_stream(request: HttpRequest) -> HttpResponse | None:
    """406 unless the request accepts ``text/event-stream``."""
    if request.accepts("text/event-stream"):
        return None
    return HttpResponse(
        "This is a stream of server-sent events: ask for text/event-stream.\n",
        status=406,
        content_type="text/plain",
    )


def no_stream_here(request: HttpRequest) -> HttpResponse | None:
    """The stream's headers alone for HEAD (its body would never end); 503 under WSGI,
    whose worker the stream would hold as long as the page stays open (the page asks
    for news every second instead)."""
    if request.method == "HEAD":
        return HttpResponse(content_type="text/event-stream", headers=STREAM_HEADERS)
    if "wsgi.input" in request.META:
        return HttpResponse(
            "Live streams need the ASGI server (maerstanas_site.asgi).\n",
            status=503,
            content_type="text/plain",
            headers={"Retry-After": "3600"},
        )
    return None


def admit_stream(request: HttpRequest) -> HttpResponse | Callable[[], None]:
    """The client's place at the gate (``Gate``): what gives it back, once, or the
    answer that says why it has none (429: the client's limits; 503: the process's)."""
    client = limits.client_of(request)
    door = gate()
    refusal = door.admit(client)
    if refusal:
        response = HttpResponse(f"{refusal[0].upper()}{refusal[1:]}.\n", status=refusal.status)
        response["Content-Type"] = "text/plain; charset=utf-8"
        response["Retry-After"] = "60"
        # The connection is given back too: a refused client holds none of the few.
        response["Connection"] = "close"
        return response
    return door.ticket(client)


def streaming(events: AsyncIterator[str | bytes], give_back: Callable[[], None]) -> HttpResponse:
    """The answer streaming ``events``; the client's place is given back when they end,
    however they end, or when they are thrown away unstarted."""
    weakref.finalize(events, give_back)
    return StreamingHttpResponse(events, content_type="text/event-stream", headers=STREAM_HEADERS)
