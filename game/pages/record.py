"""A game's record for download: its tags, rules, start, moves and how it ended."""

from __future__ import annotations

from django.http import HttpRequest

from game import records
from game.links import game_urls
from game.models import Game
from game.pages.detail import computer_seat
from game.surface import (
    Color,
)

# The tags of an export that name this game on this site, whatever a record said.
SITE_TAGS = ("Game", "Site")


def game_record(request: HttpRequest, game: Game) -> records.Record:
    """The game's record: its tags, rules, start, moves and how it ended."""
    computer = computer_seat(game)
    names = {}
    for color in Color:
        if computer and computer.color == color.value:
            names[color.value] = f"{computer.level.name} (computer, level {computer.number})"
        else:
            names[color.value] = "Player"
    imported = {name: value for name, value in game.tags.items() if isinstance(value, str)}
    sides = game.game_kind.sides
    # Each player's tag is named by their side, as the game's rule book names it.
    tags = {
        "Game": game.public_id,
        "Site": request.build_absolute_uri(game_urls(game.public_id).page),
        "Date": game.created.date().isoformat(),
        sides.first: names["dark"],
        sides.second: names["light"],
    }
    if game.mode == Game.Mode.IMPORTED:
        # The record's own names and date, and any other tag it had, come back (the
        # rules' tags are the reader's to make, from the game: make_record drops them);
        # which game this is, and where, is the site's to say.
        tags |= {name: value for name, value in imported.items() if name not in SITE_TAGS}
    return records.make_record(
        rules=game.rules,
        moves=game.cached_record(),
        start=game.start(),
        result=game.result_word,
        end=game.status if game.is_over else "",
        tags=tuple(tags.items()),
    )
