"""The new-game form: its field names are part of the page contract (docs/DESIGN.md)."""

from __future__ import annotations

from django import forms

from game import bots
from game.engine import Rules
from game.models import Game


class OnOffInput(forms.CheckboxInput):
    """A checkbox that hands the field the text sent, so junk can be refused."""

    def value_from_datadict(self, data, files, name):  # type: ignore[no-untyped-def]
        return data.get(name)


class OnOffField(forms.Field):
    """A checkbox: ``on`` (what browsers send), ``true``, ``1`` or ``yes`` is on; nothing,
    ``off``, ``false``, ``0`` or ``no`` is off; anything else is an error."""

    widget = OnOffInput
    ON = {"on", "true", "1", "yes"}
    OFF = {"", "off", "false", "0", "no"}

    def __init__(self, **kwargs: object) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: object) -> bool:
        text = "" if value is None else str(value).strip().lower()
        if text in self.ON:
            return True
        if text in self.OFF:
            return False
        raise forms.ValidationError(
            f"{self.label}: {value!r} is neither on nor off.", code="invalid"
        )


def _choice(option: str, choices: list[tuple[str, str]], **kwargs: object) -> forms.ChoiceField:
    """A radio choice whose refusals name the option and the values it takes, so a
    400 says what was wrong (a program posting the form reads it too)."""
    values = [value for value, _ in choices]
    allowed = ", ".join(values[:-1]) + f" or {values[-1]}"
    return forms.ChoiceField(
        choices=choices,
        widget=forms.RadioSelect,
        error_messages={
            "invalid_choice": f"%(value)r is not a {option}: choose {allowed}.",
            "required": f"Choose a {option}: {allowed}.",
        },
        **kwargs,
    )


# The games a person starts; an imported record is replayed, never played.
PLAYABLE = [(value, label) for value, label in Game.Mode.choices if value != Game.Mode.IMPORTED]


class SeatsForm(forms.Form):
    """Who plays a new game: the kind of game, the creator's colour, the computer's level."""

    mode = _choice("kind of game (mode)", PLAYABLE, initial=Game.Mode.HOTSEAT)
    color = _choice(
        "colour",
        [("dark", "Dark (moves first)"), ("light", "Light"), ("random", "Random")],
        initial="dark",
        required=False,
        label="Your colour",
    )
    level = _choice(
        "level",
        [(level.id, level.name) for level in bots.LEVELS],
        initial=bots.LEVEL_IDS[0],
        required=False,
        label="The computer's level",
    )

    def clean(self) -> dict[str, object]:
        data = super().clean()
        if (
            data.get("mode") == Game.Mode.COMPUTER
            and not data.get("level")
            and not self.has_error("level")
        ):
            self.add_error("level", "Choose the computer's level.")
        return data

    def error_text(self) -> str:
        """Every refusal in one line, for a message."""
        return " ".join(str(error) for errors in self.errors.values() for error in errors)


class ContinueForm(SeatsForm):
    """A new game from a moment of another game, a record or a position."""

    mode = _choice(
        "kind of game (mode)",
        [(Game.Mode.HOTSEAT, "Hot-seat"), (Game.Mode.COMPUTER, "Play the computer")],
        initial=Game.Mode.HOTSEAT,
    )
    ply = forms.IntegerField(min_value=0, max_value=10_000, required=False)


class NewGameForm(SeatsForm):
    special_stones = OnOffField(initial=True, label="Special stones")
    scoring = _choice("scoring", Game.Scoring.choices, initial=Game.Scoring.STANDARD)
    wraparound = OnOffField(label="Wraparound board")

    field_order = ["mode", "special_stones", "scoring", "wraparound", "color", "level"]

    def rules(self) -> Rules:
        data = self.cleaned_data
        return Rules(
            special_stones=data["special_stones"],
            scoring=data["scoring"],
            wraparound=data["wraparound"],
        )
