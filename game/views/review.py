"""Looking back at a game: its analysis, its record and picture, importing a record,
and continuing a game from any of its moments."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.core.cache import caches
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from game import computer, play, records, seats
from game.forms import ContinueForm, GameChoiceForm, option_choices
from game.kinds import GamePosition
from game.miniature import game_choices
from game.models import Game
from game.options import OptionError
from game.pages import (
    AnalysisPanel,
    analysis_allowed,
    analysis_panel,
    game_page,
    game_record,
    game_urls,
    position_keys,
)
from game.registry import KINDS, kind_named
from game.trying import LineError, line_url, play_line, split_line, try_page
from game.views.common import (
    HtmxHttpRequest,
    SeeOther,
    game_or_404,
    moment,
    moment_of,
    partial,
    refuse,
    to_game,
    too_many,
)
from kit import limits

# Analysis ----------------------------------------------------------------------------------


def _too_many_analyses(request: HtmxHttpRequest, exceeded: limits.Exceeded) -> HttpResponse:
    """Asked too often: the analysis panel says so to htmx, which redraws it; a page
    says so to everyone else."""
    game = game_or_404(request.resolver_match.kwargs["game_id"])
    panel = analysis_panel(game, game.ply, error=str(exceeded))
    if not (partial(request) and panel):
        return too_many(request, exceeded)
    response = render(request, "game/_analysis.html", {"analysis": panel})
    response.drawn_refusal = True
    return response


@require_POST
@limits.limited(limits.THINK, _too_many_analyses)
def analyse(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Ask for the analysis of a moment (``ply``) or, with ``whole``, of every moment."""
    game = game_or_404(game_id)
    text = request.POST.get("ply", "")
    if moment_of(text, game) is None:
        refusal = play.PlayError(f"{text[:20]!r} is not a moment of this game")
    elif not analysis_allowed(game):
        refusal = play.PlayError("a game with a friend is analysed once it is over")
    else:
        refusal = None
    if refusal is not None:
        panel = analysis_panel(game, game.ply, error=str(refusal))
        if partial(request) and panel is not None:  # shown where the request was made
            return render(request, "game/_analysis.html", {"analysis": panel})
        return refuse(request, game, refusal)
    ply = int(text)
    keys = position_keys(game)
    with transaction.atomic():
        if request.POST.get("whole"):
            computer.request_analysis(game.game_kind, keys, computer.GAME_ANALYSIS_SECONDS)
        else:
            computer.request_analysis(game.game_kind, [keys[ply]])
    if request.htmx:
        return _panel(request, game, ply, analysis_panel(game, ply))
    url = game_urls(game.public_id).page
    return SeeOther(url if ply == game.ply else f"{url}?ply={ply}")


@require_safe
def analysis(request: HttpRequest, game_id: str) -> HttpResponse:
    """The analysis panel of a moment (``?ply=``), asked again while analyses are due."""
    game = game_or_404(game_id)
    ply = moment(request, game)
    shown = game.ply if ply is None else ply
    panel = analysis_panel(game, shown)
    if panel is None:
        raise Http404("a game with a friend is analysed once it is over")
    return _panel(request, game, shown, panel)


def _panel(request: HttpRequest, game: Game, ply: int, panel: AnalysisPanel) -> HttpResponse:
    """The panel; once it judges the moves, the move list too, marked (out of band)."""
    page = None
    if panel.review is not None:
        page = game_page(request, game, choice="", error="", ply=None if ply == game.ply else ply)
    return render(request, "game/_analysis_answer.html", {"analysis": panel, "page": page})


# Continuing --------------------------------------------------------------------------------


