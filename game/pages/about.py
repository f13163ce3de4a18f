"""What the About pages show of the computer players: their ladder and measured ratings."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings

from game.kinds import GameKind


@lru_cache(maxsize=16)
def arena_ratings(arena: str) -> dict[str, int]:
    """The levels' Elo ratings, from the arena's last full run (``make arena``) kept at
    ``arena`` (a game's ``GameKind.arena``, from the project's root: its folder's
    ``arena.json``); none for a game never measured."""
    path = settings.BASE_DIR / arena
    if not arena or not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["ratings"]


def ladder(kind: GameKind) -> dict[str, list]:
    """``kind``'s ladder on its About page (templates/game/_ladder.html): the headings
    of its Elo columns (one per arena: Moai's square board and hex board), and each
    level's row, weakest first: its number, the level, and its Elo in each arena (None
    where it was not measured)."""
    arenas = kind.board_arenas or (("Elo", kind.arena),)
    ratings = [arena_ratings(path) for _, path in arenas]
    rows = [
        (number, level, [measured.get(level.id) for measured in ratings])
        for number, level in enumerate(kind.players.levels, start=1)
    ]
    return {"columns": [heading for heading, _ in arenas], "rows": rows}
