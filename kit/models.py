"""The kit's rows: rate counts, channels' revisions and each process's watchers.

Their tables keep the names the game app gave them when it held them (``db_table``):
moving the models here moved no data.
"""

from __future__ import annotations

from django.db import models


class RateCount(models.Model):
    """How many requests of one kind one client made in one window of time (kit.limits)."""

    key = models.CharField(max_length=100, unique=True, help_text="kind:client:window")
    count = models.PositiveIntegerField(default=1)
    expires = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "game_ratecount"  # made by the game app, which kept it at first

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class Channel(models.Model):
    """A page's news that is not one game's (the lobby's, one account's): its revision
    counts its changes, and the live streams hear of them as they hear of games'
    (``kit.live``, which knows a channel by a name starting with ``~``)."""

    name = models.CharField(max_length=40, unique=True)
    revision = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True, db_index=True)  # newsroom

    class Meta:
        db_table = "game_channel"  # made by the game app, which kept it at first

    def __str__(self) -> str:
        return f"{self.name} at {self.revision}"


class Audience(models.Model):
    """A client watching a game from one server process (``kit.audience``): each
    process replaces its own rows when its watchers change, and rewrites them every
    few seconds while it has any, so rows left by a process that died soon go stale
    and count for nothing."""

    process = models.CharField(max_length=100, help_text="host:pid:start time")
    game_id = models.CharField(max_length=16, help_text="the game's public id")
    client = models.CharField(max_length=16, help_text="the client's address, hashed")
    updated = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "game_audience"  # made by the game app, which kept it at first
        constraints = [
            models.UniqueConstraint(
                fields=["process", "game_id", "client"], name="one_row_per_watcher"
            ),
        ]
        indexes = [models.Index(fields=["game_id", "updated"], name="audience_of_game")]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.client} from {self.process}"
