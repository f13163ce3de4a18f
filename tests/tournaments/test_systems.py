"""The pairing systems and standings (``tournaments.systems``): plain Python, tested on
hand-worked events and on many random ones."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.systems import (
    BYE,
    DARK,
    DRAW,
    LIGHT,
    Pairing,
    arena_pairs,
    arena_points,
    crosstable,
    round_robin,
    standings,
    swiss_round,
)

# Round-robin -------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 17))
def test_a_round_robin_pairs_everyone_once_in_the_fewest_rounds(count):
    players = list(range(count))
    games = round_robin(players)
    pairs = Counter(frozenset((g.dark, g.light)) for g in games)
    assert set(pairs) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(pairs.values()) == {1}
    rounds = max(g.round for g in games)
    assert rounds == (count - 1 if count % 2 == 0 else count)
    for number in range(1, rounds + 1):
        seated = [p for g in games if g.round == number for p in (g.dark, g.light)]
        assert len(seated) == len(set(seated))  # no one twice in a round
        assert len(seated) == count - count % 2


@pytest.mark.parametrize("count", range(2, 17))
def test_a_round_robin_balances_colours(count):
    games = round_robin(list(range(count)))
    darks = Counter(g.dark for g in games)
    lights = Counter(g.light for g in games)
    for player in range(count):
        assert abs(darks[player] - lights[player]) <= 1


def test_twice_round_swaps_the_colours_of_each_pair():
    games = round_robin(["a", "b", "c", "d"], twice=True)
    first = {(g.dark, g.light) for g in games if g.round <= 3}
    second = {(g.dark, g.light) for g in games if g.round > 3}
    assert second == {(light, dark) for dark, light in first}
    assert max(g.round for g in games) == 6


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        round_robin(["a", "b", "a"])


# Swiss -------------------------------------------------------------------------------


def play_out(games, rng):
    """The games of a round with random results (a bye keeps its own)."""
    return [
        g if g.is_bye else Pairing(g.round, g.dark, g.light, rng.choice([DARK, LIGHT, DRAW]))
        for g in games
    ]


def test_the_first_swiss_round_pairs_top_half_against_bottom_half():
    games = swiss_round(1, list("abcdefgh"), [])
    pairs = {frozenset((g.dark, g.light)) for g in games}
    assert pairs == {frozenset(p) for p in ("ae", "bf", "cg", "dh")}


def test_winners_meet_winners():
    players = list("abcdefgh")
    first = [
        Pairing(1, "a", "e", DARK),
        Pairing(1, "f", "b", LIGHT),
        Pairing(1, "c", "g", DARK),
        Pairing(1, "h", "d", LIGHT),
    ]
    games = swiss_round(2, players, first)
    winners = {"a", "b", "c", "d"}
    for game in games:
        assert ({game.dark, game.light} <= winners) or not ({game.dark, game.light} & winners)


def test_the_bye_goes_to_the_lowest_placed_who_has_not_had_one():
    players = list("abcde")
    first = [Pairing(1, "a", "c", DARK), Pairing(1, "d", "b", LIGHT), Pairing(1, "e", None, BYE)]
    games = swiss_round(2, players, first)
    (bye,) = [g for g in games if g.is_bye]
    # e scored the bye's point: the lowest now are c and d, and d is placed lower.
    assert bye.dark == "d" and bye.result == BYE


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 13), rounds=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_random_swiss_events_keep_every_rule(count, rounds, seed):
    rng = random.Random(seed)
    players = list(range(count))
    played: list[Pairing] = []
    for number in range(1, rounds + 1):
        games = swiss_round(number, players, played)
        if games is None:
            # Over only when no pairing is left: fewer rounds than players.
            assert number > 1
            break
        seated = [p for g in games for p in (g.dark, g.light) if p is not None]
        assert sorted(seated) == players  # everyone paired or given the bye
        assert sum(g.is_bye for g in games) == count % 2
        played += play_out(games, rng)
    pairs = Counter(frozenset((g.dark, g.light)) for g in played if not g.is_bye)
    assert all(n == 1 for n in pairs.values())  # no pair twice
    byes = Counter(g.dark for g in played if g.is_bye)
    assert all(n == 1 for n in byes.values())  # a bye at most once
    for player in players:
        colors = [
            DARK if g.dark == player else LIGHT
            for g in played
            if player in (g.dark, g.light) and not g.is_bye
        ]
        runs = "".join("d" if c == DARK else "l" for c in colors)
        assert "ddd" not in runs and "lll" not in runs
        assert abs(runs.count("d") - runs.count("l")) <= 2


def some_pairing_exists(players, played):
    """Whether any round could be paired at all after ``played``, by brute force:
    a bye (if needed) to one who has had none, the rest in pairs that have not met,
    each pair given colours no one would have three times in a row or three more of."""
    colors = {p: "" for p in players}
    met, byes = set(), set()
    for g in sorted(played, key=lambda g: g.round):
        if g.is_bye:
            byes.add(g.dark)
        else:
            colors[g.dark] += "d"
            colors[g.light] += "l"
            met.add(frozenset((g.dark, g.light)))

    def may(player, color):
        run = colors[player]
        extra = run.count(color) - run.count("l" if color == "d" else "d")
        return not run.endswith(color * 2) and extra < 2

    def pairable(rest):
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for other in others:
            if frozenset((first, other)) in met:
                continue
            if not ((may(first, "d") and may(other, "l")) or (may(first, "l") and may(other, "d"))):
                continue
            if pairable([p for p in others if p != other]):
                return True
        return False

    if len(players) % 2 == 0:
        return pairable(list(players))
    return any(pairable([p for p in players if p != bye]) for bye in players if bye not in byes)


@settings(max_examples=80, deadline=None)
@given(count=st.integers(3, 8), seed=st.integers(0, 10**6))
def test_a_swiss_ends_early_only_when_no_round_can_be_paired(count, seed):
    rng = random.Random(seed)
    players = list(range(count))
    played: list[Pairing] = []
    for number in range(1, count + 1):
        games = swiss_round(number, players, played)
        assert (games is not None) == some_pairing_exists(players, played)
        if games is None:
            break
        played += play_out(games, rng)


# Arena -------------------------------------------------------------------------------


def test_arena_pairs_near_places():
    ranks = {"a": 1, "b": 2, "c": 3, "d": 4}
    pairs = arena_pairs(list("abcd"), ranks, {})
    assert {frozenset(p) for p in pairs} == {frozenset("ab"), frozenset("cd")}


def test_arena_never_pairs_the_last_two_again_while_a_third_waits():
    ranks = {"a": 1, "b": 2, "c": 3}
    pairs = arena_pairs(list("abc"), ranks, {"a": "b", "b": "a"})
    assert len(pairs) == 1 and set(pairs[0]) != {"a", "b"}
    # Two alone may meet again rather than wait.
    assert len(arena_pairs(["a", "b"], ranks, {"a": "b", "b": "a"})) == 1


@settings(max_examples=60, deadline=None)
@given(
    free=st.lists(st.integers(0, 30), min_size=0, max_size=14, unique=True),
    seed=st.integers(0, 999),
)
def test_arena_pairs_as_many_as_it_may(free, seed):
    rng = random.Random(seed)
    ranks = {p: rng.randint(1, 30) for p in free}
    last = {p: rng.choice(free) for p in free if rng.random() < 0.5}
    pairs = arena_pairs(free, ranks, last)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated)) and set(seated) <= set(free)
    if len(free) >= 3:
        for a, b in pairs:
            assert last.get(a) != b and last.get(b) != a


def test_an_arena_win_in_a_streak_scores_double():
    games = [
        Pairing(1, "a", "b", DARK),  # 2
        Pairing(2, "c", "a", LIGHT),  # 2, and the streak
        Pairing(3, "a", "d", DARK),  # 4
        Pairing(4, "a", "b", DRAW),  # 1, and the streak ends
        Pairing(5, "a", "b", DARK),  # 2
    ]
    total, each, streak = arena_points("a", games)
    assert each == [2, 2, 4, 1, 2] and total == 11 and not streak
    assert arena_points("a", games[:3])[2]


# Standings ---------------------------------------------------------------------------


def test_buchholz_cut_one_and_sonneborn_berger():
    """Four players, three rounds, worked by hand."""
    games = [
        Pairing(1, "a", "b", DARK),
        Pairing(1, "c", "d", DRAW),
        Pairing(2, "a", "c", DRAW),
        Pairing(2, "d", "b", LIGHT),
        Pairing(3, "d", "a", LIGHT),
        Pairing(3, "b", "c", DARK),
    ]
    table = {row.player: row for row in standings("swiss", list("abcd"), games)}
    # Scores: a 2.5, b 2, c 1, d 0.5.
    assert [table[p].score for p in "abcd"] == [Fraction(5, 2), 2, 1, Fraction(1, 2)]
    # a met b (2), c (1), d (0.5): cut the lowest, 3. SB: 2 + 0.5 + 1/2.
    assert table["a"].tiebreaks == {"buchholz_cut1": 3, "sonneborn_berger": 3}
    assert table["c"].tiebreaks["sonneborn_berger"] == Fraction(3, 2)  # half of 2.5 and of 0.5
    assert [table[p].rank for p in "abcd"] == [1, 2, 3, 4]


def test_ties_share_a_rank_until_a_tiebreak_parts_them():
    games = [Pairing(1, "a", "b", DRAW), Pairing(1, "c", "d", DRAW)]
    ranks = [row.rank for row in standings("round-robin", list("abcd"), games)]
    assert ranks == [1, 1, 1, 1]


def test_a_bye_scores_a_win_and_no_buchholz():
    games = [Pairing(1, "a", "b", LIGHT), Pairing(1, "c", None, BYE)]
    table = {row.player: row for row in standings("swiss", list("abc"), games)}
    assert table["c"].score == 1 and table["c"].tiebreaks["buchholz_cut1"] == 0


def test_games_still_played_count_for_nothing_yet():
    games = [Pairing(1, "a", "b", None)]
    table = standings("swiss", ["a", "b"], games)
    assert [row.score for row in table] == [0, 0] and table[0].games == 0


def test_arena_standings_show_the_streak():
    games = [Pairing(1, "a", "b", DARK), Pairing(2, "b", "a", LIGHT)]
    first, second = standings("arena", ["b", "a"], games)
    assert first.player == "a" and first.score == 4 and first.tiebreaks == {"streak": True}
    assert second.score == 0


def test_the_crosstable():
    games = [Pairing(1, "a", "b", DARK), Pairing(2, "b", "a", DRAW), Pairing(3, "a", "c", None)]
    table = crosstable(["a", "b", "c"], games)
    assert table["a"] == {"b": ["1", "½"], "c": ["*"]}
    assert table["b"] == {"a": ["0", "½"]}


def test_a_berserk_win_scores_one_more_and_a_berserk_loss_nothing():
    games = [
        Pairing(1, "a", "b", DARK, frozenset({"a"})),  # 2 + 1
        Pairing(2, "b", "a", DARK, frozenset({"a"})),  # a lost: 0
        Pairing(3, "a", "c", DARK, frozenset({"a", "c"})),  # 2 + 1
    ]
    assert arena_points("a", games)[:2] == (6, [3, 0, 3])
    assert arena_points("b", games)[0] == 2


@settings(max_examples=40, deadline=None)
@given(count=st.integers(25, 300), seed=st.integers(0, 10**6))
def test_a_crowded_arena_is_paired_by_place_all_but_one_and_no_one_again(count, seed):
    rng = random.Random(seed)
    free = list(range(count))
    ranks = {p: rng.randint(1, 1000) for p in free}
    last = {}
    for a, b in zip(free[::2], free[1::2], strict=False):
        if rng.random() < 0.7:
            last[a], last[b] = b, a
    pairs = arena_pairs(free, ranks, last)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated)) and len(pairs) == count // 2
    for a, b in pairs:
        assert last.get(a) != b and last.get(b) != a
    # By near places: the pairs' gaps in the order are small.
    order = {p: i for i, p in enumerate(sorted(free, key=lambda p: ranks[p]))}
    assert max(abs(order[a] - order[b]) for a, b in pairs) <= 3
