"""Why an action on a game was refused, as ``game.play`` raises it: each refusal says
why in a player's words, and carries the HTTP status a view or the API answers with.
Nothing was changed by a refused action."""

from __future__ import annotations

__all__ = [
    "AlreadySeated",
    "GameFinished",
    "GameNotFound",
    "NotSeated",
    "NotStarted",
    "NotYourTurn",
    "PlayError",
    "StaleMove",
]


class PlayError(Exception):
    """An action refused for a reason the player should read; nothing was changed."""

    status = 400


class GameNotFound(PlayError):
    status = 404


class NotYourTurn(PlayError):
    """The browser holds a seat, but not the one that may act now."""

    status = 409


class NotSeated(PlayError):
    """The browser holds no seat in this game (a watcher, or a wrong link)."""

    status = 403


class StaleMove(PlayError):
    """The game moved on since the page was drawn (double click, old tab)."""

    status = 409


class GameFinished(PlayError):
    status = 409


class NotStarted(PlayError):
    """A friend game starts when both seats are taken; until then nobody moves."""

    status = 409


class AlreadySeated(PlayError):
    """One person is not two players: whoever holds a seat of a game, by a token or by
    an account, does not take the other."""

    status = 409
