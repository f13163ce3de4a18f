"""What the pages show: plain values built from a game for one viewer, apart from the
views that read requests (``game.views``) and the templates that draw them.

A game's page is a ``GamePage`` (``detail``): its board, status and moves as the
game's kind draws them (``GameKind.drawing``), what the viewer may do (their seats
decide), the replay's place (``replay``), its time (``times``), the analysis panel.
Beside it: a game's record for download (``record``), a lesson (``lessons``), "My
games" (``my_games``) and the About pages' ladder and ratings (``about``). Everything
here reads; nothing writes a game. The names the views use are gathered here.
"""

from __future__ import annotations

from game.analysis import AnalysisPanel, analysis_allowed, analysis_panel, position_keys
from game.links import GameUrls, game_urls
from game.pages.about import arena_ratings, ladder
from game.pages.detail import (
    ComputerSeat,
    GamePage,
    SeatLink,
    computer_seat,
    game_page,
    people_shown,
    signed,
)
from game.pages.lessons import LessonPage, lesson_page
from game.pages.my_games import MyGame, my_game_lines, opponent_words
from game.pages.record import SITE_TAGS, game_record
from game.pages.replay import Replay, Step, replay_steps
from game.pages.times import time_shown

__all__ = [
    "SITE_TAGS",
    "AnalysisPanel",
    "ComputerSeat",
    "GamePage",
    "GameUrls",
    "LessonPage",
    "MyGame",
    "Replay",
    "SeatLink",
    "Step",
    "analysis_allowed",
    "analysis_panel",
    "arena_ratings",
    "computer_seat",
    "game_page",
    "game_record",
    "game_urls",
    "ladder",
    "lesson_page",
    "my_game_lines",
    "opponent_words",
    "people_shown",
    "position_keys",
    "replay_steps",
    "signed",
    "time_shown",
]
