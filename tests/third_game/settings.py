"""The site's settings with a third game: ``tests/third_game`` added, in one line."""

from maerstanas_site.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.third_game"]  # noqa: F405
