"""The site's URLs: everything lives in the game app."""

from django.urls import include, path

urlpatterns = [
    path("", include("game.urls")),
]

# Under /api/ these answer JSON like the rest of the API; elsewhere the site's pages.
handler400 = "game.api.bad_request"
handler500 = "game.api.server_error"
