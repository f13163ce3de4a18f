"""A saved game's position: read from its move log, played from its start, and
cached on its row (``Game``'s fields), which every change rewrites and saves.

``Game`` takes these from ``PositionCache``; they ask nothing of the database but
the game's own row and moves, and nothing of the rules but the game's kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import router

from game import hooks
from game.kinds import GamePosition


class PositionCache:
    """The position of a ``Game`` and the cache of it on its row."""

    # ``Game``'s fields and properties these read and write.
    game_kind: Any
    rules: Any
    moves: Any
    objects: Any
    kind: str
    start_text: str
    position_text: str
    record_text: str
    ply: int
    turn: str
    dark_score: int
    light_score: int
    revision: int

    def cached_record(self) -> list[str]:
        """The moves' notation from the cache on this row (no query)."""
        return self.record_text.split("\n") if self.record_text else []

    def logged_record(self) -> list[str]:
        """The moves' notation from the move log, the truth (one query); moves taken
        back stay in the log, marked, and are left out."""
        moves = self.moves.filter(taken_back=None).order_by("ply")
        return list(moves.values_list("notation", flat=True))

    def start(self) -> GamePosition:
        """The position the game started from."""
        kind = self.game_kind
        if self.start_text:
            return kind.from_text(self.start_text, self.rules)
        return kind.start(self.rules)

    def position(self, ply: int | None = None, *, history: bool = True) -> GamePosition:
        """The position after ``ply`` moves (the current one by default): the one way
        pages, the API, the computer and pictures read a game.

        It is the start with the recorded moves played, so it knows the moves that
        led to it; ``history=False`` reads the current position from the cached
        text instead, which is quicker and knows none (tests check the two agree),
        unless the kind's rules look back at earlier positions (``GameKind.remembers``).
        """
        if ply is None and not history and not self.game_kind.remembers:
            return self.game_kind.from_text(self.position_text, self.rules)
        record = self.cached_record()
        key = (self.start_text, self.kind, self.rules, self.record_text, ply)
        cached = getattr(self, "_position", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        position = self.game_kind.replay(self.start(), record[:ply])  # None: every move
        self._position = (key, position)
        return position

    def cache_position(self, position: GamePosition, added: Sequence[str] = ()) -> list[str]:
        """Copy ``position`` onto the cached fields and return their names; ``added`` is
        the record of the moves that led to it from the cached position. How the game
        ends is ``play.finish``'s business, not this one's."""
        self.ply += len(added)
        self.turn = position.turn.value
        self.position_text = position.to_text()
        self.dark_score, self.light_score = position.score()
        self.record_text = "\n".join([*self.cached_record(), *added])
        return ["ply", "turn", "position_text", "dark_score", "light_score", "record_text"]

    def save_change(self, *fields: str) -> None:
        """Save ``fields`` and advance the revision that watching pages wait on, then
        say so (``hooks.game_changed``, inside the transaction).

        Call it with the row locked (``GameManager.locked``): the revision read with
        the row is then the stored one, so it is counted up here rather than with an
        ``F()`` expression, which would cost a move 100 µs more.
        """
        game = type(self)
        self.revision += 1
        game.objects.write(self, tuple(dict.fromkeys([*fields, "revision", "updated"])))
        using = router.db_for_write(game)  # pragma: no mutate (the site has one database)
        hooks.game_changed.send(sender=game, game=self, using=using)
