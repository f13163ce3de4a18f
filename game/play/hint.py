"""Hints: the strongest level's move for the side to move, asked for by a player and
given once a worker has thought it out."""

from __future__ import annotations

from django.db import transaction

from game import hooks
from game.models import Game
from game.play.base import Tokens, check_turn, locked
from game.refusals import PlayError


def ask_hint(public_id: str, tokens: Tokens) -> Game:
    """Ask for the strongest level's move for the side to move; a worker thinks it out
    and ``give_hint`` shows it. Hot-seat games and games against the computer only:
    in a friend game it would be the computer playing for one side."""
    with transaction.atomic():
        game = locked(public_id)
        if game.mode == Game.Mode.FRIEND:
            raise PlayError("hints are for hot-seat games and games against the computer")
        check_turn(game, tokens, "ask for a hint")
        if not game.hint_asked:
            game.hint_ply, game.hint = game.ply, ""
            game.save_change("hint_ply", "hint")
            hooks.on_commit(hooks.hint_asked, sender=Game, public_id=game.public_id, ply=game.ply)
    return game


def give_hint(public_id: str, ply: int, text: str, seen: str = "") -> Game | None:
    """Show ``text`` as the hint asked for at ``ply`` in the position whose text is
    ``seen``; None if the game moved on."""
    with transaction.atomic():
        game = locked(public_id)
        if not game.hint_asked or game.hint_ply != ply or game.hint:
            return None
        if seen and seen != game.position_text:
            return None
        game.hint = text
        game.save_change("hint")
    return game
