"""The live lobby: what changed since a page's revision, sent as server-sent events.

Every change of a challenge is counted on the lobby's channel (``challenges.LOBBY``)
and stamps the challenge with the new revision. A lobby page's stream hears of a
change through the newsroom every game stream uses (``kit.live``), all the pages
of a process through one ``live.Broadcast``, then sends the
challenges stamped since the revision the page shows: open ones as rows to put in
place, the others as gone. The rows are drawn once per change in each process,
whoever is looking, so 2,000 open lobby pages cost one query and one drawing per
change, not 2,000: what differs for each viewer (their own challenge, one they may
not accept) the page works out from the row's marks, and the server checks again
when they act. An account's stream also hears of its own channel (a challenge to
it, its challenge accepted or declined), which the page answers by asking for its
part again.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from functools import lru_cache

from asgiref.sync import sync_to_async
from django.conf import settings
from django.template.loader import render_to_string

from kit import live
from kit.models import Channel
from kit.reads import SharedReads
from lobby import challenges
from lobby.models import Challenge, owner_mark

__all__ = ["delta", "owner_mark", "revision", "row", "stream"]

# Past this many changes since a page's revision, the page reloads its list instead.
MAX_DELTA = 200


def revision() -> int:
    """The lobby's revision now."""
    found = Channel.objects.filter(name=challenges.LOBBY).values_list("revision", flat=True)
    return next(iter(found), 0)


def row(challenge: Challenge, viewer: dict | None = None) -> str:
    """One challenge's row of the list; ``viewer`` None draws it for anyone."""
    return render_to_string("lobby/_challenge.html", {"challenge": challenge, "viewer": viewer})


@lru_cache(maxsize=64)
def delta(since: int, upto: int) -> str | None:
    """The ``lobby`` event's data for a page at ``since`` once the lobby is at ``upto``;
    None when too much changed (the page reloads its list). Revisions are given under
    the channel's row lock and commit in order, so what is stamped up to ``upto`` is
    final once ``upto`` is heard of: kept, each change is read and drawn once."""
    changed = list(
        Challenge.objects.filter(revision__gt=since, revision__lte=upto, to_user=None)
        .select_related("creator", "creator__account")
        .order_by("revision")[: MAX_DELTA + 1]
    )
    if len(changed) > MAX_DELTA:
        return None
    rows, gone = [], []
    for challenge in changed:
        if challenge.is_open:
            rows.append({"id": challenge.public_id, "html": row(challenge)})
        else:
            gone.append({"id": challenge.public_id, "status": challenge.status})
    return json.dumps({"revision": upto, "rows": rows, "gone": gone})


def _event(since: int, upto: int) -> str:
    data = delta(since, upto)
    if data is None:
        return f"id: {upto}\nevent: reload\ndata: {upto}\n\n"
    return f"id: {upto}\nevent: lobby\ndata: {data}\n\n"


def _event_bytes(since: int, upto: int) -> bytes:
    return _event(since, upto).encode()


# Each event read and encoded once per event loop, however many streams send it:
# bytes go out as they are, where a ``str`` would be encoded by each stream.
_events = SharedReads(_event_bytes)


async def stream(
    since: int,
    user_id: int | None,
    guest_owner: str = "",
    on_close: Callable[[], None] | None = None,
) -> AsyncIterator[str | bytes]:
    """The events of a lobby page at revision ``since``: ``lobby`` with the changes,
    ``reload`` when there were too many, ``personal`` when the account ``user_id``'s
    channel changed. A guest's page (``guest_owner``) says every
    ``challenges.SEEN_EVERY`` that it is there, so the guest's live challenges stand.
    It ends after ``LIVE_STREAM_SECONDS``, as a game's stream does."""
    room = live.newsroom()
    personal = room.subscribe(live.CHANNEL + challenges.user_channel(user_id)) if user_id else None
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.LIVE_STREAM_SECONDS
    every = challenges.SEEN_EVERY.total_seconds()
    next_seen = loop.time()
    personal_wait: asyncio.Task | None = None
    try:
        with live.broadcast(live.CHANNEL + challenges.LOBBY).listening() as lobby:
            now = await sync_to_async(revision)()
            yield f"retry: {live.RETRY_MILLISECONDS}\n\n"
            if now > since:
                yield await _events.get(since, now)
                since = now
            while True:
                if guest_owner and loop.time() >= next_seen:
                    await sync_to_async(challenges.seen)(guest_owner)
                    next_seen = loop.time() + every
                if lobby.latest is not None and lobby.latest.revision > since:
                    upto = lobby.latest.revision
                    yield await _events.get(since, upto)
                    since = upto
                    continue
                left = ends - loop.time()
                if left <= 0:
                    yield ": time to reconnect\n\n"
                    return
                timeout = min(settings.LIVE_KEEPALIVE_SECONDS, left)
                if guest_owner:
                    timeout = min(timeout, max(next_seen - loop.time(), 0))
                waits: set[asyncio.Future] = {lobby.changed()}
                if personal is not None:
                    if personal_wait is None:  # until the stream ends, unlike the others
                        personal_wait = asyncio.ensure_future(personal.next(left))
                    waits.add(personal_wait)
                # The first of the lobby's news and the account's own: the default,
                # ALL_COMPLETED, kept an account's page waiting for both, so it heard
                # of a new challenge only at its next keep-alive.
                done, _ = await asyncio.wait(
                    waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if personal_wait is not None and personal_wait in done:
                    news, personal_wait = personal_wait.result(), None
                    if news is not None:
                        yield f"event: personal\ndata: {news.revision}\n\n"
                        continue
                if not done:
                    yield ": keep-alive\n\n"
    finally:
        if personal_wait is not None:
            personal_wait.cancel()
        if personal is not None:
            room.unsubscribe(personal)
        if on_close is not None:
            on_close()
