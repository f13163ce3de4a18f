"""Every action on a game, one transaction each. Views call these, never the ORM directly.

Seats are passed in as ``tokens``: the seat tokens this browser holds for the game,
by colour (``{"dark": "…"}``). Only the engine of the game's kind decides what a
legal move is and when the game ends; this package checks who may act, writes the
move log, refreshes the cached state and ends games (``finish``). What follows a
change (the live pages, the computer's reply, a hint, whoever listens for the end of
a game) hears of it through ``game.hooks``, once the change commits.

One module per action, the names callers use gathered here (``play.make_move``):
``start`` (a new game, a lobby's match, an imported record, a rematch), ``seating``
(invites, joining, a seat's new token), ``move``, ``takeback``, ``hint`` and ``end``
(``finish``, time running out, resigning); ``base`` holds what they share.
"""

from __future__ import annotations

from game.play.base import Tokens, check_seat, revision, seated_colors
from game.play.end import expire, finish, in_time, out_of_time, resign
from game.play.hint import ask_hint, give_hint
from game.play.move import computer_move, make_move
from game.play.seating import invite_code, join, renew_invite, renew_seat
from game.play.start import Person, create_game, create_match, import_game, rematch, rematch_of
from game.play.takeback import DECLINED, TOO_LATE_TO_TAKE_BACK, answer_takeback, take_back
from game.refusals import (
    AlreadySeated,
    GameFinished,
    GameNotFound,
    NotSeated,
    NotStarted,
    NotYourTurn,
    PlayError,
    StaleMove,
)

__all__ = [
    "DECLINED",
    "TOO_LATE_TO_TAKE_BACK",
    "AlreadySeated",
    "GameFinished",
    "GameNotFound",
    "NotSeated",
    "NotStarted",
    "NotYourTurn",
    "Person",
    "PlayError",
    "StaleMove",
    "Tokens",
    "answer_takeback",
    "ask_hint",
    "check_seat",
    "computer_move",
    "create_game",
    "create_match",
    "expire",
    "finish",
    "give_hint",
    "import_game",
    "in_time",
    "invite_code",
    "join",
    "make_move",
    "out_of_time",
    "rematch",
    "rematch_of",
    "renew_invite",
    "renew_seat",
    "resign",
    "revision",
    "seated_colors",
    "take_back",
]
