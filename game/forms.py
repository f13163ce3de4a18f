"""The new-game form: its field names are part of the page contract (docs/DESIGN.md).

The rule fields are made from the options of the game's kind (``game.options``), so
a form offers what the kind's codec reads, with its labels and defaults.
"""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from game.kinds import GameKind
from game.models import Game
from game.options import QUOTED, Choice, OnOff, OptionError, Options
from game.registry import DEFAULT, KINDS, kind_choices


class OnOffInput(forms.CheckboxInput):
    """A checkbox that hands the field the text sent, so junk can be refused."""

    def value_from_datadict(self, data, files, name):  # type: ignore[no-untyped-def]
        return data.get(name)


class OnOffField(forms.Field):
    """A checkbox read by its option (``game.options.OnOff``): ``on`` (what browsers
    send), ``true``, ``1`` or ``yes`` is on; nothing, ``off``, ``false``, ``0`` or
    ``no`` is off; anything else is an error."""

    widget = OnOffInput

    def __init__(self, option: OnOff, **kwargs: object) -> None:
        # Run when the form class is built; test_views checks the checkboxes are
        # optional and start as they should.
        options = {"label": option.label, "initial": option.default}
        super().__init__(required=False, **options, **kwargs)  # pragma: no mutate
        self.option = option

    def to_python(self, value: object) -> bool:
        try:
            # ``typed`` is only tested for truth: None reads the text as False does.
            return self.option.read(
                value,
                False,  # pragma: no mutate
                self.label,
            )
        except OptionError as error:
            raise forms.ValidationError(f"{error}.", code="invalid") from None


def choice_field(
    option: str, choices: list[tuple[str, str]], **kwargs: object
) -> forms.ChoiceField:
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


def name_sides(field: forms.ChoiceField, kind: GameKind) -> None:
    """Label a colour field's seats as ``kind`` names its sides: "Blue (moves first)",
    "Red"; the values stay the seats' (``dark``, ``light``)."""
    labels = {"dark": f"{kind.sides.first} (moves first)", "light": kind.sides.second}
    field.choices = [(value, labels.get(value, label)) for value, label in field.choices]


def in_words(names: list[str]) -> str:
    """Names as a sentence lists them: "Cild, Ceorl or Wita"."""
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def level_refusal(kind: GameKind, value: str) -> str:
    """Why ``value`` is not one of ``kind``'s levels, in a player's words: the levels
    by their names, and the game a level of another game belongs to ("Ealdormann is a
    Mǽrstánas level: choose one of Cyngesheall's levels: Byrele, …")."""
    choose = f"choose one of {kind.title}'s levels: "
    choose += in_words([level.name for level in kind.players.levels]) + "."
    for other in KINDS.values():
        if other is not kind and value in other.players.level_ids:
            return f"{other.players.level(value).name} is a {other.title} level: {choose}"
    return f"{value[:QUOTED]!r} is not a level: {choose}"


class LevelField(forms.ChoiceField):
    """The computer's level, one of a kind's or of another game's (a page offering every
    game sends the level of one): text that is no game's level is refused here, naming
    the kind's levels by their names; ``SeatsForm`` refuses another game's level when
    the computer is to play it."""

    def __init__(self, kind: GameKind, **kwargs: object) -> None:
        levels = kind.players.levels
        super().__init__(
            choices=[(level.id, level.name) for level in levels],
            widget=forms.RadioSelect,
            initial=levels[0].id,
            # A field reads ``required`` for truth only: None is as optional as False.
            required=False,  # pragma: no mutate
            label="The computer's level",
            **kwargs,
        )
        self.kind = kind

    def validate(self, value: object) -> None:
        if value and not any(value in each.players.level_ids for each in KINDS.values()):
            raise forms.ValidationError(level_refusal(self.kind, str(value)), code="invalid_choice")


# The games a person starts; an imported record is replayed, never played.
PLAYABLE = [(value, label) for value, label in Game.Mode.choices if value != Game.Mode.IMPORTED]


