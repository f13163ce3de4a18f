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

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, wraps
from typing import Any

from django.conf import settings
from django.db import connections, router
from django.http import HttpRequest, HttpResponse

from game.models import RateCount


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``requests`` of kind ``name`` per client in each ``seconds``."""

    name: str
    requests: int
    seconds: int


CREATE = Limit("create", requests=30, seconds=600)
JOIN = Limit("join", requests=60, seconds=600)
API_WRITE = Limit("api", requests=600, seconds=60)


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
    """The address the request came from (the proxy's forwarded one, if trusted)."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def count(limit: Limit, client: str, now: float | None = None) -> None:
    """Count one request of ``limit``'s kind by ``client``; raise ``Exceeded`` past it."""
    now = time.time() if now is None else now
    window = int(now // limit.seconds)
    ends = (window + 1) * limit.seconds
    key = f"{limit.name}:{client}:{window}"[:100]
    alias = router.db_for_write(RateCount)
    connection = connections[alias]
    expires = RateCount._meta.get_field("expires").get_db_prep_value(
        datetime.fromtimestamp(ends, UTC), connection
    )
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(alias), [key, expires])
        (used,) = cursor.fetchone()
    if used > limit.requests:
        raise Exceeded(limit, max(1, int(ends - now)))


def forget_expired(now: datetime | None = None) -> int:
    """Delete the counts of windows that have ended; return how many."""
    deleted, _ = RateCount.objects.filter(expires__lt=now or datetime.now(UTC)).delete()
    return deleted


def limited(
    limit: Limit, refuse: Callable[[HttpRequest, Exceeded], HttpResponse], methods=("POST",)
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view decorator: count ``methods`` requests against ``limit``; past it, answer
    ``refuse``'s 429 (which the decorator gives its ``Retry-After``)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods and settings.RATE_LIMITS:
                try:
                    count(limit, client_of(request))
                except Exceeded as exc:
                    response = refuse(request, exc)
                    response.status_code = 429
                    response["Retry-After"] = str(exc.retry_after)
                    return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


@cache
def _upsert_sql(alias: str) -> str:
    """Add one to a window's count, or start it at one; return the count. SQLite (3.35
    and later) and PostgreSQL both say it in one statement."""
    quote = connections[alias].ops.quote_name
    table = quote(RateCount._meta.db_table)
    key, count, expires = (
        quote(RateCount._meta.get_field(name).column) for name in ("key", "count", "expires")
    )
    return (
        f"INSERT INTO {table} ({key}, {count}, {expires}) VALUES (%s, 1, %s) "
        f"ON CONFLICT ({key}) DO UPDATE SET {count} = {table}.{count} + 1 "
        f"RETURNING {count}"
    )


def _duration(seconds: int) -> str:
    return f"{seconds // 60} minutes" if seconds % 60 == 0 and seconds > 60 else f"{seconds} s"
