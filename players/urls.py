from django.urls import path, re_path

from players import views

# Under /accounts/, beside allauth's own.
account_patterns = [
    path("settings/", views.settings, name="account-settings"),
    path("delete/", views.delete, name="account-delete"),
    path("tokens/", views.tokens, name="account-tokens"),
    path("guest-name/", views.guest_name, name="guest-name"),
]

# Sign-up names are 3–20 of a–z, digits, _ and - (players.names); an operator's
# accounts, made otherwise, may hold any of Django's, so any name without a slash.
USERNAME = r"(?P<username>[^/]{1,150})"

urlpatterns = [
    path("players/", views.leaderboard, name="leaderboard"),
    re_path(rf"^players/{USERNAME}/\Z", views.profile, name="player"),
    re_path(rf"^players/{USERNAME}/block\Z", views.block, name="player-block"),
    re_path(rf"^api/players/{USERNAME}\Z", views.player_json, name="api-player"),
]
