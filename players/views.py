"""The account's own pages beside allauth's (its settings, deleting it), and the
players' public pages: profiles, the leaderboard and their JSON."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, NamedTuple

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game import seats
from game.models import BrowserGame, Game
from game.pages import opponent_words
from game.ratings import START
from game.registry import DEFAULT, family_title
from game.tokens import hash_token
from game.views.common import SeeOther
from players import blocking
from players.graph import rating_graph
from players.models import (
    Account,
    ApiToken,
    Block,
    Rating,
    RatingChange,
    blocks,
    new_api_token,
)
from players.names import GUEST_NAME, is_reserved


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password, to be sure it is you",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.", code="wrong_password")
        return password


@login_required
@require_safe
def settings(request: HttpRequest) -> HttpResponse:
    """The account's settings: its password, its e-mail addresses, the players it
    blocked, deleting it."""
    blocked = Block.objects.filter(blocker=request.user).select_related("blocked")
    return render(request, "players/settings.html", {"blocks": blocked})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    """Delete the account, once its password is given. Its games stay, their seats
    held by nobody's account ("deleted player"); nothing else of it is kept."""
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        with transaction.atomic():
            BrowserGame.objects.filter(browser=f"account:{user.pk}").delete()
            user.delete()  # its addresses go with it; its seats are kept, held by nobody's
        logout(request)
        messages.success(request, "Your account is deleted. Its games stay, as a deleted player's.")
        return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "players/delete.html", {"form": form}, status=status)


# Profiles and the leaderboard --------------------------------------------------------------

# The leaderboard lists the players with a rated game this recently.
ACTIVE_DAYS = 90
LEADERBOARD_SIZE = 100
RECENT_GAMES = 20


class Family(NamedTuple):
    """A family of ratings as a page names it: ``slug`` in its query, ``title`` in words."""

    slug: str
    title: str


def _families() -> list[Family]:
    """The families of ratings to show: the default game's first, then any other some
    player has a rating in."""
    default = f"{DEFAULT.name}-{DEFAULT.rating_family(DEFAULT.rules())}"
    others = Rating.objects.exclude(family=default).values_list("family", flat=True)
    return [Family(slug, family_title(slug)) for slug in [default, *sorted(set(others))]]


def _family(request: HttpRequest) -> Family:
    families = _families()
    chosen = request.GET.get("family", families[0].slug)
    for family in families:
        if family.slug == chosen:
            return family
    slugs = ", ".join(family.slug for family in families)
    raise Http404(f"{chosen[:40]!r} is not a family of ratings: {slugs}")


def _player(username: str):
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise Http404("there is no player of that name")
    return user


@dataclass(frozen=True)
class Profile:
    """A player's page and its JSON: their rating in one family, how their rated games
    there went, their rating after each, and their games."""

    user: Any
    family: str
    rating: float
    games: int
    wins: int
    losses: int
    ties: int
    history: list[Any]  # RatingChange, oldest first

    @classmethod
    def of(cls, user: Any, family: str) -> Profile:
        rating = Rating.objects.filter(user=user, family=family).first()
        history = list(RatingChange.objects.filter(user=user, family=family).select_related("game"))
        if rating is None:
            return cls(user, family, START, 0, 0, 0, 0, history)
        return cls(
            user,
            family,
            rating.value,
            rating.games,
            rating.wins,
            rating.losses,
            rating.ties,
            history,
        )

    @property
    def graph(self) -> str:
        if not self.history:
            return ""
        return rating_graph([self.history[0].before, *(change.after for change in self.history)])

    def as_json(self) -> dict[str, Any]:
        return {
            "username": self.user.username,
            "family": self.family,
            "rating": round(self.rating, 1),
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "history": [
                {
                    "game": change.game.public_id,
                    "before": round(change.before, 1),
                    "after": round(change.after, 1),
                    "at": change.at.isoformat(),
                }
                for change in self.history
            ],
        }


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: their rating, games, wins, losses and ties, its history, and
    their games going on and finished."""
    user = _player(username)
    family = _family(request)
    games = (
        Game.objects.filter(seats__user=user)
        .distinct()
        .prefetch_related("seats__user")
        .order_by("-updated")[:RECENT_GAMES]
    )
    viewer = request.user if request.user.is_authenticated else None
    # Each game beside whom the player played in it, named as "My games" names them.
    rows = [(game, _against(game, user)) for game in games]
    context = {
        "player": user,
        "blocked": viewer is not None and blocks(viewer.pk, user.pk),
        "profile": Profile.of(user, family.slug),
        "family": family,
        "families": _families(),
        "going_on": [(game, against) for game, against in rows if not game.is_over],
        "finished": [(game, against) for game, against in rows if game.is_over],
    }
    return render(request, "players/profile.html", context)


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    """Block the player (``on=1``) or lift the block (``on=0``), and back to their page."""
    other = _player(username)
    on = request.POST.get("on", "")
    if on not in ("1", "0"):
        return HttpResponse(
            f"{on[:20]!r} is not an answer: on is 1 (block) or 0 (unblock).",
            status=400,
            content_type="text/plain",
        )
    try:
        blocking.set_block(request.user, other, on == "1")
    except blocking.BlockError as refusal:
        return HttpResponse(f"{str(refusal).capitalize()}.", status=400, content_type="text/plain")
    if on == "1":
        messages.success(
            request,
            f"You blocked {other.username}: they cannot challenge you, write to you in chat "
            "or send you notifications, and you will not read them in tournaments' chats. "
            "Games going on go on.",
        )
    else:
        messages.success(request, f"You unblocked {other.username}.")
    return SeeOther(reverse("player", args=[other.username]))


def _against(game: Game, user: Any) -> str:
    """Whom ``user`` plays or played in ``game``, in words: "Against Bob, rated"."""
    colors = tuple(seat.color for seat in game.seats.all() if seat.user_id == user.pk)
    return opponent_words(game, colors)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """The players with a rated game in the last 90 days, best first; and a search by name."""
    family = _family(request)
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    active = RatingChange.objects.filter(family=family.slug, at__gte=since).values("user")
    ratings = (
        Rating.objects.filter(family=family.slug, user__in=active, user__is_active=True)
        .select_related("user")
        .order_by("-value", "user__username")[:LEADERBOARD_SIZE]
    )
    query = request.GET.get("q", "").strip()[:20]
    found = []
    if query:
        found = list(
            get_user_model()
            .objects.filter(username__icontains=query, is_active=True)
            .order_by("username")[:50]
        )
    context = {
        "ratings": ratings,
        "family": family,
        "families": _families(),
        "query": query,
        "found": found,
        "active_days": ACTIVE_DAYS,
    }
    return render(request, "players/leaderboard.html", context)


@require_safe
def player_json(request: HttpRequest, username: str) -> HttpResponse:
    """``GET /api/players/<username>``: the player's rating, record and its history."""
    try:
        user = _player(username)
        family = _family(request)
    except Http404 as missing:
        return JsonResponse({"error": str(missing)}, status=404)
    return JsonResponse(Profile.of(user, family.slug).as_json())


