"""Three in a row as the site plays it: the registry's entry (``game.registry``) that
ties its engine, players, drawing, editor and pictures together."""

from __future__ import annotations

from pathlib import Path

from django.urls import reverse_lazy

from game.kinds import Drawing, GameKind, Players
from game.moves import move_list
from tests.third_game import bots
from tests.third_game.drawing import announcement, describe, draw_board, why
from tests.third_game.editor import editor
from tests.third_game.engine import BOARD, ENDS, SIDE_NAMES, Position, Rules, split_moves
from tests.third_game.pictures import board_png


def settle(position: Position) -> Position:
    """Nothing is forced: every move is chosen."""
    return position


def rating_family(rules: Rules) -> str:
    """One rating: the game has no options to rate apart."""
    return "standard"


KIND = GameKind(
    name="threeinrow",
    title="Three in a row",
    rules=Rules,
    start=Position.start,
    from_text=Position.from_text,
    settle=settle,
    ends=ENDS,
    split_moves=split_moves,
    players=Players(levels=bots.LEVELS, choose_move=bots.choose_move, analyse=bots.analyse),
    lessons=(),
    board=BOARD,
    drawing=Drawing(
        draw_board=draw_board,
        describe=describe,
        move_list=move_list,
        announcement=announcement,
        picture=board_png,
        editor=editor,
        board_template="threeinrow/_board.html",
        why=why,
        legend_template="threeinrow/_legend.html",
        choice_field="stone",
        choice_default="",
    ),
    # Its rule book is in its own folder, not under docs/.
    rules_doc=str(Path(__file__).with_name("RULES.md")),
    rating_family=rating_family,
    example_moves=("C2",),
    tagline="three of a colour in a line on a 5×4 board",
    about_url=reverse_lazy("about-kind", args=["threeinrow"]),
    stylesheet="threeinrow/board.css",
    sides=SIDE_NAMES,
)
