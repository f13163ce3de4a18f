"""How ``bench.lobby`` reads its streams: a lobby stream's events, read as bytes, the
challenges each event names, found in its JSON text (``changed_ids``, not by
decoding it: two thousand pages hearing of four changes a second are 8,000 events a
second), and the ledger that times each change on each stream.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field

# An entry of an event's "rows" or "gone": {"id": "<public id>", ...}. Inside a JSON
# string every quote is escaped, so neither pattern can match within a row's HTML.
ENTRY_ID = re.compile(rb'\{"id":\s*"([^"\\]+)"')
GONE = re.compile(rb'"gone":\s*\[')


def changed_ids(data: bytes) -> tuple[list[bytes], list[bytes]]:
    """The ids of the challenges a ``lobby`` event's data shows as rows, and of those
    it says are gone, read off its JSON text."""
    gone = GONE.search(data)
    split = gone.start() if gone else len(data)
    return ENTRY_ID.findall(data, 0, split), ENTRY_ID.findall(data, split)


class EventReader:
    """Server-sent events out of a stream's bytes as they come: each event's name and
    data, the last id and the retry the stream gave. Lines end with "\\n", as the
    site writes them."""

    def __init__(self) -> None:
        self._rest = b""
        self.last_id = b""
        self.retry: bytes | None = None

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        """The events complete once ``data`` is added, as (name, data) pairs."""
        text = self._rest + data if self._rest else data
        *blocks, self._rest = text.split(b"\n\n")
        events = []
        for block in blocks:
            name, lines = b"message", []
            for line in block.split(b"\n"):
                key, _, value = line.partition(b":")
                if value[:1] == b" ":
                    value = value[1:]
                if key == b"data":
                    lines.append(value)
                elif key == b"event":
                    name = value
                elif key == b"id":
                    self.last_id = value
                elif key == b"retry":
                    self.retry = value
            if lines:
                events.append((name, b"\n".join(lines)))
        return events


@dataclass(eq=False)
class Change:
    """A challenge posted or accepted, and when each stream (by number) heard of it."""

    challenge: bytes
    sent: float  # perf_counter just before its request was written
    answered: float = math.nan
    heard: dict[int, float] = field(default_factory=dict)


class Ledger:
    """The changes made while measuring and when each stream heard of each.

    A posted challenge's id is known only from its answer, and a stream may name it
    before that answer arrives: what is heard of an id not known yet is kept until
    its answer names it.
    """

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self._posted: dict[bytes, Change] = {}
        self._accepted: dict[bytes, Change] = {}
        self._early: dict[bytes, dict[int, float]] = {}

    def posted(self, challenge: str, sent: float, answered: float) -> Change:
        key = challenge.encode()
        change = Change(key, sent, answered, self._early.pop(key, {}))
        self._posted[key] = change
        self.changes.append(change)
        return change

    def accepting(self, challenge: str) -> Change:
        """An accept about to be sent; its times are set from its answer."""
        key = challenge.encode()
        change = Change(key, time.perf_counter())
        self._accepted[key] = change
        self.changes.append(change)
        return change

    def forget(self, change: Change) -> None:
        """A change that failed (its failure is counted): no stream is to hear of it."""
        self.changes.remove(change)
        self._accepted.pop(change.challenge, None)

    def heard(self, stream: int, data: bytes, now: float) -> None:
        """Stream ``stream`` has a ``lobby`` event with ``data``, arrived at ``now``."""
        rows, gone = changed_ids(data)
        for key in rows:
            posted = self._posted.get(key)
            if posted is not None:
                posted.heard.setdefault(stream, now)
            else:
                self._early.setdefault(key, {}).setdefault(stream, now)
        for key in gone:
            accepted = self._accepted.get(key)
            if accepted is not None:
                accepted.heard.setdefault(stream, now)
            # Posted and gone between two of the stream's events: it heard of both.
            posted = self._posted.get(key)
            if posted is not None:
                posted.heard.setdefault(stream, now)
            elif accepted is None:
                self._early.setdefault(key, {}).setdefault(stream, now)

    def delays(self, streams: int) -> tuple[list[float], list[float], list[float], int]:
        """In ms over every (stream, change): from sending and from the answer until the
        stream heard of it; per change, from sending until the last of ``streams``
        heard of it; and how many (stream, change) were never heard."""
        from_send, from_answer, to_all, missed = [], [], [], 0
        for change in self.changes:
            if math.isnan(change.answered):
                continue
            for at in change.heard.values():
                from_send.append((at - change.sent) * 1000)
                from_answer.append(max(0.0, at - change.answered) * 1000)
            missed += max(0, streams - len(change.heard))
            if len(change.heard) >= streams and change.heard:
                to_all.append((max(change.heard.values()) - change.sent) * 1000)
        return from_send, from_answer, to_all, missed

    def complete(self, streams: int) -> bool:
        return all(len(change.heard) >= streams for change in self.changes)
