"""The operator's tournaments: made here as any account makes one (``events.create``,
its terms checked the same way, its password hashed), with no creator; started from
the list by an action once two players have joined."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from game.options import OptionError
from game.registry import KINDS, find_kind
from tournaments import events
from tournaments.models import Entry, Message, Pairing, Tournament


class TournamentAdminForm(forms.ModelForm):
    password = forms.CharField(
        required=False, help_text="a private event's password; empty: open to all"
    )
    kind = forms.ChoiceField(choices=[(name, kind.title) for name, kind in KINDS.items()])

    class Meta:
        model = Tournament
        fields = (
            "name",
            "kind",
            "options",
            "system",
            "rounds",
            "minutes",
            "rated",
            "speed",
            "initial",
            "increment",
            "days",
            "starts_at",
            "min_rating",
            "password",
        )

    def clean(self):
        data = super().clean()
        if self.instance.pk:
            return data
        kind = find_kind(data.get("kind") or next(iter(KINDS)))
        options = data.get("options") or {}
        names = [option.name for option in kind.rules.OPTIONS]
        if not isinstance(options, dict) or set(options) - set(names):
            has = ", ".join(names) or "none"
            raise forms.ValidationError(f"options are an object of {kind.title}'s rules: {has}")
        try:
            rules = kind.rules.from_mapping(options, typed=True)
        except OptionError as error:
            raise forms.ValidationError(str(error)) from None
        terms = events.Terms(
            rules=rules,
            system=data.get("system") or "",
            rounds=data.get("rounds") or 0,
            minutes=data.get("minutes") or 0,
            rated=bool(data.get("rated")),
            speed=data.get("speed") or "",
            initial=data.get("initial") or 0,
            increment=data.get("increment") or 0,
            days=data.get("days") or 0,
            starts_at=data.get("starts_at"),
            min_rating=data.get("min_rating"),
            password=data.get("password") or "",
            name=data.get("name") or "",
        )
        try:
            terms.check()
        except events.TournamentError as error:
            raise forms.ValidationError(str(error)) from None
        self.terms = terms
        return data


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "rating", "joined", "withdrawn", "missed")
    readonly_fields = ("user", "rating", "joined", "missed")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ("public_id", "name", "kind", "system", "status", "creator", "created")
    list_filter = ("status", "system", "kind")
    search_fields = ("public_id", "name", "creator__username")
    inlines = [EntryInline]
    actions = ["start"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        # Once made, an event's terms are its players' agreement: only its name changes.
        return [field for field in TournamentAdminForm.Meta.fields if field != "name"] + [
            "status",
            "round",
            "creator",
        ]

    def get_fields(self, request, obj=None):
        fields = list(TournamentAdminForm.Meta.fields)
        return fields if obj is None else [*fields, "status", "round", "creator"]

    def save_model(self, request, obj, form, change) -> None:
        if change:
            obj.save(update_fields=["name"])
            return
        made = events.create(None, form.terms)
        obj.pk = made.pk
        obj.refresh_from_db()

    @admin.action(description="Start the selected events now")
    def start(self, request, queryset) -> None:
        for event in queryset.filter(status=Tournament.Status.CREATED):
            if event.entries.filter(withdrawn=False).count() < 2:
                warning = f"{event.name} waits: it starts once two players have joined."
                self.message_user(request, warning, messages.WARNING)
                continue
            Tournament.objects.filter(pk=event.pk).update(starts_at=None)
            if events.begin_due(event.public_id):
                self.message_user(request, f"{event.name} started.")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "dark", "light", "game", "result")
    list_filter = ("result",)
    search_fields = ("tournament__public_id", "dark__username", "light__username")
    readonly_fields = ("tournament", "round", "dark", "light", "game", "result")


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """An event's chat, for the operator to read and delete lines from."""

    list_display = ("tournament", "name", "text", "created")
    search_fields = ("tournament__public_id", "name", "text")
    readonly_fields = ("tournament", "user", "name", "text", "created")
