"""The site's URLs: the game app's, and the accounts' (django-allauth's own)."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from players import urls as players_urls

# The operator's admin only where DJANGO_ADMIN_PATH puts it: a well-known /admin/
# draws every password guesser on the web.
admin_patterns = [path(f"{settings.ADMIN_PATH}/", admin.site.urls)] if settings.ADMIN_PATH else []

urlpatterns = admin_patterns + [
    path("accounts/", include(players_urls.account_patterns)),
    path("accounts/", include("allauth.urls")),
    path("", include("lobby.urls")),
    path("", include("tournaments.urls")),
    path("", include("players.urls")),
    path("", include("chat.urls")),
    path("", include("notifications.urls")),
    path("", include("game.urls")),
]

# Under /api/ these answer JSON like the rest of the API; elsewhere the site's pages.
handler400 = "game.api.bad_request"
handler500 = "game.api.server_error"
