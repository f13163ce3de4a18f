"""A player's notices (``Notification``) and how they want them by e-mail
(``Preference``). Only accounts have them: a guest has no inbox to keep them in."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """One thing that happened for a player: their turn, a challenge, a game's end…

    ``url`` is the site's path to go and see it (a game's page, a challenge in the
    lobby), ``read_at`` when the player marked it read, ``mailed_at`` when the worker
    mailed it (alone, in a digest or as a reminder)."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        CHALLENGE = "challenge", "Challenge"
        ACCEPTED = "accepted", "Challenge accepted"
        ENDED = "ended", "Game ended"
        TAKEBACK = "takeback", "Takeback request"
        TOURNAMENT = "tournament", "Tournament game"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    text = models.CharField(max_length=200)
    url = models.CharField(max_length=200)
    # Deleted with its game (the daily pruning): a notice of a game gone leads nowhere.
    game = models.ForeignKey(
        "game.Game",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    # The challenge a "challenge from…" notice offers: it goes with it, and once the
    # challenge is no longer open (cancelled, declined, taken) it is not mailed.
    challenge = models.ForeignKey(
        "lobby.Challenge",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            # Every page an account sees counts its unread notices.
            models.Index(fields=["user", "read_at"], name="notifications_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text}"

    @property
    def unread(self) -> bool:
        return self.read_at is None


class Preference(models.Model):
    """Whether an account's notices are mailed: never, each as it happens, or a daily
    digest; ``digest_due`` is when the digest waiting to be sent goes, if one is."""

    class Email(models.TextChoices):
        OFF = "off", "No e-mail"
        EACH = "each", "An e-mail for each notification"
        DAILY = "daily", "One e-mail a day with the day's notifications"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    email = models.CharField(max_length=5, choices=Email.choices, default=Email.OFF)
    digest_due = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.email}"


def email_choice(user_id: int) -> str:
    """How the account wants its notices mailed; "off" if it never said."""
    chosen = Preference.objects.filter(user_id=user_id).values_list("email", flat=True).first()
    return chosen or Preference.Email.OFF
