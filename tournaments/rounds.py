"""What moves an event on: its start, the games it starts, the next Swiss or
round-robin round once the last game of a round ends, an arena's pairings as its
players are free, a game's end recorded on its pairing, and the event's end.

Each runs inside the transaction of the action or the game's end that calls it,
under the event's row lock (``state.locked``), so the last two games of a round
ending at once start exactly one next round.

An arena's free players are paired by the worker, in passes a moment apart
(``want_pairing``, ``pair_due``), as lichess's arenas are: a game's end or a join
only records itself and asks for the next pass. So the event's lock is held for a
few statements as a game ends, however busy the evening, and players freed
together are paired together, by their places.
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

# An arena's next pairing pass comes this long after a player is freed; a pass asked
# for this long ago and not run (its worker stopped mid-task) is asked for again.
PAIRING_SECONDS = 1.0
PAIRING_LOST_SECONDS = 30.0
# Before the computer's thinking and the housekeeping: players wait on it.
PAIRING_PRIORITY = 50


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
    one ends, an arena's next pairing pass, or its end."""
    if event.status != Tournament.Status.RUNNING:
        return
    if event.system == Tournament.System.ARENA:
        if timezone.now() < event.ends_at:
            want_pairing(event)
            return
        # Pairings a stopped pass left without their games are not played now.
        event.pairings.filter(game=None, result="").delete()
        if not event.pairings.filter(result="").exists():
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


def want_pairing(event: Tournament) -> None:
    """Ask the worker to pair the running arena ``event``'s free players in
    ``PAIRING_SECONDS``, unless a pass is asked for already. Under the event's lock."""
    now = timezone.now()
    if event.pairing_due is not None and event.pairing_due > now - timedelta(
        seconds=PAIRING_LOST_SECONDS
    ):
        return
    from tournaments import tasks  # the worker's tasks import the actions, and these

    due = now + timedelta(seconds=PAIRING_SECONDS)
    event.pairing_due = due
    event.save(update_fields=["pairing_due"])
    public_id = event.public_id
    pair = tasks.pair.using(run_after=due, priority=PAIRING_PRIORITY)
    transaction.on_commit(lambda: pair.enqueue(public_id))


def pair_due(public_id: str) -> int:
    """The worker's pairing pass of an arena (``tasks.pair``): pair its free players,
    if it still runs; how many games it started.

    The pairs are chosen first, by reads alone (the matching takes tens of
    milliseconds for two dozen players). Then, under the event's lock, the pairings
    are made of those whose two players are free still, in a few statements: a
    player freed meanwhile asks for the next pass. Their games start after, each in
    a transaction of its own, so that no game's end waits for a whole pass."""
    event = Tournament.objects.filter(public_id=public_id).first()
    if event is None or event.pairing_due is None:
        return 0
    free, pairs = arena_plan(event) if _pairing(event) else ([], [])
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(public_id=public_id).first()
        if event is None or event.pairing_due is None:
            return 0  # another pass ran meanwhile
        event.pairing_due = None
        event.save(update_fields=["pairing_due"])
        if not _pairing(event):
            return 0
        free_now = set(_free_lines(event).values_list("user_id", flat=True))
        pairs = [(dark, light) for dark, light in pairs if dark in free_now and light in free_now]
        number = event.round
        for dark, light in pairs:
            number += 1
            Pairing.objects.create(tournament=event, round=number, dark_id=dark, light_id=light)
        if pairs:
            event.round = number
            event.save(update_fields=["round"])
        if free_now.difference(free):
            want_pairing(event)
    # The pairings made, and any a stopped pass left without their games.
    return start_paired(event)


def start_paired(event: Tournament) -> int:
    """Start the games of the arena's pairings made without them, each in its own
    transaction (a pairing taken once: two passes at once start each game once);
    how many started."""
    waiting = event.pairings.filter(game=None, result="").order_by("round")
    started = []
    for pairing_id in waiting.values_list("pk", flat=True):
        with transaction.atomic():
            pairing = (
                Pairing.objects.select_for_update()
                .filter(pk=pairing_id, game=None, result="")
                .first()
            )
            if pairing is not None:
                _start_game(event, pairing)
                started += [pairing.dark_id, pairing.light_id]
    if started:
        with transaction.atomic():
            state.changed(event, *started)
    return len(started) // 2


def _pairing(event: Tournament) -> bool:
    return event.status == Tournament.Status.RUNNING and timezone.now() < event.ends_at


def _free_lines(event: Tournament):
    """The arena's players not withdrawn and in no game being played (an index on
    results finds the few hundred games of many thousands), by seeding, as
    ``state.seeded`` has them."""
    playing = event.pairings.filter(result="")
    return (
        event.entries.filter(withdrawn=False)
        .exclude(user_id__in=playing.values("dark_id"))
        .exclude(user_id__in=playing.exclude(light=None).values("light_id"))
        .order_by("-rating", "joined", "pk")
    )


def arena_plan(event: Tournament) -> tuple[list[int], list[tuple[int, int]]]:
    """The arena's free players, and the pairs (dark, light) to make of them: by near
    places, not again the two who just met while a third is free. Reads alone."""
    lines = list(_free_lines(event).values_list("user_id", "points", "rating"))
    free = [user_id for user_id, _, _ in lines]
    if len(lines) < 2:
        return free, []
    ranks = state.arena_places(event, lines)
    # The free players' own games alone (by the players' indexes): an evening's
    # thousands of games are not read again each time one ends.
    theirs = event.pairings.filter(Q(dark__in=free) | Q(light__in=free))
    last, darks = {}, {}
    for dark, light in theirs.order_by("round").values_list("dark_id", "light_id"):
        last[dark], last[light] = light, dark
        darks[dark] = darks.get(dark, 0) + 1
    return free, systems.arena_pairs(free, ranks, last, darks)


def pair_arena(event: Tournament) -> list[int]:
    """Pair the arena's free players now (its start, under the event's lock); the
    players paired."""
    if timezone.now() >= event.ends_at:
        return []
    return _start_pairs(event, arena_plan(event)[1])


def _start_pairs(event: Tournament, pairs: list[tuple[int, int]]) -> list[int]:
    """Start the arena's games of ``pairs``, numbered on from its last; the players."""
    number = event.round
    paired = []
    for dark, light in pairs:
        number += 1
        pairing = Pairing.objects.create(
            tournament=event, round=number, dark_id=dark, light_id=light
        )
        _start_game(event, pairing)
        paired += [dark, light]
    if pairs:
        event.round = number
        event.save(update_fields=["round"])
    return paired


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
