"""Taking moves back: at once in hot-seat and against the computer, asked and
answered in a friend game."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from game import clocks
from game.models import Game, Move
from game.play.base import Tokens, check_playing, computer_replies, locked, timed
from game.refusals import PlayError

TOO_LATE_TO_TAKE_BACK = "the game is over: moves can no longer be taken back"
DECLINED = "your friend declined to take back this move: you may ask again after your next move"


def take_back(public_id: str, tokens: Tokens) -> Game:
    """Take a move back: in hot-seat the last move, at once; against the computer the
    player's last move and the computer's reply, at once. In a friend game the
    friend must agree: this asks them (``answer_takeback``). The moves stay in the
    log, marked as taken back."""
    with transaction.atomic():
        game = locked(public_id)
        seated = check_playing(game, tokens, "take a move back", TOO_LATE_TO_TAKE_BACK)
        if game.rated:
            raise PlayError("a rated game has no takebacks")
        if game.mode == Game.Mode.FRIEND and len(seated) == 1:
            (color,) = seated
            if game.takeback_by:
                raise PlayError(f"{game.takeback_by} has asked for a takeback already")
            if _ply_before_last_move(game, color) + 1 == game.takeback_declined_ply:
                raise PlayError(DECLINED)
            game.takeback_by = color
            game.save_change("takeback_by")
            return game
        # Both seats (hot-seat, or both seats of a friend game in one browser): the
        # last move; against the computer, the player's own.
        color = _last_mover(game) if len(seated) == 2 else next(iter(seated))
        _rewind(game, _ply_before_last_move(game, color))
    return game


def answer_takeback(public_id: str, tokens: Tokens, accept: bool) -> Game:
    """Accept the friend's takeback (their last move, and any reply, are undone) or
    decline it, remembered (``Game.takeback_declined_ply``): that move is not asked again."""
    with transaction.atomic():
        game = locked(public_id)
        seated = check_playing(game, tokens, "answer a takeback", TOO_LATE_TO_TAKE_BACK)
        asker = game.takeback_by
        if not asker:
            raise PlayError("nobody has asked for a takeback")
        if asker in seated:
            raise PlayError("your friend answers your takeback, not you")
        game.takeback_by = ""
        if accept:
            _rewind(game, _ply_before_last_move(game, asker))
        else:
            game.takeback_declined_ply = _ply_before_last_move(game, asker) + 1
            game.save_change("takeback_by", "takeback_declined_ply")
    return game


def _last_mover(game: Game) -> str:
    """The side that made the last move that was not a pass."""
    for played in reversed(game.position().history):
        if not played.move.is_pass:
            return played.color.value
    raise PlayError("there is no move to take back")


def _ply_before_last_move(game: Game, color: str) -> int:
    """The ply before ``color``'s last move that was not a pass (a pass is automatic:
    taking it back alone would give the turn to a side that cannot move)."""
    history = game.position().history
    for index in range(len(history) - 1, -1, -1):
        played = history[index]
        if played.color == color and not played.move.is_pass:
            return index
    raise PlayError("you have no move to take back")


def _rewind(game: Game, ply: int) -> None:
    """Go back to ``ply``: the later moves are marked as taken back, the cached state is
    that of the game then; a hint, a takeback request, a declined move taken back lapse."""
    Move.objects.filter(game=game, ply__gt=ply, taken_back=None).update(taken_back=timezone.now())
    position = game.position(ply)
    game.ply, game.record_text = 0, ""  # the cache is rewritten from the start
    changed = game.cache_position(position, position.record)
    game.hint_ply, game.hint, game.takeback_by = None, "", ""
    game.takeback_declined_ply = d if (d := game.takeback_declined_ply) and d <= ply else None
    changed += clocks.turn_begins(game, clocks.now())
    game.save_change(*changed, "hint_ply", "hint", "takeback_by", "takeback_declined_ply")
    timed(game)
    computer_replies(game)
