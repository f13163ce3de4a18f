"""The site's django-allauth adapter: the usernames the site keeps for itself."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms

from players.names import is_reserved


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks (the pattern, unique ignoring case), then the site's names."""
        username = super().clean_username(username, shallow=shallow)
        if is_reserved(username):
            raise forms.ValidationError(
                f"{username!r} is a name the site uses itself: choose another.",
                code="reserved_username",
            )
        return username
