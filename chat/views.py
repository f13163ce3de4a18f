"""The chat's three actions, each a POST from the game page: say something, switch
the opponent's chat off or on, report a message. Like the game's own actions, htmx
gets the game redrawn (a refusal in its words on it), a plain form a 303 back to the
game page."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from chat import talk
from game import play, seats
from game.models import Game
from game.views.common import HtmxHttpRequest, act_on_game, too_many
from kit import limits

# Each message and each switch redraws every page watching the game.
CHAT = limits.Limit("chat", requests=20, seconds=60)

# Refusals whose words need a page of their own without htmx: there is no chat box
# on the game page to go back to, or nothing there the viewer may use.
_NOWHERE_TO_GO_BACK = (play.NotSeated, talk.NoChat, talk.ChatClosed, talk.MessageNotFound)


@require_POST
@limits.limited(CHAT, too_many)
def say(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Post the form's ``quick`` message, or else its ``text``."""
    user = request.user if request.user.is_authenticated else None
    return act_on_game(
        request,
        game_id,
        lambda: talk.say(
            game_id,
            seats.tokens_for(request, game_id),
            user,
            text=request.POST.get("text", ""),
            quick=request.POST.get("quick", ""),
            name=seats.guest_name(request),
        ),
        _NOWHERE_TO_GO_BACK,
    )


@require_POST
@limits.limited(CHAT, too_many)
def mute(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Switch the opponent's chat off (``on=1``) or back on (``on=0``)."""
    answer = request.POST.get("on", "")

    def act() -> Game:
        if answer not in ("1", "0"):
            raise play.PlayError(f"{answer[:20]!r} is not an answer: on is 1 or 0")
        return talk.mute(game_id, seats.tokens_for(request, game_id), on=answer == "1")

    return act_on_game(request, game_id, act, _NOWHERE_TO_GO_BACK)


@require_POST
def report(request: HtmxHttpRequest, game_id: str, message_id: str) -> HttpResponse:
    """Report the opponent's message to the operator."""
    return act_on_game(
        request,
        game_id,
        lambda: talk.report(int(message_id), game_id, seats.tokens_for(request, game_id)),
        _NOWHERE_TO_GO_BACK,
    )
