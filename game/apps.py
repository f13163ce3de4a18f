from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "Mǽrstánas games"

    def ready(self) -> None:
        # The listeners of game.hooks: the live streams announce every change, the
        # computer thinks when it is to move. Importing them connects them.
        from game import computer, news, timekeeper  # noqa: F401
        from kit import live

        # The streams read the games' news through game.news.
        live.add_source(news.GAMES)
