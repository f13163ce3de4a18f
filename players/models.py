"""A player's ratings, one a family of games (``GameKind.rating_family``), and each
change a rated game made to them."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from game.models import Game
from game.ratings import START
from game.tokens import PERSONAL_TOKEN_PREFIX


class Rating(models.Model):
    """An account's Elo in one family of games (``maerstanas-standard``…), with its
    decimals, and how its rated games there went."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    family = models.CharField(max_length=40)
    value = models.FloatField(default=START)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    ties = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="one_rating_per_family"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.family}: {self.value:.1f}"


class RatingChange(models.Model):
    """What one rated game did to one side's rating. Unique by game and side: a game
    is rated once, whatever races to end it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    color = models.CharField(max_length=5)
    # A deleted account leaves its games, and what they did to the other side.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="rating_changes",
    )
    family = models.CharField(max_length=40)
    before = models.FloatField()
    after = models.FloatField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "color"], name="one_change_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.color}: {self.before:.1f} → {self.after:.1f}"

    @property
    def change(self) -> float:
        return self.after - self.before


def family_of(game: Game) -> str:
    """The family ``game`` is rated in: its kind's name and the kind's family."""
    return f"{game.kind}-{game.game_kind.rating_family(game.rules)}"


class Account(models.Model):
    """What an account says of itself beyond Django's user: whether a program plays it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account"
    )
    bot = models.BooleanField(default=False, help_text="a program plays this account")

    def __str__(self) -> str:
        return f"{self.user_id}{' (bot)' if self.bot else ''}"


TOKEN_PREFIX = PERSONAL_TOKEN_PREFIX


def new_api_token() -> str:
    """A personal API token: its prefix tells it from a seat's, then 256 random bits."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class ApiToken(models.Model):
    """A personal API token: a program holding it acts as the account through the API
    (``Authorization: Bearer mt_…``), as lichess's bot accounts do. Only its hash is
    kept; it is shown once, when made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=40)
    token_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.name}"


class Block(models.Model):
    """``blocker`` wants nothing more from ``blocked``: no challenge, no chat in their
    games, no notice (players.blocks says what it does). Games going on go on."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


def blocks(blocker_id: int | None, blocked_id: int | None) -> bool:
    """Whether the account ``blocker_id`` blocked ``blocked_id`` (False for a guest)."""
    if blocker_id is None or blocked_id is None:
        return False
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def new_login_key() -> str:
    """A login's id: 256 random bits, kept in its browser's (signed) session."""
    return secrets.token_urlsafe(32)


class LoginSession(models.Model):
    """One login of an account in one browser, while it lasts. Sessions are signed
    cookies, which the server cannot take back: a copy of one would stay logged in
    after its browser logged out. So each login is a row, its key kept in the
    session, and logging out deletes it; a session whose row is gone is a guest's
    (players.sessions)."""

    key = models.CharField(max_length=64, primary_key=True, default=new_login_key)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_sessions"
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} since {self.created:%Y-%m-%d %H:%M}"
