"""The form that makes a tournament: the lobby's game, rules and time control, the
system and its length, and who may join."""

from __future__ import annotations

from datetime import UTC

from django import forms

from game.forms import choice_field
from game.models import Game
from lobby.forms import ChallengeForm
from tournaments import events
from tournaments.models import Tournament

ARENA_LENGTHS = (20, 30, 45, 60, 90, 120, 180)


class TournamentForm(ChallengeForm):
    name = forms.CharField(max_length=60, required=False, label="Name (optional)")
    system = choice_field(
        "system",
        [
            (Tournament.System.ARENA, "Arena: play as many games as you can in its time"),
            (Tournament.System.SWISS, "Swiss: rounds against players of your score"),
            (Tournament.System.ROUND_ROBIN, "Round-robin: everyone plays everyone"),
        ],
        initial=Tournament.System.ARENA,
    )
    duration = choice_field(
        "length",
        [(str(minutes), f"{minutes} minutes") for minutes in ARENA_LENGTHS],
        initial="45",
        required=False,
        label="Arena's length",
    )
    rounds = forms.IntegerField(
        min_value=events.SWISS_ROUNDS[0],
        max_value=events.SWISS_ROUNDS[1],
        initial=5,
        required=False,
        label="Swiss rounds",
    )
    twice = forms.BooleanField(required=False, label="Round-robin: each pair plays twice")
    berserk = forms.BooleanField(
        required=False, label="Arena: berserk allowed (halve your clock for a point more)"
    )
    starts_at = forms.DateTimeField(
        required=False,
        label="Starts at (UTC; empty: you start it)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    min_rating = forms.IntegerField(
        min_value=0, max_value=4000, required=False, label="Lowest rating to join"
    )
    password = forms.CharField(
        max_length=128, required=False, label="Password (a private event for a club)"
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        for name in ("color", "rating_min", "rating_max"):
            del self.fields[name]
        self.fields["speed"].choices = [
            (value, label)
            for value, label in self.fields["speed"].choices
            if value != Game.Speed.UNLIMITED
        ]
        self.fields["rated"].initial = True

    def terms(self) -> events.Terms:
        data = self.cleaned_data
        system = data["system"]
        starts_at = data.get("starts_at")
        if starts_at is not None:
            starts_at = starts_at.replace(tzinfo=UTC) if starts_at.tzinfo is None else starts_at
        rounds = {"swiss": data.get("rounds") or 5, "round-robin": 2 if data.get("twice") else 1}
        return events.Terms(
            rules=self.rules(),
            system=system,
            rounds=rounds.get(system, 0),
            minutes=int(data.get("duration") or 45) if system == Tournament.System.ARENA else 0,
            rated=data["rated"],
            starts_at=starts_at,
            min_rating=data.get("min_rating"),
            password=data.get("password") or "",
            name=" ".join((data.get("name") or "").split()),
            berserk=bool(data.get("berserk")) and system == Tournament.System.ARENA,
            **self.time_control(),
        )
