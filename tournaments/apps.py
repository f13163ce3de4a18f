from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments of every game: arenas, Swiss events and round-robins."""

    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournaments import receivers, tasks  # noqa: F401  (connects the receivers)
