"""The new-game form: its field names are part of the page contract (DESIGN.md)."""

from __future__ import annotations

from django import forms

from game.engine import Rules
from game.models import Game


class NewGameForm(forms.Form):
    mode = forms.ChoiceField(
        choices=Game.Mode.choices, initial=Game.Mode.HOTSEAT, widget=forms.RadioSelect
    )
    special_stones = forms.BooleanField(required=False, initial=True, label="Special stones")
    scoring = forms.ChoiceField(
        choices=Game.Scoring.choices, initial=Game.Scoring.STANDARD, widget=forms.RadioSelect
    )
    wraparound = forms.BooleanField(required=False, label="Wraparound board")
    color = forms.ChoiceField(
        choices=[("dark", "Dark (moves first)"), ("light", "Light"), ("random", "Random")],
        initial="dark",
        required=False,
        widget=forms.RadioSelect,
        label="Your colour",
    )

    def rules(self) -> Rules:
        data = self.cleaned_data
        return Rules(
            special_stones=data["special_stones"],
            scoring=data["scoring"],
            wraparound=data["wraparound"],
        )
