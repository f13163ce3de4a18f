"""A personal API token in ``Authorization: Bearer mt_…`` makes an API request the
account's: ``request.user`` is its user, so the API acts for the account as the
pages do for a logged-in player (its seats, its games). The token is the only
credential read: no cookie, so nothing to forge across sites."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from game.tokens import SEAT_TOKEN_LENGTH, hash_token
from players.models import TOKEN_PREFIX, ApiToken

# The scheme's name in any case (RFC 6750), the prefix exactly: seat tokens are
# URL-safe base64 too, and one in 65,536 of them began with "mT_" or "Mt_".
PERSONAL = re.compile(rf"(?i:bearer) +({TOKEN_PREFIX}[A-Za-z0-9_-]{{20,80}}) *")
# How often a token's "last used" is written: not on every request of a busy program.
LAST_USED_EVERY = timedelta(minutes=5)


class ApiTokenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            match = PERSONAL.fullmatch(request.headers.get("Authorization", ""))
            # A seat token made before seat tokens avoided the prefix is left to the API.
            if match is not None and len(match[1]) != SEAT_TOKEN_LENGTH:
                found = (
                    ApiToken.objects.filter(token_hash=hash_token(match[1]), user__is_active=True)
                    .select_related("user")
                    .first()
                )
                if found is None:
                    return JsonResponse(
                        {"error": "this API token is not valid: it was revoked, or mistyped"},
                        status=401,
                    )
                now = timezone.now()
                if found.last_used is None or now - found.last_used > LAST_USED_EVERY:
                    ApiToken.objects.filter(pk=found.pk).update(last_used=now)
                request.user = found.user
                request.api_token = found
        return self.get_response(request)
