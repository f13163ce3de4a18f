"""Parking Lot as the site plays it: the registry's entry (``game.registry``) that ties
its engine, players, lessons, drawing, editor and pictures together."""

from __future__ import annotations

import re

from django.urls import reverse_lazy

from game.kinds import Arena, Drawing, GameKind, Players
from game.moves import move_list
from game.parking_lot import bots, lessons
from game.parking_lot.bots import reference
from game.parking_lot.drawing import announcement, describe, draw_board, why
from game.parking_lot.editor import editor
from game.parking_lot.engine import BOARD, ENDS, SIDES, Position, Rules
from game.parking_lot.engine import score_line as write_score_line
from game.parking_lot.notation import split_moves
from game.parking_lot.pictures import board_png


def settle(position: Position) -> Position:
    """Nothing is forced in Parking Lot: every turn is chosen."""
    return position


def rating_family(rules: Rules) -> str:
    """One rating: the game has no options to rate apart."""
    return "standard"


def score_line(position: Position) -> str:
    """A record's last line: the group sizes, and the result once the game is over
    (``Blue 4+4, Red 4+3+1 — Blue wins: next largest group``)."""
    return write_score_line(position.score(), position.outcome())


# A record's last line: ``Blue 4+4, Red 4+3+1``, then `` — Blue wins: …`` once over.
FINAL_LINE = re.compile(r"blue \d+(?:\+\d+)* ?, ?red \d+(?:\+\d+)*(?: ?— ?[^\n]*)?\Z", re.I)


KIND = GameKind(
    name="parking-lot",
    title="Parking Lot",
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
            references={"random": reference.random_move, "greedy": reference.greedy_move},
            uct=reference.uct_move,
            second="greedy",
            goal="greedy",
        ),
    ),
    lessons=lessons.LESSONS,
    board=BOARD,
    drawing=Drawing(
        draw_board=draw_board,
        describe=describe,
        move_list=move_list,
        announcement=announcement,
        picture=board_png,
        editor=editor,
        board_template="parking_lot/_board.html",
        why=why,
        legend_template="parking_lot/_legend.html",
        choice_field="turn",
        choice_default="",
    ),
    rules_doc="PARKING-LOT.md",
    rating_family=rating_family,
    score_line=score_line,
    final_pattern=FINAL_LINE,
    example_moves=("E4", "E4 B2-B6"),
    noun="piece",
    nouns="pieces",
    tagline="park two-square cars in one big block",
    about_url=reverse_lazy("about-kind", args=["parking-lot"]),
    about_template="parking_lot/about.html",
    stylesheet="parking_lot/board.css",
    arena="game/parking_lot/arena.json",
    sides=SIDES,
)
