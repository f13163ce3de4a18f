"""How many connections a server process serves at once, and how many of them the live
pages' streams may hold.

A stream holds its connection as long as its page stays open; a page, a move or
``/healthz`` holds one for milliseconds. Some 34 addresses, each within its own
limit of streams, once held every connection of the server, and every other request
was answered 503. So the streams of a process may hold all its connections but a
share kept for everything else: past that, a new stream is refused with 503 (its
page asks for news every second meanwhile), and the requests go on being served.

No Django here: the gunicorn worker (``maerstanas_site.workers``) sets how many
connections it serves before the site is loaded, and the streams' gate
(``kit.streams.gate``) reads it.
"""

from __future__ import annotations

import math
import resource

# Files a worker keeps for itself beside its connections: the database, its logs, the
# static files it sends, its listening socket; and the least it serves at once.
FILES_SPARE = 64
MIN_CONNECTIONS = 16
# The share of a process's connections no stream may take, and the fewest: what the
# short requests need at once (a request of the pages takes a few milliseconds).
KEPT_SHARE = 0.2
KEPT_AT_LEAST = 8

# How many connections this process serves at once: set by the worker that serves the
# site, None where nothing bounds them (the development server, tests' clients).
connections: int | None = None


def connection_limit(worker_connections: int) -> int:
    """The connections a worker serves at once: ``worker_connections``, but below the
    process's open-file limit (at that limit it could no longer accept anyone, and
    said nothing), with room for its own files."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = soft - FILES_SPARE if soft != resource.RLIM_INFINITY else worker_connections
    return max(MIN_CONNECTIONS, min(worker_connections, room))


def stream_budget(limit: int) -> int:
    """How many of ``limit`` connections the streams may hold at once."""
    return limit - max(KEPT_AT_LEAST, math.ceil(limit * KEPT_SHARE))
