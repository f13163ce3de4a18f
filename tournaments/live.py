"""The tournaments' live pages: server-sent events as an event, or any event, changes.

An event's page hears ``standings``: its shared part's first page as it stands, drawn
once per change in each process (``pages.shared_html``, read by one task however many
streams ask: ``kit.reads.SharedReads``) and pushed down every stream, so a thousand pages
watching an arena cost a drawing a change, not a thousand requests. A change heard
after a quiet while is sent at once; changes that come in a burst (a round's games
starting, an arena's players freed at once, a busy arena's games ending) are sent
as one: a stream sends at most one event every ``GAP_SECONDS``, the latest, on the
ticks of its process's clock (``next_send``), so that all of a process's streams
send together and ask for the same drawing.
A player's page also hears ``personal`` when their own channel changes (a game of
theirs starts), and asks for its personal part. The list page hears ``changed``.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Callable

from asgiref.sync import sync_to_async
from django.conf import settings

from kit import live
from kit.reads import SharedReads
from lobby.challenges import user_channel
from tournaments import pages, state

# The least time between two events of one stream: a burst of changes is one event.
GAP_SECONDS = 0.5


def _standings_bytes(public_id: str, upto: int) -> bytes:
    drawn, html = pages.shared_html(public_id, upto)
    data = json.dumps({"revision": upto, "drawn": drawn, "html": html}, separators=(",", ":"))
    return f"id: {upto}\nevent: standings\ndata: {data}\n\n".encode()


_drawings = SharedReads(_standings_bytes)


def next_send(sent: float, now: float) -> float:
    """When a stream that last sent an event at ``sent`` sends the news it heard
    ``now``: at once after a quiet while; in a burst, at the first tick (a multiple of
    ``GAP_SECONDS`` on the process's clock) at least ``GAP_SECONDS`` after its last.
    Each stream waiting from its own last event would draw a revision of its own: a
    busy arena's thousand pages asked for a drawing at each of its changes, in each
    process, where on the ticks they ask for one a tick."""
    earliest = sent + GAP_SECONDS
    if now >= earliest:
        return now
    return math.ceil(earliest / GAP_SECONDS - 1e-9) * GAP_SECONDS


async def event_stream(
    public_id: str,
    since: int,
    user_id: int | None,
    on_close: Callable[[], None] | None = None,
) -> AsyncIterator[str | bytes]:
    """The events of an event's page at revision ``since``: ``standings`` with the
    shared part each time the event changes, ``personal`` when the account
    ``user_id``'s channel changes; it ends after ``LIVE_STREAM_SECONDS``."""
    room = live.newsroom()
    personal = room.subscribe(live.CHANNEL + user_channel(user_id)) if user_id else None
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.LIVE_STREAM_SECONDS
    personal_wait: asyncio.Task | None = None
    name = state.channel_of(public_id)
    try:
        with live.broadcast(live.CHANNEL + name).listening() as heard:
            now = await sync_to_async(state.revision)(name)
            yield f"retry: {live.RETRY_MILLISECONDS}\n\n"
            sent = loop.time() - GAP_SECONDS
            if now > since:
                yield await _drawings.get(public_id, now)
                since, sent = now, loop.time()
            while True:
                if heard.latest is not None and heard.latest.revision > since:
                    # Not within GAP_SECONDS of the last: what else comes in the burst.
                    # The moment planned is the one kept, not the moment woken (a few
                    # milliseconds later) nor the drawing's end: the next event comes
                    # on the next tick, not the one after it.
                    sent = next_send(sent, loop.time())
                    await asyncio.sleep(sent - loop.time())
                    since = heard.latest.revision
                    yield await _drawings.get(public_id, since)
                    continue
                left = ends - loop.time()
                if left <= 0:
                    yield ": time to reconnect\n\n"
                    return
                waits: set[asyncio.Future] = {heard.changed()}
                if personal is not None:
                    if personal_wait is None:
                        personal_wait = asyncio.ensure_future(personal.next(left))
                    waits.add(personal_wait)
                done, _ = await asyncio.wait(
                    waits,
                    timeout=min(settings.LIVE_KEEPALIVE_SECONDS, left),
                    return_when=asyncio.FIRST_COMPLETED,
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


async def changes(
    name: str, since: int, on_close: Callable[[], None] | None = None
) -> AsyncIterator[str]:
    """``changed`` events of channel ``name`` past revision ``since`` (the list page:
    it asks for its list again), keep-alives, the end after ``LIVE_STREAM_SECONDS``."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.LIVE_STREAM_SECONDS
    try:
        with live.broadcast(live.CHANNEL + name).listening() as heard:
            now = await sync_to_async(state.revision)(name)
            yield f"retry: {live.RETRY_MILLISECONDS}\n\n"
            if now > since:
                since = now
                yield f"id: {now}\nevent: changed\ndata: {now}\n\n"
            while True:
                if heard.latest is not None and heard.latest.revision > since:
                    await asyncio.sleep(GAP_SECONDS)
                    since = heard.latest.revision
                    yield f"id: {since}\nevent: changed\ndata: {since}\n\n"
                    continue
                left = ends - loop.time()
                if left <= 0:
                    yield ": time to reconnect\n\n"
                    return
                done, _ = await asyncio.wait(
                    {heard.changed()}, timeout=min(settings.LIVE_KEEPALIVE_SECONDS, left)
                )
                if not done:
                    yield ": keep-alive\n\n"
    finally:
        if on_close is not None:
            on_close()
