"""What the views share: the request's type, redirects, and the rule for a refusal.

A refused action (a move against the rules, not your turn, a watcher's click) is
shown where it was asked and changes nothing. An htmx request gets 200 and the part
it redraws, with the refusal in words on it: htmx 2 swaps only successful answers
(``responseHandling``'s default), and a refusal is an answer the player must see.
Any other request gets the refusal's own status (``PlayError.status``: 400, 403,
409…) with a page that says why, or, where the page it came from can show the
words, a redirect back to it with them as a message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from game import play
from game.models import Game
from game.pages import game_page
from kit import limits

# Without JavaScript, a page reloads itself while it waits for something (``GamePage.
# awaited``): every second for the computer's work, which takes about that, every two
# for a person's move, seat or rematch; a page waiting for nothing stays as it is.
REFRESH_SECONDS = {"computer": 1, "hint": 1, "analysis": 1, "move": 2, "rematch": 2}
# A finished friend game's page asks this often whether a rematch was offered.
REMATCH_POLL_SECONDS = 3
# A choice before a move is a word or a square: anything longer is cut before it is read.
MAX_CHOICE = 20


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class SeeOther(HttpResponseRedirect):
    """After a POST, send the browser to a page with GET."""

    status_code = 303


def game_or_404(game_id: str) -> Game:
    return get_object_or_404(Game, public_id=game_id)


def to_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Go to the game's page: a redirect, which htmx follows as a whole page."""
    url = reverse("game-detail", args=[game.public_id])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return SeeOther(url)


def choice_of(data: Mapping[str, str], game: Game, *, default: bool = False) -> str:
    """What the viewer chose before moving, read from the query or form field the game's
    kind names (``?stone=thunder``, ``?from=B6``); ``default``: the kind's when none is."""
    drawing = game.game_kind.drawing
    return data.get(drawing.choice_field, drawing.choice_default if default else "")[:MAX_CHOICE]


def partial(request: HtmxHttpRequest) -> bool:
    """True for an htmx request that redraws part of a page. Going back in history to a
    page htmx pushed asks for the page again (``HX-History-Restore-Request``): the
    whole page, which htmx puts in place of the body."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def refusal_status(request: HtmxHttpRequest, status: int) -> int:
    """The status of an answer that shows a refusal: 200 to htmx, which swaps only
    successful answers, the refusal's own to everyone else."""
    return 200 if partial(request) else status


def render_game(
    request: HtmxHttpRequest,
    game: Game,
    *,
    choice: str = "",  # pragma: no mutate (no choice: the kind's default)
    error: str = "",
    full: bool | None = None,
    status: int = 200,
    ply: int | None = None,
    seen: int | None = None,
) -> HttpResponse:
    """The game page, or just its live part for an htmx request; ``ply`` shows an
    earlier moment of it. A game whose side to move has run out of time is shown ended
    (``play.in_time``): the end was due, whoever sees it first."""
    game = play.in_time(game)
    page = game_page(request, game, choice=choice, error=error, ply=ply, seen=seen)
    context = {
        "page": page,
        "refresh_seconds": REFRESH_SECONDS.get(page.awaited, 0),
        "rematch_poll_seconds": REMATCH_POLL_SECONDS,
    }
    if full is None:
        full = not partial(request)
    template = "game/detail.html" if full else "game/_game.html"
    return render(request, template, context, status=status)


def refuse(request: HtmxHttpRequest, game: Game, refusal: play.PlayError) -> HttpResponse:
    """Show why an action on ``game`` was refused: on the board to htmx, on a page
    with the refusal's status to everyone else. Nothing was changed."""
    if partial(request):
        return render_game(request, game, error=str(refusal))
    context = {"message": str(refusal), "game": game}
    return render(request, "error.html", context, status=refusal.status)


def act_on_game(
    request: HtmxHttpRequest,
    game_id: str,
    action: Callable[[], Game],
    nowhere_to_go_back: tuple[type[play.PlayError], ...] = (play.NotSeated,),
) -> HttpResponse:
    """Do ``action`` and show the game; a refusal is shown on it and changes nothing.
    The refusals of ``nowhere_to_go_back`` (by default: not seated) get a page of their
    own without htmx (``refuse``), the others a redirect back with their words
    (``refuse_back``); no such game is 404."""
    try:
        game = action()
    except play.GameNotFound:
        raise Http404("there is no such game") from None
    except nowhere_to_go_back as exc:
        return refuse(request, game_or_404(game_id), exc)
    except play.PlayError as exc:
        return refuse_back(request, game_or_404(game_id), exc)
    if request.htmx:
        return render_game(request, game)
    return to_game(request, game)


def refuse_back(request: HtmxHttpRequest, game: Game, refusal: play.PlayError) -> HttpResponse:
    """Like ``refuse``, but a page without htmx goes back to the game with the words as
    a message (its form came from there, and the board shows them)."""
    if partial(request):
        return render_game(request, game, error=str(refusal))
    messages.error(request, str(refusal))
    return to_game(request, game)


def too_many(request: HttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    """A page that says a client asked too often (``limits.limited`` makes it a 429),
    or, to htmx redrawing a game, that game with the words on its board."""
    game_id = request.resolver_match.kwargs.get("game_id") if request.resolver_match else None
    if game_id and partial(request):
        response = render_game(request, game_or_404(game_id), error=str(exceeded))
        response.drawn_refusal = True
        return response
    return render(request, "error.html", {"message": str(exceeded)})


def moment(request: HttpRequest, game: Game) -> int | None:
    """The moment of the game ``?ply=`` asks for: None for the game as it is now.
    Raises ``Http404``, saying why, for one the game does not have."""
    text = request.GET.get("ply")
    if text is None or text == "":
        return None
    found = moment_of(text, game)
    if found is None:
        moves = "no moves" if game.ply == 0 else f"moves 0 to {game.ply}"
        raise Http404(f"{text[:20]!r} is not a moment of this game: it has {moves}")
    return found


def moment_of(text: str, game: Game) -> int | None:
    """The moment of ``game`` that ``text`` (a ply, as a form sends it) names, or None.
    Its length is checked first: ``int`` refuses a number of thousands of digits."""
    if text.isascii() and text.isdigit() and len(text) < 6 and int(text) <= game.ply:
        return int(text)
    return None


def seen(request: HttpRequest) -> int | None:
    """The game's ply when a page looking back began to (``?seen=``)."""
    # Any text that is not digits reads as no moment: the default need only be one.
    text = request.GET.get("seen", "")  # pragma: no mutate
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


def whole(text: str | None) -> int:
    """A revision number sent by the browser; 0 (send the current state) if it is not one."""
    if text and text.isascii() and text.isdigit() and len(text) < 10:
        return int(text)
    return 0
