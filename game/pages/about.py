"""What the About pages show of the computer players: their ladder and measured ratings."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings

from game.kinds import GameKind, Level


@lru_cache(maxsize=16)
def arena_ratings(arena: str) -> dict[str, int]:
    """The levels' Elo ratings, from the arena's last full run (``make arena``) kept at
    ``arena`` (a game's ``GameKind.arena``, from the project's root: its folder's
    ``arena.json``); none for a game never measured."""
    path = settings.BASE_DIR / arena
    if not arena or not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["ratings"]


def ladder(kind: GameKind) -> list[tuple[int, Level, int | None]]:
    """The rows of ``kind``'s ladder on its About page (templates/game/_ladder.html):
    each level's number, weakest first, the level, and its Elo in the arena (None where
    it was not measured)."""
    ratings = arena_ratings(kind.arena)
    return [
        (number, level, ratings.get(level.id))
        for number, level in enumerate(kind.players.levels, start=1)
    ]