class SeatsForm(forms.Form):
    """Who plays a new game: the kind of game, the creator's colour, the computer's level."""

    mode = choice_field("kind of game (mode)", PLAYABLE, initial=Game.Mode.HOTSEAT)
    color = choice_field(
        "colour",
        [("dark", "Dark (moves first)"), ("light", "Light"), ("random", "Random")],
        initial="dark",
        required=False,
        label="Your colour",
    )

    def __init__(self, *args: object, kind: GameKind = DEFAULT, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields["level"] = LevelField(kind)
        name_sides(self.fields["color"], kind)

    def clean(self) -> dict[str, object]:
        data = super().clean()
        level = data.get("level")
        if data.get("mode") != Game.Mode.COMPUTER or self.has_error("level"):
            # Only the computer plays at a level: a page offering every game sends the
            # level checked, whichever game is chosen.
            data["level"] = ""
        elif not level:
            self.add_error("level", "Choose the computer's level.")
        elif level not in self.kind.players.level_ids:
            self.add_error("level", level_refusal(self.kind, level))
        return data

    def error_text(self) -> str:
        """Every refusal in one line, for a message."""
        return " ".join(str(error) for errors in self.errors.values() for error in errors)


class ContinueForm(SeatsForm):
    """A new game from a moment of another game, a record or a position."""

    mode = choice_field(
        "kind of game (mode)",
        [(Game.Mode.HOTSEAT, "Hot-seat"), (Game.Mode.COMPUTER, "Play the computer")],
        initial=Game.Mode.HOTSEAT,
    )
    ply = forms.IntegerField(min_value=0, max_value=10_000, required=False)


class NewGameForm(SeatsForm):
    """A new game: who plays it and its kind's options; a friend game between two
    accounts may be ``rated``."""

    field_order = ["game", "mode", "color", "level"]
    rated = forms.BooleanField(required=False, label="Rated")
    game = choice_field("game", kind_choices(), initial=DEFAULT.name, required=False)

    def __init__(self, *args: object, kind: GameKind = DEFAULT, **kwargs: object) -> None:
        super().__init__(*args, kind=kind, **kwargs)
        for option in kind.rules.OPTIONS:
            self.fields[option.name] = option_field(option)
        self.order_fields(["game", "mode", *(option.name for option in kind.rules.OPTIONS)])

    def rules(self) -> Options:
        """The options chosen, read by the kind's codec."""
        data = self.cleaned_data
        # The cleaned values are booleans and the choices' own words, which the reader of
        # text reads as they are: typed or not, the same options come out.
        return self.kind.rules.from_mapping(
            {option.name: data[option.name] for option in self.kind.rules.OPTIONS},
            typed=True,  # pragma: no mutate
        )


def option_field(option: OnOff | Choice) -> forms.Field:
    """The form's field of a game's rule option: a box to tick, or a choice."""
    if isinstance(option, OnOff):
        return OnOffField(option)
    return choice_field(option.words, list(option.choices), initial=option.default)


def forms_of_kinds(form: NewGameForm | forms.Form) -> dict[str, forms.Form]:
    """A form of every game, by name, for a page that offers them all: the chosen
    game's is ``form``; each other one is bound to the same data and never checked, so
    its rules show what was sent, or their defaults, when a player switches games."""
    data = form.data if form.is_bound else None
    return {
        kind.name: form if kind is form.kind else type(form)(data, kind=kind)
        for kind in KINDS.values()
    }


class GameChoiceForm(forms.Form):
    """The choice of game alone, for a page that reads the rest itself (the import
    page: a record's header names its game and rules)."""

    game = choice_field("game", kind_choices(), initial=DEFAULT.name, required=False)


def option_choices(kind: GameKind, data: Mapping[str, str]) -> list[tuple[str, str, str, bool]]:
    """Each of ``kind``'s options as radio buttons that send its words, ``on`` or
    ``off`` for a switch (the import page reads what is not sent as the default):
    ``(name, value, label, checked)``, checked as ``data`` says or by default."""
    radios = []
    for option in kind.rules.OPTIONS:
        if isinstance(option, OnOff):
            values = [("on", f"{option.label} on"), ("off", f"{option.label} off")]
            default = "on" if option.default else "off"
        else:
            values = [(value, f"{option.label}: {label}") for value, label in option.choices]
            default = option.default
        sent = data.get(option.name, default)
        radios += [(option.name, value, label, value == sent) for value, label in values]
    return radios
