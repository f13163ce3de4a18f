"""Values every page's template may use."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from game.registry import KINDS


def site(request: HttpRequest) -> dict[str, object]:
    """The code's address, the games' own stylesheets (their boards' sizes and pieces),
    which every page links after the site's: a lobby or watch list shows any game's
    board; and the games, which every page's footer credits."""
    kinds = list(KINDS.values())
    stylesheets = [kind.stylesheet for kind in kinds if kind.stylesheet]
    return {"source_url": settings.SOURCE_URL, "game_stylesheets": stylesheets, "site_games": kinds}
