"""HTTP in, HTML out. Each view finds the game, reads the input, calls play.py, renders."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from game import (
    bots,
    computer,
    lessons,
    limits,
    live,
    pictures,
    play,
    positions,
    records,
    seats,
)
from game.board import (
    Board,
    Fragments,
    Outcome,
    Status,
    Stones,
    announcement,
    describe,
    draw_board,
    move_list,
)
from game.engine import Color, MoveError, Score, parse_move
from game.forms import ContinueForm, NewGameForm
from game.graph import estimate_graph
from game.models import Analysis, Game

# Without JavaScript, a page waiting for the other side reloads itself this often.
REFRESH_SECONDS = 5
# A finished friend game's page asks this often whether a rematch was offered.
REMATCH_POLL_SECONDS = 3


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class SeeOther(HttpResponseRedirect):
    """After a POST, send the browser to a page with GET."""

    status_code = 303


def _game_or_404(game_id: str) -> Game:
    return get_object_or_404(Game, public_id=game_id)


def _to_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    url = reverse("game-detail", args=[game.public_id])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return SeeOther(url)


class GameUrls(NamedTuple):
    page: str
    move: str
    resign: str
    rematch: str
    hint: str
    api: str
    takeback: str
    record: str
    image: str
    continue_: str
    analyse: str
    analysis: str


@lru_cache(maxsize=4096)
def game_urls(public_id: str) -> GameUrls:
    """The URLs of one game's page and actions, reversed once."""
    names = (
        "game-detail",
        "game-move",
        "game-resign",
        "game-rematch",
        "game-hint",
        "api-game",
        "game-takeback",
        "game-record",
        "game-image",
        "game-continue",
        "game-analyse",
        "game-analysis",
    )
    return GameUrls(*(reverse(name, args=[public_id]) for name in names))


class Step(NamedTuple):
    """A link of the replay's controls: ``url`` is "" where there is no such moment."""

    url: str
    label: str


@dataclass(frozen=True, slots=True)
class Replay:
    """Where the page is in the game's moves, and the links to step through them."""

    ply: int  # the moment shown: the position after this many moves
    last: int  # the game's ply now
    first_step: Step
    back: Step
    forward: Step
    live: Step  # the game as it is now

    @property
    def reviewing(self) -> bool:
        return self.ply < self.last


def replay_steps(page_url: str, ply: int, last: int) -> Replay:
    """The replay controls for the moment ``ply`` of a game at ``last``."""

    def at(target: int, label: str, allowed: bool) -> Step:
        if not allowed:
            return Step("", label)
        return Step(page_url if target >= last else f"{page_url}?ply={target}", label)

    return Replay(
        ply=ply,
        last=last,
        first_step=at(0, "First position", ply > 0),
        back=at(ply - 1, "Back a move", ply > 0),
        forward=at(ply + 1, "Forward a move", ply < last),
        live=at(last, "The game now", ply < last),
    )


class SeatLink(NamedTuple):
    color: str
    url: str


class ComputerSeat(NamedTuple):
    """The seat the computer holds, and how it plays."""

    color: str
    level: bots.Level
    number: int  # its place on the ladder, from 1, the weakest
    thinking: bool  # it is to move, and its move is on its way


