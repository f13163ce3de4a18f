"""What happens to challenges, for whoever listens (notifications, a program's event
stream): Django signals sent by ``lobby.challenges`` once the change commits, never
by a listener.

- ``challenge_made``: a challenge was posted, with the ``Challenge``; one to a named
  player has its ``to_user``.
- ``challenge_accepted``: with the ``Challenge`` and the ``Game`` it started.
- ``challenge_declined``: a named player declined it, with the ``Challenge``.
- ``challenge_cancelled``: its creator took it back, or it was withdrawn (its guest's
  page gone, or its named player blocked its creator), with the ``Challenge``.
"""

from __future__ import annotations

from django.dispatch import Signal

__all__ = ["challenge_accepted", "challenge_cancelled", "challenge_declined", "challenge_made"]

challenge_made = Signal()  # challenge
challenge_accepted = Signal()  # challenge, game
challenge_declined = Signal()  # challenge
challenge_cancelled = Signal()  # challenge
