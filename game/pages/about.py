"""What the About page shows of the computer players: their measured ratings."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=16)
def arena_ratings(arena: str) -> dict[str, int]:
    """The levels' Elo ratings, from the arena's last full run (``make arena``) kept at
    ``arena`` (a game's ``GameKind.arena``, from the project's root: its folder's
    ``arena.json``); none for a game never measured."""
    path = settings.BASE_DIR / arena
    if not arena or not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["ratings"]
