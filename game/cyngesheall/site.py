"""Cyngesheall as the site plays it: the registry's entry (``game.registry``) that ties
its engine, players, lessons, drawing and pictures together."""

from __future__ import annotations

from game.cyngesheall import bots, lessons
from game.cyngesheall.bots import reference
from game.cyngesheall.drawing import announcement, describe, draw_board, why
from game.cyngesheall.editor import editor
from game.cyngesheall.engine import ENDS, Position, Rules
from game.cyngesheall.notation import split_moves
from game.cyngesheall.pictures import board_png
from game.cyngesheall.rules import BOARD, SIDES
from game.kinds import Arena, Drawing, GameKind, Players


def score_line(position: Position) -> str:
    """A record's last line: the result once the rules ended the game ("Dark wins:
    king captured", "Draw: threefold repetition"), else the pieces left."""
    outcome = position.outcome()
    if outcome is None:
        return str(position.score())
    result = SIDES.result_text(outcome.result)
    loser = SIDES.word(position.turn)
    return f"{result}: {RESULT_WORDS[outcome.reason].format(loser=loser)}"


# The reasons as a record's result line says them (docs/CYNGESHEALL.md, "Notation").
RESULT_WORDS = {
    "king-captured": "king captured",
    "king-home": "king home",
    "repetition": "threefold repetition",
    "sixty-plies": "60 plies without capture",
    "no-moves": "{loser} cannot move",
}


KIND = GameKind(
    name="cyngesheall",
    title="Cyngesheall",
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
        choice_field="from",
        choice_default="",
    ),
    rules_doc="CYNGESHEALL.md",
    remembers=True,
    score_line=score_line,
    example_moves=("B6-B2", "C7-C3xC2/D3"),
    noun="piece",
    nouns="pieces",
    tagline="a race of kings",
    sides=SIDES,
    credit="by John Beers",
    licence=("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
)
