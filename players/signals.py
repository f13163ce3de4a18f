"""A browser's games become the account's when its player logs in or signs up."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from game import seats


@receiver(user_logged_in, dispatch_uid="players.claim_games")
def _claim_games(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None:
        seats.claim(request, user)
