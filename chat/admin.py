"""The operator's view of the chat (Django's admin, at ``DJANGO_ADMIN_PATH``): the
messages players reported, to read and delete."""

from django.contrib import admin

from chat.models import Message


class ReportedFilter(admin.SimpleListFilter):
    title = "reported"
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("yes", "Reported"), ("no", "Not reported")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(reported_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(reported_at__isnull=True)
        return queryset


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["created", "game", "room", "color", "name", "text", "reported_at"]
    list_filter = [ReportedFilter, "room", "quick"]
    search_fields = ["text", "name", "game__public_id"]
    list_select_related = ["game"]
    ordering = ["-reported_at", "-id"]
    readonly_fields = [
        "game",
        "room",
        "color",
        "user",
        "name",
        "text",
        "quick",
        "created",
        "reported_at",
        "reported_by_color",
    ]
    # Django's own "Delete selected" action stays beside this one.
    actions = ["dismiss_reports"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Dismiss the reports (keep the messages)")
    def dismiss_reports(self, request, queryset) -> None:
        count = queryset.update(reported_at=None, reported_by_color="")
        self.message_user(request, f"{count} reports dismissed.")
