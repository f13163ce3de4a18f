"""One player blocking another (``players.models.Block``): what it does at once.

Blocked, a player can no longer challenge the blocker (``lobby.challenges``: refused,
by the API too, and the blocker's open challenges are not theirs to accept), write to
them in a game's chat (``chat.talk``: refused, and what they wrote before is hidden
from the blocker), nor send them a notice or a mail (``notifications.tasks.notify``).
Their open challenges to the blocker are withdrawn as the block is made, by the lobby,
which hears ``player_blocked`` (sent in the block's transaction, so the two are made
together or not at all): players know nothing of challenges. Games going on go on: a
block ends no game, and the turn and the end are still told."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

from players.models import Block

# ``blocker`` has blocked ``blocked`` (sent each time, inside the block's transaction).
player_blocked = Signal()


class BlockError(ValueError):
    """A block that cannot be: of oneself."""


def set_block(blocker: Any, blocked: Any, on: bool) -> None:
    """Block ``blocked`` for ``blocker`` (``on``), or lift the block; doing it twice
    changes nothing more."""
    if blocker.pk == blocked.pk:
        raise BlockError("you cannot block yourself")
    with transaction.atomic():
        if not on:
            Block.objects.filter(blocker=blocker, blocked=blocked).delete()
            return
        Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        player_blocked.send(Block, blocker=blocker, blocked=blocked)
