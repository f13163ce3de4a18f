"""Playing a move: a player's (``make_move``) or the computer's (``computer_move``),
written to the log with the moves nobody chooses after it."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from game import clocks
from game.kinds import GamePosition
from game.models import Game
from game.play.base import Tokens, check_turn, computer_replies, locked, log_moves, timed
from game.play.end import finish, out_of_time, time_ran_out
from game.refusals import StaleMove
from game.surface import seat_outcome


def make_move(
    public_id: str,
    tokens: Tokens,
    text: str,
    expected_ply: int | str | None = None,
    seen: str = "",
) -> Game:
    """Play ``text`` for the side to move, then any automatic pass; return the game.

    ``expected_ply`` is the ply the player saw, and ``seen`` the position text: when
    the game has moved on, or a takeback brought it back to the same ply in another
    position, the move is refused with ``StaleMove``, so a double click or a stale
    tab never plays twice, nor in a position its player did not see.
    Raises ``PlayError`` subclasses for who may move and ``MoveError`` for the rules.
    """
    with transaction.atomic():
        game = locked(public_id)
        ran_out = out_of_time(game)
        if not ran_out:
            _play(game, tokens, text, expected_ply, seen)
    if ran_out:
        raise time_ran_out(game)
    return game


def _play(game: Game, tokens: Tokens, text: str, expected_ply: int | str | None, seen: str) -> None:
    """``make_move``'s work, under the row lock, once the side to move has time left."""
    check_turn(game, tokens, "move")
    if expected_ply not in (None, "") and str(expected_ply) != str(game.ply):
        raise StaleMove("the board changed since you saw it: look again and choose anew")
    if seen and seen != game.position_text:
        raise StaleMove("the board changed since you saw it: look again and choose anew")
    # The cached position is rewritten with every move in the same transaction
    # (tests check it always equals a replay of the log), so it can stand in for
    # the replay here, under the row lock.
    # history=None reads the cached text as well: it is only tested for truth.
    cached = game.position(history=False)  # pragma: no mutate
    _record(game, cached, cached.play(text))


def computer_move(public_id: str, ply: int, text: str, seen: str = "") -> Game | None:
    """Play the computer's move ``text``, thought out for the game at ``ply``, in the
    position whose text is ``seen``.

    Returns None, changing nothing, when the game is no longer there or not the
    computer's to move: the reply was played already (a task run twice), the player
    resigned, or took a move back and played another (the same ply, another
    position). That makes a reply happen once per position, however many workers
    thought of it.
    """
    with transaction.atomic():
        game = locked(public_id)
        if not game.computer_to_move or game.ply != ply:
            return None
        if seen and seen != game.position_text:
            return None
        cached = game.position(history=False)  # pragma: no mutate (as in make_move)
        _record(game, cached, cached.play(text))
    return game


def _record(game: Game, before: GamePosition, position: GamePosition) -> None:
    """Log the moves from the game's position ``before`` to ``position``, plus those
    nobody chooses (an automatic pass), and save the change: under the game's row lock.

    The moves played now are the last of ``position``'s history: all of it when
    ``before`` was read from the cached text, which has none.
    """
    position = game.game_kind.settle(position)
    played = position.history[len(position.history) - (position.ply - before.ply) :]
    now = clocks.now()
    charged = clocks.charge(game, now)
    changed = [*charged, *game.cache_position(position, [move.text for move in played])]
    changed += clocks.turn_begins(game, now)
    try:
        log_moves(game, played)
    except IntegrityError:
        raise StaleMove("the board changed since you saw it: look again") from None
    if (outcome := seat_outcome(position.outcome())) is not None:
        changed += finish(game, outcome)
    if game.takeback_by:  # a move answers a takeback request: it lapses
        game.takeback_by = ""
        changed.append("takeback_by")
    game.save_change(*changed)
    timed(game)
    computer_replies(game)
