"""Logging out ends the login on the server: a copy of the session cookie taken
before is no longer logged in.

Sessions are signed cookies (settings: seats live in them), which the server keeps
no record of and so cannot end: logging out only made the browser drop its cookie,
and a copy of it stayed logged in for its year. Each login is now a row
(``LoginSession``) whose key the session holds; logging out deletes the row. The
user of a request is read, as Django reads it, only when something asks for it,
and then the row is looked up by its key (one indexed query, and none for a guest):
a session whose row is gone loses its login and stays a guest's, its seats and
games as they were.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import middleware
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from players.models import LoginSession

# Where the session keeps its login's key.
LOGIN_KEY = "login"
_AUTH_KEYS = (auth.SESSION_KEY, auth.BACKEND_SESSION_KEY, auth.HASH_SESSION_KEY, LOGIN_KEY)


def forget_ended_login(request: HttpRequest) -> None:
    """If the session is logged in by a login that has ended (logged out, or made
    before logins were kept), take the login out of it; the rest stays."""
    if getattr(request, "_login_checked", False):  # asked for as user and as auser
        return
    request._login_checked = True
    session = request.session
    user_id = session.get(auth.SESSION_KEY)
    if user_id is None:
        return
    key = session.get(LOGIN_KEY)
    if key and LoginSession.objects.filter(key=key, user_id=user_id).exists():
        return
    for name in _AUTH_KEYS:
        session.pop(name, None)


def get_user(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        forget_ended_login(request)
        request._cached_user = auth.get_user(request)
    return request._cached_user


async def auser(request: HttpRequest) -> Any:
    if not hasattr(request, "_acached_user"):
        await sync_to_async(forget_ended_login)(request)
        request._acached_user = await auth.aget_user(request)
    return request._acached_user


class AuthenticationMiddleware(middleware.AuthenticationMiddleware):
    """Django's, whose user (read when asked for) is a guest where the login ended."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
        request.auser = partial(auser, request)


@receiver(user_logged_in, dispatch_uid="players.begin_login")
def _begin_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Keep the login, and forget the account's logins whose cookies have expired."""
    if request is None:
        return
    expired = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE)
    LoginSession.objects.filter(user=user, created__lt=expired).delete()
    request.session[LOGIN_KEY] = LoginSession.objects.create(user=user).key


@receiver(user_logged_out, dispatch_uid="players.end_login")
def _end_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and (key := request.session.get(LOGIN_KEY)):
        LoginSession.objects.filter(key=key).delete()