@dataclass(frozen=True, slots=True)
class GamePage:
    """Everything the game page and its live part show, for one viewer."""

    game: Game
    board: Board
    status: Status
    announce: str  # what a screen reader says of the change
    moves: Fragments
    seated: frozenset[str]
    urls: GameUrls
    error: str
    invite_url: str
    seat_links: tuple[SeatLink, ...]
    rematch: Game | None
    rematch_joinable: bool  # the viewer played this game and may take a seat in its rematch
    computer: ComputerSeat | None  # in a game against the computer
    hint: str  # the hint asked for here: its move, "" while it is thought out
    hint_allowed: bool  # the viewer may ask for a hint now
    replay: Replay
    news: str  # while reviewing: what happened in the game since the page opened
    seen: int  # the game's ply when the review began
    takeback: str  # what the viewer may do about a takeback: take, ask, answer, wait, ""
    analysis: AnalysisPanel | None
    hinges: bool  # the scoring hinges are drawn on the board

    @property
    def live(self) -> bool:
        """The game goes on: the page keeps asking for news."""
        return not self.game.is_over and self.game.mode != Game.Mode.IMPORTED

    @property
    def live_url(self) -> str:
        """The game's stream of server-sent events, from the revision this page shows."""
        path = reverse("game-live", args=[self.game.public_id])
        return f"{path}?revision={self.game.revision}"

    @property
    def poll_url(self) -> str:
        """Where the live page asks for news: 204 until the game's revision moves on;
        a page looking back asks to stay at its moment."""
        path = reverse("game-poll", args=[self.game.public_id, self.game.revision])
        hinges = "hinges=on&" if self.hinges else ""
        if self.replay.reviewing:
            return f"{path}?ply={self.replay.ply}&seen={self.seen}&{hinges}"
        return f"{path}?{hinges}"

    @property
    def hinges_url(self) -> str:
        """This page with the scoring hinges shown, or hidden if they are."""
        query = f"ply={self.replay.ply}&" if self.replay.reviewing else ""
        return f"{self.urls.page}?{query}hinges={'off' if self.hinges else 'on'}"

    @property
    def awaits_rematch(self) -> bool:
        """A finished game between two people with no rematch yet: its page asks every
        few seconds, so an offer of one shows without a reload."""
        game = self.game
        return game.is_over and game.mode == Game.Mode.FRIEND and self.rematch is None

    @property
    def your_turn(self) -> bool:
        """The viewer plays one side, and it is that side's move."""
        return self.board.can_move and len(self.seated) == 1

    @property
    def title(self) -> str:
        """The page's title, which follows the game: "Your turn", "Light to move"."""
        if self.replay.reviewing:
            return f"Move {self.replay.ply} of {self.replay.last}"
        return self.status.headline

    @property
    def image_url(self) -> str:
        """The picture of the moment shown (link previews and the page's own link)."""
        return f"{self.urls.image}?ply={self.replay.ply}"


def game_page(
    request: HttpRequest,
    game: Game,
    *,
    stone: str,
    error: str,
    ply: int | None = None,
    seen: int | None = None,
) -> GamePage:
    """The game as ``request``'s browser sees it: its seats decide what it may do;
    ``?hinges=on`` draws the hinges each stone scores by.

    ``ply`` shows an earlier moment of the game, to look back at; ``seen`` is the
    game's ply when the player began to, so the page can say what was played since.
    """
    tokens = seats.tokens_for(request, game.public_id)
    seated = frozenset(play.seated_colors(game, tokens))
    replay = replay_steps(
        game_urls(game.public_id).page, game.ply if ply is None else ply, game.ply
    )
    current = game.position()
    position = game.position(replay.ply) if replay.reviewing else current
    ended = game.is_over and not replay.reviewing
    outcome = Outcome(game.result, game.status) if ended else None
    waiting = game.status == Game.Status.WAITING
    mover = (
        Color(game.turn)
        if not (outcome or waiting or replay.reviewing) and game.turn in seated
        else None
    )
    rematch = play.rematch_of(game)
    status = describe(position, outcome, seated, waiting)
    hint = game.hint if game.hint_asked and not replay.reviewing else ""
    seen = game.ply if seen is None else min(seen, game.ply)
    hinges = request.GET.get("hinges") == "on"
    # The panel reads the game's analyses: shown when looking back or at the end,
    # not on every redraw of a board in play.
    analysed = replay.reviewing or game.is_over or game.mode == Game.Mode.IMPORTED
    news = ""
    if replay.reviewing and seen < game.ply and (last := current.last_played) is not None:
        played = "passed" if last.move.is_pass else f"played {last.text}"
        news = f"{last.color.value.capitalize()} {played}."
    return GamePage(
        game=game,
        board=draw_board(position, mover, stone, parse_move(hint) if hint else None, hinges=hinges),
        status=status,
        announce=news or announcement(position, status),
        moves=move_list(current, replay.ply if replay.reviewing else None),
        seated=seated,
        urls=game_urls(game.public_id),
        error=error,
        invite_url=_invite_url(request, game, seated),
        seat_links=_seat_links(request, game, tokens),
        rematch=rematch,
        rematch_joinable=bool(
            rematch
            and seated
            and play.free_seat(rematch) is not None
            and not seats.tokens_for(request, rematch.public_id)
        ),
        computer=_computer_seat(game),
        hint=hint,
        hint_allowed=mover is not None and game.mode != Game.Mode.FRIEND,
        replay=replay,
        news=news,
        seen=seen,
        takeback=_takeback(game, seated, current),
        analysis=analysis_panel(game, replay.ply) if analysed else None,
        hinges=hinges,
    )


