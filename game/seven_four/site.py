"""7-4-1776 as the site plays it: the registry's entry (``game.registry``) that ties its
engine, players, lessons, drawing and pictures together. What every game's folder lays
out alike (its templates ``seven-four/…``, its stylesheet, its About page, a settle
that forces nothing and one rating) follows from its name (``game.kinds``)."""

from __future__ import annotations

from game.kinds import Arena, Drawing, GameKind, Players
from game.seven_four import bots, lessons
from game.seven_four.bots import reference
from game.seven_four.drawing import announcement, describe, draw_board, why
from game.seven_four.editor import editor
from game.seven_four.engine import ENDS, SIDES, Position, Rules
from game.seven_four.notation import BOARD, split_moves
from game.seven_four.pictures import board_png


def score_line(position: Position) -> str:
    """A record's last line: the result once the board is full ("Blue wins: board full,
    red cannot move", as the rule book writes it); none while the game goes on, as the
    rule book has no score but the end's (the records' reader knows a score line only
    in the seats' words, "Dark: 10, Light: 9")."""
    outcome = position.outcome()
    if outcome is None:
        return ""
    loser = SIDES.word(SIDES.seat(outcome.result).opponent)
    return f"{SIDES.result_text(outcome.result)}: board full, {loser} cannot move"


KIND = GameKind(
    name="seven-four",
    title="7-4-1776",
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
    rules_doc="SEVEN-FOUR.md",
    score_line=score_line,
    example_moves=("E5", "B2-E5"),
    tagline="drop a stone, or slide a lone one and fill the squares around it; "
    "whoever fills the last square wins",
    # Its folder is a Python package's name, not the kind's: its arena's figures are
    # named, where its templates and stylesheet follow the kind's name.
    arena="game/seven_four/arena.json",
    sides=SIDES,
    # Mid-game on the 10×10 board: blue's and red's stones, a slide's filled block.
    showcase=(
        "........../.BBB...B../.BBB....../.BBB.B..../........../........../"
        "......R.../..R......./....R..R../.......... r"
    ),
    credit="from a 2014 blog post, “New Game: 7-4-1776”",
)
