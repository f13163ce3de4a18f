from django.urls import re_path

from chat import views
from game.converters import GameIdConverter

# The game app registers the "game" converter; the pattern is spelled out here so this
# URLconf does not depend on which one loads first.
GAME = rf"^g/(?P<game_id>{GameIdConverter.regex})/chat"

urlpatterns = [
    re_path(rf"{GAME}\Z", views.say, name="chat-say"),
    re_path(rf"{GAME}/mute\Z", views.mute, name="chat-mute"),
    re_path(rf"{GAME}/(?P<message_id>[0-9]{{1,18}})/report\Z", views.report, name="chat-report"),
]
