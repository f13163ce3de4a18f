"""The new-game form (game/forms.py): its fields come from the kind's options and levels,
start as a new game does, and refuse in words that name the field and what it takes."""

from __future__ import annotations

import dataclasses
import re

import pytest

from game.forms import NewGameForm
from game.maerstanas import bots
from game.registry import DEFAULT, kind_named

NAMES = [level.name for level in bots.LEVELS]
LEVELS = ", ".join(NAMES[:-1]) + f" or {NAMES[-1]}"


def bound(**fields: str) -> NewGameForm:
    """The form bound as the home page binds it: to the game its data names."""
    data = {"mode": "hotseat", "scoring": "standard"} | fields
    form = NewGameForm(data, kind=kind_named(data.get("game")))
    form.is_valid()
    return form


def test_the_fields_come_in_the_pages_order_who_plays_first_then_the_rules():
    form = NewGameForm()
    options = [option.name for option in DEFAULT.rules.OPTIONS]
    assert list(form.fields) == ["game", "mode", *options, "color", "rated", "level"]
    assert options == ["special_stones", "scoring", "wraparound"]


def test_each_field_starts_as_a_new_game_does():
    form = NewGameForm()
    initial = {name: form[name].initial for name in form.fields}
    assert initial == {
        "game": "maerstanas",
        "mode": "hotseat",
        "special_stones": True,
        "scoring": "standard",
        "wraparound": False,
        "color": "dark",
        "rated": None,
        "level": bots.LEVEL_IDS[0],
    }
    assert form["level"].label == "The computer's level"
    assert not form.fields["level"].required


def test_the_levels_offered_are_the_kinds_weakest_first():
    players = dataclasses.replace(DEFAULT.players, levels=bots.LEVELS[2:5])
    kind = dataclasses.replace(DEFAULT, players=players)
    form = NewGameForm(kind=kind)
    assert form.kind is kind
    assert [value for value, _ in form.fields["level"].choices] == list(bots.LEVEL_IDS[2:5])
    assert form["level"].initial == bots.LEVEL_IDS[2]


def test_the_forms_arguments_reach_it_by_keyword_too():
    form = NewGameForm(data={"new-mode": "friend", "new-scoring": "simple"}, prefix="new")
    assert form.is_bound and form.is_valid(), form.errors
    assert form.cleaned_data["mode"] == "friend"
    # An unticked checkbox is not sent: special stones are off.
    assert form.rules() == DEFAULT.rules(special_stones=False, scoring="simple")
    assert 'name="new-mode"' in str(form["mode"])


def test_a_missing_choice_of_the_rules_is_asked_for_with_its_values():
    form = bound(scoring="")
    assert form.errors == {"scoring": ["Choose a scoring: standard or simple."]}


def test_an_unknown_level_is_refused_naming_every_level_and_nothing_more():
    form = bound(mode="computer", level="king")
    assert form.errors == {
        "level": [f"'king' is not a level: choose one of Mǽrstánas's levels: {LEVELS}."]
    }
    assert LEVELS == "Cild, Ceorl, Cniht, Þegn, Ealdormann or Wita"  # names, not ids


def test_a_level_of_another_game_is_refused_by_its_name_and_its_games():
    form = bound(game="cyngesheall", mode="computer", level="ealdor")
    assert form.errors == {
        "level": [
            "Ealdormann is a Mǽrstánas level: choose one of Cyngesheall's levels: "
            "Byrele, Scop, Duguþ, Gesíþ or Cyning."
        ]
    }
    form = bound(mode="computer", level="gesith")
    assert form.errors == {
        "level": [f"Gesíþ is a Cyngesheall level: choose one of Mǽrstánas's levels: {LEVELS}."]
    }


def test_only_the_computer_plays_at_a_level_so_another_games_level_is_ignored_otherwise():
    # A page without script sends the level checked, whichever game is chosen.
    for mode in ("hotseat", "friend"):
        form = bound(game="cyngesheall", mode=mode, level="cild")
        assert form.is_valid(), form.errors
        assert form.cleaned_data["level"] == ""
    assert bound(mode="hotseat", level="king").errors["level"][0].startswith("'king' is not")


def test_playing_the_computer_asks_for_its_level():
    assert bound(mode="computer").errors == {"level": ["Choose the computer's level."]}
    assert bound(mode="hotseat").is_valid()


def test_every_refusal_reads_as_one_line_in_the_forms_order():
    form = bound(mode="solo", scoring="golf", wraparound="maybe")
    assert form.error_text() == (
        "'solo' is not a kind of game (mode): choose hotseat, friend or computer. "
        "'golf' is not a scoring: choose standard or simple. "
        "Wraparound board: 'maybe' is neither on nor off."
    )


@pytest.mark.django_db
def test_the_home_page_checks_each_fields_starting_value(client):
    page = client.get("/").content.decode()
    checked = re.findall(r'<input[^>]*name="(\w+)"[^>]*value="(\w+)"[^>]*checked', page)
    assert sorted(checked) == sorted(
        [
            ("game", "maerstanas"),
            ("mode", "hotseat"),
            ("scoring", "standard"),
            ("board", "square"),  # Moai's, among every game's rules
            ("color", "dark"),
            ("level", "cild"),
        ]
    )
