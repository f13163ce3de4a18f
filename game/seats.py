"""The seats a browser holds, kept in its session (a signed, HttpOnly cookie)."""

from __future__ import annotations

from django.http import HttpRequest

SESSION_KEY = "seats"
# The session is a cookie: keep the most recent games' seats so it stays small.
MAX_GAMES = 24


def tokens_for(request: HttpRequest, public_id: str) -> dict[str, str]:
    """This browser's seat tokens for a game, by colour (empty for a watcher)."""
    seats = request.session.get(SESSION_KEY, {})
    held = seats.get(public_id)
    return dict(held) if isinstance(held, dict) else {}


def remember(request: HttpRequest, public_id: str, tokens: dict[str, str]) -> None:
    """Add seat tokens for a game to this browser's session."""
    if not tokens:
        return
    seats = dict(request.session.get(SESSION_KEY, {}))
    held = dict(seats.pop(public_id, {}))
    held.update(tokens)
    seats[public_id] = held  # dicts keep insertion order: newest last
    while len(seats) > MAX_GAMES:
        seats.pop(next(iter(seats)))
    request.session[SESSION_KEY] = seats
