from django.urls import path, re_path, register_converter

from game import api, views
from game.converters import GameIdConverter

register_converter(GameIdConverter, "game")

urlpatterns = [
    # First: every watching browser asks this every second.
    path("g/<game:game_id>/poll/<int:revision>", views.poll, name="game-poll"),
    path("g/<game:game_id>/live", views.stream, name="game-live"),
    path("", views.home, name="home"),
    path("about/", views.about, name="about"),
    path("docs/<str:name>.md", views.doc, name="doc"),
    path("healthz", views.healthz, name="healthz"),
    path("g/<game:game_id>/", views.detail, name="game-detail"),
    path("g/<game:game_id>/move", views.move, name="game-move"),
    path("g/<game:game_id>/resign", views.resign, name="game-resign"),
    path("g/<game:game_id>/rematch", views.rematch, name="game-rematch"),
    path("g/<game:game_id>/hint", views.hint, name="game-hint"),
    path("g/<game:game_id>/takeback", views.takeback, name="game-takeback"),
    path("g/<game:game_id>/continue", views.continue_game, name="game-continue"),
    path("g/<game:game_id>/analyse", views.analyse, name="game-analyse"),
    path("g/<game:game_id>/analysis", views.analysis, name="game-analysis"),
    path("g/<game:game_id>/record.txt", views.record, name="game-record"),
    path("g/<game:game_id>/image.png", views.game_image, name="game-image"),
    path("games/", views.games, name="games"),
    path("learn/", views.learn, name="learn"),
    path("learn/<slug:slug>/", views.lesson, name="lesson"),
    path("import/", views.import_record, name="import"),
    path("p/", views.position_page, name="position"),
    path("p/continue", views.position_continue, name="position-continue"),
    path("p/image.png", views.position_image, name="position-image"),
    path("g/<game:game_id>/join", views.join, name="game-join"),
    path("g/<game:game_id>/invite/<str:code>/", views.invite, name="game-invite"),
    path("g/<game:game_id>/seat/<str:color>/<str:token>/", views.seat, name="game-seat"),
    path("g/<game:game_id>/seat/<str:color>/renew", views.renew_seat, name="game-seat-renew"),
    path("api/games", api.create, name="api-create"),
    path("api/games/<game:game_id>", api.game, name="api-game"),
    path("api/games/<game:game_id>/join", api.join, name="api-join"),
    path("api/games/<game:game_id>/moves", api.moves, name="api-moves"),
    path("api/games/<game:game_id>/resign", api.resign, name="api-resign"),
    path("api/games/<game:game_id>/poll/<int:ply>", api.poll, name="api-poll"),
    # Any other path under api/, a newline in it included (which "." would not match).
    re_path(r"^api/(?P<path>[\s\S]*)\Z", api.not_found),
]
