"""What the About page shows of the computer players: their measured ratings."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=4)
def arena_ratings(game: str = "maerstanas") -> dict[str, int]:
    """The levels' Elo ratings, from the arena's last full run (``make arena``):
    ``docs/arena.json`` for Mǽrstánas, ``docs/arena-<game>.json`` for another game."""
    name = "arena.json" if game == "maerstanas" else f"arena-{game}.json"
    path = settings.BASE_DIR / "docs" / name
    return json.loads(path.read_text(encoding="utf-8"))["ratings"] if path.exists() else {}