@require_POST
@limits.limited(limits.CREATE, too_many)
def continue_game(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Start a new game from a moment of this one (``ply``), hot-seat or against the
    computer, with the moves up to it as its own first moves."""
    game = game_or_404(game_id)
    form = ContinueForm(request.POST, kind=game.game_kind)
    if not form.is_valid():
        messages.error(request, form.error_text())
        return to_game(request, game)
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
        return to_game(request, game)
    seats.remember(request, new.public_id, tokens)
    return to_game(request, new)


# Pictures ----------------------------------------------------------------------------------

# A moment of a game changes only by a takeback; a position's picture never does.
GAME_IMAGE_SECONDS = 300
POSITION_IMAGE_SECONDS = 7 * 24 * 3600


@require_safe
def game_image(request: HttpRequest, game_id: str) -> HttpResponse:
    """The picture of a moment of the game (``?ply=``; the game now by default)."""
    game = game_or_404(game_id)
    ply = moment(request, game)
    ply = game.ply if ply is None else ply
    caption = f"{game.get_mode_display()} · after move {ply} of {game.ply}"
    return png(request, game.game_kind.picture, game.position(ply), caption)


def png(
    request: HttpRequest,
    picture,
    position: GamePosition,
    caption: str,
    seconds: int = GAME_IMAGE_SECONDS,
) -> HttpResponse:
    """A board picture drawn by ``picture``, with an ETag of what it shows, cached
    ``seconds``."""
    last = position.last_played
    tag = hashlib.sha256(f"{position!r}|{last and last.move}|{caption}".encode()).hexdigest()
    etag = f'"{tag[:32]}"'
    # Header names are read in any case (HTTP's rule, and Django's in both directions),
    # and an ETag is never found in "" nor in any text without its quotes.
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={seconds}"}  # pragma: no mutate
    if etag in request.headers.get("If-None-Match", ""):  # pragma: no mutate
        return HttpResponse(status=304, headers=headers)
    # Drawn once, then kept by its ETag; a client may have only so many drawn.
    drawn = caches["pictures"].get(tag)
    if drawn is None:
        try:
            limits.check(limits.DRAW, request)
        except limits.Exceeded as exceeded:
            return limits.refused(too_many(request, exceeded), exceeded)
        drawn = picture(position, caption=caption)
        caches["pictures"].set(tag, drawn, seconds)
    return HttpResponse(drawn, content_type="image/png", headers=headers)


# Records -----------------------------------------------------------------------------------


@require_safe
def record(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's record as a text file."""
    game = game_or_404(game_id)
    text = records.write_record(game_record(request, game))
    return HttpResponse(
        text,
        content_type="text/plain; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{game.kind}-{game.public_id}.txt"',
            "Cache-Control": "no-cache",
        },
    )


# A record pasted or uploaded: 64 kB is the reader's own limit (game.records).
MAX_RECORD_BYTES = 64 * 1024


@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, too_many)
def import_record(request: HttpRequest) -> HttpResponse:
    """Paste or upload a record (or a bare list of moves) and replay it as a game, kept
    in this browser's "My games"."""
    kind = kind_named(request.POST.get("game"))
    context: dict[str, object] = {
        "text": "",
        "error": "",
        "game_choices": game_choices(GameChoiceForm(initial={"game": kind.name})["game"]),
        "rule_choices": [
            (each, option_choices(each, request.POST if each is kind else {}))
            for each in KINDS.values()
            if each.rules.OPTIONS
        ],
    }
    if request.method != "POST":
        return render(request, "game/import.html", context)
    text = request.POST.get("record", "")
    upload = request.FILES.get("file")
    try:
        rules = kind.rules.from_mapping(request.POST)
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
    except (OptionError, records.RecordError) as error:
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
    # Nobody holds an imported game's seats: it is in this browser's "My games" alone.
    seats.list_game(seats.owner_key(request, create=True), game, [])
    return SeeOther(reverse("game-detail", args=[game.public_id]))


# Trying a line -----------------------------------------------------------------------------

# A move is a few characters; a stone's kind a word.
MAX_MOVE = 40
MAX_WORD = 20


def _line_game(game_id: str) -> Game:
    game = game_or_404(game_id)
    if not analysis_allowed(game):
        raise Http404("lines are tried in a game between people once it is over")
    return game


@vary_on_headers("HX-Request")
@require_safe
def try_line(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A board of its own from a moment of the game (``?ply=``), with the line tried so
    far (``?line=``) and ``?move=`` tried after it: nothing is saved, so it is a GET.
    A line that does not follow is a bad request (400); a move the rules refuse is
    shown on the board."""
    game = _line_game(game_id)
    ply = moment(request, game)
    try:
        page = try_page(
            game,
            game.ply if ply is None else ply,
            split_line(request.GET.get("line", "")),
            request.GET.get("move", "")[:MAX_MOVE],
            request.GET.get(game.game_kind.drawing.choice_field, "")[:MAX_WORD],
        )
    except LineError as error:
        return render(request, "error.html", {"message": str(error)}, status=400)
    template = "game/_try.html" if partial(request) else "game/try.html"
    response = render(request, template, {"page": page})
    if partial(request):
        response["HX-Push-Url"] = page.url  # the line, not the move that made it
    return response


@require_POST
@limits.limited(limits.THINK, too_many)
def try_estimate(request: HttpRequest, game_id: str) -> HttpResponse:
    """Have the strongest level estimate the position a line reaches, then show it."""
    game = _line_game(game_id)
    ply = moment_of(request.POST.get("ply", ""), game)
    if ply is None:
        return render(request, "error.html", {"message": "no such moment"}, status=400)
    line = split_line(request.POST.get("line", ""))
    try:
        position = play_line(game, ply, line)
    except LineError as error:
        return render(request, "error.html", {"message": str(error)}, status=400)
    if position.outcome() is None:
        with transaction.atomic():
            key = computer.analysis_key(game.rules, position.to_text())
            computer.request_analysis(game.game_kind, [key])
    return SeeOther(line_url(game, ply, line))
