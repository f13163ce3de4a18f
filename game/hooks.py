"""What a game's changes announce, for whoever listens: Django signals, each sent by
``game.play`` (or the model's one write of a change), never by a listener.

- ``game_changed``: inside the transaction of every change a watching page must
  show (``Game.save_change``), with the database alias; the live streams
  (``kit.live``) announce it to other processes from there, and look at once
  when it commits.
- ``game_finished``: once the transaction that ended a game commits, once per
  game, whatever ended it (``play.finish``): with the game and its ``Outcome``.
  Ratings and notices listen here, as lila's ``Finisher`` calls them after
  saving the game.
- ``game_ending``: as a game ends, inside the transaction that ends it and under
  the game's row lock, before it commits: what must change with the end or not at
  all (the players' ratings) listens here, and its error rolls the end back.
- ``computer_to_move``: once a change that leaves the computer to move commits,
  with the game's public id and ply; ``game.computer`` enqueues its reply.
- ``hint_asked``: once a player's request for a hint commits, the same way.
- ``deadline_set``: once a change that gives the side to move a deadline commits
  (``game.clocks``), with the game's public id and the deadline;
  ``game.timekeeper`` sets a task to end the game then.

The listeners are connected in ``GameConfig.ready`` (``game/apps.py``), so the
module that plays games never imports the ones that listen, and a new listener
(ratings, notifications) changes nothing here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import Signal

__all__ = [
    "computer_to_move",
    "deadline_set",
    "game_changed",
    "game_ending",
    "game_finished",
    "hint_asked",
    "on_commit",
]

game_changed = Signal()  # game, using
game_finished = Signal()  # game, outcome
game_ending = Signal()  # game, outcome: in the transaction, under the row lock
computer_to_move = Signal()  # public_id, ply
hint_asked = Signal()  # public_id, ply
deadline_set = Signal()  # public_id, deadline


def on_commit(signal: Signal, sender: type, using: str | None = None, **kwargs: Any) -> None:
    """Send ``signal`` once the current transaction commits (at once outside one);
    nothing is sent if it rolls back."""
    transaction.on_commit(
        partial(signal.send, sender=sender, **kwargs),
        # The site has one database: any alias it takes names the one None stands for.
        using=using,  # pragma: no mutate
    )
