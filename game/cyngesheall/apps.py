from django.apps import AppConfig


class CyngesheallConfig(AppConfig):
    """Cyngesheall as an app: its templates and static files, and the kind it adds to
    the site's games (``game.registry`` reads ``kind``)."""

    name = "game.cyngesheall"
    label = "cyngesheall"
    verbose_name = "Cyngesheall"
    kind = "game.cyngesheall.site.KIND"
