"""The computer's thinking, done by a worker, never in a web request.

These tasks are enqueued when ``play`` says the computer is to move or a hint was
asked for (``hooks.computer_to_move``, ``hooks.hint_asked``, once the change
commits), and when a page asks for an analysis; a worker
(``manage.py worker``, the django-tasks database worker) runs them. Each reads the
game, thinks with no transaction open (the strongest level takes a second, and a
transaction would hold the database's write lock that long), then hands the move
back to ``play``, which checks under the row lock that the game is still at the ply
the task was for. A task run twice, or by two workers, so changes a game at most
once; a task lost with a killed worker is enqueued again by ``recover``.

The queue is fair between clients (``fairly``): a task's priority falls by one for
each task of the same client still waiting, so a worker takes every client's first
task before anyone's second. One address keeping a dozen games against the
strongest level moving made a newcomer wait 28 s for the weakest level's first
move when the queue was first come, first served.
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.dispatch import receiver
from django_tasks import task
from django_tasks.base import TASK_MIN_PRIORITY, Task, TaskResultStatus
from django_tasks_db.models import DBTaskResult

from game import hooks, play
from game.kinds import GameKind
from game.models import Analysis, Game, Seat
from game.options import Options
from game.registry import DEFAULT, find_kind
from game.surface import seat_outcome
from kit import limits


def client_key(client: str) -> str:
    """A client's key in the queue: its address, hashed with the site's secret, so the
    queue's table keeps no address."""
    if not client:
        return ""
    return hashlib.sha256(f"{settings.SECRET_KEY}:{client}".encode()).hexdigest()[:16]


def fairly(task: Task, *args: Any, priority: int = 0) -> Any:
    """Enqueue ``task`` for the client of the request being served, after the tasks of
    every client with fewer waiting: its priority is ``priority`` less one for each of
    its client's tasks still waiting. Work set going by no request (the worker's own,
    a recovery) is nobody's and goes at ``priority``."""
    client = client_key(limits.current_client.get())
    if client:
        waiting = DBTaskResult.objects.ready().filter(args_kwargs__kwargs__client=client)
        priority = max(TASK_MIN_PRIORITY, priority - waiting.count())
    return task.using(priority=priority).enqueue(*args, client=client)


@receiver(hooks.computer_to_move, dispatch_uid="game.computer.to_move")
def _to_move(sender: type[Game], public_id: str, ply: int, **kwargs: object) -> None:
    fairly(reply, public_id, ply)


@receiver(hooks.hint_asked, dispatch_uid="game.computer.hint_asked")
def _hint_asked(sender: type[Game], public_id: str, ply: int, **kwargs: object) -> None:
    fairly(hint, public_id, ply)


@task()
def reply(public_id: str, ply: int, client: str = "") -> str:
    """Think of and play the computer's move in the game at ``ply``; return it, or ""
    when there was nothing to do."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or game.ply != ply or not game.computer_to_move:
        return ""
    move = str(game.game_kind.players.choose_move(game.position(), game.computer_to_move))
    return move if play.computer_move(public_id, ply, move, game.position_text) else ""


@task()
def hint(public_id: str, ply: int, client: str = "") -> str:
    """Think of the strongest level's move for the hint asked at ``ply``; return it, or
    "" when the game has moved on."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or game.ply != ply or not game.hint_asked or game.hint:
        return ""
    players = game.game_kind.players
    move = str(players.choose_move(game.position(), players.strongest.id))
    return move if play.give_hint(public_id, ply, move, game.position_text) else ""


def recover() -> int:
    """Enqueue again the thinking a stopped worker may have left undone: every reply,
    hint and analysis still due and not already waiting in the queue. Return how many
    tasks were enqueued.

    A worker that was killed while it thought leaves its task marked as running,
    and nothing runs it again. Whatever is still due is enqueued again here; if it
    was in fact still being thought out by another worker, the second result finds
    the game moved on and changes nothing. A task still waiting is left where the
    fair queue put it: enqueued again, at the front, it would jump its client's turn.
    """
    queued, analysing = _queued()
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    # The computer's seats of the games it is to move in: the side to move is its.
    replies = list(
        Seat.objects.computers_to_move()
        .values_list("game__public_id", "game__ply")
        .order_by("game__pk")
    )
    replies = [due for due in replies if (reply.module_path, *due) not in queued]
    hints = [
        due
        for due in active.filter(hint="", hint_ply=F("ply")).values_list("public_id", "ply")
        if (hint.module_path, *due) not in queued
    ]
    waiting: dict[str, list[str]] = {}
    # In the order they were asked for, so a page's moments come back as they were queued.
    undone = Analysis.objects.filter(dark_win=None).order_by("pk").values_list("kind", "key")
    for kind, key in undone:
        if (kind, key) not in analysing:
            waiting.setdefault(kind, []).append(key)
    for public_id, ply in replies:
        reply.enqueue(public_id, ply)
    for public_id, ply in hints:
        hint.enqueue(public_id, ply)
    chunks = 0
    for kind, keys in waiting.items():
        for start in range(0, len(keys), POSITIONS_PER_TASK):
            chunk = keys[start : start + POSITIONS_PER_TASK]
            analyse.enqueue(chunk, GAME_ANALYSIS_SECONDS, kind)
            chunks += 1
    return len(replies) + len(hints) + chunks


