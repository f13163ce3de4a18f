"""The lessons of ``/learn/``: each a board on which a move is tried, in the address."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from game.kinds import GameKind
from game.pages import lesson_page
from game.registry import DEFAULT, KINDS
from game.views.common import HtmxHttpRequest, partial, refusal_status

# A move is a few characters; the rest of a longer text is not read.
MAX_MOVE = 40
# The lessons this browser solved, by slug, in its session: a signed cookie, so the
# list stays a few hundred bytes at most (every lesson's slug once), and nothing is
# kept on the server.
SOLVED_KEY = "lessons_solved"


@require_safe
def learn(request: HttpRequest) -> HttpResponse:
    """The lessons, in order: Mǽrstánas's, then each other game's."""
    others = [(kind, kind.lessons) for kind in KINDS.values() if kind is not DEFAULT]
    context = {"lessons": DEFAULT.lessons, "others": others, "solved": _solved(request)}
    return render(request, "learn/index.html", context)


@vary_on_headers("HX-Request")
@require_safe
def lesson(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A lesson's board; ``?move=`` tries a move on it and says whether it does the task.

    Nothing is saved, so trying a move is a GET: the address holds the whole attempt.
    Text that is not a move at all is a bad request (400); a move the rules refuse is
    shown on the board (200).
    """
    kind = next((kind for kind in KINDS.values() if slug in _slugs(kind)), None)
    if kind is None:
        raise Http404("there is no such lesson")
    text = request.GET.get("move", "")[:MAX_MOVE]
    choice = request.GET.get(kind.drawing.choice_field, "")[:MAX_MOVE]
    page = lesson_page(kind, _slugs(kind).index(slug), text, choice)
    if page.tried is not None and page.tried.solved:
        _remember_solved(request, slug)
    template = "learn/_lesson.html" if partial(request) else "learn/lesson.html"
    status = 400 if page.tried is not None and page.tried.unreadable else 200
    context = {"page": page, "count": len(kind.lessons)}
    return render(request, template, context, status=refusal_status(request, status))


def _slugs(kind: GameKind) -> list[str]:
    return [found.slug for found in kind.lessons]


def _solved(request: HttpRequest) -> set[str]:
    """The slugs of the lessons this browser solved."""
    kept = request.session.get(SOLVED_KEY, [])
    return {slug for slug in kept if isinstance(slug, str)} if isinstance(kept, list) else set()


def _remember_solved(request: HttpRequest, slug: str) -> None:
    """Keep ``slug`` (a lesson's, found by the view) among this browser's solved lessons,
    in its own cookie: solving a lesson again changes nothing, and the list holds only
    lessons there are, so it never grows past them."""
    known = {lesson.slug for kind in KINDS.values() for lesson in kind.lessons}
    solved = _solved(request) & known
    if slug not in solved:
        request.session[SOLVED_KEY] = sorted(solved | {slug})
