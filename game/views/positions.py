"""Any position, given by its text (``/p/?text=``): drawn with its kind's editor,
continued as a game, pictured."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from game import play, seats
from game.forms import ContinueForm
from game.kinds import GameKind, GamePosition
from game.options import OptionError, Options
from game.registry import DEFAULT, kind_named
from game.surface import (
    InvalidPositionError,
)
from game.views.common import HtmxHttpRequest, to_game, too_many
from game.views.review import POSITION_IMAGE_SECONDS, png
from kit import limits

# A position's text is some 60 characters; anything longer is cut before it is read.
MAX_TEXT = 200
# A paint or a square's name is a word of a few letters.
MAX_WORD = 20


def read(kind: GameKind, text: str, rules: Options) -> tuple[GamePosition | None, str]:
    """The position of ``text`` and "", or None and why it is not one."""
    try:
        return kind.from_text(text, rules), ""
    except InvalidPositionError as error:
        return None, str(error)


def _game(kind: GameKind) -> dict[str, str]:
    """The query naming the game, which Mǽrstánas's positions go without."""
    return {} if kind is DEFAULT else {"game": kind.name}


@require_safe
def position_page(request: HttpRequest) -> HttpResponse:
    """Any position given by its text (``?text=``), with the editor that changes it: the
    palette's choice (``paint``) is put on ``square`` first, or refused, saying why."""
    kind = kind_named(request.GET.get("game"))
    page = reverse("position")
    try:
        rules = kind.rules.from_mapping(request.GET)
    except OptionError as error:
        return render(request, "error.html", {"message": str(error)}, status=400)
    # The start of these rules' board: Moai's hex board is not its square one.
    empty = kind.start(rules).to_text()
    text = request.GET.get("text", "").strip()[:MAX_TEXT] or empty
    paint = request.GET.get("paint", "")[:MAX_WORD]
    editor = kind.drawing.editor(
        text, rules, page, paint=paint, at=request.GET.get("square", "")[:MAX_WORD]
    )
    refusal = editor.refusal if editor is not None else ""
    text = editor.text if editor is not None else text
    found, error = read(kind, text, rules)
    context = {
        "kind": kind,
        "text": text,
        "rules": rules,
        "error": error or refusal,
        "editor": editor or kind.drawing.editor(empty, rules, page, paint=paint),
        "query": urlencode({**_game(kind), "text": text, **rules.to_query()}),
    }
    if found is not None:
        outcome = kind.outcome(found)
        context["status"] = kind.drawing.describe(found, outcome, frozenset(), sides=kind.sides)
        context["valid"] = True
    ok = found is not None and not refusal
    return render(request, "game/position.html", context, status=200 if ok else 400)


@require_POST
@limits.limited(limits.CREATE, too_many)
def position_continue(request: HtmxHttpRequest) -> HttpResponse:
    """Start a game from a position, hot-seat or against the computer."""
    kind = kind_named(request.POST.get("game"))
    form = ContinueForm(request.POST, kind=kind)
    try:
        rules = kind.rules.from_mapping(request.POST)
    except OptionError as error:
        return render(request, "error.html", {"message": str(error)}, status=400)
    found, error = read(kind, request.POST.get("text", "")[:MAX_TEXT], rules)
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
    return to_game(request, new)


@require_safe
def position_image(request: HttpRequest) -> HttpResponse:
    """The picture of the position given by its text."""
    kind = kind_named(request.GET.get("game"))
    try:
        rules = kind.rules.from_mapping(request.GET)
    except OptionError as error:
        raise Http404(str(error)) from None
    found, error = read(kind, request.GET.get("text", "")[:MAX_TEXT], rules)
    if found is None:
        raise Http404(error)
    return png(request, kind.picture, found, "A position", POSITION_IMAGE_SECONDS)
