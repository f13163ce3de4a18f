from django.apps import AppConfig


class ParkingLotConfig(AppConfig):
    """Parking Lot as an app: its templates and static files, and the kind it adds to
    the site's games (``game.registry`` reads ``kind``)."""

    name = "game.parking_lot"
    label = "parking_lot"
    verbose_name = "Parking Lot"
    kind = "game.parking_lot.site.KIND"
