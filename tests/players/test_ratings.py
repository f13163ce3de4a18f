"""Elo as the game's author rates his players: his three worked examples, and the laws
any Elo keeps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.ratings import START, elo, expected


@pytest.mark.parametrize(
    ("dark", "light", "result", "after"),
    [
        (1200, 1000, "dark", (1207.7, 992.3)),  # the favourite wins
        (1000, 1200, "dark", (1024.3, 1175.7)),  # the underdog wins
        (1200, 1000, "tie", (1191.7, 1008.3)),  # a tie costs the favourite
        (1000, 1200, "light", (992.3, 1207.7)),  # the same, the colours swapped
    ],
)
def test_the_authors_worked_examples(dark, light, result, after):
    assert tuple(round(rating, 1) for rating in elo(dark, light, result)) == after


def test_ratings_keep_their_decimals():
    dark, light = elo(1200, 1000, "dark")
    assert dark == pytest.approx(1207.688, abs=1e-3)
    assert light == pytest.approx(992.312, abs=1e-3)


def test_equals_gain_and_lose_half_of_k():
    assert elo(START, START, "dark") == (1016.0, 984.0)
    assert elo(START, START, "light") == (984.0, 1016.0)
    assert elo(START, START, "tie") == (START, START)


def test_the_expected_score_of_equals_is_a_half_and_of_400_points_more_ten_elevenths():
    assert expected(1000, 1000) == 0.5
    assert expected(1400, 1000) == pytest.approx(10 / 11)
    assert expected(1000, 1400) == pytest.approx(1 / 11)


@pytest.mark.parametrize("result", ["", "drawn", "Dark", None])
def test_an_unknown_result_is_refused(result):
    with pytest.raises(ValueError, match="is not a result: dark, light, tie, draw or even"):
        elo(1000, 1000, result)


ratings = st.floats(min_value=100, max_value=3000, allow_nan=False)


@given(ratings, ratings, st.sampled_from(["dark", "light", "tie"]))
def test_points_are_only_passed_between_the_two_and_never_more_than_k(dark, light, result):
    new_dark, new_light = elo(dark, light, result)
    assert new_dark + new_light == pytest.approx(dark + light)
    assert abs(new_dark - dark) < 32
    winner_gained = {"dark": new_dark >= dark, "light": new_light >= light, "tie": True}
    assert winner_gained[result]


def test_a_draw_scores_as_a_tie_does():
    assert elo(1200, 1000, "draw") == elo(1200, 1000, "tie")
    assert elo(1000, 1000, "draw") == (1000, 1000)
