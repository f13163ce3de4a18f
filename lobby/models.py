"""Challenges: an offer of a game, open to anyone in the lobby or to one named player,
until someone accepts it (and a game starts), its creator cancels it, the named
player declines it, or it is withdrawn (a guest's challenge whose guest has gone, or
one to a player who blocked its creator)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac

from game import clocks, people
from game.models import Game
from game.options import Options
from game.registry import DEFAULT, find_kind


def owner_mark(owner: str) -> str:
    """What a row of the lobby says of its creator, and a page of its viewer, to tell
    "mine": derived from the owner key with the site's secret, revealing no browser id."""
    return salted_hmac("lobby.owner", owner).hexdigest()[:16]


def new_challenge_id() -> str:
    """A short, unguessable id for URLs: 8 URL-safe characters."""
    return secrets.token_urlsafe(6)


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        CANCELLED = "cancelled", "Cancelled"
        DECLINED = "declined", "Declined"
        # A guest's challenge whose guest had gone (a minute for a live one, a day
        # else), or a challenge to a player who blocked its creator since.
        WITHDRAWN = "withdrawn", "Withdrawn"

    class Color(models.TextChoices):
        DARK = "dark", "Dark"
        LIGHT = "light", "Light"
        RANDOM = "random", "Random"

    public_id = models.CharField(max_length=12, unique=True, default=new_challenge_id)
    kind = models.CharField(max_length=16, default="maerstanas", help_text="game.registry's name")
    options = models.JSONField(default=dict, blank=True)
    color = models.CharField(max_length=6, choices=Color.choices, default=Color.RANDOM)
    rated = models.BooleanField(default=False)
    speed = models.CharField(max_length=14, choices=Game.Speed.choices)
    initial = models.PositiveIntegerField(default=0, help_text="seconds each, live")
    increment = models.PositiveSmallIntegerField(default=0, help_text="seconds per move, live")
    days = models.PositiveSmallIntegerField(default=0, help_text="days per move, correspondence")
    # The ratings an accepting account must have, if the creator set bounds.
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)

    # Who made it: an account, or a guest's browser (``owner``, as "My games" keys it:
    # account:<id> or the browser's id), and the hash of the seat token its browser
    # or program holds for the game the challenge becomes.
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges",
    )
    owner = models.CharField(max_length=40, db_index=True)
    creator_name = models.CharField(max_length=20, blank=True, help_text="a guest's name")
    # The creator's rating in the challenge's family as it was posted (None: a guest).
    creator_rating = models.FloatField(null=True, blank=True)
    token_hash = models.CharField(max_length=64)
    # A challenge to one player, from their profile; None: open to the lobby.
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges_to_me",
    )

    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    # The lobby's revision at the challenge's last change: a live lobby page asks for
    # the challenges changed since the revision it shows (``lobby.live``).
    revision = models.PositiveIntegerField(default=0, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # When its creator's lobby page (or program) last said it was there: a guest's
    # challenge lapses once its guest has gone (``challenges.gone_after``).
    seen = models.DateTimeField(null=True, blank=True)
    # A guest's address, hashed with the site's secret (``challenges.address_key``):
    # the guests of one address hold a few open challenges at most, however many
    # browsers they open. "" for an account's.
    address = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["status", "to_user"], name="open_challenges"),
            models.Index(
                fields=["address"], condition=Q(status="open"), name="open_challenges_by_address"
            ),
        ]
        constraints = [
            # A player does not challenge themselves.
            models.CheckConstraint(
                condition=Q(to_user=None) | ~Q(to_user=models.F("creator")),
                name="challenge_not_to_oneself",
            ),
        ]

    def __str__(self) -> str:
        """In a few words, for a notice: "5+3, rated, special stones on · standard scoring"."""
        kind = "rated" if self.rated else "casual"
        return f"{self.time_control}, {kind}, {self.rules_text.lower()}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def rules(self) -> Options:
        return find_kind(self.kind).rules.from_mapping(self.options, typed=True)

    @property
    def rules_text(self) -> str:
        """The game and its rules in a few words: "Special stones on · Standard scoring";
        another game than Mǽrstánas is named first ("Cyngesheall · Standard rules")."""
        kind = find_kind(self.kind)
        summary = getattr(self.rules, "summary", "")
        return summary if kind is DEFAULT else f"{kind.title} · {summary}"

    @property
    def time_control(self) -> str:
        return clocks.describe(self.speed, self.initial, self.increment, self.days)

    @property
    def rating_family(self) -> str:
        kind = find_kind(self.kind)
        return f"{self.kind}-{kind.rating_family(self.rules)}"

    @property
    def owner_mark(self) -> str:
        return owner_mark(self.owner)

    @property
    def creator_is_bot(self) -> bool:
        return people.is_bot(self.creator)

    @property
    def color_text(self) -> str:
        """The side the one who accepts plays, in words."""
        if self.color == self.Color.RANDOM:
            return "random colours"
        other = self.Color.LIGHT if self.color == self.Color.DARK else self.Color.DARK
        return f"you play {find_kind(self.kind).sides.word(other)}"

    @property
    def creator_color_text(self) -> str:
        """The side its creator plays, in words, as their own row says it."""
        if self.color == self.Color.RANDOM:
            return "random colours"
        return f"you play {find_kind(self.kind).sides.word(self.color)}"

    @property
    def creator_display(self) -> str:
        if self.creator is not None:
            return self.creator.username
        return people.guest_name(self.creator_name)
