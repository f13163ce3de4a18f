"""The challenge form: the rules of the home page's form, a colour, rated or casual,
and a time control."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from game import clocks
from game.forms import choice_field, name_sides, option_field
from game.kinds import GameKind
from game.models import Game
from game.options import Options
from game.registry import DEFAULT, kind_choices


class ChallengeForm(forms.Form):
    color = choice_field(
        "colour",
        [("random", "Random"), ("dark", "Dark (moves first)"), ("light", "Light")],
        initial="random",
        required=False,
        label="Your colour",
    )
    rated = forms.BooleanField(required=False, label="Rated (accounts only)")
    speed = choice_field(
        "speed",
        [
            (Game.Speed.LIVE, "Live: a clock each"),
            (Game.Speed.CORRESPONDENCE, "Correspondence: days a move"),
            (Game.Speed.UNLIMITED, "Unlimited"),
        ],
        initial=Game.Speed.LIVE,
    )
    minutes = choice_field(
        "number of minutes",
        [(value, f"{value} min") for value in clocks.MINUTES],
        initial="5",
        required=False,
        label="Minutes each",
    )
    increment = forms.IntegerField(
        min_value=0,
        max_value=clocks.MAX_INCREMENT,
        initial=3,
        required=False,
        label="Seconds added per move",
    )
    days = choice_field(
        "number of days",
        [(str(days), f"{days} day{'s' if days > 1 else ''}") for days in clocks.DAYS],
        initial="3",
        required=False,
        label="Days per move",
    )
    rating_min = forms.IntegerField(min_value=0, max_value=4000, required=False, label="From")
    rating_max = forms.IntegerField(min_value=0, max_value=4000, required=False, label="To")

    game = choice_field("game", kind_choices(), initial=DEFAULT.name, required=False)

    def __init__(self, *args: object, kind: GameKind = DEFAULT, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        name_sides(self.fields["color"], kind)
        for option in kind.rules.OPTIONS:
            self.fields[option.name] = option_field(option)
        self.order_fields([option.name for option in kind.rules.OPTIONS])

    def clean(self) -> dict[str, object]:
        data = super().clean()
        speed = data.get("speed")
        if speed == Game.Speed.LIVE:
            if not data.get("minutes") and not self.has_error("minutes"):
                self.add_error("minutes", "Choose the minutes each side has.")
            if data.get("increment") is None and not self.has_error("increment"):
                data["increment"] = 0
        if (
            speed == Game.Speed.CORRESPONDENCE
            and not data.get("days")
            and not self.has_error("days")
        ):
            self.add_error("days", "Choose the days each move may take.")
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            self.add_error("rating_max", "The top of the rating range is below its bottom.")
        return data

    def rules(self) -> Options:
        data = self.cleaned_data
        return self.kind.rules.from_mapping(
            {option.name: data[option.name] for option in self.kind.rules.OPTIONS}, typed=True
        )

    def time_control(self) -> dict[str, int | str]:
        """The speed and its terms, as ``play.create_match`` takes them."""
        data = self.cleaned_data
        speed = data["speed"]
        return {
            "speed": speed,
            "initial": int(Decimal(data["minutes"]) * 60) if speed == Game.Speed.LIVE else 0,
            "increment": (data.get("increment") or 0) if speed == Game.Speed.LIVE else 0,
            "days": int(data["days"]) if speed == Game.Speed.CORRESPONDENCE else 0,
        }

    def error_text(self) -> str:
        return " ".join(str(error) for errors in self.errors.values() for error in errors)
