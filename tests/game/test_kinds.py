"""The seam between the site and a kind of game: the registry, the options' one
codec, how the engine says a game ended, and the modules' imports (no circle)."""

from __future__ import annotations

import ast
import dataclasses
import os
import random
from pathlib import Path

import pytest

from game.engine import Outcome, Position, Rules
from game.kinds import GameKind, Players
from game.maerstanas import bots
from game.options import OptionError
from game.registry import DEFAULT, KINDS, find_kind, kind_choices, kind_named, kind_of
from tests.support.exact import RULE_SETS

ROOT = Path(__file__).resolve().parents[2]


# --- The registry --------------------------------------------------------------------


def test_the_registry_names_each_kind_once_and_mærstánas_first():
    assert list(KINDS) == [
        "maerstanas",
        "cyngesheall",
        "seven-four",
        "parking-lot",
        "land-grab",
        "moai",
    ]
    assert DEFAULT is KINDS["maerstanas"] and isinstance(DEFAULT, GameKind)
    assert find_kind("maerstanas") is DEFAULT
    assert find_kind("cyngesheall").title == "Cyngesheall"
    assert kind_choices() == [
        ("maerstanas", "Mǽrstánas"),
        ("cyngesheall", "Cyngesheall"),
        ("seven-four", "7-4-1776"),
        ("parking-lot", "Parking Lot"),
        ("land-grab", "Land Grab"),
        ("moai", "Moai"),
    ]
    for name in ("chess", "", "MAERSTANAS", None):
        with pytest.raises(
            KeyError,
            match="is not a game here: choose maerstanas or cyngesheall or seven-four or "
            "parking-lot or land-grab or moai",
        ):
            find_kind(name)
    assert kind_named("cyngesheall") is KINDS["cyngesheall"]
    assert kind_named("chess") is kind_named(None) is kind_named(3) is DEFAULT


def test_a_name_that_is_no_game_is_told_every_kind_there_is(monkeypatch):
    monkeypatch.setitem(KINDS, "other", dataclasses.replace(DEFAULT, name="other"))
    with pytest.raises(KeyError) as refused:
        find_kind("chess")
    said = (
        "'chess' is not a game here: choose maerstanas or cyngesheall or seven-four or "
        "parking-lot or land-grab or moai or other"
    )
    assert refused.value.args[0] == said


def test_a_kind_is_found_by_its_options():
    for rules in RULE_SETS:
        assert kind_of(rules) is DEFAULT
    with pytest.raises(KeyError, match="are the options of no game here"):
        kind_of({"special_stones": True})


def test_the_mærstánas_kind_gives_its_engine_players_and_ends():
    kind = DEFAULT
    assert kind.rules is Rules
    assert kind.start(Rules(wraparound=True)) == Position.start(Rules(wraparound=True))
    text = "S....../......./......./......./......./......./....... l Tt"
    assert kind.from_text(text, Rules()) == Position.from_text(text, Rules())
    assert kind.ends == {"no-moves": "Neither side can move"}
    assert kind.players.level_ids == bots.LEVEL_IDS
    assert kind.players.strongest is bots.STRONGEST
    assert kind.players.level("wita") is bots.level("wita")
    assert [kind.players.number(level) for level in bots.LEVEL_IDS] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(KeyError) as refused:
        kind.players.level("grandmaster")
    assert refused.value.args[0] == (
        "'grandmaster' is not a level: choose one of cild, ceorl, cniht, thegn, ealdor, wita"
    )
    assert [lesson.slug for lesson in kind.lessons][0] == "hinges"
    assert list(kind.split_moves("1. D4 e4, 2. T C3xD3")) == ["D4", "e4", "T C3xD3"]
    assert kind.rules_doc == "RULES.md" and (ROOT / "docs" / kind.rules_doc).exists()


def test_settling_a_position_plays_the_passes_nobody_chooses():
    # Dark has no square and no special stone left; light still holds its Woden-stone.
    text = ".ss.S.s/Ss.Ss.S/s.sT.SS/.sSstS./SS..SSS/W.sss.S/.sS.ss. d w"
    position = Position.from_text(text, Rules())
    assert position.must_pass
    settled = DEFAULT.settle(position)
    assert settled.record == ("Pass",) and settled.turn.value == "light"
    assert DEFAULT.settle(settled) is settled


def test_replaying_through_a_kind_names_the_move_that_fails():
    start = Position.start()
    assert DEFAULT.replay(start, ["D4", "E4"]) == Position.replay(Rules(), ["D4", "E4"])
    with pytest.raises(ValueError, match=r"^move 2: D4 is taken"):
        DEFAULT.replay(start, ["D4", "D4"])
    assert DEFAULT.is_start(start) and not DEFAULT.is_start(start.play("D4"))
    for rules in RULE_SETS:
        assert DEFAULT.is_start(Position.start(rules))


