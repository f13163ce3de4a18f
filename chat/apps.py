from django.apps import AppConfig


class ChatConfig(AppConfig):
    """Chat in games between people: the players' messages, the watchers', and the
    reports the operator reads in the admin."""

    name = "chat"
    verbose_name = "Chat"

    def ready(self) -> None:
        from chat import receivers  # noqa: F401  (connects the receivers)
