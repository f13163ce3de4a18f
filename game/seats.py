"""The seats a browser holds, kept in its session (a signed, HttpOnly cookie), and
the list of its games ("My games"), kept on the server under the browser's id."""

from __future__ import annotations

import secrets

from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Case, When
from django.http import HttpRequest

from game.models import BrowserGame, Game

SESSION_KEY = "seats"
# The session is a cookie: keep the most recent games' seats so it stays small.
MAX_GAMES = 24
# A random id for the browser, kept in the same signed cookie for a year
# (SESSION_COOKIE_AGE): the key to its list of games, which has no cap.
BROWSER_KEY = "browser"


def tokens_for(request: HttpRequest, public_id: str) -> dict[str, str]:
    """This browser's seat tokens for a game, by colour (empty for a watcher)."""
    seats = request.session.get(SESSION_KEY, {})
    held = seats.get(public_id)
    return dict(held) if isinstance(held, dict) else {}


def browser_id(request: HttpRequest, create: bool = False) -> str:
    """This browser's id; "" if it has none and ``create`` is false."""
    browser = request.session.get(BROWSER_KEY)
    if isinstance(browser, str) and len(browser) == 32:
        return browser
    if not create:
        return ""
    browser = secrets.token_hex(16)
    request.session[BROWSER_KEY] = browser
    return browser


def remember(request: HttpRequest, public_id: str, tokens: dict[str, str]) -> None:
    """Add seat tokens for a game to this browser's session, and the game to its list."""
    if not tokens:
        return
    seats = dict(request.session.get(SESSION_KEY, {}))
    held = dict(seats.pop(public_id, {}))
    held.update(tokens)
    seats[public_id] = held  # dicts keep insertion order: newest last
    while len(seats) > MAX_GAMES:
        seats.pop(next(iter(seats)))
    request.session[SESSION_KEY] = seats
    game = Game.objects.filter(public_id=public_id).only("pk").first()
    if game is not None:
        with transaction.atomic():
            entry, _ = BrowserGame.objects.get_or_create(
                browser=browser_id(request, create=True), game=game
            )
            colors = sorted(set(entry.colors.split()) | set(held))
            if " ".join(colors) != entry.colors:
                entry.colors = " ".join(colors)
                # Its other fields never change once it is made: saving them too writes the same.
                entry.save(update_fields=["colors"])  # pragma: no mutate


# "My games" shows this many a page: a list of thousands cost most of a second.
GAMES_PER_PAGE = 50


def my_games(request: HttpRequest, number: int | str | None = 1) -> Page:
    """One page of this browser's games, each with its game: those going on first,
    then the finished, newest first within each. A page out of range is the last."""
    browser = browser_id(request) or "-"  # no id: a list of nothing
    entries = (
        BrowserGame.objects.filter(browser=browser)
        .select_related("game")
        .prefetch_related("game__seats")
        .annotate(over=Case(When(game__status__in=Game.GOING_ON, then=0), default=1))
        .order_by("over", "-created", "-pk")
    )
    return Paginator(entries, GAMES_PER_PAGE).get_page(number)