# Personal API tokens and bot accounts ------------------------------------------------------

MAX_TOKENS = 10


class TokenForm(forms.Form):
    name = forms.CharField(label="What the token is for", max_length=40, strip=True)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The account's personal API tokens: make one (shown once), revoke one, and say
    whether a program plays the account (a bot)."""
    user = request.user
    form = TokenForm(request.POST if request.POST.get("action") == "create" else None)
    made = ""
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "create":
            if user.api_tokens.count() >= MAX_TOKENS:
                form.add_error(None, f"An account holds {MAX_TOKENS} tokens at most: revoke one.")
            if form.is_valid():
                made = new_api_token()
                ApiToken.objects.create(
                    user=user, name=form.cleaned_data["name"], token_hash=hash_token(made)
                )
            else:
                status = 400
        elif action == "revoke":
            revoke_token(user, request.POST.get("token", ""))
            return redirect("account-tokens")
        elif action == "bot":
            Account.objects.update_or_create(
                user=user, defaults={"bot": request.POST.get("bot") == "on"}
            )
            return redirect("account-tokens")
        else:
            return HttpResponse("Unknown action.", status=400, content_type="text/plain")
    context = {
        "form": form,
        "made": made,
        "tokens": user.api_tokens.all(),
        "bot": is_bot(user),
    }
    response = render(request, "players/tokens.html", context, status=status)
    response["Cache-Control"] = "no-store"  # a new token is shown once, never kept
    return response


# A token's id as the form sends it: a row's primary key, which fits in 64 bits.
TOKEN_ID = re.compile(r"[0-9]{1,18}")


def revoke_token(user: Any, token_id: str) -> None:
    """Delete the account's token of that id. Anything else (text that is no id, an
    id of another account's token or of none) is a 404: the database is never asked
    to read a word as a number."""
    if not TOKEN_ID.fullmatch(token_id):
        raise Http404("There is no such token of yours.")
    deleted, _ = user.api_tokens.filter(pk=int(token_id)).delete()
    if not deleted:
        raise Http404("There is no such token of yours.")


def is_bot(user: Any) -> bool:
    """True if the account says a program plays it."""
    return Account.objects.filter(user=user, bot=True).exists()


# A guest's name ------------------------------------------------------------------------------


class GuestNameForm(forms.Form):
    name = forms.CharField(
        label="Your name",
        max_length=20,
        strip=True,
        help_text="2 to 20 letters, digits, spaces, _ or -. Others see it marked as a guest's.",
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not GUEST_NAME.fullmatch(name):
            raise forms.ValidationError(
                "A name is 2 to 20 letters (a to z), digits, spaces, _ or -.", code="invalid"
            )
        if is_reserved(name):
            raise forms.ValidationError(f"{name!r} is a name the site uses itself.")
        # A guest may not pass for a player with an account.
        if get_user_model().objects.filter(username__iexact=name).exists():
            raise forms.ValidationError(f"{name!r} is a player's name here: choose another.")
        return name


@require_http_methods(["GET", "HEAD", "POST"])
def guest_name(request: HttpRequest) -> HttpResponse:
    """A guest names themselves: kept in their session, and shown to their opponents
    and watchers in the games they play, marked as a guest's."""
    if request.user.is_authenticated:
        return redirect("account-settings")  # an account's name is its username
    form = GuestNameForm(request.POST or None, initial={"name": seats.guest_name(request)})
    if request.method == "POST":
        if form.is_valid():
            seats.name_guest(request, form.cleaned_data["name"])
            messages.success(request, f"Others now see you as {form.cleaned_data['name']}.")
            return redirect("games")
        return render(request, "players/guest_name.html", {"form": form}, status=400)
    return render(request, "players/guest_name.html", {"form": form})