def _takeback(game: Game, seated: frozenset[str], position) -> str:
    """What the viewer may do about taking a move back: ``take`` one at once (hot-seat,
    the computer), ``ask`` the friend, ``answer`` the friend's request, ``wait`` for
    the friend's answer; "" for nothing."""
    if game.status != Game.Status.ACTIVE or not seated:
        return ""
    if game.mode == Game.Mode.FRIEND and len(seated) == 1:
        if game.takeback_by:
            return "wait" if game.takeback_by in seated else "answer"
        mine = any(p.color in seated and not p.move.is_pass for p in position.history)
        return "ask" if mine else ""
    if game.mode == Game.Mode.COMPUTER:
        mine = any(p.color in seated and not p.move.is_pass for p in position.history)
        return "take" if mine else ""
    return "take" if any(not p.move.is_pass for p in position.history) else ""


def _computer_seat(game: Game) -> ComputerSeat | None:
    for color in Color:
        if level_id := game.level_of(color):
            level = bots.level(level_id)
            number = bots.LEVELS.index(level) + 1
            return ComputerSeat(color.value, level, number, game.computer_to_move == level_id)
    return None


def _render_game(
    request: HtmxHttpRequest,
    game: Game,
    *,
    stone: str = "stone",
    error: str = "",
    full: bool | None = None,
    status: int = 200,
    ply: int | None = None,
    seen: int | None = None,
) -> HttpResponse:
    """The game page, or just its live part for an htmx request; ``ply`` shows an
    earlier moment of it."""
    context = {
        "page": game_page(request, game, stone=stone, error=error, ply=ply, seen=seen),
        "refresh_seconds": REFRESH_SECONDS,
        "rematch_poll_seconds": REMATCH_POLL_SECONDS,
        "levels": bots.LEVELS,
    }
    if full is None:
        full = not _partial(request)
    template = "game/detail.html" if full else "game/_game.html"
    return render(request, template, context, status=status)


def _partial(request: HtmxHttpRequest) -> bool:
    """True for an htmx request that redraws part of a page. Going back in history to a
    page htmx pushed asks for the page again (``HX-History-Restore-Request``): the
    whole page, which htmx puts in place of the body."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _invite_url(request: HttpRequest, game: Game, seated: frozenset[str]) -> str:
    if game.mode != Game.Mode.FRIEND or not seated or play.free_seat(game) is None:
        return ""
    path = reverse("game-invite", args=[game.public_id, play.invite_code(game)])
    return request.build_absolute_uri(path)


def _seat_links(request: HttpRequest, game: Game, tokens: dict[str, str]) -> tuple[SeatLink, ...]:
    if game.mode != Game.Mode.FRIEND:
        return ()
    return tuple(
        SeatLink(
            color,
            request.build_absolute_uri(reverse("game-seat", args=[game.public_id, color, token])),
        )
        for color, token in sorted(tokens.items())
        if game.holds_seat(color, token)
    )


def _too_many(request: HttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    return render(request, "error.html", {"message": str(exceeded)})


@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, _too_many)
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page; its form starts a game and redirects to it."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            game, tokens = play.create_game(
                data["mode"], form.rules(), data["color"] or "dark", level=data["level"]
            )
            seats.remember(request, game.public_id, tokens)
            return _to_game(request, game)
        return render(request, "game/home.html", _home_context(form), status=400)
    return render(request, "game/home.html", _home_context(form))


def _home_context(form: NewGameForm) -> dict[str, object]:
    return {"form": form, "levels": bots.LEVELS}


@never_cache  # seat and invite links: kept out of every cache
@require_safe
@vary_on_headers("HX-Request")
def detail(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The game page (or its live part for htmx); ``?stone=`` picks the stone to place,
    ``?ply=N`` shows the game after its first N moves."""
    game = _game_or_404(game_id)
    try:
        ply = _ply(request, game)
    except Http404 as missing:
        return render(request, "error.html", {"message": str(missing), "game": game}, status=404)
    return _render_game(
        request, game, stone=request.GET.get("stone", "stone"), ply=ply, seen=_seen(request)
    )


def _ply(request: HttpRequest, game: Game) -> int | None:
    """The moment of the game ``?ply=`` asks for: None for the game as it is now.
    Raises ``Http404``, saying why, for one the game does not have."""
    text = request.GET.get("ply")
    if text is None or text == "":
        return None
    if not (text.isascii() and text.isdigit() and len(text) < 6) or int(text) > game.ply:
        moves = "no moves" if game.ply == 0 else f"moves 0 to {game.ply}"
        raise Http404(f"{text[:20]!r} is not a moment of this game: it has {moves}")
    return int(text)


