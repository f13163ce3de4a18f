"""The benchmarks (README, "Benchmarks"). They read the site's games from its registry,
which the settings list (``INSTALLED_APPS``): run from a shell, they use the site's."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maerstanas_site.settings")
