"""The count of unread notices that every page's header shows an account."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from notifications.models import Notification


def unread(request: HttpRequest) -> dict[str, object]:
    """``unread_notifications``: how many notices the account has not read; 0 for a
    guest, without a query. Counted only when a template shows it, so the game's
    partials that htmx redraws on every move never count."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    unread = Notification.objects.filter(user_id=user.pk, read_at=None)
    return {"unread_notifications": SimpleLazyObject(unread.count)}
