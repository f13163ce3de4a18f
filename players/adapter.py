"""The site's django-allauth adapter: the usernames the site keeps for itself, and
failed logins counted per address and name."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.http import HttpRequest

from game.limits import client_of
from players.names import is_reserved


class AccountAdapter(DefaultAccountAdapter):
    error_messages = DefaultAccountAdapter.error_messages | {
        "too_many_login_attempts": (
            "Too many failed logins from here: wait a few minutes (longer after each "
            "round of failures) and try again, or reset your password."
        ),
    }

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks (the pattern, unique ignoring case), then the site's names."""
        username = super().clean_username(username, shallow=shallow)
        if is_reserved(username):
            raise forms.ValidationError(
                f"{username!r} is a name the site uses itself: choose another.",
                code="reserved_username",
            )
        return username

    def get_client_ip(self, request: HttpRequest) -> str:
        """The client as the site's own limits know it (game.limits): the address,
        the proxy's forwarded one if trusted, or an IPv6 client's /64."""
        return client_of(request)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """What allauth's per-key limit on failed logins (``login_failed``) counts: the
        name tried from this client. Counted per name alone (allauth's own), anyone
        who guessed wrong a few times from anywhere locked the owner out; counted by
        address too, a guesser is slowed where they stand, and the owner still gets
        in from their own. The per-address limit bounds a guesser's names."""
        return (
            f"{client_of(request)}:{super()._get_login_attempts_cache_key(request, **credentials)}"
        )
