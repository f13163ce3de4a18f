from django.apps import AppConfig


class MaerstanasConfig(AppConfig):
    """Mǽrstánas as an app: its templates and static files, and the kind it adds to the
    site's games (``game.registry`` reads ``kind``)."""

    name = "game.maerstanas"
    label = "maerstanas"
    verbose_name = "Mǽrstánas"
    kind = "game.maerstanas.site.KIND"
