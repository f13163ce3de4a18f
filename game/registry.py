"""The kinds of game the site plays, by name (``Game.kind``): python-chess's
``VARIANTS`` and ``find_variant``. A new game adds its ``GameKind`` here
(docs/DESIGN.md, "How to add a game")."""

from __future__ import annotations

from functools import lru_cache

from game.cyngesheall.site import KIND as CYNGESHEALL
from game.kinds import GameKind
from game.maerstanas.site import KIND as MAERSTANAS
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

KINDS: dict[str, GameKind] = {kind.name: kind for kind in (MAERSTANAS, CYNGESHEALL)}
DEFAULT = MAERSTANAS


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
