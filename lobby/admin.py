from django.contrib import admin
from django.db import transaction

from kit import live
from lobby import challenges
from lobby.models import Challenge


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    """The lobby's challenges: the open ones first, to see who waits and withdraw spam."""

    list_display = ("public_id", "creator", "creator_name", "to_user", "speed", "rated", "status")
    list_filter = ("status", "speed", "rated")
    search_fields = ("public_id", "creator__username", "to_user__username", "creator_name")
    readonly_fields = ("public_id", "owner", "token_hash", "revision", "game", "created")
    actions = ["withdraw"]

    @admin.action(description="Withdraw the selected open challenges")
    def withdraw(self, request, queryset) -> None:
        with transaction.atomic():
            for challenge in queryset.filter(status="open").select_for_update():
                challenge.status = Challenge.Status.WITHDRAWN
                challenge.revision = live.bump(challenges.LOBBY)
                challenge.save(update_fields=["status", "revision", "updated"])
