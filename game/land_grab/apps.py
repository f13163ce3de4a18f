from django.apps import AppConfig


class LandGrabConfig(AppConfig):
    """Land Grab as an app: its templates and static files, and the kind it adds to the
    site's games (``game.registry`` reads ``kind``)."""

    name = "game.land_grab"
    label = "land_grab"
    verbose_name = "Land Grab"
    kind = "game.land_grab.site.KIND"
