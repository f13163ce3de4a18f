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

from functools import partial

from django.db import transaction
from django.db.models import F, Q
from django_tasks import task

from game import bots, play
from game.engine import Position, Rules
from game.models import Analysis, Game


@task()
def reply(public_id: str, ply: int) -> str:
    """Think of and play the computer's move in the game at ``ply``; return it, or ""
    when there was nothing to do."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or game.ply != ply or not game.computer_to_move:
        return ""
    move = str(bots.choose_move(game.position(), game.computer_to_move))
    return move if play.computer_move(public_id, ply, move, game.position_text) else ""


@task()
def hint(public_id: str, ply: int) -> str:
    """Think of the strongest level's move for the hint asked at ``ply``; return it, or
    "" when the game has moved on."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or game.ply != ply or not game.hint_asked or game.hint:
        return ""
    move = str(bots.choose_move(game.position(), bots.STRONGEST))
    return move if play.give_hint(public_id, ply, move, game.position_text) else ""


def recover() -> int:
    """Enqueue again the thinking a stopped worker may have left undone: every reply,
    hint and analysis still due. Return how many tasks were enqueued.

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
    analyses = list(Analysis.objects.filter(dark_win=None).values_list("key", flat=True))
    for public_id, ply in replies:
        reply.enqueue(public_id, ply)
    for public_id, ply in hints:
        hint.enqueue(public_id, ply)
    chunks = range(0, len(analyses), POSITIONS_PER_TASK)
    for start in chunks:
        analyse.enqueue(analyses[start : start + POSITIONS_PER_TASK], GAME_ANALYSIS_SECONDS)
    return len(replies) + len(hints) + len(chunks)


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


# The letter of each scoring in an analysis key ("p" for plain: both names begin with s).
SCORING_FLAGS = {"standard": "s", "simple": "p"}


def analysis_key(rules: Rules, position_text: str) -> str:
    """The key of a position's analysis: the rules and the position text."""
    special = "S" if rules.special_stones else "s"
    wrap = "W" if rules.wraparound else "w"
    return f"{special}{SCORING_FLAGS[rules.scoring]}{wrap} {position_text}"


def rules_of_key(key: str) -> tuple[Rules, str]:
    """The rules and position text an analysis key names."""
    flags, _, text = key.partition(" ")
    scoring = "simple" if flags[1] == SCORING_FLAGS["simple"] else "standard"
    return Rules(special_stones=flags[0] == "S", scoring=scoring, wraparound=flags[2] == "W"), text


def request_analysis(keys: list[str], seconds: float = ANALYSIS_SECONDS) -> int:
    """Have a worker analyse the positions of these keys that are not analysed nor
    being analysed; return how many it will. Call it in the request's transaction:
    the task is enqueued when it commits."""
    known = set(Analysis.objects.filter(key__in=keys).values_list("key", flat=True))
    wanted = [key for key in dict.fromkeys(keys) if key not in known]
    if wanted:
        Analysis.objects.bulk_create([Analysis(key=key) for key in wanted], ignore_conflicts=True)
        for start in range(0, len(wanted), POSITIONS_PER_TASK):
            chunk = wanted[start : start + POSITIONS_PER_TASK]
            transaction.on_commit(partial(analyse.enqueue, chunk, seconds))
    return len(wanted)


@task(priority=ANALYSIS_PRIORITY)
def analyse(keys: list[str], seconds: float) -> int:
    """Analyse each position of ``keys`` still waiting, in order, saving each as it is
    done so the page shows them as they come; return how many were analysed."""
    done = 0
    for key in keys:
        if not Analysis.objects.filter(key=key, dark_win=None).exists():
            continue  # done meanwhile, by another worker
        rules, text = rules_of_key(key)
        position = Position.from_text(text, rules)
        if position.is_over:
            dark, light = position.score()
            found = {"dark_win": 1.0 if dark > light else 0.0 if dark < light else 0.5}
            found |= {"proven": True}
        else:
            result = bots.analyse(position, seconds)
            found = {
                "move": str(result.move),
                "line": ", ".join(map(str, result.line)),
                "dark_win": result.dark_win,
                "proven": result.proven,
            }
        Analysis.objects.filter(key=key, dark_win=None).update(**found)
        done += 1
    return done
