"""The site's django-allauth adapter: the usernames the site keeps for itself, failed
logins counted per address and name, and how much mail about accounts may go to one
address."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django import forms
from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from kit import limits
from players.names import is_reserved

# Anyone may ask for a password reset for any address, and an address with no account
# is mailed too (to say so): the mail of accounts is a way to flood an inbox. allauth
# refuses the requests past ACCOUNT_RATE_LIMITS, counted in the default cache; these
# count every mail of accounts again in the database, which every server process
# shares, so the bound holds however many processes serve, whatever the cache is.
MAIL_TO_ONE_ADDRESS = limits.Limit("account-mail-to", requests=5, seconds=3600)
MAIL_FROM_ONE_CLIENT = limits.Limit("account-mail-from", requests=20, seconds=3600)


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
        """The client as the site's own limits know it (kit.limits): the address,
        the proxy's forwarded one if trusted, or an IPv6 client's /64."""
        return limits.client_of(request)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """What allauth's per-key limit on failed logins (``login_failed``) counts: the
        name tried from this client. Counted per name alone (allauth's own), anyone
        who guessed wrong a few times from anywhere locked the owner out; counted by
        address too, a guesser is slowed where they stand, and the owner still gets
        in from their own. The per-address limit bounds a guesser's names."""
        name = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{limits.client_of(request)}:{name}"

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's mail (a password reset, an address to verify…), unless the address
        or the client asking had their hour's share: then nothing is sent, and the page
        says what it always says, so it tells nobody whether the address has an account."""
        if _may_mail(email):
            super().send_mail(template_prefix, email, context)


def _may_mail(address: str) -> bool:
    """Count one mail to ``address`` and from the request's client; whether both are
    within their hour's share. The address is kept only as a keyed hash."""
    recipient = salted_hmac("players.adapter.mail", address.strip().lower()).hexdigest()[:32]
    try:
        limits.count(MAIL_TO_ONE_ADDRESS, recipient)
        if (request := allauth_context.request) is not None:
            limits.check(MAIL_FROM_ONE_CLIENT, request)
    except limits.Exceeded:
        return False
    return True
