"""Rating a game as it ends: in the transaction that ends it (``hooks.game_ending``,
sent by ``play.finish`` under the game's row lock), so a game is rated exactly when
its end is saved, and at most once (``RatingChange``'s unique game and side)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from game import hooks
from game.models import Game, Move
from game.ratings import elo
from game.surface import (
    Color,
    Outcome,
)
from players.models import Rating, RatingChange, family_of


def rate(game: Game, outcome: Outcome) -> list[RatingChange]:
    """Change both sides' ratings by the outcome of ``game``, a rated game ending now;
    what changed, or nothing when it is not to be rated: both seats must be held by
    two accounts, and both sides must have moved (a game one side never played in is
    aborted, not rated)."""
    if not game.rated or outcome.reason == Game.Status.ABORTED:
        return []
    seats = game.seats_by_color()
    users = {color.value: getattr(seats.get(color.value), "user_id", None) for color in Color}
    if None in users.values():
        return []
    if users["dark"] == users["light"]:
        # One account in both seats is not two players: nothing to rate, and its one
        # rating would be written twice.
        return []
    moved = set(Move.objects.filter(game=game, taken_back=None).values_list("color", flat=True))
    if moved != set(users):
        return []
    family = family_of(game)
    for user_id in sorted(users.values()):
        Rating.objects.get_or_create(user_id=user_id, family=family)
    # Locked in one order, so two games ending at once never wait on each other.
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(user_id__in=users.values(), family=family)
        .order_by("user_id")
    }
    dark, light = ratings[users["dark"]], ratings[users["light"]]
    # Whatever the kind calls a game nobody won, it scores as one.
    result = outcome.winner.value if outcome.winner else Game.Result.NO_WINNER
    new = dict(zip(("dark", "light"), elo(dark.value, light.value, result), strict=True))
    changes = []
    for color, rating in (("dark", dark), ("light", light)):
        changes.append(
            RatingChange(
                game=game,
                color=color,
                user_id=rating.user_id,
                family=family,
                before=rating.value,
                after=new[color],
            )
        )
        rating.value = new[color]
        rating.games += 1
        if outcome.winner is None:
            rating.ties += 1
        elif outcome.winner == color:
            rating.wins += 1
        else:
            rating.losses += 1
        rating.save(update_fields=["value", "games", "wins", "losses", "ties", "updated"])
    return RatingChange.objects.bulk_create(changes)


@receiver(hooks.game_ending, dispatch_uid="players.rate")
def _rate(sender: type[Game], game: Game, outcome: Outcome, **kwargs: Any) -> None:
    rate(game, outcome)
