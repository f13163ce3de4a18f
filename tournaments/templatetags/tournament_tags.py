"""What other pages show of tournaments: the home page's and the lobby's event to
join (running, or starting soon, of the game chosen), and a profile's events and
places."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Case, IntegerField, Value, When

from game import clocks
from tournaments import state
from tournaments.models import Pairing, Tournament

register = template.Library()

# A profile lists this many of its player's latest events.
PROFILE_EVENTS = 10


@register.inclusion_tag("tournaments/_featured.html")
def featured_tournament(kind: str = "") -> dict[str, Any]:
    """The open event a player could join now: one running (an arena, or a Swiss
    between rounds that takes late players), else the next to start; a private one
    is never offered."""
    found = Tournament.objects.filter(password="").exclude(status=Tournament.Status.FINISHED)
    found = found.exclude(system=Tournament.System.ROUND_ROBIN, status=Tournament.Status.RUNNING)
    if kind:
        found = found.filter(kind=kind)
    running_first = Case(
        When(status=Tournament.Status.RUNNING, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    event = found.order_by(running_first, "starts_at", "-created").first()
    return {"event": event}


@register.inclusion_tag("tournaments/_played.html")
def tournaments_of(user: Any) -> dict[str, Any]:
    """``user``'s latest events, each with their place (or "playing")."""
    entries = (
        user.tournament_entries.select_related("tournament")
        .exclude(tournament__status=Tournament.Status.CREATED)
        .order_by("-tournament__started")[:PROFILE_EVENTS]
    )
    played = []
    for entry in entries:
        event = entry.tournament
        standings = state.table(event)
        place = next((s.rank for s in standings if s.player == entry.user_id), None)
        played.append((event, place, len(standings)))
    return {"played": played}


@register.inclusion_tag("tournaments/_game_note.html", takes_context=True)
def tournament_of_game(context: dict[str, Any], game: Any) -> dict[str, Any]:
    """On a tournament's game page: its event and round, and, to a player of an arena
    with berserk who has yet to move, the button to go berserk."""
    pairing = Pairing.objects.filter(game=game).select_related("tournament").first()
    if pairing is None:
        return {"pairing": None}
    request = context.get("request")
    user = getattr(request, "user", None)
    color = None
    if user is not None and user.is_authenticated:
        color = {pairing.dark_id: "dark", pairing.light_id: "light"}.get(user.pk)
    can_berserk = (
        color is not None
        and pairing.tournament.berserk
        and not game.is_over
        and not getattr(pairing, f"{color}_berserk")
        and not clocks.has_moved(game, color)
    )
    return {"pairing": pairing, "event": pairing.tournament, "can_berserk": can_berserk}
