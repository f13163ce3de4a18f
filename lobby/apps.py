from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """Where people find an opponent: open challenges, and challenges to a named player."""

    name = "lobby"
    verbose_name = "Lobby"

    def ready(self) -> None:
        from lobby import api, challenges, tasks, watch  # noqa: F401  (connects the receivers)
