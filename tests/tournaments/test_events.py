"""Running events (``tournaments.events``): each system from joining to its end, its
games the site's own, ended by resigning or by time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from game import play
from game.models import Game
from game.registry import find_kind
from game.tokens import account_token
from notifications.models import Notification
from tournaments import events, rounds, state
from tournaments.events import Terms, TournamentError
from tournaments.models import Entry, Pairing, Tournament

# A game's end reaches its event once the game's transaction commits: these tests
# commit, as the site does.
pytestmark = pytest.mark.django_db(transaction=True)


def users(count: int, prefix: str = "p"):
    model = get_user_model()
    return [model.objects.create_user(f"{prefix}{n}", password="x") for n in range(count)]


def terms(system: str = "swiss", **changes) -> Terms:
    values = {
        "rules": find_kind("maerstanas").rules(),
        "system": system,
        "rounds": 3 if system == "swiss" else 1 if system == "round-robin" else 0,
        "minutes": 30 if system == "arena" else 0,
        "speed": Game.Speed.LIVE,
        "initial": 300,
        "increment": 2,
    }
    return Terms(**(values | changes))


def resign(game: Game, loser) -> None:
    color = next(c for c, seat in game.seats_by_color().items() if seat.user_id == loser.pk)
    play.resign(game.public_id, {color: account_token(loser.pk, game.public_id, color)})


def playing(event: Tournament) -> list[Pairing]:
    return list(event.pairings.filter(result="").exclude(game=None).select_related("game"))


def finish_round(event: Tournament, winner_is_dark: bool = True) -> None:
    model = get_user_model()
    for pairing in playing(event):
        loser = pairing.light_id if winner_is_dark else pairing.dark_id
        resign(pairing.game, model.objects.get(pk=loser))


def test_a_swiss_plays_its_rounds_and_ends():
    creator, *players = users(6)
    event = events.create(creator, terms("swiss", rounds=3))
    assert event.status == "created" and not event.entries.exists()  # not joined by creating
    for player in players:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    event.refresh_from_db()
    assert event.status == "running" and event.round == 1
    # Five players: two games and a bye.
    assert len(playing(event)) == 2
    assert event.pairings.filter(result="bye").count() == 1
    for number in (2, 3):
        finish_round(event)
        event.refresh_from_db()
        assert event.round == number
    finish_round(event)
    event.refresh_from_db()
    assert event.status == "finished" and event.finished is not None
    pairs = [frozenset((p.dark_id, p.light_id)) for p in event.pairings.exclude(light=None)]
    assert len(pairs) == len(set(pairs))
    table = state.standings(event)
    assert sum(row.score for row in table) == 3 * 3  # two games and a bye a round
    assert table[0].rank == 1


def test_the_games_are_the_events_terms_and_both_players_hear_of_them():
    creator, a, b = users(3)
    event = events.create(creator, terms("swiss", rounds=1, rated=False))
    events.join(a, event.public_id)
    events.join(b, event.public_id)
    events.start(creator, event.public_id)
    (pairing,) = playing(event)
    game = pairing.game
    assert (game.clock_initial, game.clock_increment, game.rated) == (300, 2, False)
    assert game.status == "active" and game.mode == "friend"
    held = {seat.user_id for seat in game.seats_by_color().values()}
    assert held == {a.pk, b.pk}


def test_a_round_robin_by_correspondence_starts_every_game_at_once():
    creator, *players = users(5)
    event = events.create(creator, terms("round-robin", speed="correspondence", days=3, initial=0))
    for player in players:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    assert len(playing(event)) == 6
    # Each player is told of each game, by correspondence, with its link.
    notices = Notification.objects.filter(kind="tournament")
    assert sorted(notices.values_list("user_id", flat=True)) == sorted([p.pk for p in players] * 3)
    assert all(n.url == f"/g/{n.game.public_id}/" for n in notices)
    finish_round(event)
    event.refresh_from_db()
    assert event.status == "finished"
    table = state.standings(event)
    assert [row.games for row in table] == [3, 3, 3, 3]


def test_a_live_round_robin_goes_round_by_round():
    creator, *players = users(5)
    event = events.create(creator, terms("round-robin", rounds=2))
    for player in players:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    event.refresh_from_db()
    for number in range(1, 7):
        assert event.round == number and len(playing(event)) == 2
        finish_round(event)
        event.refresh_from_db()
    assert event.status == "finished" and event.pairings.count() == 12


def test_an_arena_pairs_the_free_at_once_and_ends_on_time_after_its_games():
    creator, *players = users(5)
    event = events.create(creator, terms("arena"))
    for player in players[:3]:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    assert len(playing(event)) == 1  # the third waits
    events.join(players[3], event.public_id)
    assert len(playing(event)) == 2  # joining, paired with the one waiting
    finish_round(event)
    assert len(playing(event)) == 2  # the four paired again at once
    # Time up: the games being played finish and count, and no more start.
    Tournament.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert rounds.close_due(event.public_id) is False
    finish_round(event)
    event.refresh_from_db()
    assert event.status == "finished" and len(playing(event)) == 0
    assert event.pairings.count() == 4
    assert sum(row.score for row in state.standings(event)) == 4 * 2


def test_an_arena_does_not_repair_the_two_who_met_while_a_third_waits():
    creator, a, b, c = users(4)
    event = events.create(creator, terms("arena"))
    for player in (a, b, c):
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    (first,) = playing(event)
    finish_round(event)
    (second,) = playing(event)
    assert {first.dark_id, first.light_id} != {second.dark_id, second.light_id}


def test_joining_is_checked():
    creator, a, b = users(3)
    private = events.create(creator, terms("swiss", password="club"))
    with pytest.raises(events.NotAllowed, match="password"):
        events.join(a, private.public_id, "wrong")
    events.join(a, private.public_id, "club")
    with pytest.raises(TournamentError, match="already"):
        events.join(a, private.public_id, "club")
    strong = events.create(creator, terms("swiss", min_rating=1500))
    with pytest.raises(events.NotAllowed, match="1500"):
        events.join(b, strong.public_id)
    with pytest.raises(state.NoSuchTournament):
        events.join(b, "nope")


def test_only_the_creator_starts_and_only_with_two_players():
    creator, a, b = users(3)
    event = events.create(creator, terms())
    events.join(a, event.public_id)
    with pytest.raises(TournamentError, match="two players"):
        events.start(creator, event.public_id)
    events.join(b, event.public_id)
    with pytest.raises(events.NotAllowed, match="only the player who made"):
        events.start(a, event.public_id)
    events.start(creator, event.public_id)
    with pytest.raises(TournamentError, match="started already"):
        events.start(creator, event.public_id)


def test_an_account_has_at_most_three_events_open():
    (creator,) = users(1)
    for _ in range(events.MAX_OPEN_PER_ACCOUNT):
        events.create(creator, terms())
    with pytest.raises(TournamentError, match="not yet finished"):
        events.create(creator, terms())


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"system": "knockout"}, "arena, swiss or round-robin"),
        ({"rounds": 0}, "rounds"),
        ({"system": "arena", "minutes": 1}, "minutes"),
        ({"system": "round-robin", "rounds": 3}, "once"),
        ({"speed": "unlimited"}, "clock or days"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "past"),
    ],
)
def test_terms_that_make_no_event_are_refused(changes, message):
    with pytest.raises(TournamentError, match=message):
        terms(**changes).check()


def test_withdrawing_before_the_start_leaves_no_entry_and_after_it_no_more_games():
    creator, a, b, c = users(4)
    event = events.create(creator, terms("swiss", rounds=3))
    for player in (a, b, c):
        events.join(player, event.public_id)
    events.withdraw(c, event.public_id)
    assert not Entry.objects.filter(user=c).exists()
    events.join(c, event.public_id)
    events.start(creator, event.public_id)
    events.withdraw(c, event.public_id)
    finish_round(event)
    event.refresh_from_db()
    seated = {p.dark_id for p in event.pairings.filter(round=2)} | {
        p.light_id for p in event.pairings.filter(round=2)
    }
    assert c.pk not in seated


def test_two_games_lost_on_time_in_a_row_withdraw_the_player():
    creator, a, b, c = users(4)
    event = events.create(creator, terms("arena"))
    for player in (a, b):
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    for _ in range(2):
        (pairing,) = playing(event)
        game = pairing.game
        if pairing.light_id == a.pk:  # b moves first, and a is left to move
            first = str(game.game_kind.start(game.rules).legal_moves()[0])
            token = account_token(b.pk, game.public_id, "dark")
            play.make_move(game.public_id, {"dark": token}, first)
        # a runs out of time for a first move.
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        play.expire(game.public_id)
        assert Entry.objects.get(tournament=event, user=a).missed in (1, 2)
    entry = Entry.objects.get(tournament=event, user=a)
    assert entry.withdrawn and entry.missed == 2
    assert Entry.objects.get(tournament=event, user=b).missed == 0
    assert not playing(event)
    assert [p.result for p in event.pairings.all()] == [
        "light" if p.dark_id == a.pk else "dark" for p in event.pairings.all()
    ]


def test_a_start_time_starts_the_event_or_ends_it_unplayed():
    creator, a, b = users(3)
    later = timezone.now() + timedelta(hours=1)
    event = events.create(creator, terms(starts_at=later))
    assert events.begin_due(event.public_id) is False  # not yet
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())
    assert events.begin_due(event.public_id) is False  # nobody came
    event.refresh_from_db()
    assert event.status == "finished" and not event.pairings.exists()
    other = events.create(creator, terms(starts_at=later))
    events.join(a, other.public_id)
    events.join(b, other.public_id)
    Tournament.objects.filter(pk=other.pk).update(starts_at=timezone.now())
    assert events.begin_due(other.public_id) is True


def test_berserk_halves_ones_own_clock_before_moving_and_a_win_scores_one_more():
    creator, a, b = users(3)
    event = events.create(creator, terms("arena", berserk=True))
    events.join(a, event.public_id)
    events.join(b, event.public_id)
    events.start(creator, event.public_id)
    (pairing,) = playing(event)
    dark = get_user_model().objects.get(pk=pairing.dark_id)
    light = get_user_model().objects.get(pk=pairing.light_id)
    game = events.berserk(dark, event.public_id)
    assert (game.dark_ms, game.light_ms) == (150_000, 300_000)
    with pytest.raises(TournamentError, match="already"):
        events.berserk(dark, event.public_id)
    first = str(game.game_kind.start(game.rules).legal_moves()[0])
    play.make_move(game.public_id, {"dark": account_token(dark.pk, game.public_id, "dark")}, first)
    with pytest.raises(TournamentError, match="before your first move"):
        events.berserk(dark, event.public_id)
    resign(game, light)
    row = next(r for r in state.standings(event) if r.entry.user_id == dark.pk)
    assert row.score == 3  # a win's 2 and berserk's 1
    plain = events.create(creator, terms("arena"))
    with pytest.raises(TournamentError, match="no berserk"):
        events.berserk(dark, plain.public_id)
    with pytest.raises(TournamentError, match="arena's"):
        terms("swiss", berserk=True).check()


def test_an_arenas_running_scores_are_what_its_games_say():
    import random

    from tournaments import systems

    rng = random.Random(3)
    creator, *players = users(7)
    event = events.create(creator, terms("arena", berserk=True))
    for player in players:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    model = get_user_model()
    for _ in range(4):
        for pairing in playing(event):
            if rng.random() < 0.3:
                events.berserk(model.objects.get(pk=pairing.dark_id), event.public_id)
            loser = rng.choice([pairing.dark_id, pairing.light_id])
            resign(pairing.game, model.objects.get(pk=loser))
    kept = {s.player: (s.score, s.rank, s.games) for s in state.table(event)}
    games = state.as_pairings(event.pairings.exclude(result=""))
    computed = systems.standings("arena", list(kept), games)
    assert {s.player: (s.score, s.games) for s in computed} == {
        player: (score, count) for player, (score, _, count) in kept.items()
    }
    assert sum(score for score, _, _ in kept.values()) > 2 * len(games) - 1  # streaks, berserk
    Entry.objects.filter(tournament=event).update(points=0, streak=0, games=0)
    state.recount(event)
    assert {s.player: (s.score, s.rank, s.games) for s in state.table(event)} == kept


def test_an_arenas_page_of_standings_is_that_page_of_the_whole_ties_and_all():
    """A page of an arena's standings is read as far as the page; its lines and places
    are those of the whole table, a tie across two pages included."""
    import random

    rng = random.Random(5)
    creator, *players = users(13)
    event = events.create(creator, terms("arena"))
    for player in players:
        events.join(player, event.public_id)
    for attempt in range(6):
        for entry in Entry.objects.filter(tournament=event):
            entry.points = rng.choice([0, 2, 2, 4])
            entry.rating = rng.choice([1500.0, 1500.0, 1620.5])
            entry.streak = rng.choice([0, 2])
            entry.save()
        whole = state.table(event)
        assert len({(s.rank, s.score) for s in whole}) < len(whole)  # ties there are
        for size in (1, 3, 4, 5):
            pages = [state.table_page(event, n, size) for n in range(1, len(whole) // size + 2)]
            assert [line for page in pages for line in page] == whole, (attempt, size)
        # A few players' places, each counted, are their places in the whole table.
        lines = list(
            Entry.objects.filter(tournament=event).values_list("user_id", "points", "rating")
        )
        some = rng.sample(lines, 4)
        assert state.arena_places(event, some) == {
            s.player: s.rank for s in whole if s.player in {line[0] for line in some}
        }


def test_an_events_game_is_in_both_its_players_lists_of_games():
    from game.models import BrowserGame

    creator, *players = users(3)
    event = events.create(creator, terms("arena"))
    for player in players[:2]:
        events.join(player, event.public_id)
    events.start(creator, event.public_id)
    (pairing,) = playing(event)
    listed = BrowserGame.objects.filter(game=pairing.game).values_list("browser", "colors")
    assert sorted(listed) == sorted(
        [(f"account:{pairing.dark_id}", "dark"), (f"account:{pairing.light_id}", "light")]
    )


def test_an_events_shared_part_is_drawn_in_as_many_queries_whatever_its_games():
    """The standings' page and the games listed are read in a fixed number of queries:
    none a game or a player (a thousand pages' drawings are the server's work)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments import pages

    counts = []
    for size in (4, 12):
        creator, *players = users(size + 1, prefix=f"s{size}-")
        event = events.create(creator, terms("arena"))
        for player in players:
            events.join(player, event.public_id)
        events.start(creator, event.public_id)
        first = playing(event)[0]
        resign(first.game, get_user_model().objects.get(pk=first.light_id))
        assert event.pairings.exclude(result="").exists()
        with CaptureQueriesContext(connection) as queries:
            pages.shared_html(event.public_id, 10**6)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
