"""What a username may be: 3–20 letters, digits, ``_`` or ``-``, unique ignoring case
(allauth checks that), and none of the names the site speaks in itself."""

from __future__ import annotations

import re
import unicodedata

from django.core.validators import RegexValidator

from game.registry import KINDS

PATTERN = r"\A[A-Za-z0-9_-]{3,20}\Z"
# A guest's name (kept in their session): a little freer, spaces too.
GUEST_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9 _-]{0,18}[A-Za-z0-9_-]")
VALIDATORS = [
    RegexValidator(
        PATTERN,
        "A username is 3 to 20 letters (a to z), digits, _ or -.",
        code="invalid_username",
    )
]

# The site's own words, which a player's name must not pass for: its pages and
# roles, and (in ``reserved``) every game and every computer level, by id and by name
# (Þegn as thegn or tegn too).
SITE_NAMES = {
    "about", "accounts", "admin", "administrator", "anonymous", "api", "bot", "computer",
    "deleted", "games", "guest", "help", "learn", "lobby", "mod", "moderator", "null",
    "none", "player", "players", "root", "site", "staff", "support", "system", "webmaster",
}  # fmt: skip


def folded(name: str) -> str:
    """``name`` in lower case with its accents dropped: "Þegn" as "tegn", "Ǽ" as "ae"."""
    name = name.lower().replace("þ", "th").replace("ǽ", "ae").replace("æ", "ae")
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


def reserved() -> set[str]:
    """Every name a player may not take, folded."""
    names = set(SITE_NAMES)
    for kind in KINDS.values():
        names |= {folded(kind.name), folded(kind.title)}
        for level in kind.players.levels:
            names |= {folded(level.id), folded(level.name)}
    return names | {name.replace("th", "t") for name in names if "th" in name}


def is_reserved(name: str) -> bool:
    """True if ``name`` is, ignoring case and accents, one the site keeps for itself."""
    return folded(name) in reserved()
