from django.urls import path, re_path, register_converter

from game import api
from game.converters import GameIdConverter
from game.views import games, learn, positions, review, site

register_converter(GameIdConverter, "game")

urlpatterns = [
    # First: every watching browser asks this every second.
    path("g/<game:game_id>/poll/<int:revision>", games.poll, name="game-poll"),
    path("g/<game:game_id>/live", games.stream, name="game-live"),
    path("", site.home, name="home"),
    path("about/", site.about, name="about"),
    path("about/<slug:name>/", site.about_kind, name="about-kind"),
    path("docs/<str:name>.md", site.doc, name="doc"),
    path("healthz", site.healthz, name="healthz"),
    path("g/<game:game_id>/", games.detail, name="game-detail"),
    path("g/<game:game_id>/move", games.move, name="game-move"),
    path("g/<game:game_id>/resign", games.resign, name="game-resign"),
    path("g/<game:game_id>/rematch", games.rematch, name="game-rematch"),
    path("g/<game:game_id>/hint", games.hint, name="game-hint"),
    path("g/<game:game_id>/takeback", games.takeback, name="game-takeback"),
    path("g/<game:game_id>/continue", review.continue_game, name="game-continue"),
    path("g/<game:game_id>/analyse", review.analyse, name="game-analyse"),
    path("g/<game:game_id>/analysis", review.analysis, name="game-analysis"),
    path("g/<game:game_id>/try", review.try_line, name="game-try"),
    path("g/<game:game_id>/try/estimate", review.try_estimate, name="game-try-estimate"),
    path("g/<game:game_id>/record.txt", review.record, name="game-record"),
    path("g/<game:game_id>/image.png", review.game_image, name="game-image"),
    path("games/", site.games, name="games"),
    path("learn/", learn.learn, name="learn"),
    path("learn/<slug:slug>/", learn.lesson, name="lesson"),
    path("import/", review.import_record, name="import"),
    path("p/", positions.position_page, name="position"),
    path("p/continue", positions.position_continue, name="position-continue"),
    path("p/image.png", positions.position_image, name="position-image"),
    path("g/<game:game_id>/join", games.join, name="game-join"),
    path("g/<game:game_id>/invite/renew", games.renew_invite, name="game-invite-renew"),
    path("g/<game:game_id>/invite/<str:code>/", games.invite, name="game-invite"),
    path("g/<game:game_id>/seat/<str:color>/<str:token>/", games.seat, name="game-seat"),
    path("g/<game:game_id>/seat/<str:color>/renew", games.renew_seat, name="game-seat-renew"),
    path("api/games", api.create, name="api-create"),
    path("api/games/<game:game_id>", api.game, name="api-game"),
    path("api/games/<game:game_id>/join", api.join, name="api-join"),
    path("api/games/<game:game_id>/moves", api.moves, name="api-moves"),
    path("api/games/<game:game_id>/resign", api.resign, name="api-resign"),
    path("api/games/<game:game_id>/poll/<int:ply>", api.poll, name="api-poll"),
    # Any other path under api/, a newline in it included (which "." would not match).
    re_path(r"^api/(?P<path>[\s\S]*)\Z", api.not_found),
]