def _seen(request: HttpRequest) -> int | None:
    text = request.GET.get("seen", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


@require_POST
def move(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Play the posted move for the side to move; a refusal is shown and changes nothing."""
    tokens = seats.tokens_for(request, game_id)
    stone = request.POST.get("stone", "stone")
    error = ""
    try:
        game = play.make_move(
            game_id, tokens, request.POST.get("move", ""), request.POST.get("ply")
        )
    except play.GameNotFound:
        raise Http404("there is no such game") from None
    except play.NotSeated as exc:
        return _refuse(request, _game_or_404(game_id), exc)
    except (MoveError, play.PlayError) as exc:
        error = str(exc)
        game = _game_or_404(game_id)
    if request.htmx:
        return _render_game(request, game, stone=stone if error else "stone", error=error)
    if error:
        messages.error(request, error)
    return _to_game(request, game)


def _refuse(request: HtmxHttpRequest, game: Game, refusal: play.PlayError) -> HttpResponse:
    """Say why an action was refused, with the status its kind of refusal carries."""
    if request.htmx:
        return _render_game(request, game, error=str(refusal), status=refusal.status)
    context = {"message": str(refusal), "game": game}
    return render(request, "error.html", context, status=refusal.status)


@never_cache  # seat and invite links: kept out of every cache
@require_safe
def poll(request: HtmxHttpRequest, game_id: str, revision: int) -> HttpResponse:
    """204 while the game is at the page's revision (one indexed read); else the fresh part."""
    current = play.revision(game_id)
    if current is None:
        raise Http404("there is no such game")
    if current == revision:
        return HttpResponse(status=204)
    game = _game_or_404(game_id)
    try:
        ply = _ply(request, game)
    except Http404:
        ply = None  # the moment looked at was taken back: the game as it is now
    return _render_game(
        request,
        game,
        stone=request.GET.get("stone", "stone"),
        full=False,
        ply=ply,
        seen=_seen(request),
    )


@require_safe
async def stream(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's server-sent events: one, whose id is the revision, each time it changes.

    A reconnecting browser sends the last id it saw as ``Last-Event-ID``; a page
    opening the stream names the revision it shows as ``?revision=``.
    """
    if not request.accepts("text/event-stream"):
        return HttpResponse(
            "This is a stream of server-sent events: ask for text/event-stream.\n",
            status=406,
            content_type="text/plain",
        )
    if await sync_to_async(live.read_once)(game_id) is None:
        raise Http404("there is no such game")
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":  # the stream's headers; its body would never end
        return HttpResponse(content_type="text/event-stream", headers=headers)
    since = _whole(request.headers.get("Last-Event-ID")) or _whole(request.GET.get("revision"))
    return StreamingHttpResponse(
        live.stream(game_id, since),
        content_type="text/event-stream",
        headers=headers,
    )


def _whole(text: str | None) -> int:
    """A revision number sent by the browser; 0 (send the current state) if it is not one."""
    if text and text.isascii() and text.isdigit() and len(text) < 10:
        return int(text)
    return 0


@require_http_methods(["GET", "HEAD", "POST"])
def resign(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask to confirm (GET), then give up the game (POST); in hot-seat the side to move."""
    game = _game_or_404(game_id)
    if request.method in ("GET", "HEAD"):
        if game.is_over:
            return _to_game(request, game)
        seated = play.seated_colors(game, seats.tokens_for(request, game.public_id))
        who = game.turn if len(seated) == 2 else ""
        return render(request, "game/resign.html", {"game": game, "who": who})
    try:
        game = play.resign(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    except play.PlayError as exc:
        messages.error(request, str(exc))
    return _to_game(request, game)


@require_POST
def hint(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask for the strongest level's move; the live page marks it once it is found."""
    return _act(
        request, game_id, lambda: play.ask_hint(game_id, seats.tokens_for(request, game_id))
    )


def _act(request: HtmxHttpRequest, game_id: str, action: Callable[[], Game]) -> HttpResponse:
    """Do ``action`` and show the game; a refusal is shown on it and changes nothing."""
    try:
        game = action()
    except play.GameNotFound:
        raise Http404("there is no such game") from None
    except play.NotSeated as exc:
        return _refuse(request, _game_or_404(game_id), exc)
    except play.PlayError as exc:
        game = _game_or_404(game_id)
        if request.htmx:
            return _render_game(request, game, error=str(exc), status=exc.status)
        messages.error(request, str(exc))
    if request.htmx:
        return _render_game(request, game)
    return _to_game(request, game)


# Analysis ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnalysisPanel:
    """The strongest level's view of the moment shown, and of the whole game."""

    urls: GameUrls
    ply: int
    current: Analysis | None  # of the moment shown: asked for, perhaps not done yet
    graph: str  # the estimate over the game, as SVG; "" until a moment is analysed
    pending: bool  # analyses asked for and not done: the panel asks again
    whole: bool  # every moment is analysed or asked for

    @property
    def percent(self) -> int | None:
        if self.current is None or self.current.dark_win is None:
            return None
        return round(100 * self.current.dark_win)

    @property
    def line(self) -> list[str]:
        return self.current.line.split(", ") if self.current and self.current.line else []


def analysis_allowed(game: Game) -> bool:
    """A finished game, an imported one, or a game one person plays (hot-seat, the
    computer) may be analysed; a friend game going on may not: it would be the
    computer playing for one side."""
    return game.is_over or game.mode != Game.Mode.FRIEND


def position_keys(game: Game) -> list[str]:
    """The analysis keys of the game's every moment, from its start to now."""
    position = game.start()
    texts = [position.to_text()]
    for move in game.cached_record():
        position = position.play(move)
        texts.append(position.to_text())
    return [computer.analysis_key(game.rules, text) for text in texts]


def analysis_panel(game: Game, ply: int) -> AnalysisPanel | None:
    """The analysis panel of the moment ``ply``; None where analysis is not allowed."""
    if not analysis_allowed(game):
        return None
    keys = position_keys(game)
    found = {row.key: row for row in Analysis.objects.filter(key__in=keys)}
    estimates = [found[key].dark_win if key in found else None for key in keys]
    page = game_urls(game.public_id).page
    graph = ""
    if sum(estimate is not None for estimate in estimates) >= 2:
        graph = estimate_graph(
            estimates,
            moves=game.cached_record(),
            link=lambda moment: f"{page}?ply={moment}",
            current=ply,
        )
    return AnalysisPanel(
        urls=game_urls(game.public_id),
        ply=ply,
        current=found.get(keys[ply]),
        graph=graph,
        pending=any(row.dark_win is None for row in found.values()),
        whole=len(found) == len(keys),
    )


@require_POST
def analyse(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask for the analysis of a moment (``ply``) or, with ``whole``, of every moment."""
    game = _game_or_404(game_id)
    text = request.POST.get("ply", "")
    if not (text.isascii() and text.isdigit() and int(text) <= game.ply):
        return _refuse(request, game, play.PlayError(f"{text[:20]!r} is not a moment of this game"))
    ply = int(text)
    if not analysis_allowed(game):
        refusal = play.PlayError("a game with a friend is analysed once it is over")
        return _refuse(request, game, refusal)
    keys = position_keys(game)
    with transaction.atomic():
        if request.POST.get("whole"):
            computer.request_analysis(keys, computer.GAME_ANALYSIS_SECONDS)
        else:
            computer.request_analysis([keys[ply]])
    if request.htmx:
        return render(request, "game/_analysis.html", {"analysis": analysis_panel(game, ply)})
    url = game_urls(game.public_id).page
    return SeeOther(url if ply == game.ply else f"{url}?ply={ply}")


@require_safe
def analysis(request: HttpRequest, game_id: str) -> HttpResponse:
    """The analysis panel of a moment (``?ply=``), asked again while analyses are due."""
    game = _game_or_404(game_id)
    ply = _ply(request, game)
    panel = analysis_panel(game, game.ply if ply is None else ply)
    if panel is None:
        raise Http404("a game with a friend is analysed once it is over")
    return render(request, "game/_analysis.html", {"analysis": panel})


@require_POST
def takeback(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Take a move back (hot-seat, the computer), ask the friend to let you, or answer
    the friend's request (``answer=accept`` or ``decline``)."""
    tokens = seats.tokens_for(request, game_id)
    answer = request.POST.get("answer", "")

    def act() -> Game:
        if not answer:
            return play.take_back(game_id, tokens)
        if answer not in ("accept", "decline"):
            raise play.PlayError(f"{answer[:20]!r} is not an answer: accept or decline")
        return play.answer_takeback(game_id, tokens, accept=answer == "accept")

    return _act(request, game_id, act)


@require_POST
@limits.limited(limits.CREATE, _too_many)
def continue_game(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Start a new game from a moment of this one (``ply``), hot-seat or against the
    computer, with the moves up to it as its own first moves."""
    game = _game_or_404(game_id)
    form = ContinueForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.error_text())
        return _to_game(request, game)
    ply = min(form.cleaned_data["ply"], game.ply)
    data = form.cleaned_data
    try:
        new, tokens = play.create_game(
            data["mode"],
            game.rules,
            data["color"] or "dark",
            level=data["level"],
            start=game.start(),
            moves=game.cached_record()[:ply],
        )
    except play.PlayError as exc:
        messages.error(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, new.public_id, tokens)
    return _to_game(request, new)


@require_POST
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Start (or join) the rematch of a finished game, colours swapped."""
    game = _game_or_404(game_id)
    try:
        new, tokens = play.rematch(game.public_id, seats.tokens_for(request, game.public_id))
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    except play.PlayError as exc:
        messages.error(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, new.public_id, tokens)
    return _to_game(request, new)


@never_cache  # seat and invite links: kept out of every cache
@require_safe
def invite(request: HtmxHttpRequest, game_id: str, code: str) -> HttpResponse:
    """The invite page: a one-click form to take the free seat (sent at once with JS on)."""
    game = _game_or_404(game_id)
    if seats.tokens_for(request, game.public_id):
        return _to_game(request, game)
    context = {
        "game": game,
        "code": code,
        "genuine": constant_time_compare(code, play.invite_code(game)),
        "seat_free": play.free_seat(game) is not None,
    }
    return render(request, "game/invite.html", context)


@require_POST
@limits.limited(limits.JOIN, _too_many)
def join(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Take the free seat with the invite code (or, in a rematch, as the returning player)."""
    game = _game_or_404(game_id)
    previous = seats.tokens_for(request, game.rematch_of.public_id) if game.rematch_of else {}
    try:
        game, color, token = play.join(
            game.public_id,
            request.POST.get("invite", ""),
            previous=previous,
            held=seats.tokens_for(request, game.public_id),
        )
    except play.PlayError as exc:
        messages.info(request, str(exc))
        return _to_game(request, game)
    seats.remember(request, game.public_id, {color: token})
    messages.success(request, f"You play {color}.")
    return _to_game(request, game)


@never_cache  # seat and invite links: kept out of every cache
@require_http_methods(["GET", "HEAD", "POST"])
def seat(request: HtmxHttpRequest, game_id: str, color: str, token: str) -> HttpResponse:
    """A private seat link: continue a game from another device."""
    game = _game_or_404(game_id)
    try:
        play.check_seat(game, color, token)
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    if request.method == "POST":
        seats.remember(request, game.public_id, {color: token})
        return _to_game(request, game)
    return render(request, "game/seat.html", {"game": game, "color": color})


@require_POST
def renew_seat(request: HtmxHttpRequest, game_id: str, color: str) -> HttpResponse:
    """Replace this browser's seat token: a leaked private link stops working."""
    game = _game_or_404(game_id)
    try:
        game, token = play.renew_seat(game.public_id, seats.tokens_for(request, game_id), color)
    except play.NotSeated as exc:
        return _refuse(request, game, exc)
    seats.remember(request, game.public_id, {color: token})
    messages.success(request, f"Your private link as {color} is new: the old one no longer works.")
    return _to_game(request, game)


class MyGame(NamedTuple):
    """A line of "My games"."""

    game: Game
    colors: tuple[str, ...]  # the seats this browser holds
    your_turn: bool
    summary: str


@never_cache  # a browser's own list
@require_safe
def games(request: HttpRequest) -> HttpResponse:
    """This browser's games: those going on first, your turn marked, then the finished."""
    lines = []
    for entry in seats.my_games(request):
        game = entry.game
        colors = tuple(entry.colors.split())
        if game.is_over:
            summary = f"{Game.Result(game.result).label} · {game.dark_score}–{game.light_score}"
        elif game.status == Game.Status.WAITING:
            summary = "Waiting for your friend"
        else:
            summary = f"{game.turn.capitalize()} to move · move {game.ply + 1}"
        your_turn = game.status == Game.Status.ACTIVE and game.turn in colors
        lines.append(MyGame(game, colors, your_turn and not game.computer_to_move, summary))
    going_on = [line for line in lines if not line.game.is_over]
    going_on.sort(key=lambda line: not line.your_turn)  # stable: newest first within
    finished = [line for line in lines if line.game.is_over]
    return render(request, "game/games.html", {"going_on": going_on, "finished": finished})


# Positions ---------------------------------------------------------------------------------


@require_safe
def position_page(request: HttpRequest) -> HttpResponse:
    """Any position given by its text (``?text=``), with the editor that changes it."""
    page = reverse("position")
    text = request.GET.get("text", "").strip()[:200] or positions.EMPTY_TEXT
    try:
        rules = positions.rules_from(request.GET)
    except ValueError as error:
        return render(request, "error.html", {"message": str(error)}, status=400)
    found, error = positions.read(text, rules)
    editor = positions.editor(text, rules, page)
    context = {
        "text": text,
        "rules": rules,
        "error": error,
        "editor": editor or positions.editor(positions.EMPTY_TEXT, rules, page),
        "levels": bots.LEVELS,
        "query": positions.query_of(text, rules),
    }
    if found is not None:
        context["status"] = describe(found, None, frozenset())
        if found.is_over:
            context["status"] = describe(found, Outcome(found.result, "no-moves"), frozenset())
        context["valid"] = True
    return render(request, "game/position.html", context, status=200 if found else 400)


@require_POST
@limits.limited(limits.CREATE, _too_many)
def position_continue(request: HtmxHttpRequest) -> HttpResponse:
    """Start a game from a position, hot-seat or against the computer."""
    form = ContinueForm(request.POST)
    try:
        rules = positions.rules_from(request.POST)
    except ValueError as error:
        return render(request, "error.html", {"message": str(error)}, status=400)
    found, error = positions.read(request.POST.get("text", "")[:200], rules)
    if found is None or not form.is_valid():
        message = error or form.error_text()
        return render(request, "error.html", {"message": message}, status=400)
    data = form.cleaned_data
    try:
        new, tokens = play.create_game(
            data["mode"], rules, data["color"] or "dark", level=data["level"], start=found
        )
    except play.PlayError as exc:
        return render(request, "error.html", {"message": str(exc)}, status=exc.status)
    seats.remember(request, new.public_id, tokens)
    return _to_game(request, new)


# Learning ----------------------------------------------------------------------------------


@require_safe
def learn(request: HttpRequest) -> HttpResponse:
    """The lessons, in order."""
    return render(request, "learn/index.html", {"lessons": lessons.LESSONS})


@dataclass(frozen=True, slots=True)
class LessonPage:
    """A lesson as its page shows it: the board before or after the move tried."""

    lesson: lessons.Lesson
    number: int
    url: str
    board: Board
    score: Score
    tried: lessons.Attempt | None
    previous: lessons.Lesson | None
    following: lessons.Lesson | None

    @property
    def result(self) -> str:
        """ "solved", "try-again" or "refused" once a move was tried; else ""."""
        if self.tried is None:
            return ""
        if self.tried.refused:
            return "refused"
        return "solved" if self.tried.solved else "try-again"


@vary_on_headers("HX-Request")
@require_safe
def lesson(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A lesson's board; ``?move=`` tries a move on it and says whether it does the task.

    Nothing is saved, so trying a move is a GET: the address holds the whole attempt.
    """
    found = lessons.BY_SLUG.get(slug)
    if found is None:
        raise Http404("there is no such lesson")
    number = lessons.LESSONS.index(found)
    text = request.GET.get("move", "")[:40]
    tried = lessons.attempt(found, text) if text else None
    position = tried.position if tried is not None else found.position
    mover = None if tried is not None and not tried.refused else position.turn
    board = draw_board(position, mover, request.GET.get("stone", found.stone), hinges=found.hinges)
    # A lesson shows only the stones it gives: one it never had is not "spent".
    held = tuple(choice for choice in board.stones.choices if choice.available)
    page = LessonPage(
        lesson=found,
        number=number + 1,
        url=reverse("lesson", args=[slug]),
        board=replace(board, stones=Stones(held, target="#lesson")),
        score=position.score(),
        tried=tried,
        previous=lessons.LESSONS[number - 1] if number else None,
        following=lessons.LESSONS[number + 1] if number + 1 < len(lessons.LESSONS) else None,
    )
    template = "learn/_lesson.html" if _partial(request) else "learn/lesson.html"
    # Text that is not a move at all is a bad request; a move the rules refuse is shown.
    status = 400 if tried is not None and tried.refused and not _is_move(text) else 200
    return render(request, template, {"page": page, "count": len(lessons.LESSONS)}, status=status)


def _is_move(text: str) -> bool:
    try:
        parse_move(text)
    except MoveError:
        return False
    return True


# Pictures ----------------------------------------------------------------------------------

# A moment of a game changes only by a takeback; a position's picture never does.
GAME_IMAGE_SECONDS = 300
POSITION_IMAGE_SECONDS = 7 * 24 * 3600


@require_safe
def game_image(request: HttpRequest, game_id: str) -> HttpResponse:
    """The picture of a moment of the game (``?ply=``; the game now by default)."""
    game = _game_or_404(game_id)
    ply = _ply(request, game)
    ply = game.ply if ply is None else ply
    position = game.position(ply)
    caption = f"{game.get_mode_display()} · after move {ply} of {game.ply}"
    return _png(request, position, caption, GAME_IMAGE_SECONDS)


@require_safe
def position_image(request: HttpRequest) -> HttpResponse:
    """The picture of the position given by its text."""
    try:
        rules = positions.rules_from(request.GET)
    except ValueError as error:
        raise Http404(str(error)) from None
    found, error = positions.read(request.GET.get("text", "")[:200], rules)
    if found is None:
        raise Http404(error)
    return _png(request, found, "A position", POSITION_IMAGE_SECONDS)


def _png(request: HttpRequest, position, caption: str, seconds: int) -> HttpResponse:
    """A board picture, with an ETag of what it shows, cached ``seconds``."""
    tag = hashlib.sha256(f"{position!r}|{position.last_move}|{caption}".encode()).hexdigest()
    etag = f'"{tag[:32]}"'
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={seconds}"}
    if etag in request.headers.get("If-None-Match", ""):
        return HttpResponse(status=304, headers=headers)
    return HttpResponse(
        pictures.board_png(position, caption=caption), content_type="image/png", headers=headers
    )


# Records -----------------------------------------------------------------------------------


def game_record(request: HttpRequest, game: Game) -> records.Record:
    """The game's record: its tags, rules, start, moves and how it ended."""
    computer = _computer_seat(game)
    names = {}
    for color in Color:
        if computer and computer.color == color.value:
            names[color.value] = f"{computer.level.name} (computer, level {computer.number})"
        else:
            names[color.value] = "Player"
    imported = {name: value for name, value in game.tags.items() if isinstance(value, str)}
    tags = {
        "Game": game.public_id,
        "Site": request.build_absolute_uri(game_urls(game.public_id).page),
        "Date": game.created.date().isoformat(),
        "Dark": names["dark"],
        "Light": names["light"],
    }
    if game.mode == Game.Mode.IMPORTED:
        # The record's own names and date, and any other tag it had, come back (the
        # rules' tags are the reader's to make, from the game: make_record drops them).
        tags |= imported
    return records.make_record(
        rules=game.rules,
        moves=game.cached_record(),
        start=game.start(),
        result=game.result,
        end=game.status if game.is_over else "",
        tags=tuple(tags.items()),
    )


@require_safe
def record(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's record as a text file."""
    game = _game_or_404(game_id)
    text = records.write_record(game_record(request, game))
    return HttpResponse(
        text,
        content_type="text/plain; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="maerstanas-{game.public_id}.txt"',
            "Cache-Control": "no-cache",
        },
    )


# A record pasted or uploaded: 64 kB is the reader's own limit (game.records).
MAX_RECORD_BYTES = 64 * 1024


@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, _too_many)
def import_record(request: HttpRequest) -> HttpResponse:
    """Paste or upload a record (or a bare list of moves) and replay it as a game."""
    context: dict[str, object] = {"text": "", "error": ""}
    if request.method != "POST":
        return render(request, "game/import.html", context)
    text = request.POST.get("record", "")
    upload = request.FILES.get("file")
    try:
        rules = positions.rules_from(request.POST)
        if upload is not None and upload.size:
            if upload.size > MAX_RECORD_BYTES:
                raise records.RecordError("the file is larger than a record can be (64 kB)")
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise records.RecordError("the file is not text (UTF-8)") from None
        if not text.strip():
            raise records.RecordError("paste a record or a list of moves, or choose a file")
        found = records.read_record(text, rules)
    except (ValueError, records.RecordError) as error:
        context.update(text=text[:MAX_RECORD_BYTES], error=str(error))
        return render(request, "game/import.html", context, status=400)
    game = play.import_game(
        found.rules,
        found.start,
        found.moves,
        result=found.result,
        end=found.end,
        tags=dict(found.tags),
    )
    return SeeOther(reverse("game-detail", args=[game.public_id]))


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial answer for load balancers and uptime checks (touches no database)."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def about(request: HttpRequest) -> HttpResponse:
    """The rules of the game, as its author's page tells them, and our decisions."""
    levels = [
        (number, level, arena_ratings().get(level.id))
        for number, level in enumerate(bots.LEVELS, start=1)
    ]
    return render(request, "about.html", {"levels": levels})


@lru_cache(maxsize=1)
def arena_ratings() -> dict[str, int]:
    """The levels' Elo ratings, from the arena's last full run (``make arena``)."""
    path = settings.BASE_DIR / "docs" / "arena.json"
    return json.loads(path.read_text(encoding="utf-8"))["ratings"] if path.exists() else {}


# The project's own documents, served as the text they are: the About page links them.
DOCS = {"rules": "RULES.md", "design": "DESIGN.md"}


@require_safe
def doc(request: HttpRequest, name: str) -> HttpResponse:
    """``docs/RULES.md`` or ``docs/DESIGN.md`` as plain text; any other name is a 404."""
    if name not in DOCS:
        raise Http404("there is no such document")
    text = (settings.BASE_DIR / "docs" / DOCS[name]).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
