from django.urls import path

from tournaments import api, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/live", views.list_stream, name="tournaments-live"),
    path("tournaments/<str:tournament_id>/", views.tournament, name="tournament"),
    path("tournaments/<str:tournament_id>/live", views.stream, name="tournament-live"),
    path("tournaments/<str:tournament_id>/join", views.join, name="tournament-join"),
    path("tournaments/<str:tournament_id>/withdraw", views.withdraw, name="tournament-withdraw"),
    path("tournaments/<str:tournament_id>/start", views.start, name="tournament-start"),
    path("tournaments/<str:tournament_id>/berserk", views.berserk, name="tournament-berserk"),
    path("tournaments/<str:tournament_id>/chat", views.say, name="tournament-chat"),
    # Before game.urls' catch-all under api/.
    path("api/tournaments", api.tournament_list, name="api-tournaments"),
    path("api/tournaments/<str:tournament_id>", api.tournament, name="api-tournament"),
    path("api/tournaments/<str:tournament_id>/join", api.join, name="api-tournament-join"),
    path(
        "api/tournaments/<str:tournament_id>/withdraw",
        api.withdraw,
        name="api-tournament-withdraw",
    ),
    path("api/tournaments/<str:tournament_id>/start", api.start, name="api-tournament-start"),
    path("api/tournaments/<str:tournament_id>/berserk", api.berserk, name="api-tournament-berserk"),
]
