from django.apps import AppConfig


class MoaiConfig(AppConfig):
    """Moai as an app: its templates and static files, and the kind it adds to the
    site's games (``game.registry`` reads ``kind``)."""

    name = "game.moai"
    label = "moai"
    verbose_name = "Moai"
    kind = "game.moai.site.KIND"
