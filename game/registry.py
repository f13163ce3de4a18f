"""The kinds of game the site plays, by name (``Game.kind``): python-chess's
``VARIANTS`` and ``find_variant``.

Each game is an app of its own (``game/<name>/``), listed in ``INSTALLED_APPS``; its
config names its ``GameKind`` (``kind = "game.<name>.site.KIND"``), and the kinds are
read from the configs, in the order the apps are listed, when this module is first
imported: the models and forms ask for them while the apps are still being loaded,
before any app's ``ready()``. The first is the site's usual game (``DEFAULT``).
Adding a game is adding its folder and its line in ``INSTALLED_APPS`` (docs/DESIGN.md,
"How to add a game").
"""

from __future__ import annotations

from functools import lru_cache

from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from game.kinds import GameKind
from game.options import Options

__all__ = [
    "DEFAULT",
    "KINDS",
    "family_title",
    "find_kind",
    "kind_choices",
    "kind_named",
    "kind_of",
    "named_apart",
    "stored_rules",
]


def installed_kinds(installed: list[str]) -> dict[str, GameKind]:
    """The kinds the apps ``installed`` name, by name, in their order. Raises
    ``ImproperlyConfigured`` when none does, or two have one name."""
    kinds: dict[str, GameKind] = {}
    for entry in installed:
        path = getattr(AppConfig.create(entry), "kind", "")
        if not path:
            continue
        kind = import_string(path)
        if kind.name in kinds:
            raise ImproperlyConfigured(f"two apps add a game called {kind.name!r}")
        kinds[kind.name] = kind
    if not kinds:
        raise ImproperlyConfigured("no app in INSTALLED_APPS adds a game (game/<name>/apps.py)")
    return kinds


KINDS: dict[str, GameKind] = installed_kinds(settings.INSTALLED_APPS)
DEFAULT = next(iter(KINDS.values()))


def find_kind(name: str) -> GameKind:
    """The kind of game called ``name``. Raises ``KeyError``, naming the kinds there are."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise KeyError(f"{name!r} is not a game here: choose {' or '.join(KINDS)}") from None


def kind_named(name: object) -> GameKind:
    """The kind a form's ``game`` names, or the default one for none or a name that is
    no game here (the form's own ``game`` field refuses that, saying why)."""
    return KINDS.get(name, DEFAULT) if isinstance(name, str) and name else DEFAULT


def named_apart(name: str) -> GameKind | None:
    """The kind called ``name`` when a list of games should say which game it is: any
    but the default one, whose games are the site's usual ones."""
    kind = KINDS.get(name)
    return None if kind is DEFAULT else kind


def kind_choices() -> list[tuple[str, str]]:
    """The kinds as a field's choices: (name, title)."""
    return [(kind.name, kind.title) for kind in KINDS.values()]


@lru_cache(maxsize=256)
def stored_rules(kind: str, options: tuple[tuple[str, object], ...]) -> Options:
    """The options value of a kind from its stored mapping (``Game.options``'s items,
    sorted), made once per distinct one."""
    return find_kind(kind).rules.from_mapping(dict(options), typed=True)


def kind_of(rules: object) -> GameKind:
    """The kind of game whose options ``rules`` are. Raises ``KeyError`` for none."""
    for kind in KINDS.values():
        if type(rules) is kind.rules:
            return kind
    raise KeyError(f"{rules!r} are the options of no game here")


def family_title(family: str) -> str:
    """A family of ratings (``Game.rating_family``) in words: "Mǽrstánas", "Mǽrstánas,
    wraparound", "Cyngesheall"."""
    name, _, options = family.partition("-")
    title = KINDS[name].title if name in KINDS else name
    return title if options in ("", "standard") else f"{title}, {options}"
