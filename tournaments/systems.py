"""The three tournament systems' arithmetic: who plays whom, and the standings.

Plain Python over player ids (any hashable, sortable values) and the results of the
games played: no Django, no clock, no database, so the pairings and standings are
computed from the games alone, recomputed at will, and tested on many random events.

- **Round-robin**: Berger tables (the circle method), every pair once, or twice with
  the colours swapped.
- **Swiss**: each round a maximum-weight matching (``networkx``) over the pairs
  allowed, its weights ordered as the FIDE Dutch system's criteria are: as many
  players paired as can be, then scores as equal as can be, then each player given
  the colour they are due. A pair that has met never meets again, and no one plays
  the same colour three times in a row. The bye (a win's points, at most once a
  player) goes to the lowest-placed player who has not had one and leaves the rest
  pairable. When no round can pair everyone the event ends, as lichess's Swiss does.
- **Arena**: the players free now paired by near places in the standings, never
  the same two twice in a row while a third is free.

A result is the stored game's: ``"dark"``, ``"light"``, ``DRAW`` (nobody won),
``BYE`` (a pairing without an opponent), or None while the game is played.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import networkx as nx

DARK, LIGHT = "dark", "light"
DRAW = "even"  # the stored word for a game nobody won (``game.sides.NO_WINNER``)
BYE = "bye"
RESULTS = (DARK, LIGHT, DRAW, BYE)

# What a win, a draw, a loss and a bye score: Swiss and round-robin count halves,
# an arena whole points, a win in a streak double (``arena_points``).
POINTS = {
    "swiss": {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0), "bye": Fraction(1)},
    "arena": {"win": Fraction(2), "draw": Fraction(1), "loss": Fraction(0), "bye": Fraction(0)},
}
POINTS["round-robin"] = POINTS["swiss"]
STREAK_WINS = 2  # after this many wins in a row, each further win scores double
BERSERK_POINTS = 1  # an arena's win with one's clock halved

# The Swiss matching's weights, each criterion worth more than all those below it
# could ever add up to, so the matching meets them in FIDE's order.
_SCORE_STEP = 1_000  # for each half point squared between the two scores
_COLOR_DUE = 10  # a player who does not get the colour they are due (a third in a
# row, or a third more of one, is never given: ``_History.barred``)


@dataclass(frozen=True)
class Pairing:
    """One game of an event, or a bye (``light`` None)."""

    round: int
    dark: Hashable
    light: Hashable | None
    result: str | None = None
    berserk: frozenset = frozenset()  # an arena's players who halved their clock

    @property
    def is_bye(self) -> bool:
        return self.light is None

    def score_of(self, player: Hashable) -> str | None:
        """``"win"``, ``"draw"``, ``"loss"`` or ``"bye"`` for ``player``; None while playing."""
        if self.result is None:
            return None
        if self.result == BYE:
            return "bye"
        if self.result == DRAW:
            return "draw"
        mine = DARK if player == self.dark else LIGHT
        return "win" if self.result == mine else "loss"

    def opponent_of(self, player: Hashable) -> Hashable | None:
        return self.light if player == self.dark else self.dark


# Round-robin -------------------------------------------------------------------------


def round_robin(players: Sequence[Hashable], twice: bool = False) -> list[Pairing]:
    """Every game of an all-play-all among ``players`` (in their seeding order), round
    by round, by the circle method (FIDE's Berger tables): with an odd number one
    player a round sits out. Each player's colours alternate as far as they can; the
    second cycle of ``twice`` repeats the first with the colours swapped."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    seats: list[Hashable | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # whoever meets it sits the round out
    count = len(seats)
    turning = count - 1  # every seat but the last turns round it
    rounds: list[list[tuple[Hashable | None, Hashable | None]]] = []
    for number in range(turning):
        # The last seat meets the one the circle brings to it, colours alternating;
        # the others meet across the circle, the colours alternating by distance,
        # so no one plays one colour more than twice in a row.
        fixed = (seats[-1], seats[number]) if number % 2 else (seats[number], seats[-1])
        games = [fixed]
        for step in range(1, count // 2):
            first, second = seats[(number + step) % turning], seats[(number - step) % turning]
            games.append((first, second) if step % 2 == 0 else (second, first))
        rounds.append(games)
    cycles = [rounds, [[(b, a) for a, b in games] for games in rounds]] if twice else [rounds]
    pairings = []
    for cycle, schedule in enumerate(cycles):
        for number, games in enumerate(schedule, start=1 + cycle * len(rounds)):
            for dark, light in games:
                if dark is not None and light is not None:
                    pairings.append(Pairing(number, dark, light))
    return pairings


# Swiss -------------------------------------------------------------------------------


@dataclass
class _History:
    """What the Swiss pairing reads of a player's past games."""

    score: Fraction = Fraction(0)
    colors: list[str] = field(default_factory=list)
    opponents: set[Hashable] = field(default_factory=set)
    had_bye: bool = False

    @property
    def balance(self) -> int:
        """Darks minus lights."""
        return self.colors.count(DARK) - self.colors.count(LIGHT)

    def due(self) -> str | None:
        """The colour this player is due, if any: the one they had fewer of, or else
        the other of their last."""
        if self.balance:
            return LIGHT if self.balance > 0 else DARK
        return (LIGHT if self.colors[-1] == DARK else DARK) if self.colors else None

    def barred(self) -> str | None:
        """A colour this player may not get: the one of their last two games, or the
        one they already have two more of."""
        if len(self.colors) >= 2 and self.colors[-1] == self.colors[-2]:
            return self.colors[-1]
        if abs(self.balance) >= 2:
            return DARK if self.balance > 0 else LIGHT
        return None


def _histories(
    players: Sequence[Hashable], pairings: Iterable[Pairing], system: str
) -> dict[Hashable, _History]:
    points = POINTS[system]
    histories = {player: _History() for player in players}
    for pairing in sorted(pairings, key=lambda p: p.round):
        for player in (pairing.dark, pairing.light):
            if player not in histories:
                continue
            history = histories[player]
            if pairing.is_bye:
                history.had_bye = True
            else:
                history.colors.append(DARK if player == pairing.dark else LIGHT)
                history.opponents.add(pairing.opponent_of(player))
            outcome = pairing.score_of(player)
            if outcome is not None:
                history.score += points[outcome]
    return histories


def _colors(a: _History, b: _History, a_first: bool) -> tuple[bool, int] | None:
    """Whether ``a`` takes dark against ``b``, and the colour penalty of the pair; None
    when neither way is allowed. ``a_first``: ``a`` is placed above ``b``, and wins a
    tie of colour claims, as FIDE's rule gives the higher-placed player their due."""
    options = []
    for a_dark in (True, False):
        a_color, b_color = (DARK, LIGHT) if a_dark else (LIGHT, DARK)
        if a.barred() == a_color or b.barred() == b_color:
            continue
        penalty = (a.due() not in (None, a_color)) + (b.due() not in (None, b_color))
        options.append((penalty, a_dark != a_first, a_dark))
    if not options:
        return None
    penalty, _, a_dark = min(options)
    return a_dark, penalty * _COLOR_DUE


def swiss_round(
    number: int,
    players: Sequence[Hashable],
    pairings: Iterable[Pairing],
    ranks: Mapping[Hashable, int] | None = None,
) -> list[Pairing] | None:
    """Round ``number``'s pairings among ``players`` (those still in the event, in the
    order that breaks ties of score: seeding or rating), after ``pairings``; None
    when no pairing gives everyone a game (or the bye), and the event is over.

    Every pair that has not met and may share colours is an edge, weighted so the
    maximum-weight matching pairs as many as it can, then scores as close as can be,
    then gives colours as due; the bye is tried from the lowest placed up."""
    pairings = list(pairings)
    histories = _histories(players, pairings, "swiss")
    order = sorted(
        players,
        key=lambda p: (-histories[p].score, (ranks or {}).get(p, 0), players.index(p)),
    )
    place = {player: index for index, player in enumerate(order)}
    bye_candidates: list[Hashable | None] = [None]
    if len(order) % 2:
        bye_candidates = [p for p in reversed(order) if not histories[p].had_bye]
    for bye in bye_candidates:
        playing = [p for p in order if p != bye]
        matched = _match(playing, histories, place)
        if matched is None:
            continue
        games = [Pairing(number, dark, light) for dark, light in matched]
        games.sort(key=lambda g: min(place[g.dark], place[g.light]))
        if bye is not None:
            games.append(Pairing(number, bye, None, BYE))
        return games
    return None


def _match(
    playing: Sequence[Hashable], histories: Mapping[Hashable, _History], place: Mapping
) -> list[tuple[Hashable, Hashable]] | None:
    if not playing:
        return []
    top = _SCORE_STEP * (4 * max(h.score for h in histories.values()) + 4) ** 2
    graph = nx.Graph()
    colors = {}
    for i, a in enumerate(playing):
        for b in playing[i + 1 :]:
            if b in histories[a].opponents:
                continue
            found = _colors(histories[a], histories[b], place[a] < place[b])
            if found is None:
                continue
            a_dark, penalty = found
            halves = int(2 * abs(histories[a].score - histories[b].score))
            # Within a score, prefer the top half against the bottom half (FIDE's S1 v S2)
            # by a tie-break smaller than any colour's.
            spread = abs(abs(place[a] - place[b]) - len(playing) // 2)
            weight = top - _SCORE_STEP * halves**2 - penalty - spread / 1000
            graph.add_edge(a, b, weight=weight)
            colors[a, b] = a_dark
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(playing):
        return None
    pairs = []
    for a, b in matching:
        if (a, b) not in colors:
            a, b = b, a
        pairs.append((a, b) if colors[a, b] else (b, a))
    return pairs


# Arena -------------------------------------------------------------------------------


# Up to this many free players an arena pairs them by the matching; more (an arena's
# start, a thousand players at once) by a pass over their places: the matching's
# time grows as the cube of their number, and 500 players took it 11 s.
ARENA_MATCHING_AT_MOST = 24


def arena_pairs(
    free: Sequence[Hashable],
    ranks: Mapping[Hashable, int],
    last_opponent: Mapping[Hashable, Hashable],
    dark_count: Mapping[Hashable, int] | None = None,
) -> list[tuple[Hashable, Hashable]]:
    """Pairs (dark, light) of the players ``free`` now, by near places (``ranks``, 1
    the top), never two who just played each other while a third is free; with an
    odd number, one waits for the next to be free."""
    if len(free) < 2:
        return []

    def again(a: Hashable, b: Hashable) -> bool:
        return len(free) > 2 and (last_opponent.get(a) == b or last_opponent.get(b) == a)

    if len(free) <= ARENA_MATCHING_AT_MOST:
        graph = nx.Graph()
        graph.add_nodes_from(free)
        for i, a in enumerate(free):
            for b in free[i + 1 :]:
                if not again(a, b):
                    graph.add_edge(a, b, weight=-abs(ranks.get(a, 0) - ranks.get(b, 0)))
        matched = list(nx.max_weight_matching(graph, maxcardinality=True))
    else:
        matched = _pairs_by_place(sorted(free, key=lambda p: ranks.get(p, 0)), again)
    darks = dark_count or {}
    pairs = []
    for a, b in matched:
        # Dark to whoever has had it less; the lower placed on a tie.
        if (darks.get(a, 0), -ranks.get(a, 0)) > (darks.get(b, 0), -ranks.get(b, 0)):
            a, b = b, a
        pairs.append((a, b))
    pairs.sort(key=lambda pair: min(ranks.get(pair[0], 0), ranks.get(pair[1], 0)))
    return pairs


def _pairs_by_place(order: list[Hashable], again) -> list[tuple[Hashable, Hashable]]:
    """Each player, from the top, with the nearest one below not just met; a last
    pair that just met trades partners with the pair before it."""
    waiting = list(order)
    pairs: list[tuple[Hashable, Hashable]] = []
    while len(waiting) >= 2:
        first = waiting.pop(0)
        index = next((i for i, other in enumerate(waiting) if not again(first, other)), None)
        if index is None:  # only one who just met it is left
            other = waiting.pop(0)
            if pairs:
                a, b = pairs.pop()
                if not again(a, first) and not again(b, other):
                    pairs += [(a, first), (b, other)]
                else:
                    pairs += [(a, other), (b, first)]
            continue
        pairs.append((first, waiting.pop(index)))
    return pairs


def arena_points(player: Hashable, pairings: Iterable[Pairing]) -> tuple[int, list[int], bool]:
    """An arena player's total, each finished game's points in order, and whether
    they are on a streak (the flame): a win scores 2, a draw 1, a loss 0; after two
    wins in a row each further win scores 4 until a game is not won; a win the
    player berserked in scores one more."""
    total, each, run = 0, [], 0
    for pairing in sorted(pairings, key=lambda p: p.round):
        outcome = pairing.score_of(player)
        if outcome is None or player not in (pairing.dark, pairing.light):
            continue
        score, run = arena_step(outcome, run, player in pairing.berserk)
        total += score
        each.append(score)
    return total, each, run >= STREAK_WINS


def arena_step(outcome: str, run: int, berserk: bool = False) -> tuple[int, int]:
    """One arena game's points for a player with ``run`` wins in a row before it
    (``outcome``: win, draw or loss), and their run after it."""
    won = outcome == "win"
    score = int(POINTS["arena"][outcome]) * (2 if won and run >= STREAK_WINS else 1)
    if won and berserk:
        score += BERSERK_POINTS
    return score, run + 1 if won else 0


# Standings ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    player: Hashable
    rank: int
    score: Fraction
    tiebreaks: dict[str, Any]
    games: int


def standings(
    system: str,
    players: Sequence[Hashable],
    pairings: Iterable[Pairing],
    ratings: Mapping[Hashable, float] | None = None,
) -> list[Standing]:
    """The standings, from the games alone: by score, then (Swiss and round-robin)
    Buchholz cut-1 and Sonneborn–Berger, then rating, then the order of joining.

    Buchholz cut-1: the sum of one's opponents' scores but the lowest; a bye has no
    opponent and adds nothing. Sonneborn–Berger: the scores of the opponents beaten,
    and half those of the opponents drawn. An arena's ties are broken by rating."""
    pairings = [p for p in pairings if p.result is not None]
    ratings = ratings or {}
    # Each player's games, found once: an arena of a thousand players and thousands
    # of games is read in one pass, not one pass a player.
    games_of: dict[Hashable, list[Pairing]] = defaultdict(list)
    for pairing in pairings:
        games_of[pairing.dark].append(pairing)
        if pairing.light is not None:
            games_of[pairing.light].append(pairing)
    if system == "arena":
        rows = []
        for player in players:
            total, each, streak = arena_points(player, games_of[player])
            rows.append((player, Fraction(total), {"streak": streak}, len(each)))
    else:
        histories = _histories(players, pairings, system)
        scores = {player: histories[player].score for player in players}
        rows = []
        for player in players:
            opponents, sb, games = [], Fraction(0), 0
            for pairing in games_of[player]:
                games += 1
                if pairing.is_bye:
                    continue
                other = pairing.opponent_of(player)
                theirs = scores.get(other, Fraction(0))
                opponents.append(theirs)
                outcome = pairing.score_of(player)
                sb += theirs if outcome == "win" else theirs / 2 if outcome == "draw" else 0
            buchholz = sum(sorted(opponents)[1:], Fraction(0))
            tiebreaks = {"buchholz_cut1": buchholz, "sonneborn_berger": sb}
            rows.append((player, scores[player], tiebreaks, games))
    order = {player: index for index, player in enumerate(players)}

    def key(row):
        player, score, tiebreaks, _ = row
        breaks = [-value for value in tiebreaks.values() if not isinstance(value, bool)]
        return (-score, *breaks, -ratings.get(player, 0), order[player])

    rows.sort(key=key)
    table, rank, previous = [], 0, None
    for index, (player, score, tiebreaks, games) in enumerate(rows, start=1):
        shared = key((player, score, tiebreaks, games))[:-2]
        if shared != previous:
            rank, previous = index, shared
        table.append(Standing(player, rank, score, tiebreaks, games))
    return table


def crosstable(
    players: Sequence[Hashable], pairings: Iterable[Pairing], system: str = "round-robin"
) -> dict[Hashable, dict[Hashable, list[str]]]:
    """For each player, against each other player, the points of their games in
    order as shown ("1", "½", "0"; "*" while playing)."""
    words = {"win": "1", "draw": "½", "loss": "0"}
    if system == "arena":
        words = {"win": "2", "draw": "1", "loss": "0"}
    table: dict[Hashable, dict[Hashable, list[str]]] = {p: defaultdict(list) for p in players}
    for pairing in sorted(pairings, key=lambda p: p.round):
        if pairing.is_bye:
            continue
        for player in (pairing.dark, pairing.light):
            outcome = pairing.score_of(player)
            if player in table:
                other = pairing.opponent_of(player)
                table[player][other].append("*" if outcome is None else words[outcome])
    return {player: dict(row) for player, row in table.items()}
