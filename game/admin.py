"""The operator's view of the games (Django's admin, at ``DJANGO_ADMIN_PATH``)."""

from django.contrib import admin

from game.models import Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["color", "user", "level"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["public_id", "kind", "mode", "rated", "status", "result", "ply", "updated"]
    list_filter = ["kind", "mode", "rated", "status"]
    search_fields = ["public_id", "seats__user__username"]
    date_hierarchy = "created"
    inlines = [SeatInline]
    # The move log is the truth and game.play its only writer: the admin reads games.
    readonly_fields = [field.name for field in Game._meta.concrete_fields]

    def has_add_permission(self, request) -> bool:
        return False
