"""The games' news for the live streams (``kit.live``): read from the database when a
stream opens or the newsroom looks, and announced as each change commits."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.dispatch import receiver

from game import hooks
from game.models import Game
from kit.live import News, tell


class Games:
    """The games as a source of news: a game's topic is its public id."""

    def changed(self, since: datetime) -> dict[str, News]:
        """The news of every game changed since ``since``."""
        return _news_of(Game.objects.filter(updated__gte=since))

    def read(self, topics: list[str]) -> dict[str, News]:
        """The news of each of these games that exists."""
        return _news_of(Game.objects.filter(public_id__in=topics))


GAMES = Games()


def _news_of(games: QuerySet[Game]) -> dict[str, News]:
    rows = games.values_list("public_id", "revision", "ply", "status")
    return {
        game_id: News(rev, ply, status not in Game.GOING_ON) for game_id, rev, ply, status in rows
    }


@receiver(hooks.game_changed, dispatch_uid="game.news.announce")
def announce(sender: type[Game], game: Game, using: str, **kwargs: object) -> None:
    """Tell the streams of every process of a change, as its transaction commits."""
    tell(game.public_id, News.of(game), using)
