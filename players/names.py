"""What a username may be: 3–20 letters, digits, ``_`` or ``-``, unique ignoring case
(allauth checks that), and none of the names the site speaks in itself."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

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
# roles, the words its pages put where a player's name stands (a side, a result, a
# deleted account's seat, a watcher, a program), and (in ``reserved``) every game and
# every computer level, by id and by name (Þegn as thegn or tegn too), and every
# game's sides and its word for a game nobody won.
SITE_NAMES = {
    "about", "accounts", "admin", "administrator", "anonymous", "api", "bot", "computer",
    "dark", "deleted", "deleted player", "draw", "games", "guest", "help", "learn", "light",
    "lobby", "mod", "moderator", "null", "none", "player", "players", "program", "root",
    "site", "staff", "support", "system", "tie", "watcher", "watchers", "webmaster",
}  # fmt: skip

# Characters that pass for letters: digits and signs read as the letter they look
# like, and i, l and 1 as one (I and l are one stroke in many fonts).
LOOKALIKES = str.maketrans(
    {"0": "o", "1": "l", "i": "l", "!": "l", "|": "l", "3": "e", "4": "a", "@": "a",
     "5": "s", "$": "s", "7": "t", "8": "b"}
)  # fmt: skip
# Letters that pass for another together: "cornputer" for "computer", "vvita" for "wita".
LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"))
# What a name may add to a name of the site's to pass for it all the same: a
# computer player's "Wita-bot", "Wita computer".
SUFFIXES = ("bot", "computer")


def folded(name: str) -> str:
    """``name`` in lower case with its accents dropped: "Þegn" as "tegn", "Ǽ" as "ae"."""
    name = name.lower().replace("þ", "th").replace("ǽ", "ae").replace("æ", "ae")
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


def skeletons(name: str) -> set[str]:
    """What ``name`` looks like, whatever it dresses up in: in one case (after NFKC,
    which makes a full-width or styled letter the plain one), without accents,
    separators (spaces, ``-``, ``_``, dots) nor a number at its end, look-alike
    characters made the letter they pass for, and a trailing "bot" or "computer"
    dropped. Two forms, with the number at its end and without (``W1ta`` is ``Wita``,
    and so is ``Wita1``)."""
    bare = re.sub(r"[^a-z0-9!|@$]", "", folded(unicodedata.normalize("NFKC", name).casefold()))
    found = set()
    for form in {bare, bare.rstrip("0123456789")}:
        form = form.translate(LOOKALIKES)
        for pair, letter in LOOKALIKE_PAIRS:
            form = form.replace(pair, letter)
        while (suffix := next((s for s in SUFFIXES if form.endswith(s)), "")) and form != suffix:
            form = form.removesuffix(suffix)
        if form:
            found.add(form)
    return found


@cache
def reserved() -> frozenset[str]:
    """The skeletons of every name a player may not take."""
    names = set(SITE_NAMES)
    for kind in KINDS.values():
        names |= {folded(kind.name), folded(kind.title)}
        # Its sides and its word for a game nobody won stand where a name does.
        names |= {folded(kind.sides.first), folded(kind.sides.second), kind.sides.no_winner}
        for level in kind.players.levels:
            names |= {folded(level.id), folded(level.name)}
    names |= {name.replace("th", "t") for name in names if "th" in name}
    return frozenset(skeleton for name in names for skeleton in skeletons(name))


def is_reserved(name: str) -> bool:
    """True if ``name`` passes for one the site keeps for itself: the same letters,
    once case, accents, separators, look-alike characters, a number at its end and
    a trailing "bot" or "computer" are set aside (see ``skeletons``). A longer word
    that holds one ("Darkling", "Lighthouse") is a name of its own."""
    return not skeletons(name).isdisjoint(reserved())
