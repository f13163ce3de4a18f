"""An event as it stands: found (or locked for a change), its players by seeding, its
standings computed from its pairings alone (``tournaments.systems``), and each change
counted on the channels its pages listen to."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Q

from game import play
from kit import live
from kit.models import Channel
from lobby.challenges import user_channel
from tournaments import systems
from tournaments.models import Entry, Tournament

# The channel every event's change is counted on (the list page), and each event's own.
CHANNEL = "tournaments"


def channel_of(public_id: str) -> str:
    return f"tournament:{public_id}"


def revision(name: str) -> int:
    """How many changes channel ``name`` has counted: what a page shows is of then."""
    found = Channel.objects.filter(name=name).values_list("revision", flat=True)
    return next(iter(found), 0)


class TournamentError(play.PlayError):
    """A request about an event refused, with a reason for the player."""


class NoSuchTournament(TournamentError):
    status = 404


class NotAllowed(TournamentError):
    status = 403


def found(public_id: str) -> Tournament:
    event = Tournament.objects.select_related("creator").filter(public_id=public_id).first()
    if event is None:
        raise NoSuchTournament("there is no such tournament")
    return event


def locked(public_id: str) -> Tournament:
    event = Tournament.objects.select_for_update().filter(public_id=public_id).first()
    if event is None:
        raise NoSuchTournament("there is no such tournament")
    return event


def as_pairings(rows) -> list[systems.Pairing]:
    return [
        systems.Pairing(
            row.round,
            row.dark_id,
            row.light_id,
            row.result or None,
            frozenset(
                player
                for player, berserked in (
                    (row.dark_id, row.dark_berserk),
                    (row.light_id, row.light_berserk),
                )
                if berserked
            ),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    rank: int
    entry: Entry
    score: Any
    tiebreaks: dict[str, Any]
    games: int

    @property
    def user(self):
        return self.entry.user


PAIRING_FIELDS = ("round", "dark_id", "light_id", "result", "dark_berserk", "light_berserk")


def table(event: Tournament) -> list[systems.Standing]:
    """The standings now, by player id, from the pairings' results alone: read as
    plain values (no rows made into objects), so an arena of a thousand players and
    thousands of games is ranked in a few hundredths of a second."""
    if event.system == Tournament.System.ARENA:
        return arena_table(event)
    entries = event.entries.order_by("-rating", "joined", "pk").values_list("user_id", "rating")
    entries = list(entries)
    results = event.pairings.exclude(result="").values_list(*PAIRING_FIELDS)
    return systems.standings(
        event.system,
        [user_id for user_id, _ in entries],
        [
            systems.Pairing(
                number,
                dark,
                light,
                result,
                frozenset(p for p, berserk in ((dark, dark_b), (light, light_b)) if berserk),
            )
            for number, dark, light, result, dark_b, light_b in results
        ],
        dict(entries),
    )


def arena_table(event: Tournament) -> list[systems.Standing]:
    """An arena's standings from its players' running scores (``Entry.points``, kept as
    each game ends): by points, then rating; equal points and rating share a place."""
    entries = event.entries.order_by("-points", "-rating", "joined", "pk").values_list(
        "user_id", "points", "rating", "streak", "games"
    )
    standings, rank, previous = [], 0, None
    for index, (user_id, points, rating, streak, games) in enumerate(entries, start=1):
        if (points, rating) != previous:
            rank, previous = index, (points, rating)
        tiebreaks = {"streak": streak >= systems.STREAK_WINS}
        standings.append(systems.Standing(user_id, rank, Fraction(points), tiebreaks, games))
    return standings


# Up to this many players' places are each counted by those ahead of them; more are
# read from the whole table at once.
PLACES_COUNTED = 24


def arena_places(event: Tournament, lines: list[tuple[int, int, float]]) -> dict[int, int]:
    """The places in an arena's standings of the players of ``lines`` (``user_id``,
    ``points``, ``rating`` each), as ``arena_table`` places them: one more than those
    ahead (more points, or as many and a higher rating), each counted by the index
    it is ranked by, so the few players freed as a game ends cost a few counts, not
    the whole table; many (an arena's start) the table once."""
    if len(lines) > PLACES_COUNTED:
        return {standing.player: standing.rank for standing in arena_table(event)}
    return {
        user_id: event.entries.filter(
            Q(points__gt=points) | Q(points=points, rating__gt=rating)
        ).count()
        + 1
        for user_id, points, rating in lines
    }


def table_page(event: Tournament, number: int, size: int) -> list[systems.Standing]:
    """Page ``number`` (1 the top) of the standings, ``size`` lines. An arena's is
    read as far as the page by the index it is ranked by, each line placed as
    ``arena_table`` places it (the first of a tie counted by those ahead of it): a
    page's drawing costs the same with ten players or a thousand. The others'
    standings are computed whole (``table``)."""
    if event.system != Tournament.System.ARENA:
        return table(event)[(number - 1) * size : number * size]
    entries = event.entries.order_by("-points", "-rating", "joined", "pk")
    start = (number - 1) * size
    lines = entries.values_list("user_id", "points", "rating", "streak", "games")
    standings, rank, previous = [], 0, None
    for index, (user_id, points, rating, streak, games) in enumerate(
        lines[start : start + size], start=start + 1
    ):
        if (points, rating) != previous:
            rank, previous = index, (points, rating)
            if index == start + 1 and start:
                ahead = Q(points__gt=points) | Q(points=points, rating__gt=rating)
                rank = event.entries.filter(ahead).count() + 1
        tiebreaks = {"streak": streak >= systems.STREAK_WINS}
        standings.append(systems.Standing(user_id, rank, Fraction(points), tiebreaks, games))
    return standings


def recount(event: Tournament) -> None:
    """Set an arena's running scores again from its games alone (``systems``)."""
    entries = {entry.user_id: entry for entry in event.entries.all()}
    games = as_pairings(event.pairings.exclude(result=""))
    for user_id, entry in entries.items():
        total, each, _ = systems.arena_points(user_id, games)
        run = 0
        for game in sorted(games, key=lambda g: g.round):
            outcome = game.score_of(user_id)
            if outcome is not None and user_id in (game.dark, game.light):
                run = run + 1 if outcome == "win" else 0
        entry.points, entry.streak, entry.games = total, run, len(each)
    Entry.objects.bulk_update(entries.values(), ["points", "streak", "games"])


def rows_of(event: Tournament, standings: list[systems.Standing]) -> list[Row]:
    """Lines of ``standings`` (a page of them) with their players' entries and names."""
    entries = event.entries.filter(user_id__in=[s.player for s in standings])
    by_user = {entry.user_id: entry for entry in entries.select_related("user")}
    return [Row(s.rank, by_user[s.player], s.score, s.tiebreaks, s.games) for s in standings]


def standings(event: Tournament) -> list[Row]:
    """The whole standings, each line with its player's entry and name."""
    return rows_of(event, table(event))


def seeded(event: Tournament) -> list[int]:
    """The ids of the players still in, by seeding: rating as they joined, then joining."""
    entries = event.entries.filter(withdrawn=False).order_by("-rating", "joined", "pk")
    return list(entries.values_list("user_id", flat=True))


def changed(event: Tournament, *user_ids: int) -> None:
    """Count a change of ``event`` on its channel and the list's (and the channels of
    the accounts it concerns), in the current transaction: their pages hear of it."""
    live.bump(channel_of(event.public_id))
    live.bump(CHANNEL)
    for user_id in user_ids:
        live.bump(user_channel(user_id))
