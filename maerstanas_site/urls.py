"""The site's URLs: the game app's, and the accounts' (django-allauth's own)."""

from django.urls import include, path

urlpatterns = [
    path("accounts/", include("players.urls")),
    path("accounts/", include("allauth.urls")),
    path("", include("game.urls")),
]

# Under /api/ these answer JSON like the rest of the API; elsewhere the site's pages.
handler400 = "game.api.bad_request"
handler500 = "game.api.server_error"
