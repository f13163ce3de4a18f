"""Mǽrstánas as the site plays it: the registry's entry (``game.registry``) that ties
its engine, players, lessons, drawing and pictures together."""

from __future__ import annotations

from django.urls import reverse_lazy

from game.kinds import Arena, Drawing, GameKind, Players
from game.maerstanas import bots, lessons
from game.maerstanas.bots import reference
from game.maerstanas.drawing import announcement, describe, draw_board, why
from game.maerstanas.editor import editor
from game.maerstanas.engine import ENDS, Position, Rules
from game.maerstanas.notation import PASS, split_moves
from game.maerstanas.pictures import board_png
from game.maerstanas.rules import BOARD, SIDES


def rating_family(rules: Rules) -> str:
    """The wraparound board is another game to its players: rated apart."""
    return "wraparound" if rules.wraparound else "standard"


def settle(position: Position) -> Position:
    """The position once the forced passes are played: a side with no move passes."""
    while position.must_pass:
        position = position.play(PASS)
    return position


KIND = GameKind(
    name="maerstanas",
    title="Mǽrstánas",
    rules=Rules,
    start=Position.start,
    from_text=Position.from_text,
    settle=settle,
    ends=ENDS,
    split_moves=split_moves,
    players=Players(
        levels=bots.LEVELS,
        choose_move=bots.choose_move,
        analyse=bots.analyse,
        arena=Arena(
            references={
                "random": reference.random_move,
                "heuristic": reference.heuristic_move,
                "aelfric": reference.aelfric_move,
            },
            uct=reference.uct_move,
            second="heuristic",
            goal="aelfric",
        ),
    ),
    lessons=lessons.LESSONS,
    board=BOARD,
    drawing=Drawing(
        draw_board=draw_board,
        describe=describe,
        announcement=announcement,
        picture=board_png,
        editor=editor,
        why=why,
        choice_field="stone",
        choice_default="stone",
        rules_template="maerstanas/_rules.html",
    ),
    rules_doc="RULES.md",
    rating_family=rating_family,
    example_moves=("E4", "T E4", "W E4"),
    tagline="place stones to make hinges",
    # A few moves in: hinges taking shape in the middle.
    showcase="......./......./..SSss./.S.Sss./..Ss.../......./....... d TWtw",
    about_url=reverse_lazy("about"),  # the site's own About page: the first game's
    sides=SIDES,
    credit="by John Beers",
    licence=("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
)
