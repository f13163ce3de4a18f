"""The operator's view of the players (Django's admin, at ``DJANGO_ADMIN_PATH``):
search them, and deactivate one; a deactivated player cannot log in, leaves the
leaderboard, and their games stay."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from players.models import Account, ApiToken, Rating, RatingChange

User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ["username", "email", "is_active", "date_joined", "last_login"]
    list_filter = ["is_active", "is_staff", "account__bot"]
    search_fields = ["username", "email"]
    actions = ["deactivate", "reactivate"]

    @admin.action(description="Deactivate: no login, off the leaderboard, games kept")
    def deactivate(self, request, queryset) -> None:
        count = queryset.exclude(pk=request.user.pk).update(is_active=False)
        ApiToken.objects.filter(user__in=queryset).exclude(user=request.user).delete()
        self.message_user(
            request, f"{count} deactivated; their API tokens revoked.", messages.SUCCESS
        )

    @admin.action(description="Reactivate")
    def reactivate(self, request, queryset) -> None:
        self.message_user(request, f"{queryset.update(is_active=True)} reactivated.")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "family", "value", "games", "wins", "losses", "ties", "updated"]
    list_filter = ["family"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "family", "value", "games", "wins", "losses", "ties"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["game", "color", "user", "family", "before", "after", "at"]
    search_fields = ["user__username", "game__public_id"]
    readonly_fields = ["game", "color", "user", "family", "before", "after"]


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = ["user", "bot"]
    list_filter = ["bot"]
    search_fields = ["user__username"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "created", "last_used"]
    search_fields = ["user__username", "name"]
    fields = ["user", "name", "created", "last_used"]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False  # a token is made by its owner, who alone sees it once
