"""The computer's thinking, done by a worker, never in a web request.

``play`` enqueues these tasks once the change that calls for them is saved; a worker
(``manage.py worker``, the django-tasks database worker) runs them. Each reads the
game, thinks with no transaction open (the strongest level takes a second, and a
transaction would hold the database's write lock that long), then hands the move
back to ``play``, which checks under the row lock that the game is still at the ply
the task was for. A task run twice, or by two workers, so changes a game at most
once; a task lost with a killed worker is enqueued again by ``recover``.
"""

from __future__ import annotations

from django.db.models import F, Q
from django_tasks import task

from game import bots, play
from game.models import Game


@task()
def reply(public_id: str, ply: int) -> str:
    """Think of and play the computer's move in the game at ``ply``; return it, or ""
    when there was nothing to do."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or game.ply != ply or not game.computer_to_move:
        return ""
    move = str(bots.choose_move(game.position(), game.computer_to_move))
    return move if play.computer_move(public_id, ply, move) else ""


@task()
def hint(public_id: str, ply: int) -> str:
    """Think of the strongest level's move for the hint asked at ``ply``; return it, or
    "" when the game has moved on."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or game.ply != ply or not game.hint_asked or game.hint:
        return ""
    move = str(bots.choose_move(game.position(), bots.STRONGEST))
    return move if play.give_hint(public_id, ply, move) else ""


def recover() -> int:
    """Enqueue again the thinking a stopped worker may have left undone: every reply
    and hint still due. Return how many tasks were enqueued.

    A worker that was killed while it thought leaves its task marked as running,
    and nothing runs it again. Whatever is still due is enqueued again here; if it
    was in fact still being thought out by another worker, the second result finds
    the game moved on and changes nothing.
    """
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    replies = active.filter(
        (Q(turn="dark") & ~Q(dark_level="")) | (Q(turn="light") & ~Q(light_level=""))
    ).values_list("public_id", "ply")
    hints = active.filter(hint="", hint_ply=F("ply")).values_list("public_id", "ply")
    for public_id, ply in replies:
        reply.enqueue(public_id, ply)
    for public_id, ply in hints:
        hint.enqueue(public_id, ply)
    return len(replies) + len(hints)
