"""How often one client may create games, join them and act through the API.

One client created 1,173 games in ten seconds. Each limit counts a client's
requests of one kind in fixed windows of time, in the site's own database, so the
count holds across every worker and host and needs no other service (the usual
libraries count in memcached or Redis). A count is one statement, an upsert that
adds one and reads the total; only requests that write anyway are limited.

The client is the address the request came from: with ``DJANGO_BEHIND_PROXY`` the
server takes it from the proxy's ``X-Forwarded-For`` (gunicorn.conf.py trusts the
proxy's address then, and nobody's otherwise), so a client cannot choose its own.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from kit import counters
from kit.models import RateCount


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``requests`` of kind ``name`` per client in each ``seconds``."""

    name: str
    requests: int
    seconds: int


CREATE = Limit("create", requests=30, seconds=600)
JOIN = Limit("join", requests=60, seconds=600)
API_WRITE = Limit("api", requests=600, seconds=60)
# A picture not drawn before costs some 70 ms of a core: six clients asking for new
# ones took both cores of a small server.
DRAW = Limit("draw", requests=30, seconds=60)
# Hints and analyses each cost the worker a second of the strongest level's thought.
THINK = Limit("think", requests=60, seconds=600)

# The client of the request being served, for what it sets going after it is
# answered (the computer's tasks are queued fairly by client: game.computer).
current_client: ContextVar[str] = ContextVar("current_client", default="")


class ClientMiddleware:
    """Note each request's client in ``current_client`` while it is served."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = current_client.set(client_of(request))
        try:
            return self.get_response(request)
        finally:
            current_client.reset(token)


class Exceeded(Exception):
    """The client has used up a limit; it may try again after ``retry_after`` seconds."""

    def __init__(self, limit: Limit, retry_after: int) -> None:
        self.limit = limit
        self.retry_after = retry_after
        super().__init__(
            f"too many requests: at most {limit.requests} to {limit.name} every "
            f"{_duration(limit.seconds)}; try again in {retry_after} s"
        )


def client_of(request: HttpRequest) -> str:
    """The client the request came from: its address (the proxy's forwarded one, if
    trusted), or for IPv6 its /64 network, which one household or server is handed
    whole: counted by address, an IPv6 client would have 2⁶⁴ allowances."""
    address = request.META.get("REMOTE_ADDR") or "unknown"
    try:
        parsed = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:  # an IPv4 client on a dual-stack socket
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


def count(limit: Limit, client: str, now: float | None = None) -> None:
    """Count one request of ``limit``'s kind by ``client``; raise ``Exceeded`` past it."""
    now = time.time() if now is None else now
    # Time is positive and a window whole seconds: truncating now / seconds is its floor.
    window = int(now // limit.seconds)  # pragma: no mutate
    ends = (window + 1) * limit.seconds
    key = f"{limit.name}:{client}:{window}"[:100]
    ends_at = datetime.fromtimestamp(ends, UTC)
    used = counters.count_up(RateCount, "key", "count", "expires", (key, ends_at), restamp=False)
    if used > limit.requests:
        raise Exceeded(limit, max(1, int(ends - now)))


def forget_expired(now: datetime | None = None) -> int:
    """Delete the counts of windows that have ended; return how many."""
    deleted, _ = RateCount.objects.filter(expires__lt=now or datetime.now(UTC)).delete()
    return deleted


def check(limit: Limit, request: HttpRequest) -> None:
    """Count one request of ``limit``'s kind by the request's client, when the site
    counts; raise ``Exceeded`` past the limit."""
    if settings.RATE_LIMITS:
        count(limit, client_of(request))


def refused(response: HttpResponse, exceeded: Exceeded) -> HttpResponse:
    """``response`` made the 429 of ``exceeded``, with its ``Retry-After``; a refusal
    drawn on the part of a page htmx redraws keeps its 200 (``drawn_refusal``), as
    every refusal htmx is to show does (game/views/common.py)."""
    if not getattr(response, "drawn_refusal", False):
        response.status_code = 429
    response["Retry-After"] = str(exceeded.retry_after)
    return response


def limited(
    limit: Limit, refuse: Callable[[HttpRequest, Exceeded], HttpResponse], methods=("POST",)
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view decorator: count ``methods`` requests against ``limit``; past it, answer
    ``refuse``'s 429 (which the decorator gives its ``Retry-After``)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods:
                try:
                    check(limit, request)
                except Exceeded as exc:
                    return refused(refuse(request, exc), exc)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


@cache
def _duration(seconds: int) -> str:
    return (
        f"{seconds // 60} minutes"
        # Only whole minutes are compared with 60 s, and none lies between 60 and 61 s.
        if seconds % 60 == 0 and seconds > 60  # pragma: no mutate
        else f"{seconds} s"
    )