def test_players_of_a_kind_say_their_ladder():
    players = Players(levels=bots.LEVELS[:2], choose_move=bots.choose_move, analyse=bots.analyse)
    assert players.level_ids == ("cild", "ceorl")
    assert players.strongest is bots.LEVELS[1]


# --- The options' one codec -------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_the_options_round_trip_through_every_form_they_take(rules):
    assert Rules.from_mapping(rules.to_mapping(), typed=True) == rules
    assert Rules.from_mapping(rules.to_query()) == rules
    assert Rules.from_tags(dict(rules.to_tags())) == rules
    assert Rules.from_flags(rules.flags) == rules
    assert len(rules.flags) == 3
    assert set(rules.to_query().values()) <= {"on", "off", "standard", "simple"}


def test_the_options_in_each_form():
    rules = Rules(special_stones=False, scoring="simple", wraparound=True)
    assert rules.to_mapping() == {"special_stones": False, "scoring": "simple", "wraparound": True}
    assert rules.to_query() == {"special_stones": "off", "scoring": "simple", "wraparound": "on"}
    assert rules.to_tags() == [
        ("SpecialStones", "off"),
        ("Scoring", "simple"),
        ("Wraparound", "on"),
    ]
    assert rules.flags == "spW" and Rules().flags == "Ssw"
    assert Rules.tag_names() == ("SpecialStones", "Scoring", "Wraparound")
    assert rules.summary == "Special stones off · Simple scoring · Wraparound"
    assert Rules().summary == "Special stones on · Standard scoring"
    assert list(Rules().describe()) == [
        ("Special stones", "on"),
        ("Scoring", "standard"),
        ("Wraparound board", "off"),
    ]


def test_a_missing_or_empty_option_takes_its_default_and_tags_their_fallback():
    assert Rules.from_mapping({}) == Rules()
    assert Rules.from_mapping({"special_stones": "", "scoring": None}) == Rules()
    assert Rules.from_mapping({}, typed=True) == Rules()
    odd = Rules(special_stones=False, wraparound=True)
    assert Rules.from_tags({"Scoring": "simple"}, odd) == Rules(False, "simple", True)
    assert Rules.from_flags("") == Rules()


def test_a_blank_choice_takes_the_options_default_and_an_unknown_letter_too():
    scoring = Rules.OPTIONS[1]
    assert scoring.name == "scoring"
    for blank in (None, "", "  "):
        assert scoring.read(blank, False, "scoring") == "standard"
    assert Rules.from_mapping({"scoring": " "}) == Rules()
    assert Rules.from_tags({"Scoring": ""}, Rules(scoring="simple")) == Rules()
    assert Rules.from_flags("S?W") == Rules(wraparound=True)


@pytest.mark.parametrize(
    ("data", "typed", "message"),
    [
        ({"special_stones": "maybe"}, False, "special stones: 'maybe' is neither on nor off"),
        ({"scoring": "golf"}, False, "scoring: 'golf' is not standard or simple"),
        ({"special_stones": "yes"}, True, "'special_stones' must be true or false"),
        ({"wraparound": 1}, True, "'wraparound' must be true or false"),
        ({"scoring": "golf"}, True, "'golf' is not a scoring: use standard or simple"),
        ({"scoring": 3}, True, "'scoring' must be a string"),
        ({"scoring": None}, True, "'scoring' must be a string"),
    ],
)
def test_a_value_an_option_does_not_take_is_refused_by_name(data, typed, message):
    with pytest.raises(OptionError) as refused:
        Rules.from_mapping(data, typed=typed)
    assert str(refused.value) == message
    (name,) = data
    assert refused.value.option.name == name and refused.value.value == data[name]


def test_a_tag_an_option_does_not_take_is_refused_naming_the_tag():
    with pytest.raises(OptionError, match=r"^the Scoring tag: 'golf' is not standard or simple$"):
        Rules.from_tags({"Scoring": "Golf"})
    with pytest.raises(OptionError, match=r"^the Wraparound tag: 'x' is neither on nor off$"):
        Rules.from_tags({"Wraparound": " X "})


# --- How a game ends ------------------------------------------------------------------------


def play_out(rules: Rules, seed: int) -> Position:
    rng = random.Random(seed)
    position = Position.start(rules)
    while moves := position.legal_moves():
        assert position.outcome() is None
        position = position.play(rng.choice(moves))
    return position


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_a_finished_position_says_how_it_ended_under_every_rule_set(rules):
    results = set()
    for seed in range(12):
        final = play_out(rules, seed)
        outcome = final.outcome()
        dark, light = final.score()
        expected = "dark" if dark > light else "light" if light > dark else "tie"
        assert outcome == Outcome(expected, "no-moves")
        assert outcome.result == final.result and outcome.reason in DEFAULT.ends
        assert outcome.winner == final.winner
        results.add(expected)
    assert len(results) >= 2  # the games went more than one way


