"""Events changed by several people at once: each change under the event's row lock
leaves one consistent event (run on SQLite and on PostgreSQL, as the suite is)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from tests.tournaments.test_events import playing, resign, terms, users
from tournaments import events
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(*actions) -> list[BaseException | None]:
    """Run ``actions`` in threads released together; what each raised, or None."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[BaseException | None] = [None] * len(actions)

    def run(index: int) -> None:
        barrier.wait()
        try:
            actions[index]()
        except BaseException as error:  # noqa: BLE001  (reported to the test)
            outcomes[index] = error
        finally:
            connections.close_all()  # this thread's own: the database can be dropped after

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_joins_and_a_start_at_once_make_one_consistent_event():
    creator, a, b, c, d = users(5)
    event = events.create(creator, terms("swiss", rounds=2))
    events.join(a, event.public_id)
    events.join(b, event.public_id)
    outcomes = at_once(
        lambda: events.join(c, event.public_id),
        lambda: events.join(d, event.public_id),
        lambda: events.start(creator, event.public_id),
    )
    assert outcomes == [None, None, None] or all(
        isinstance(o, (events.TournamentError, type(None))) for o in outcomes
    )
    event.refresh_from_db()
    assert event.status == "running" and event.round == 1
    entries = set(event.entries.values_list("user_id", flat=True))
    seated = {p.dark_id for p in event.pairings.all()} | {
        p.light_id for p in event.pairings.all() if p.light_id
    }
    # Whoever joined before the start was paired in round 1; a later join waits for round 2.
    assert seated <= entries and len(seated) >= 2
    assert Pairing.objects.filter(tournament=event, round=1).count() == (len(seated) + 1) // 2


def test_the_last_two_games_of_a_round_ending_at_once_start_exactly_one_next_round():
    creator, *players = users(5)
    event = events.create(creator, terms("swiss", rounds=3))
    for player in players:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    first, second = playing(event)
    model = get_user_model()
    outcomes = at_once(
        lambda: resign(first.game, model.objects.get(pk=first.light_id)),
        lambda: resign(second.game, model.objects.get(pk=second.light_id)),
    )
    assert outcomes == [None, None]
    event.refresh_from_db()
    assert event.round == 2
    assert Pairing.objects.filter(tournament=event, round=2).count() == 2
    assert not Pairing.objects.filter(tournament=event, round=3).exists()
    assert Tournament.objects.get(pk=event.pk).status == "running"


def test_an_arena_never_pairs_one_player_twice_at_once():
    creator, *players = users(7)
    event = events.create(creator, terms("arena"))
    events.join(players[0], event.public_id)
    events.join(players[1], event.public_id)
    events.start(creator, event.public_id)
    assert (
        at_once(*[lambda p=p: events.join(p, event.public_id) for p in players[2:]]) == [None] * 4
    )
    busy = [p for pairing in playing(event) for p in (pairing.dark_id, pairing.light_id)]
    assert len(busy) == len(set(busy)) == 6
