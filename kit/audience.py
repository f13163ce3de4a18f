"""How many people watch each game: the clients (addresses) with a game page's stream
open whose browsers hold no seat in the game.

A client is counted once however many streams it opens: three addresses once
showed "106 watching" and took the top of /watch/. Each server process keeps its own
watchers in memory (``Audience``: a join as a watcher's stream opens, a leave as it
closes) and shares them through the database every process already uses: a timer
thread replaces the process's rows of ``models.Audience`` (one a game and client,
the client's address hashed) at most every ``WRITE_SECONDS``, and only when they
changed, and rewrites them every ``REFRESH_SECONDS`` while it has any. A row older
than ``STALE`` is a dead process's and counts for nothing, so ``watching`` counts
the distinct clients of a game's fresh rows: one indexed read, whatever the number
of processes, and a client watching through two processes is counted once.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta

from django.db import connections, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.crypto import salted_hmac

from kit import models

logger = logging.getLogger(__name__)

# A process writes its counts at most this often, and only when they changed.
WRITE_SECONDS = 2.0
# While it has any, it writes them again this often, so they stay fresh.
REFRESH_SECONDS = 10.0
# A row not written for this long is a dead process's: it is ignored, then deleted.
STALE = timedelta(seconds=30)


def process_name() -> str:
    """This process's name among the site's: its host, its id and when it started."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{int(time.time())}"


def client_key(client: str) -> str:
    """What the database keeps of a watching client: its address, hashed with the
    site's secret (the audience needs to tell clients apart, not to know them)."""
    # The salt is the one the counts were first kept under.
    return salted_hmac("game.audience", client).hexdigest()[:16]


class Audience:
    """The watchers of each game in this process, and the thread that shares them.

    ``timer`` False keeps the thread from starting: ``flush`` then writes when called.
    """

    def __init__(self, process: str, timer: bool = True) -> None:
        self.process = process
        self.timer = timer
        self._lock = threading.Lock()
        self._streams: dict[str, dict[str, int]] = {}  # game: {client: open streams}
        self._changes = 0  # how many joins and leaves there have been
        self._written = 0  # how many of them the rows in the database include
        self._written_at = float("-inf")  # when they were written (monotonic)
        self._thread: threading.Thread | None = None

    def join(self, game_id: str, client: str) -> None:
        """A stream of ``game_id`` opened by a watcher at ``client`` (``client_key``)."""
        with self._lock:
            clients = self._streams.setdefault(game_id, {})
            clients[client] = clients.get(client, 0) + 1
            self._changes += 1
            if self.timer and self._thread is None:
                self._thread = threading.Thread(target=self._run, name="audience", daemon=True)
                self._thread.start()

    def leave(self, game_id: str, client: str) -> None:
        """A watcher's stream of ``game_id`` closed."""
        with self._lock:
            clients = self._streams.get(game_id, {})
            left = clients.get(client, 0) - 1
            if left > 0:
                clients[client] = left
            else:
                clients.pop(client, None)
                if not clients:
                    self._streams.pop(game_id, None)
            self._changes += 1

    def ticket(self, game_id: str, client: str) -> Callable[[], None]:
        """Join ``game_id``'s audience now as ``client`` (an address: the key kept is
        ``client_key``'s); what leaves it, once, however often called."""
        key = client_key(client)
        self.join(game_id, key)
        left = threading.Event()

        def leave() -> None:
            if not left.is_set():
                left.set()
                self.leave(game_id, key)

        return leave

    def counts(self) -> dict[str, int]:
        """How many clients watch each game watched in this process."""
        with self._lock:
            return {game_id: len(clients) for game_id, clients in self._streams.items()}

    def watchers(self) -> dict[str, set[str]]:
        """The clients that watch each game watched in this process."""
        with self._lock:
            return {game_id: set(clients) for game_id, clients in self._streams.items()}

    def due(self, now: float) -> bool:
        """Whether the counts should be written at ``now`` (monotonic seconds)."""
        with self._lock:
            since = now - self._written_at
            changed = self._changes != self._written
            return (changed and since >= WRITE_SECONDS) or (
                bool(self._streams) and since >= REFRESH_SECONDS
            )

    def flush(self, force: bool = False) -> bool:
        """Write this process's counts if they are due (or ``force``); True if written."""
        now = time.monotonic()
        if not (force or self.due(now)):
            return False
        with self._lock:
            changes = self._changes
            watchers = {game_id: set(clients) for game_id, clients in self._streams.items()}
        write(self.process, watchers)
        with self._lock:
            self._written, self._written_at = changes, now
        return True

    def _run(self) -> None:
        while True:
            time.sleep(WRITE_SECONDS / 2)
            try:
                self.flush()
            except Exception:
                logger.exception("the audience could not be written; trying again")
            finally:
                for connection in connections.all(initialized_only=True):
                    connection.close()


def write(process: str, watchers: Mapping[str, Iterable[str]]) -> None:
    """Replace ``process``'s rows with ``watchers`` (the clients watching each game),
    and delete every stale row."""
    now = timezone.now()
    rows = [
        models.Audience(process=process, game_id=game_id, client=client, updated=now)
        for game_id, clients in watchers.items()
        for client in set(clients)
    ]
    with transaction.atomic():
        models.Audience.objects.filter(process=process).delete()
        models.Audience.objects.filter(updated__lt=now - STALE).delete()
        models.Audience.objects.bulk_create(rows)


def _fresh() -> QuerySet[models.Audience]:
    return models.Audience.objects.filter(updated__gte=timezone.now() - STALE)


def watching(game_id: str) -> int:
    """How many clients watch ``game_id`` now, in every process."""
    found = _fresh().filter(game_id=game_id).aggregate(total=Count("client", distinct=True))
    return found["total"]


def watching_many(game_ids: Iterable[str]) -> dict[str, int]:
    """How many clients watch each of these games now (only those watched are given)."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = (
        _fresh()
        .filter(game_id__in=ids)
        .values_list("game_id")
        .annotate(total=Count("client", distinct=True))
        .order_by()
    )
    return {game_id: total for game_id, total in rows if total}


_audience: Audience | None = None
_audience_lock = threading.Lock()


def audience() -> Audience:
    """This process's audience (made in the process that uses it, after any fork)."""
    global _audience
    with _audience_lock:
        if _audience is None:
            _audience = Audience(process_name())
        return _audience
