from django.apps import AppConfig


class SevenFourConfig(AppConfig):
    """7-4-1776 as an app: its templates and static files, and the kind it adds to the
    site's games (``game.registry`` reads ``kind``)."""

    name = "game.seven_four"
    label = "seven_four"
    verbose_name = "7-4-1776"
    kind = "game.seven_four.site.KIND"
