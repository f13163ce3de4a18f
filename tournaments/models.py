"""Tournaments: an event of one game and its rules, its players (``Entry``) and its
games and byes (``Pairing``). The standings are never stored: they are computed from
the pairings' results (``tournaments.systems.standings``), which are the games'."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from game import clocks
from game.models import Game
from game.options import Options
from game.registry import find_kind
from game.sides import NO_WINNER


def new_tournament_id() -> str:
    """A short, unguessable id for URLs: 8 URL-safe characters."""
    return secrets.token_urlsafe(6)


class Tournament(models.Model):
    class System(models.TextChoices):
        ARENA = "arena", "Arena"
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round-robin", "Round-robin"

    class Status(models.TextChoices):
        CREATED = "created", "Starting soon"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    public_id = models.CharField(max_length=12, unique=True, default=new_tournament_id)
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=16, help_text="game.registry's name")
    options = models.JSONField(default=dict, blank=True)
    system = models.CharField(max_length=11, choices=System.choices)
    # Swiss: the rounds; round-robin: 1 (each pair once) or 2 (colours swapped).
    rounds = models.PositiveSmallIntegerField(default=0)
    minutes = models.PositiveSmallIntegerField(default=0, help_text="an arena's length")
    rated = models.BooleanField(default=True)
    # An arena's players may halve their own clock at a game's start for a point more.
    berserk = models.BooleanField(default=False)
    speed = models.CharField(max_length=14, choices=Game.Speed.choices)
    initial = models.PositiveIntegerField(default=0, help_text="seconds each, live")
    increment = models.PositiveSmallIntegerField(default=0, help_text="seconds per move, live")
    days = models.PositiveSmallIntegerField(default=0, help_text="days per move, correspondence")
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="empty: its creator starts it"
    )
    min_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    # A private event's password, hashed as accounts' are; empty: open to all.
    password = models.CharField(max_length=128, blank=True)
    # None: the operator's (made in the admin).
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_created",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CREATED)
    round = models.PositiveSmallIntegerField(default=0, help_text="the round being played")
    started = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="an arena's end")
    finished = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "kind"], name="tournaments_by_status")]

    def __str__(self) -> str:
        return f"{self.name} ({self.public_id})"

    @property
    def game_kind(self):
        return find_kind(self.kind)

    @property
    def rules(self) -> Options:
        return self.game_kind.rules.from_mapping(self.options)

    @property
    def is_private(self) -> bool:
        return bool(self.password)

    @property
    def rating_family(self) -> str:
        return f"{self.kind}-{self.game_kind.rating_family(self.rules)}"

    @property
    def time_control(self) -> str:
        """The time control as the pages say it (``clocks.describe``): "3+2"."""
        return clocks.describe(self.speed, self.initial, self.increment, self.days)

    @property
    def rules_text(self) -> str:
        """The rules in a few words: "Special stones on · Standard scoring"."""
        return getattr(self.rules, "summary", "")


class Entry(models.Model):
    """A player of a tournament: joined, and maybe withdrawn since (an arena's player
    "paused"), by their own hand or by missing two games in a row."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    rating = models.FloatField(help_text="the rating as they joined: the seeding")
    joined = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)
    # Games lost in a row by time out or by never moving; two withdraw the player.
    missed = models.PositiveSmallIntegerField(default=0)
    # An arena's running score, kept as each game ends so a thousand players are
    # ranked by one indexed read; always what the games say (``state.recount``).
    points = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0, help_text="wins in a row")
    games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_a_player"),
        ]
        indexes = [
            models.Index(fields=["tournament", "-points", "-rating"], name="entries_by_points"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament.public_id}"


class Pairing(models.Model):
    """One game of a tournament, or a bye (no ``light``, no game). ``result`` is the
    game's (``Game.Result``) once it ends, or ``bye``; empty while it is played."""

    BYE = "bye"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField(help_text="an arena's games: numbered as they start")
    dark = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    light = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    result = models.CharField(max_length=5, blank=True)
    dark_berserk = models.BooleanField(default=False)
    light_berserk = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "round", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(light__isnull=False) | Q(result="bye"),
                name="a_bye_has_no_opponent",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "round"], name="pairings_by_round"),
            # The games being played, read as each ends (who is free, what a page lists),
            # and the counts a page shows: a few hundred rows of many thousands.
            models.Index(fields=["tournament", "result", "round"], name="pairings_by_result"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament.public_id} round {self.round}: {self.dark_id} v {self.light_id}"

    @property
    def result_word(self) -> str | None:
        """The result as the API and the pages say it: dark, light, draw, bye; None
        while the game is played."""
        if not self.result:
            return None
        return "draw" if self.result == NO_WINNER else self.result


class Message(models.Model):
    """A line of an event's short chat, written by one of its players."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="messages")
    # The message stays if its account goes, named as it was.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_messages",
    )
    name = models.CharField(max_length=150)
    text = models.CharField(max_length=200)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["tournament", "-id"], name="tournament_chat")]

    def __str__(self) -> str:
        return f"{self.name}: {self.text}"
