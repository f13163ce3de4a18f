from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """What waits for a player: notices in the site and, if they ask, by e-mail."""

    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Importing the receivers connects them to the games' and the lobby's signals.
        from notifications import receivers  # noqa: F401
