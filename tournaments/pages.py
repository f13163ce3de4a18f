"""What an event's page shows, in two parts.

- **The shared part** is the same for everyone: the state, a page of the standings
  (``PAGE_SIZE`` rows), the crosstable of a round-robin, the games being played and
  the latest results, each list bounded, so an arena of a thousand players draws a
  page of the same size as a club's. Its first page is drawn once per change of the
  event in each server process (``shared_html``) and pushed down every open page's
  stream as it changes: a thousand pages watching cost one drawing a change, not a
  thousand requests. Rows and games carry their players' names (``data-player``,
  ``data-dark``, ``data-light``), so each page finds its own player's among them.
- **The personal part** is the viewer's: their place, their game going on, and the
  buttons (join, withdraw, start). A page asks for it again only when its player's
  own channel changes (a game of theirs starts, they join or leave).
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from django.db.models import Q
from django.template.loader import render_to_string

from players.models import Block
from tournaments import state, systems
from tournaments.models import Tournament

PAGE_SIZE = 25
# The games being played and the results each page lists at most, and the chat's lines.
GAMES_SHOWN = 10
CHAT_SHOWN = 20
# What a listed game shows: its players' names and its id, not the game's whole row
# (its position, cached on it, is most of a row's weight). Its event too: the
# event's own list of games gives each the event, by that field, which deferred
# would be read by a query a game.
SHOWN_FIELDS = (
    "tournament",
    "round",
    "result",
    "dark_berserk",
    "light_berserk",
    "dark__username",
    "light__username",
    "game__public_id",
)


def _page_of(text: Any, pages: int) -> int:
    try:
        number = int(text)
    except (TypeError, ValueError):
        return 1
    return min(max(number, 1), max(pages, 1))


def shared_context(event: Tournament, page: Any = 1) -> dict[str, Any]:
    """The shared part's context: the standings' page ``page`` (1 the top), and the
    games it lists, each read as far as it is shown."""
    players = event.entries.count()
    pages = (players + PAGE_SIZE - 1) // PAGE_SIZE
    number = _page_of(page, pages)
    standings = state.table_page(event, number, PAGE_SIZE)
    shown = event.pairings.select_related("dark", "light", "game").only(*SHOWN_FIELDS)
    games = shown.exclude(game=None)
    if event.system == Tournament.System.ARENA:
        current = games.filter(result="")
        played = games.exclude(result="")
    else:
        current = shown.filter(round=event.round)
        played = games.exclude(result="").exclude(round=event.round)
    finished = event.status == Tournament.Status.FINISHED
    shown_played = None if finished else GAMES_SHOWN
    crosstable = None
    rows = state.rows_of(event, standings)
    if event.system == Tournament.System.ROUND_ROBIN and event.status != "created":
        everyone = state.rows_of(event, state.table(event))  # sixteen at most
        players = [row.entry.user_id for row in everyone]
        cross = systems.crosstable(players, state.as_pairings(event.pairings.all()))
        crosstable = [
            (row, [" ".join(cross[row.entry.user_id].get(other, [])) for other in players])
            for row in everyone
        ]
    return {
        "event": event,
        "rows": rows,
        "players": players,
        "page": number,
        "pages": range(1, pages + 1) if pages > 1 else (),
        "current": list(current.order_by("round", "pk")[:GAMES_SHOWN]),
        "current_count": current.count(),
        # A finished event keeps every game on its page; one going on its latest.
        "finished_games": list(played.order_by("-round", "-pk")[:shown_played]),
        "finished_count": played.count(),
        "crosstable": crosstable,
        "messages": list(event.messages.order_by("-id")[:CHAT_SHOWN])[::-1],
        "podium": rows[:3] if finished and number == 1 else [],
        "revision": state.revision(state.channel_of(event.public_id)),
    }


def blocked_names(user: Any) -> list[str]:
    """The names of the accounts ``user`` blocked: what they wrote in an event's chat is
    not shown to ``user``. The shared part, the same for everyone, carries every line
    with its author's name; a page drawn for one viewer leaves these out, and with
    script the page hides those pushed later."""
    if user is None:
        return []
    blocked = Block.objects.filter(blocker=user).values_list("blocked__username", flat=True)
    return sorted(blocked)


def for_viewer(context: dict[str, Any], blocked: list[str]) -> dict[str, Any]:
    """The shared part's ``context`` as drawn for one viewer who blocked ``blocked``."""
    if not blocked:
        return context
    messages = [message for message in context["messages"] if message.name not in blocked]
    return context | {"messages": messages}


def personal_context(event: Tournament, user: Any, error: str = "") -> dict[str, Any]:
    """The personal part's context for ``user`` (None: a visitor)."""
    context: dict[str, Any] = {"event": event, "error": error, "entry": None, "mine": None}
    context["can_start"] = (
        user is not None and event.creator_id == user.pk and event.status == "created"
    )
    if user is None:
        return context
    entry = event.entries.filter(user=user).first()
    context["entry"] = entry
    if entry is not None and event.status != "created":
        place = next((s for s in state.table(event) if s.player == user.pk), None)
        context["place"] = place
    ours = Q(dark=user.pk) | Q(light=user.pk)
    playing = event.pairings.filter(ours, result="").exclude(game=None)
    context["mine"] = playing.select_related("game").first()
    return context


@lru_cache(maxsize=256)
def shared_html(public_id: str, upto: int) -> tuple[float, str]:
    """When it was drawn (the server's clock, seconds since 1970: a client knows a
    change it saw answered before then is in it), and the first page of the shared
    part, as it stands once the event is at revision ``upto`` (or later: what is
    drawn is never older than what was heard of); drawn once per process for each
    revision a stream hears of."""
    drawn = time.time()
    event = state.found(public_id)
    return drawn, render_to_string("tournaments/_shared.html", shared_context(event))
