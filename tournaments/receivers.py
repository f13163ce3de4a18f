"""What tournaments hear of games: an end moves the event it belongs to on."""

from __future__ import annotations

from django.dispatch import receiver

from game import hooks
from game.models import Game
from game.surface import Outcome
from tournaments import rounds


@receiver(hooks.game_finished, dispatch_uid="tournaments.game_finished")
def _game_finished(sender: type[Game], game: Game, outcome: Outcome, **kwargs: object) -> None:
    rounds.game_ended(game, outcome)