def test_a_position_set_up_with_no_moves_left_has_ended():
    full = "SsSsSsS/sSsSsSs/SsSsSsS/sSsSsSs/SsSsSsS/sSsSsSs/SsSsSsS d -"
    with pytest.raises(ValueError, match="four hinges"):
        Position.from_text(full, Rules())
    final = play_out(Rules(special_stones=False), 3)
    again = Position.from_text(final.to_text(), final.rules)
    assert again.outcome() == final.outcome() and again.history == ()


# --- No import circle --------------------------------------------------------------------


def game_modules() -> dict[str, Path]:
    """Every module of the game package (its migrations aside), by dotted name."""
    found = {}
    for path in (ROOT / "game").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "migrations" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """The game modules ``path`` imports, at its top or inside a function. ``from a
    import b`` names the module ``a.b`` when there is one, else ``a``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module in modules:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in modules else node.module)
    return found


@pytest.mark.source
def test_no_module_of_the_game_package_imports_its_way_back_to_itself():
    modules = game_modules()
    graph = {name: imports_of(path, modules) for name, path in modules.items()}
    assert graph["game.views.games"] >= {"game.play", "game.seats"}  # the parser reads imports
    circles = []

    def visit(name: str, path: list[str]) -> None:
        for imported in sorted(graph[name]):
            if imported in path:
                circles.append([*path[path.index(imported) :], imported])
            elif imported not in done:
                visit(imported, [*path, imported])
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert circles == []


@pytest.mark.source
def test_play_knows_nothing_of_the_computer_nor_of_any_game():
    modules = game_modules()
    imported = imports_of(modules["game.play"], modules)
    assert "game.computer" not in imported
    assert not {name for name in imported if name.startswith(("game.maerstanas", "game.engine"))}
    for generic in ("game.views.games", "game.views.review", "game.pages", "game.api"):
        assert not {
            name
            for name in imports_of(modules[generic], modules)
            if name.startswith(("game.maerstanas", "game.engine", "game.bots"))
        }, generic


# --- No module too long to read ----------------------------------------------------------

# A module longer than this says why among its first lines, in a comment starting
# ``# Long:`` followed by the reason (an engine's hot loops, which splitting would slow).
MAX_LINES = 500
LONG = "# Long:"
# Not the project's own modules: the tests, the migrations (written by Django), what
# is installed, a mutation run's copy, and hidden folders (.git, .venv, caches).
NOT_MODULES = {"tests", "migrations", "node_modules", "mutants", "__pycache__"}


def project_modules() -> list[Path]:
    """Every Python module of the project: its apps, ``maerstanas_site``, ``bench`` and
    the rest, but for ``NOT_MODULES`` and hidden folders."""
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = sorted(f for f in folders if f not in NOT_MODULES and not f.startswith("."))
        found += [Path(folder) / name for name in sorted(files) if name.endswith(".py")]
    return found


def long_reason(lines: list[str]) -> str:
    """The reason a module gives for its length among its first five lines, or ""."""
    marked = (line.removeprefix(LONG).strip() for line in lines[:5] if line.startswith(LONG))
    return next((reason for reason in marked if reason), "")


def test_a_long_module_says_why_in_a_comment_among_its_first_lines():
    assert long_reason(["# Long: the hot loops", '"""Doc."""']) == "the hot loops"
    assert long_reason(["#!/usr/bin/env python", "# Long: the hot loops"]) == "the hot loops"
    assert long_reason(["# Long:", '"""Doc."""']) == ""  # a reason, not the mark alone
    assert long_reason(["# Long is fine: no mark"]) == ""
    assert long_reason(["", "", "", "", "", "# Long: too late"]) == ""


@pytest.mark.source
def test_no_module_of_the_project_is_longer_than_five_hundred_lines_without_saying_why():
    modules = {str(path.relative_to(ROOT)): path for path in project_modules()}
    # The walk reaches every app and bench, and leaves the tests and migrations out.
    assert {"game/play/move.py", "bench/arena.py", "maerstanas_site/settings.py"} <= set(modules)
    assert {"lobby/models.py", "players/views.py", "manage.py"} <= set(modules)
    assert not [name for name in modules if name.startswith(("tests/", ".venv/"))]
    assert not [name for name in modules if "/migrations/" in name]
    too_long = {}
    for name, path in modules.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MAX_LINES and not long_reason(lines):
            too_long[name] = len(lines)
    assert too_long == {}, f"longer than {MAX_LINES} lines, without a {LONG!r} comment"
