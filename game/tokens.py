"""The secrets of games: their public ids, the seat tokens a browser or program holds a
seat by (only their hashes are stored), and the tokens an account holds its seats by
(derived from the site's secret, never stored)."""

from __future__ import annotations

import hashlib
import secrets

from django.utils.crypto import salted_hmac


def new_public_id() -> str:
    """A short, unguessable id for URLs: 12 URL-safe characters, 72 random bits."""
    return secrets.token_urlsafe(9)


# A personal API token (``players.models``) begins so, and a seat token never does:
# both come in ``Authorization: Bearer``, and neither is ever taken for the other.
PERSONAL_TOKEN_PREFIX = "mt_"
# A seat token's length (192 bits in URL-safe base64), which a personal token never has:
# the seat tokens made before they avoided the prefix still work.
SEAT_TOKEN_LENGTH = 32


def new_seat_token() -> str:
    """A seat's secret: 192 random bits, never beginning as a personal API token does.
    Only its hash is stored."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith(PERSONAL_TOKEN_PREFIX):
            return token


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def account_token(user_id: int, public_id: str, color: str) -> str:
    """The seat token an account holds a seat by, on any device it logs in on: derived
    from the site's secret, so it is never stored, and worth nothing once the seat is
    no longer the account's."""
    message = f"{user_id}:{public_id}:{color}"
    return "a-" + salted_hmac("game.models.account_token", message, algorithm="sha256").hexdigest()
