"""Parking Lot as the site plays it: the registry's entry (``game.registry``) that ties
its engine, players, lessons, drawing, editor and pictures together."""

from __future__ import annotations

import re

from game.kinds import Arena, Drawing, GameKind, Players
from game.parking_lot import bots, lessons
from game.parking_lot.bots import reference
from game.parking_lot.drawing import announcement, describe, draw_board, why
from game.parking_lot.editor import editor
from game.parking_lot.engine import BOARD, ENDS, SIDES, Position, Rules
from game.parking_lot.engine import score_line as write_score_line
from game.parking_lot.notation import split_moves
from game.parking_lot.pictures import board_png


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
        announcement=announcement,
        picture=board_png,
        editor=editor,
        why=why,
        choice_field="turn",
        choice_default="",
    ),
    rules_doc="PARKING-LOT.md",
    score_line=score_line,
    final_pattern=FINAL_LINE,
    example_moves=("E4", "E4 B2-B6"),
    noun="piece",
    nouns="pieces",
    tagline="park two-square cars in one big block",
    # Its folder is a Python package's name, not the kind's: its arena's figures are
    # named, where its templates and stylesheet follow the kind's name.
    arena="game/parking_lot/arena.json",
    sides=SIDES,
    credit="from a 2014 blog post, “New Game: Parking Lot”",
    # The rule book's mid-game: cars of both colours parked, one block beginning.
    showcase="......../.B.RRB../.B...B../....RR../......B./...B..B./...B..../RR...RR. b",
)
