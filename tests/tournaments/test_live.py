"""An event's page's stream (``tournaments.live``): the shared part pushed as the event
changes, drawn once however many streams send it; a player's own news."""

from __future__ import annotations

import itertools
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from kit import live
from kit.live import News
from lobby.challenges import user_channel
from tests.tournaments.test_events import terms, users
from tournaments import events, pages, state
from tournaments import live as tournament_live

pytestmark = pytest.mark.django_db(transaction=True)


def standings_of(event: bytes) -> dict:
    text = event.decode()
    assert "event: standings\n" in text, text
    return json.loads(text.split("data: ", 1)[1])


def test_a_page_hears_the_standings_as_they_change_and_its_player_of_their_game(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 30
    creator, ann, bob = users(3)
    event = events.create(creator, terms("arena"))
    events.join(ann, event.public_id)
    channel = live.CHANNEL + state.channel_of(event.public_id)

    async def scenario():
        room = live.newsroom()
        lines = tournament_live.event_stream(event.public_id, 0, bob.pk)
        told = [await anext(lines), await anext(lines)]  # retry, then the standings now
        await sync_to_async(events.join)(bob, event.public_id)
        now = await sync_to_async(state.revision)(state.channel_of(event.public_id))
        room.publish({channel: News(now, 0, False)})
        told.append(await anext(lines))
        await sync_to_async(events.start)(creator, event.public_id)
        room.publish({live.CHANNEL + user_channel(bob.pk): News(1000, 0, False)})
        # The start changed the event too: its standings may come first.
        for _ in range(3):
            told.append(await anext(lines))
            if isinstance(told[-1], str) and told[-1].startswith("event: personal"):
                break
        await lines.aclose()
        return told

    told = async_to_sync(scenario)()
    assert told[0].startswith("retry:")
    first, second = standings_of(told[1]), standings_of(told[2])
    ann_row, bob_row = f'data-player="{ann.username}"', f'data-player="{bob.username}"'
    assert ann_row in first["html"] and bob_row not in first["html"]
    assert bob_row in second["html"] and second["revision"] > first["revision"]
    assert told[-1].startswith("event: personal\ndata: ")  # its game started


def test_the_shared_part_is_drawn_once_a_revision():
    creator, ann = users(2)
    event = events.create(creator, terms("arena"))
    events.join(ann, event.public_id)
    pages.shared_html.cache_clear()
    first = pages.shared_html(event.public_id, 5)
    events.join(creator, event.public_id)  # a change the revision 5 drawing does not show
    assert pages.shared_html(event.public_id, 5) == first
    assert pages.shared_html.cache_info().hits == 1
    drawn, html = pages.shared_html(event.public_id, 6)
    assert 'data-player="p0"' in html and drawn >= first[0]


def stream_sends(sent: float, changes: list[float]) -> list[float]:
    """The moments a stream that last sent at ``sent`` sends, as ``event_stream``
    does, hearing each of ``changes`` as it comes."""
    moments = []
    while later := [change for change in changes if change > sent]:
        sent = tournament_live.next_send(sent, later[0])
        moments.append(sent)
    return moments


@pytest.mark.django_db(transaction=False)
def test_in_a_burst_every_stream_sends_on_the_processs_ticks():
    """After a quiet while a change is sent at once; in a burst each stream waits at
    least the gap since its last event, until a tick of the process's clock, so
    streams that last sent at different moments send together, and ask for one
    drawing a tick."""
    gap = tournament_live.GAP_SECONDS
    assert stream_sends(100.0, [103.0]) == [103.0]  # quiet: at once
    burst = [101.0 + tenth / 10 for tenth in range(30)]  # a change every 0.1 s
    lasts = [101.0 - gap * fraction for fraction in (0.9, 0.6, 0.3, 0.1)]
    sends = [stream_sends(sent, burst) for sent in lasts]
    assert sends[0] == sends[1] == sends[2] == sends[3]
    for earlier, later in itertools.pairwise(sends[0]):
        assert later - earlier == pytest.approx(gap)
    assert sends[0][0] >= max(lasts) + gap
    assert sends[0][-1] >= burst[-1]  # the last change is sent
