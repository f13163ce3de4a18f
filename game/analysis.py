"""The analysis panel of a game's page: the strongest level's view of the moment
shown, dark's chances over the game, and the review of its moves (``game.review``).
Read only: analyses are asked for by ``game.views.review`` and made by the worker."""

from __future__ import annotations

from dataclasses import dataclass

from game.computer import analysis_key
from game.graph import estimate_graph
from game.links import GameUrls, game_urls
from game.models import Analysis, Game
from game.review import Review, review
from game.sides import DARK_AND_LIGHT, Sides

__all__ = [
    "AnalysisPanel",
    "analysis_allowed",
    "analysis_offer",
    "analysis_panel",
    "moments",
    "position_keys",
]


@dataclass(frozen=True, slots=True)
class AnalysisPanel:
    """The strongest level's view of the moment shown, and of the whole game."""

    urls: GameUrls
    ply: int
    current: Analysis | None  # of the moment shown: asked for, perhaps not done yet
    graph: str  # the estimate over the game, as SVG; "" until two moments are analysed
    pending: bool  # analyses asked for and not done: the panel asks again
    whole: bool  # every moment is analysed or asked for
    error: str = ""  # why a request for an analysis was refused
    review: Review | None = None  # the moves judged, once any can be
    analysed: int = 0  # moments analysed, of ``moments``
    moments: int = 0
    in_play: bool = False  # the game goes on: only the moment shown is offered
    sides: Sides = DARK_AND_LIGHT  # the game's names for its sides

    @property
    def percent(self) -> int | None:
        if self.current is None or self.current.dark_win is None:
            return None
        return round(100 * self.current.dark_win)

    @property
    def line(self) -> list[str]:
        return self.current.line.split(", ") if self.current and self.current.line else []

    @property
    def replies(self) -> list[str]:
        """The moves the level expects after its own, which opens ``line``."""
        return self.line[1:]


def analysis_allowed(game: Game) -> bool:
    """A finished game, an imported one, or a game one person plays (hot-seat, the
    computer) may be analysed; a game between people going on may not, nor a rated
    game before its end: the computer would be playing for one side."""
    if game.is_over or game.mode == Game.Mode.IMPORTED:
        return True
    return game.mode != Game.Mode.FRIEND and not game.rated


@dataclass(frozen=True, slots=True)
class Moments:
    """A game's every moment, from its start to now: the analysis key of each, and
    the side and move of each ply."""

    keys: list[str]
    plays: list[tuple[str, str]]


def moments(game: Game) -> Moments:
    position = game.start()
    texts = [position.to_text()]
    plays = []
    for move in game.cached_record():
        position = position.play(move)
        texts.append(position.to_text())
        played = position.last_played
        plays.append((played.color.value, str(played.move)))
    return Moments([analysis_key(game.rules, text) for text in texts], plays)


def position_keys(game: Game) -> list[str]:
    """The analysis keys of the game's every moment, from its start to now."""
    return moments(game).keys


def analysis_offer(game: Game, ply: int) -> AnalysisPanel | None:
    """The panel of a game in play, which reads nothing: the moment shown may be
    analysed, where analysis is allowed (the page redraws it after every move)."""
    if not analysis_allowed(game):
        return None
    return AnalysisPanel(
        game_urls(game.public_id), ply, None, "", False, False, in_play=True, sides=game.sides
    )


def analysis_panel(game: Game, ply: int, error: str = "") -> AnalysisPanel | None:
    """The analysis panel of the moment ``ply``; None where analysis is not allowed."""
    if not analysis_allowed(game):
        return None
    every = moments(game)
    keys = every.keys
    found = {row.key: row for row in Analysis.objects.filter(kind=game.kind, key__in=keys)}
    done = [found[key] if key in found and found[key].done else None for key in keys]
    estimates = [row.dark_win if row else None for row in done]
    judged = review(estimates, [row.move if row else "" for row in done], every.plays)
    page = game_urls(game.public_id).page
    analysed = sum(row is not None for row in done)
    graph = ""
    if analysed >= 2:
        graph = estimate_graph(
            estimates,
            marks=judged.judgements,
            link=lambda moment: f"{page}?ply={moment}",
            current=ply,
            sides=game.sides,
        )
    return AnalysisPanel(
        urls=game_urls(game.public_id),
        ply=ply,
        current=found.get(keys[ply]),
        graph=graph,
        pending=any(row.dark_win is None for row in found.values()),
        whole=len(found) == len(keys),
        error=error,
        review=judged if any(side.judged for side in judged.sides) else None,
        analysed=analysed,
        moments=len(keys),
        sides=game.sides,
    )
