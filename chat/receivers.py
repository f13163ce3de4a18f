"""What the chat does when an account goes: its messages stay with their games, named
"deleted player", so the name, which anyone may take next, is never shown beside them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from chat.models import DELETED_NAME, Message


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="chat.account_deleted")
def _account_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    # Before the messages' ``user`` is set to null: afterwards nothing tells an account's
    # message from a guest's.
    Message.objects.filter(user=instance).update(name=DELETED_NAME)
