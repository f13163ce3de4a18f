"""How games end: ``finish``, the one way any game ends, a side out of time
(``expire``, ``in_time``) and a resignation (``resign``)."""

from __future__ import annotations

from django.db import transaction

from game import clocks, hooks
from game.models import Game
from game.play.base import Tokens, locked, seated_colors
from game.refusals import GameFinished, NotSeated, NotStarted
from game.surface import (
    Color,
    Outcome,
)


def finish(game: Game, outcome: Outcome) -> list[str]:
    """End ``game`` with ``outcome``: its result (``dark``, ``light`` or the kind's word for
    nobody winning, ``tie`` or ``draw``) and
    why it ended, the rules' reason (``position.outcome()``) or another (a resignation).

    The one way a game ends, whatever the reason, as lila's ``Finisher`` is. Call it
    under the game's row lock, in the transaction that saves the change, then save the
    fields it returns with the rest (``save_change``); ``hooks.game_finished`` is sent
    once that transaction commits. Raises ``GameFinished`` if the game has already
    ended, ``ValueError`` for an end its kind does not have.
    """
    if game.is_over:
        raise GameFinished("the game is over")
    ends = {*Game.OTHER_ENDS, *game.game_kind.ends}
    # A game nobody won comes in the kind's word for it (Mǽrstánas's tie), as its
    # engine's outcome says it, and is stored as every kind's is (``Game.store_result``).
    no_winner = game.game_kind.sides.no_winner
    aborted = outcome.reason == Game.Status.ABORTED
    results = [""] if aborted else [Color.DARK, Color.LIGHT, no_winner]
    if outcome.reason not in ends or outcome.result not in results:
        raise ValueError(f"a game cannot end with {outcome.result!r} because {outcome.reason!r}")
    stopped = clocks.stopped(game, clocks.now())
    game.status = outcome.reason
    game.store_result(outcome.result)
    game.turn = ""
    hooks.game_ending.send(sender=Game, game=game, outcome=outcome)
    hooks.on_commit(hooks.game_finished, sender=Game, game=game, outcome=outcome)
    return ["status", "result", "turn", *stopped]


def out_of_time(game: Game) -> bool:
    """End ``game`` if its side to move has run out of time (``clocks.expired``) and
    save it: under the row lock, in a transaction that must commit for the end to
    stand, so the caller returns before raising. Whether it ended."""
    outcome = clocks.expired(game, clocks.now())
    if outcome is None:
        return False
    game.save_change(*finish(game, outcome))
    return True


def expire(public_id: str) -> Game | None:
    """End the game if its side to move has run out of time; the game if it ended now.
    Anyone asking about a game whose deadline has passed calls it, and so does the
    task set for each deadline (``game.timekeeper``): whichever comes first ends it,
    the other finds it over."""
    with transaction.atomic():
        game = Game.objects.locked(public_id)
        if game is None or not out_of_time(game):
            return None
    return game


def in_time(game: Game) -> Game:
    """``game`` as it stands now: if its deadline has passed, ended and read again.
    What pages and the API call before they show a game."""
    if game.deadline is not None and clocks.now() >= game.deadline and not game.is_over:
        ended = expire(game.public_id)
        if ended is not None:
            return ended
        game.refresh_from_db()
    return game


def time_ran_out(game: Game) -> GameFinished:
    if game.status == Game.Status.ABORTED:
        return GameFinished("the game was aborted: a side made no first move in time")
    loser = game.sides.word(Color(game.result).opponent)
    return GameFinished(f"{loser} ran out of time: the game is over")


def resign(public_id: str, tokens: Tokens) -> Game:
    """End the game in the opponent's favour. In hot-seat the side to move resigns. A
    rated or timed game between people that a side has yet to move in is aborted
    instead (``Game.abortable``)."""
    with transaction.atomic():
        game = locked(public_id)
        ran_out = out_of_time(game)
        if game.is_over and not ran_out:
            raise GameFinished("the game is over")
        seated = seated_colors(game, tokens)
        if not seated:
            raise NotSeated("you are watching this game: only its players can resign")
        if game.status == Game.Status.WAITING:
            raise NotStarted("the game has not started: nobody has joined to win it")
        if not ran_out and game.abortable:
            game.save_change(*finish(game, Outcome("", Game.Status.ABORTED)))
        elif not ran_out:
            loser = game.turn if len(seated) == 2 else seated.pop()
            winner = Color(loser).opponent.value
            game.save_change(*finish(game, Outcome(winner, Game.Status.RESIGNED)))
    if ran_out:
        raise time_ran_out(game)
    return game
