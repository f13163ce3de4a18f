"""The site's own pages: the home page with the new-game form, "My games", the About
page and its documents, and the health check."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from game import play, seats
from game.forms import NewGameForm, forms_of_kinds
from game.kinds import GameKind
from game.miniature import game_choices
from game.pages import ladder, my_game_lines
from game.registry import DEFAULT, KINDS, find_kind, kind_named
from game.views.common import HtmxHttpRequest, to_game, too_many
from kit import limits


@require_http_methods(["GET", "HEAD", "POST"])
@limits.limited(limits.CREATE, too_many)
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page; its form starts a game and redirects to it. ``?game=`` chooses
    the game the form starts with (its levels and rules checked as they begin)."""
    if request.method == "POST":
        form = NewGameForm(request.POST, kind=kind_named(request.POST.get("game")))
        user = request.user if request.user.is_authenticated else None
        if form.is_valid() and form.cleaned_data["rated"]:
            if user is None:
                form.add_error("rated", "Log in to play a rated game: it is between accounts.")
            elif form.cleaned_data["mode"] != "friend":
                form.add_error("rated", "Only a game against a friend is rated.")
        if form.is_valid():
            data = form.cleaned_data
            game, tokens = play.create_game(
                data["mode"],
                form.rules(),
                data["color"] or "dark",
                level=data["level"],
                user=user,
                rated=data["rated"],
            )
            seats.remember(request, game.public_id, tokens)
            return to_game(request, game)
        return render(request, "game/home.html", _home_context(form), status=400)
    kind = _kind_asked(request.GET.get("game"))
    form = NewGameForm(kind=kind, initial={"game": kind.name})
    return render(request, "game/home.html", _home_context(form))


def _kind_asked(name: str | None) -> GameKind:
    """The game a query's ``game`` names, the default for none; 404 for no game here."""
    if name is None:
        return DEFAULT
    try:
        return find_kind(name)
    except KeyError:
        raise Http404("there is no such game") from None


def _home_context(form: NewGameForm) -> dict[str, object]:
    return {
        "form": form,
        # Each choice of game beside its kind, whose words and small board say
        # which game it is.
        "game_choices": game_choices(form["game"]),
        "default": DEFAULT,
        "kinds": list(KINDS.values()),
        # Every game's levels are offered, each game's apart; one level is checked.
        "chosen_level": form["level"].value(),
        "rules_forms": forms_of_kinds(form),
    }


@never_cache  # a browser's own list
@require_safe
def games(request: HttpRequest) -> HttpResponse:
    """This browser's games, a page at a time (``?page=``): those going on first, your
    turn marked, then the finished."""
    page = seats.my_games(request, request.GET.get("page"))
    going_on, finished = my_game_lines(page.object_list)
    context = {"going_on": going_on, "finished": finished, "page": page}
    return render(request, "game/games.html", context)


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A trivial answer for load balancers and uptime checks (touches no database)."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def about(request: HttpRequest) -> HttpResponse:
    """The site's first game's About page: its rules, as its author's page tells them,
    and our decisions."""
    context = {"kind": DEFAULT, "ladder": ladder(DEFAULT)}
    return render(request, f"{DEFAULT.name}/about.html", context)


@require_safe
def about_kind(request: HttpRequest, name: str) -> HttpResponse:
    """Another game's About page (``/about/cyngesheall/``): its rules in our words."""
    try:
        kind = find_kind(name)
    except KeyError:
        raise Http404("there is no such game") from None
    if kind is DEFAULT:
        return redirect("about")
    return render(request, f"{kind.name}/about.html", {"kind": kind, "ladder": ladder(kind)})


# The project's own documents, served as the text they are: the About page links them.
# Each kind's rule book is "rules" (Mǽrstánas's) or its name.
DOCS = {"design": "DESIGN.md"} | {
    "rules" if kind is DEFAULT else kind.name: kind.rules_doc for kind in KINDS.values()
}


@require_safe
def doc(request: HttpRequest, name: str) -> HttpResponse:
    """``docs/RULES.md`` or ``docs/DESIGN.md`` as plain text; any other name is a 404."""
    if name not in DOCS:
        raise Http404("there is no such document")
    # A kind's rule book kept in its own folder is an absolute path, which the join keeps.
    text = (settings.BASE_DIR / "docs" / DOCS[name]).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
