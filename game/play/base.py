"""What every action on a game shares: the game read under its row lock, who holds
which seat, the checks of who may act, the move log's writes and what a change sets
going once it commits (the computer's reply, the deadline's task)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game import hooks
from game.models import Game, Move
from game.refusals import GameFinished, GameNotFound, NotSeated, NotStarted, NotYourTurn
from game.surface import (
    Color,
)

Tokens = Mapping[str, str]


def locked(public_id: str) -> Game:
    """The game, its row locked until the transaction ends; raise ``GameNotFound``."""
    game = Game.objects.locked(public_id)
    if game is None:
        raise GameNotFound("there is no such game")
    return game


def revision(public_id: str) -> int | None:
    """How many changes a watching page has seen; None for an unknown game."""
    return Game.objects.revision_of(public_id)


def seated_colors(game: Game, tokens: Tokens) -> set[str]:
    """The colours whose seats these tokens hold."""
    return {c.value for c in Color if game.holds_seat(c, tokens.get(c.value))}


def check_seat(game: Game, color: str, token: str) -> None:
    """Raise ``NotSeated`` unless ``token`` is the secret of ``color``'s seat."""
    if color not in Color.__members__.values() or not game.holds_seat(color, token):
        raise NotSeated("this seat link is not valid for this game")


def check_playing(
    game: Game, tokens: Tokens, action: str, over: str = "the game is over"
) -> set[str]:
    """The colours ``tokens`` hold in a game that goes on; raise if none or it does
    not (``over`` says why it is too late)."""
    if game.is_over:
        raise GameFinished(over)
    seated = seated_colors(game, tokens)
    if not seated:
        raise NotSeated(f"you are watching this game: only its players can {action}")
    if game.status == Game.Status.WAITING:
        raise NotStarted("the game starts when your friend joins: send them the invite link")
    return seated


def check_turn(game: Game, tokens: Tokens, action: str) -> None:
    """Raise unless the game goes on and ``tokens`` hold the seat of the side to move."""
    seated = check_playing(game, tokens, action)
    if game.turn not in seated:
        raise NotYourTurn(f"it is {game.turn}'s turn")


def log_moves(game: Game, played: Sequence) -> None:
    """Write ``played`` (the engine's ``Played`` moves) to the log of a saved game,
    numbered on from the ply the game's log has reached."""
    first = game.ply - len(played) + 1
    Move.objects.bulk_create(
        Move(game=game, ply=ply, notation=move.text, color=move.color)
        for ply, move in enumerate(played, start=first)
    )


def timed(game: Game) -> None:
    """Have the game ended at its deadline should nobody ask about it by then: once the
    change that set it commits, ``game.timekeeper`` sets a task for it."""
    if game.deadline is not None and not game.is_over:
        hooks.on_commit(
            hooks.deadline_set, sender=Game, public_id=game.public_id, deadline=game.deadline
        )


def computer_replies(game: Game) -> None:
    """Have the computer think of its move, once the change that gave it the turn
    commits: a worker does it (``game.computer`` listens), never the request."""
    if game.computer_to_move:
        hooks.on_commit(hooks.computer_to_move, sender=Game, public_id=game.public_id, ply=game.ply)
