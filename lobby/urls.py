from django.urls import path, re_path

from lobby import api, views, watch

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/live", views.stream, name="lobby-live"),
    path("watch/", watch.watch, name="watch"),
    path("watch/live", watch.stream, name="watch-live"),
    path("lobby/<str:challenge_id>/", views.challenge, name="challenge"),
    path("lobby/<str:challenge_id>/accept", views.accept, name="challenge-accept"),
    path("lobby/<str:challenge_id>/cancel", views.cancel, name="challenge-cancel"),
    path("lobby/<str:challenge_id>/decline", views.decline, name="challenge-decline"),
    re_path(
        r"^players/(?P<username>[^/]{1,150})/challenge\Z",
        views.challenge_player,
        name="challenge-player",
    ),
    # Before game.urls' catch-all under api/.
    path("api/challenges", api.challenge_list, name="api-challenges"),
    path("api/challenges/<str:challenge_id>", api.challenge, name="api-challenge"),
    path("api/challenges/<str:challenge_id>/accept", api.accept, name="api-challenge-accept"),
    path("api/challenges/<str:challenge_id>/decline", api.decline, name="api-challenge-decline"),
    path("api/stream/events", api.events, name="api-events"),
]
