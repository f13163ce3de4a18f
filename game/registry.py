"""The kinds of game the site plays, by name (``Game.kind``): python-chess's
``VARIANTS`` and ``find_variant``. A new game adds its ``GameKind`` here
(docs/DESIGN.md, "How to add a game")."""

from __future__ import annotations

from game.kinds import GameKind
from game.maerstanas.site import KIND as MAERSTANAS

__all__ = ["DEFAULT", "KINDS", "find_kind", "kind_choices", "kind_of"]

KINDS: dict[str, GameKind] = {kind.name: kind for kind in (MAERSTANAS,)}
DEFAULT = MAERSTANAS


def find_kind(name: str) -> GameKind:
    """The kind of game called ``name``. Raises ``KeyError``, naming the kinds there are."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise KeyError(f"{name!r} is not a game here: choose {' or '.join(KINDS)}") from None


def kind_choices() -> list[tuple[str, str]]:
    """The kinds as a field's choices: (name, title)."""
    return [(kind.name, kind.title) for kind in KINDS.values()]


def kind_of(rules: object) -> GameKind:
    """The kind of game whose options ``rules`` are. Raises ``KeyError`` for none."""
    for kind in KINDS.values():
        if type(rules) is kind.rules:
            return kind
    raise KeyError(f"{rules!r} are the options of no game here")
