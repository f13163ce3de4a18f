"""What moves an event on: its start, the games it starts, the next Swiss or
round-robin round once the last game of a round ends, an arena's pairings as its
players are free, a game's end recorded on its pairing, and the event's end.

Each runs inside the transaction of the action or the game's end that calls it,
under the event's row lock (``state.locked``), so the last two games of a round
ending at once start exactly one next round.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game import play, seats
from game.models import Game
from game.sides import NO_WINNER
from game.surface import Color, Outcome
from game.tokens import hash_token, new_seat_token
from kit import live
from lobby.challenges import user_channel
from notifications.models import Notification
from notifications.tasks import notify
from tournaments import state, systems
from tournaments.models import Entry, Pairing, Tournament

# Games lost in a row by time or by never moving, after which a player is withdrawn.
MISSES_TO_WITHDRAW = 2


def begin(event: Tournament) -> None:
    """The event starts: an arena's clock and first pairings, a round-robin's whole
    schedule (its first games), a Swiss's first round."""
    now = timezone.now()
    event.status = Tournament.Status.RUNNING
    event.started = now
    fields = ["status", "started"]
    if event.system == Tournament.System.ARENA:
        event.ends_at = now + timedelta(minutes=event.minutes)
        fields.append("ends_at")
    event.save(update_fields=fields)
    if event.system == Tournament.System.ARENA:
        from tournaments import tasks  # the worker's tasks import the actions, and these

        public_id, when = event.public_id, event.ends_at
        transaction.on_commit(lambda: tasks.close.using(run_after=when).enqueue(public_id))
        pair_arena(event)
    elif event.system == Tournament.System.ROUND_ROBIN:
        players = state.seeded(event)
        for pairing in systems.round_robin(players, twice=event.rounds == 2):
            Pairing.objects.create(
                tournament=event, round=pairing.round, dark_id=pairing.dark, light_id=pairing.light
            )
        advance(event)
    else:
        _next_swiss_round(event)
    state.changed(event, *state.seeded(event))


def _start_game(event: Tournament, pairing: Pairing) -> None:
    """Start the game of ``pairing``, between its two accounts, on the event's terms;
    both players' lists of games hold it, and their pages and streams hear of it."""
    accounts = get_user_model().objects.filter(pk__in=[pairing.dark_id, pairing.light_id])
    users = {user.pk: user for user in accounts}
    people = {
        Color.DARK.value: play.Person(hash_token(new_seat_token()), users[pairing.dark_id]),
        Color.LIGHT.value: play.Person(hash_token(new_seat_token()), users[pairing.light_id]),
    }
    game = play.create_match(
        event.rules,
        people,
        rated=event.rated,
        speed=event.speed,
        initial=event.initial,
        increment=event.increment,
        days=event.days,
    )
    game.tags = {"Event": event.name, "Round": str(pairing.round)}
    game.save(update_fields=["tags"])
    pairing.game = game
    pairing.save(update_fields=["game"])
    owners = {
        f"account:{pairing.dark_id}": [Color.DARK.value],
        f"account:{pairing.light_id}": [Color.LIGHT.value],
    }
    seats.list_new_game(game, owners)
    for user_id in (pairing.dark_id, pairing.light_id):
        live.bump(user_channel(user_id))
    if event.speed == Game.Speed.CORRESPONDENCE:
        # A round by correspondence starts while its players are away: they are told,
        # and mailed if they asked to be. A live round's pages go to the game.
        for user_id, other in (
            (pairing.dark_id, pairing.light_id),
            (pairing.light_id, pairing.dark_id),
        ):
            text = f"{event.name}, round {pairing.round}: your game against {users[other].username}"
            notify(user_id, Notification.Kind.TOURNAMENT, text, f"/g/{game.public_id}/", game)


def _next_swiss_round(event: Tournament) -> None:
    number = event.round + 1
    players = state.seeded(event)
    games = None
    if number <= event.rounds and len(players) >= 2:
        games = systems.swiss_round(number, players, state.as_pairings(event.pairings.all()))
    if games is None:
        finish(event)
        return
    event.round = number
    event.save(update_fields=["round"])
    for game in games:
        pairing = Pairing.objects.create(
            tournament=event,
            round=number,
            dark_id=game.dark,
            light_id=game.light,
            result=Pairing.BYE if game.is_bye else "",
        )
        if not game.is_bye:
            _start_game(event, pairing)


def advance(event: Tournament) -> None:
    """Move the event on after a change: the next round once the last game of this
    one ends, an arena's next pairings, or its end."""
    if event.status != Tournament.Status.RUNNING:
        return
    if event.system == Tournament.System.ARENA:
        if timezone.now() < event.ends_at:
            pair_arena(event)
        elif not event.pairings.filter(result="").exists():
            finish(event)
        return
    if event.pairings.filter(result="").exclude(game=None).exists():
        return  # games are being played: the next round waits for the last
    if event.system == Tournament.System.SWISS:
        _next_swiss_round(event)
        return
    # Round-robin: live, round by round; by correspondence, every game at once.
    waiting = event.pairings.filter(game=None, result="")
    if not waiting.exists():
        finish(event)
        return
    if event.speed == Game.Speed.CORRESPONDENCE:
        starting = list(waiting)
        event.round = max(p.round for p in starting)
    else:
        event.round = min(waiting.values_list("round", flat=True))
        starting = list(waiting.filter(round=event.round))
    event.save(update_fields=["round"])
    for pairing in starting:
        _start_game(event, pairing)


