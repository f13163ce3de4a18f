from django.apps import AppConfig


class ThreeInRowConfig(AppConfig):
    """Three in a row as an app: its templates and static files, and the kind it adds
    to the site's games (``game.registry`` reads ``kind``)."""

    name = "tests.third_game"
    label = "threeinrow"
    verbose_name = "Three in a row"
    kind = "tests.third_game.site.KIND"
