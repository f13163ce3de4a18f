from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Optional accounts: names, and the games that follow a player to any device."""

    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from players import rating, sessions, signals  # noqa: F401  (connects the receivers)
