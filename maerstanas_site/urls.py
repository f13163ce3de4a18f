"""The site's URLs: the game app's, and the accounts' (django-allauth's own)."""

from django.urls import include, path

from players import urls as players_urls

urlpatterns = [
    path("accounts/", include(players_urls.account_patterns)),
    path("accounts/", include("allauth.urls")),
    path("", include("players.urls")),
    path("", include("game.urls")),
]

# Under /api/ these answer JSON like the rest of the API; elsewhere the site's pages.
handler400 = "game.api.bad_request"
handler500 = "game.api.server_error"
