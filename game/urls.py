from django.urls import path

from game import views

urlpatterns = [
    # First: every watching browser asks this every second.
    path("g/<str:game_id>/poll/<int:revision>", views.poll, name="game-poll"),
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    path("healthz", views.healthz, name="healthz"),
    path("g/<str:game_id>/", views.detail, name="game-detail"),
    path("g/<str:game_id>/move", views.move, name="game-move"),
    path("g/<str:game_id>/resign", views.resign, name="game-resign"),
    path("g/<str:game_id>/rematch", views.rematch, name="game-rematch"),
    path("g/<str:game_id>/join", views.join, name="game-join"),
    path("g/<str:game_id>/invite/<str:code>/", views.invite, name="game-invite"),
    path("g/<str:game_id>/seat/<str:color>/<str:token>/", views.seat, name="game-seat"),
    path("api/games/<str:game_id>", views.api_game, name="api-game"),
]
