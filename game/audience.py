"""How many people watch each game: the open streams of game pages whose browsers hold
no seat in the game.

Each server process counts its own watchers in memory (``Audience``: a join as a
watcher's stream opens, a leave as it closes) and shares the counts through the
database every process already uses: a timer thread replaces the process's rows of
``models.Audience`` at most every ``WRITE_SECONDS``, and only when its counts
changed, and rewrites them every ``REFRESH_SECONDS`` while it has any. A row older
than ``STALE`` is a dead process's and counts for nothing, so ``watching`` sums the
fresh rows of a game: one indexed read, whatever the number of processes.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from datetime import timedelta

from django.db import connections, transaction
from django.db.models import QuerySet, Sum
from django.utils import timezone

from game import models

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


class Audience:
    """The watchers of each game in this process, and the thread that shares them.

    ``timer`` False keeps the thread from starting: ``flush`` then writes when called.
    """

    def __init__(self, process: str, timer: bool = True) -> None:
        self.process = process
        self.timer = timer
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._changes = 0  # how many joins and leaves there have been
        self._written = 0  # how many of them the rows in the database include
        self._written_at = float("-inf")  # when they were written (monotonic)
        self._thread: threading.Thread | None = None

    def join(self, game_id: str) -> None:
        """A watcher's stream of ``game_id`` opened."""
        with self._lock:
            self._counts[game_id] = self._counts.get(game_id, 0) + 1
            self._changes += 1
            if self.timer and self._thread is None:
                self._thread = threading.Thread(target=self._run, name="audience", daemon=True)
                self._thread.start()

    def leave(self, game_id: str) -> None:
        """A watcher's stream of ``game_id`` closed."""
        with self._lock:
            left = self._counts.get(game_id, 0) - 1
            if left > 0:
                self._counts[game_id] = left
            else:
                self._counts.pop(game_id, None)
            self._changes += 1

    def ticket(self, game_id: str) -> Callable[[], None]:
        """Join ``game_id``'s audience now; what leaves it, once, however often called."""
        self.join(game_id)
        left = threading.Event()

        def leave() -> None:
            if not left.is_set():
                left.set()
                self.leave(game_id)

        return leave

    def counts(self) -> dict[str, int]:
        """The watchers of each game watched in this process."""
        with self._lock:
            return dict(self._counts)

    def due(self, now: float) -> bool:
        """Whether the counts should be written at ``now`` (monotonic seconds)."""
        with self._lock:
            since = now - self._written_at
            changed = self._changes != self._written
            return (changed and since >= WRITE_SECONDS) or (
                bool(self._counts) and since >= REFRESH_SECONDS
            )

    def flush(self, force: bool = False) -> bool:
        """Write this process's counts if they are due (or ``force``); True if written."""
        now = time.monotonic()
        if not (force or self.due(now)):
            return False
        with self._lock:
            counts, changes = dict(self._counts), self._changes
        write(self.process, counts)
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


def write(process: str, counts: dict[str, int]) -> None:
    """Replace ``process``'s rows with ``counts``, and delete every stale row."""
    now = timezone.now()
    rows = [
        models.Audience(process=process, game_id=game_id, count=count, updated=now)
        for game_id, count in counts.items()
        if count > 0
    ]
    with transaction.atomic():
        models.Audience.objects.filter(process=process).delete()
        models.Audience.objects.filter(updated__lt=now - STALE).delete()
        models.Audience.objects.bulk_create(rows)


def _fresh() -> QuerySet[models.Audience]:
    return models.Audience.objects.filter(updated__gte=timezone.now() - STALE)


def watching(game_id: str) -> int:
    """How many pages watch ``game_id`` now, in every process."""
    total = _fresh().filter(game_id=game_id).aggregate(total=Sum("count"))["total"]
    return total or 0


def watching_many(game_ids: Iterable[str]) -> dict[str, int]:
    """How many pages watch each of these games now (only those watched are given)."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = (
        _fresh()
        .filter(game_id__in=ids)
        .values_list("game_id")
        .annotate(total=Sum("count"))
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
