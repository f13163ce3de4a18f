"""Elo ratings, as the game's author rates his players (his Rating-System.md).

Every account starts at ``START``; after a rated game each side's rating moves by
``K`` times the difference between its score (1 a win, 0.5 a tie, 0 a loss) and the
score expected of it, ``1 / (1 + 10 ** ((opponent - player) / 400))``. Ratings keep
their decimals and are shown rounded. The author's text mistypes the tie's formula;
this is the standard one, which gives his own worked examples (``tests/players/test_ratings.py``).

Plain Python: no Django, no clock, no database.
"""

from __future__ import annotations

START = 1000.0
K = 32.0
SCORES = {
    "dark": (1.0, 0.0),
    "light": (0.0, 1.0),
    "tie": (0.5, 0.5),
    "draw": (0.5, 0.5),
    "even": (0.5, 0.5),  # a game nobody won, as every kind's is stored (``Game.Result``)
}


def expected(player: float, opponent: float) -> float:
    """The score ``player`` is expected to make against ``opponent``, between 0 and 1."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - player) / 400.0))


def elo(dark: float, light: float, result: str) -> tuple[float, float]:
    """The two sides' ratings after a game that ended in ``result``: "dark" or "light"
    (the winner) or "tie" (a game's other words for nobody winning, "draw" and
    the stored "even", too).

    Raises ValueError for any other result.
    """
    try:
        dark_score, light_score = SCORES[result]
    except KeyError:
        raise ValueError(f"{result!r} is not a result: dark, light, tie, draw or even") from None
    return (
        dark + K * (dark_score - expected(dark, light)),
        light + K * (light_score - expected(light, dark)),
    )
