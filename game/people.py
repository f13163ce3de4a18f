"""How the site shows a player, wherever it names one: the board's sides, the API's
players, the lobby's rows, the watch list, chat lines and notices all draw from one
value, so a guest is "Ann (guest)", a new account 1000 and a program's account marked
as one on every page alike.

A person is an account (its username, its rating in the game's family, whether a
program plays it) or a guest (the name they gave themselves, if any). The computer
is named by its level. The ratings of many accounts are read in one query
(``ratings``), so a page or list naming many players costs no query a name."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps

from game.ratings import START

# The nameless, as each place calls them: a side of a board or a lobby row, a player
# in a sentence ("Your turn against a guest"), a watcher in the chat.
GUEST = "Guest"
A_GUEST = "a guest"
WATCHER = "Watcher"
# A rated game keeps its sides' names; an account deleted since is shown so, and its
# chat lines too (the name may be registered again by someone else).
DELETED = "deleted player"
NOBODY = "nobody yet"


@dataclass(frozen=True, slots=True)
class Shown:
    """One player as shown: ``name`` as pages print it ("Ann", "Wulf (guest)",
    "Guest", "Wita"); ``username`` the account's ("" for a guest, the computer or a
    deleted account); ``rating`` in the game's family (None unless an account);
    ``bot`` when a program plays the account; ``computer`` for the site's own player."""

    name: str
    username: str = ""
    rating: float | None = None
    bot: bool = False
    computer: bool = False

    @property
    def guest(self) -> bool:
        return not self.username and not self.computer and self.name not in (DELETED, NOBODY)

    def fields(self) -> dict[str, Any]:
        """The page contract's fields of a person (``name``, ``username`` — None for a
        guest —, ``rating`` and, for an account, ``bot``)."""
        shown: dict[str, Any] = {
            "name": self.name,
            "username": self.username or None,
            "rating": self.rating,
        }
        if self.username:
            shown["bot"] = self.bot
        return shown


def guest_name(name: str, nameless: str = GUEST) -> str:
    """A guest as named: "Ann (guest)", or ``nameless`` when they gave no name."""
    return f"{name} (guest)" if name else nameless


def is_bot(user: Any) -> bool:
    """Whether a program plays the account (``players.Account.bot``); an account that
    never said is a person's."""
    return bool(getattr(getattr(user, "account", None), "bot", False))


def of_account(user: Any, rating: float | None = None) -> Shown:
    """An account, with its rating in the family shown (``START`` before its first
    rated game there)."""
    name = user.get_username()
    return Shown(name, name, START if rating is None else rating, is_bot(user))


def of_guest(name: str, nameless: str = GUEST) -> Shown:
    return Shown(guest_name(name, nameless))


def of_computer(name: str) -> Shown:
    return Shown(name, computer=True)


def named(username: str | None, guest_name_: str | None, nameless: str = A_GUEST) -> str:
    """A player in a sentence, from the names a row keeps: the account's, or a guest's
    with "(guest)", or ``nameless``."""
    return username or guest_name(guest_name_ or "", nameless)


def ratings_of(user_ids: Iterable[int], families: Iterable[str]) -> dict[tuple[int, str], float]:
    """The ratings of the accounts in the families, by (account, family): one query
    (none for no accounts). An account without a row there is at ``START``."""
    users, wanted = set(user_ids), set(families)
    if not users or not wanted:
        return {}
    # Ratings are the players app's, built on this one: named by label, not imported.
    rows = apps.get_model("players", "Rating").objects.filter(user_id__in=users, family__in=wanted)
    found = rows.values_list("user_id", "family", "value")
    return {(user, family): value for user, family, value in found}
