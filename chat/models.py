"""What is said in a game between people, kept with the game (its replay shows it),
and who switched their opponent's chat off."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from game import people
from game.models import Game

SIDES = [("dark", "Dark"), ("light", "Light")]
# The name a message keeps once its account is deleted (chat.receivers): the username
# is free to take again, and must not be shown beside another's words.
DELETED_NAME = people.DELETED


class Message(models.Model):
    """One message in one of a game's two rooms: the players' (``color`` is the
    sender's side) or the watchers' (``color`` is "")."""

    class Room(models.TextChoices):
        PLAYERS = "players", "Players"
        WATCHERS = "watchers", "Watchers"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    room = models.CharField(max_length=8, choices=Room.choices)
    color = models.CharField(max_length=5, choices=SIDES, blank=True)
    # The account that wrote it; the message stays if the account goes, named
    # ``DELETED_NAME`` from then on.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
    )
    # The name shown, as it was when the message was sent: the username, "Ann (guest)",
    # or "Guest"/"Watcher"; "deleted player" once the account is gone.
    name = models.CharField(max_length=160)
    text = models.CharField(max_length=200)
    quick = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    reported_at = models.DateTimeField(null=True, blank=True)
    reported_by_color = models.CharField(max_length=5, choices=SIDES, blank=True)

    class Meta:
        # Every page of a game reads its newest messages of one room.
        indexes = [models.Index(fields=["game", "room", "id"], name="chat_message_room")]

    def __str__(self) -> str:
        return f"{self.name}: {self.text}"


class Mute(models.Model):
    """The player of ``color`` switched the opponent's chat off in this game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="mutes")
    color = models.CharField(max_length=5, choices=SIDES)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "color"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.color} muted the opponent"
