"""The seats a browser holds, kept in its session (a signed, HttpOnly cookie), and
the list of its games ("My games"), kept on the server under the browser's id.

A player with an account (``players``) holds its seats on any device: logging in
makes the browser's seats and games the account's (``claim``), a seat taken while
logged in is the account's at once, and the list is kept under the account."""

from __future__ import annotations

import secrets

from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Case, When
from django.http import HttpRequest

from game.models import BrowserGame, Game, Seat
from game.tokens import account_token

SESSION_KEY = "seats"
# The session is a cookie: keep the most recent games' seats so it stays small.
MAX_GAMES = 24
# A random id for the browser, kept in the same signed cookie for a year
# (SESSION_COOKIE_AGE): the key to its list of games, which has no cap.
BROWSER_KEY = "browser"


# Who is looking, worked out once a request and game (the view, its page and the
# chat box all ask), kept on the request; ``remember`` and ``claim`` forget it.
LOOKING = "_seat_tokens"


def tokens_for(request: HttpRequest, public_id: str) -> dict[str, str]:
    """This browser's seat tokens for a game, by colour (empty for a watcher), and
    those of the seats its logged-in player's account holds: read once a request."""
    user = _user(request)
    known = request.__dict__.setdefault(LOOKING, {})
    key = (public_id, None if user is None else user.pk)  # logging in or out changes it
    if key not in known:
        known[key] = _tokens_for(request, public_id)
    return dict(known[key])


def _tokens_for(request: HttpRequest, public_id: str) -> dict[str, str]:
    seats = request.session.get(SESSION_KEY, {})
    held = seats.get(public_id)
    tokens = dict(held) if isinstance(held, dict) else {}
    user = _user(request)
    if user is not None:
        mine = Seat.objects.in_game(public_id).held_by(user).values_list("color")
        for (color,) in mine:
            tokens.setdefault(color, account_token(user.pk, public_id, color))
    return tokens


def _user(request: HttpRequest):
    """The request's logged-in user, or None for a guest."""
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def owner_key(request: HttpRequest, create: bool = False) -> str:
    """The key "My games" is kept under: the account's, or else the browser's id."""
    user = _user(request)
    return f"account:{user.pk}" if user is not None else browser_id(request, create)


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
    request.__dict__.pop(LOOKING, None)
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
            _list(owner_key(request, create=True), game, held)
            user = _user(request)
            if user is not None:
                for color, token in tokens.items():
                    _take(user, Seat.objects.of(game).side(color), token)
            elif name := guest_name(request):
                Seat.objects.of(game).unclaimed(tokens.values()).update(guest_name=name)


GUEST_NAME_KEY = "guest_name"


def guest_name(request: HttpRequest) -> str:
    """The name this browser's guest gave themselves, or ""."""
    name = request.session.get(GUEST_NAME_KEY, "")
    return name if isinstance(name, str) else ""


def name_guest(request: HttpRequest, name: str) -> int:
    """Keep ``name`` as this browser's guest name, and give it to the seats it holds
    in games going on (not an account's); return how many."""
    request.session[GUEST_NAME_KEY] = name
    named = 0
    for public_id, held in dict(request.session.get(SESSION_KEY, {})).items():
        if isinstance(held, dict):
            tokens = [token for token in held.values() if isinstance(token, str)]
            seats = Seat.objects.in_game(public_id).going_on().unclaimed(tokens)
            named += seats.update(guest_name=name)
    return named


def list_game(owner: str, game: Game, colors) -> None:
    """Put ``game`` in ``owner``'s list of games (``owner_key``), with the seats
    ``colors`` it holds: a game two people agreed on in the lobby is in both lists."""
    _list(owner, game, colors)


def list_new_game(game: Game, owners: dict[str, list[str]]) -> None:
    """Put ``game``, just made, in the lists of games of its ``owners`` (each
    ``owner_key`` with the seats it holds): in one statement, where ``list_game``
    looks for the list's entry first (a tournament's round starts hundreds)."""
    BrowserGame.objects.bulk_create(
        BrowserGame(browser=owner, game=game, colors=" ".join(sorted(set(colors))))
        for owner, colors in owners.items()
    )


def _list(owner: str, game: Game, colors) -> None:
    """Put ``game`` in ``owner``'s list of games, with the seats ``colors`` it holds."""
    entry, _ = BrowserGame.objects.get_or_create(browser=owner, game=game)
    merged = sorted(set(entry.colors.split()) | set(colors))
    if " ".join(merged) != entry.colors:
        entry.colors = " ".join(merged)
        # Its other fields never change once it is made: saving them too writes the same.
        entry.save(update_fields=["colors"])  # pragma: no mutate


def _take(user, seats, token: str) -> int:
    """Make the seats among ``seats`` that ``token`` holds, and no account holds yet,
    ``user``'s; how many."""
    return seats.unclaimed([token]).update(user=user)


def claim(request: HttpRequest, user) -> int:
    """Make this browser's seats and games ``user``'s, as its player logs in: the
    seats its session holds, and its list of games. Return how many seats it took;
    a seat another account holds stays that account's."""
    request.__dict__.pop(LOOKING, None)
    taken = 0
    with transaction.atomic():
        for public_id, held in dict(request.session.get(SESSION_KEY, {})).items():
            if not isinstance(held, dict):
                continue
            for color, token in held.items():
                if isinstance(token, str):
                    seats = Seat.objects.in_game(public_id).side(color)
                    taken += _take(user, seats, token)
        browser = browser_id(request)
        if browser:
            account = f"account:{user.pk}"
            for entry in BrowserGame.objects.filter(browser=browser).select_related("game"):
                _list(account, entry.game, entry.colors.split())
    return taken


# "My games" shows this many a page: a list of thousands cost most of a second.
GAMES_PER_PAGE = 50


def my_games(request: HttpRequest, number: int | str | None = 1) -> Page:
    """One page of this browser's games, each with its game: those going on first,
    then the finished, newest first within each. A page out of range is the last."""
    owner = owner_key(request) or "-"  # no id: a list of nothing
    entries = (
        BrowserGame.objects.filter(browser=owner)
        .select_related("game")
        .prefetch_related("game__seats__user")
        .annotate(over=Case(When(game__status__in=Game.GOING_ON, then=0), default=1))
        .order_by("over", "-created", "-pk")
    )
    return Paginator(entries, GAMES_PER_PAGE).get_page(number)
