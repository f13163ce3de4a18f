"""The addresses of a game's page and of its actions, reversed once per game."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from django.urls import reverse

__all__ = ["GameUrls", "game_urls"]


class GameUrls(NamedTuple):
    page: str
    move: str
    resign: str
    rematch: str
    hint: str
    api: str
    takeback: str
    record: str
    image: str
    continue_: str
    analyse: str
    analysis: str
    try_: str


@lru_cache(maxsize=4096)
def game_urls(public_id: str) -> GameUrls:
    """The URLs of one game's page and actions, reversed once."""
    names = (
        "game-detail",
        "game-move",
        "game-resign",
        "game-rematch",
        "game-hint",
        "api-game",
        "game-takeback",
        "game-record",
        "game-image",
        "game-continue",
        "game-analyse",
        "game-analysis",
        "game-try",
    )
    return GameUrls(*(reverse(name, args=[public_id]) for name in names))