def _queued() -> tuple[set[tuple[str, str, int]], set[tuple[str, str]]]:
    """What waits in the queue: the replies and hints as (task, game, ply), and the
    positions of the analyses as (kind, key)."""
    tasks: set[tuple[str, str, int]] = set()
    positions: set[tuple[str, str]] = set()
    waiting = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        task_path__in=[reply.module_path, hint.module_path, analyse.module_path],
    )
    for path, arguments in waiting.values_list("task_path", "args_kwargs"):
        args = arguments["args"]
        if path == analyse.module_path:
            keys, _seconds, kind = args
            positions.update((kind, key) for key in keys)
        else:
            tasks.add((path, *args))
    return tasks, positions


# Analysis -----------------------------------------------------------------------------------

# How long the strongest level looks at one position: a moment of a replay asked for
# by a player gets its full second; a whole game, one position after another, less.
ANALYSIS_SECONDS = 1.0
GAME_ANALYSIS_SECONDS = 0.3
# Analyses wait behind the computer's replies and hints (a worker takes the task of
# highest priority first), and a whole game goes in tasks of this many positions,
# so a reply is never held up by more than about a second of analysis.
ANALYSIS_PRIORITY = -10
POSITIONS_PER_TASK = 3


def analysis_key(rules: Options, position_text: str) -> str:
    """The key of a position's analysis among its kind's: the options' flags and the
    position text (``Ssw ......./…``)."""
    return f"{rules.flags} {position_text}"


def rules_of_key(kind: GameKind, key: str) -> tuple[Options, str]:
    """The options and position text an analysis key of ``kind`` names."""
    flags, _, text = key.partition(" ")
    return kind.rules.from_flags(flags), text


def request_analysis(kind: GameKind, keys: list[str], seconds: float = ANALYSIS_SECONDS) -> int:
    """Have a worker analyse the positions of these keys of ``kind`` that are not
    analysed nor being analysed; return how many it will. Call it in the request's
    transaction: the task is enqueued when it commits."""
    known = set(
        Analysis.objects.filter(
            kind=kind.name,
            # Only the keys asked for are read: the others would cost time, and change
            # nothing, as only the keys asked for are looked up in ``known``.
            key__in=keys,  # pragma: no mutate
        ).values_list("key", flat=True)
    )
    wanted = [key for key in dict.fromkeys(keys) if key not in known]
    if wanted:
        Analysis.objects.bulk_create(
            [Analysis(kind=kind.name, key=key) for key in wanted], ignore_conflicts=True
        )
        for start in range(0, len(wanted), POSITIONS_PER_TASK):
            chunk = wanted[start : start + POSITIONS_PER_TASK]
            transaction.on_commit(
                partial(fairly, analyse, chunk, seconds, kind.name, priority=ANALYSIS_PRIORITY)
            )
    return len(wanted)


@task(priority=ANALYSIS_PRIORITY)
def analyse(keys: list[str], seconds: float, kind: str = DEFAULT.name, client: str = "") -> int:
    """Analyse each position of ``keys`` (of the game ``kind``; a task queued before
    games had kinds is the first game's) still waiting, in order, saving each as it is
    done so the page shows them as they come; return how many were analysed."""
    game_kind = find_kind(kind)
    done = 0
    for key in keys:
        waiting = Analysis.objects.filter(kind=kind, key=key, dark_win=None)
        if not waiting.exists():
            continue  # done meanwhile, by another worker
        rules, text = rules_of_key(game_kind, key)
        position = game_kind.from_text(text, rules)
        if (outcome := seat_outcome(position.outcome())) is not None:
            chances = {"dark": 1.0, "light": 0.0}.get(outcome.result, 0.5)
            found = {"dark_win": chances, "proven": True}
        else:
            result = game_kind.players.analyse(position, seconds)
            found = {
                "move": str(result.move),
                "line": ", ".join(map(str, result.line)),
                "dark_win": result.dark_win,
                "proven": result.proven,
            }
        waiting.update(**found)
        done += 1
    return done