def pair_arena(event: Tournament) -> None:
    """Pair the arena's free players: by near places, not again the two who just met
    while a third is free."""
    if timezone.now() >= event.ends_at:
        return
    # Those not withdrawn and in no game being played (an index on results finds the
    # few hundred games of many thousands), by seeding, as ``state.seeded`` has them.
    playing = event.pairings.filter(result="")
    lines = list(
        event.entries.filter(withdrawn=False)
        .exclude(user_id__in=playing.values("dark_id"))
        .exclude(user_id__in=playing.exclude(light=None).values("light_id"))
        .order_by("-rating", "joined", "pk")
        .values_list("user_id", "points", "rating")
    )
    if len(lines) < 2:
        return
    free = [user_id for user_id, _, _ in lines]
    ranks = state.arena_places(event, lines)
    # The free players' own games alone (by the players' indexes): an evening's
    # thousands of games are not read again each time one ends.
    theirs = event.pairings.filter(Q(dark__in=free) | Q(light__in=free))
    last, darks = {}, {}
    for dark, light in theirs.order_by("round").values_list("dark_id", "light_id"):
        last[dark], last[light] = light, dark
        darks[dark] = darks.get(dark, 0) + 1
    number = event.round
    for dark, light in systems.arena_pairs(free, ranks, last, darks):
        number += 1
        pairing = Pairing.objects.create(
            tournament=event, round=number, dark_id=dark, light_id=light
        )
        _start_game(event, pairing)
    event.round = number
    event.save(update_fields=["round"])


def finish(event: Tournament) -> None:
    event.status = Tournament.Status.FINISHED
    event.finished = timezone.now()
    event.save(update_fields=["status", "finished"])
    state.changed(event)


def close_due(public_id: str) -> bool:
    """An arena's time is up (the worker's task at its end): no more pairings; it
    ends now if no game is being played, else as the last one ends. Whether it ended."""
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(public_id=public_id).first()
        if event is None or event.status != Tournament.Status.RUNNING:
            return False
        if event.ends_at is None or timezone.now() < event.ends_at:
            return False
        advance(event)
        state.changed(event)
        return event.status == Tournament.Status.FINISHED


def result_of(game: Game, outcome: Outcome) -> str:
    """A tournament game's result: the winner's side, or nobody's; a game aborted for
    want of a first move in time (``game.clocks``) is lost by the side that did not
    make it (a tournament's game is never aborted by resigning: ``Game.abortable``)."""
    if outcome.reason == Game.Status.ABORTED:
        return Color.LIGHT.value if game.ply == 0 else Color.DARK.value
    return outcome.result if outcome.result in (Color.DARK.value, Color.LIGHT.value) else NO_WINNER


def game_ended(game: Game, outcome: Outcome) -> None:
    """Record a tournament game's end on its pairing and move its event on."""
    pairing = Pairing.objects.filter(game=game).values_list("tournament__public_id", flat=True)
    public_id = next(iter(pairing), None)
    if public_id is None:
        return
    with transaction.atomic():
        event = state.locked(public_id)
        pairing = Pairing.objects.get(game=game)
        if pairing.result:
            return  # heard twice
        pairing.result = result_of(game, outcome)
        pairing.save(update_fields=["result"])
        _record(event, pairing, outcome)
        advance(event)
        state.changed(event, pairing.dark_id, pairing.light_id)


def _record(event: Tournament, pairing: Pairing, outcome: Outcome) -> None:
    """A game's end on its players' entries: an arena's running scores
    (``Entry.points``), and the games each missed in a row. A player who lost on time
    or never moved misses a game; two in a row withdraw them (an arena's player is
    paused: they come back by joining again)."""
    played = state.as_pairings([pairing])[0]
    missed = None
    if outcome.reason in (Game.Status.TIMEOUT, Game.Status.ABORTED):
        missed = pairing.light_id if pairing.result == Color.DARK.value else pairing.dark_id
    arena = event.system == Tournament.System.ARENA
    players = [pairing.dark_id, pairing.light_id]
    for entry in Entry.objects.filter(tournament=event, user__in=players):
        fields = ["missed", "withdrawn"]
        if arena:
            won = played.score_of(entry.user_id)
            berserk = entry.user_id in played.berserk
            points, entry.streak = systems.arena_step(won, entry.streak, berserk)
            entry.points += points
            entry.games += 1
            fields += ["points", "streak", "games"]
        entry.missed = entry.missed + 1 if entry.user_id == missed else 0
        if entry.missed >= MISSES_TO_WITHDRAW and not entry.withdrawn:
            entry.withdrawn = True
            if event.system == Tournament.System.ROUND_ROBIN:
                drop_unplayed(event, entry.user_id)
        entry.save(update_fields=fields)


def drop_unplayed(event: Tournament, user_id: int) -> None:
    """A round-robin's player withdrawn: their games not started yet are not played."""
    unplayed = event.pairings.filter(game=None, result="")
    unplayed.filter(Q(dark=user_id) | Q(light=user_id)).delete()
