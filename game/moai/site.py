"""Moai as the site plays it: the registry's entry (``game.registry``) that ties its
engine, players, lessons, drawing and pictures together. What every game's folder lays
out alike (its templates ``moai/…``, its stylesheet, its About page, a settle that
forces nothing) follows from its name (``game.kinds``); its two boards are rated
apart."""

from __future__ import annotations

from game.kinds import Arena, Drawing, GameKind, Players
from game.moai import bots, lessons
from game.moai.bots import reference
from game.moai.drawing import announcement, describe, draw_board, why
from game.moai.editor import editor
from game.moai.engine import ENDS, SIDES, Position, Rules
from game.moai.notation import SQUARE, split_record
from game.moai.pictures import board_png


def score_line(position: Position) -> str:
    """A record's last line: the result once a Moai is stuck ("White wins: black Moai
    stuck", as the rule book writes it); none while the game goes on."""
    outcome = position.outcome()
    if outcome is None:
        return ""
    loser = SIDES.word(SIDES.seat(outcome.result).opponent)
    return f"{SIDES.result_text(outcome.result)}: {loser} Moai stuck"


def rating_family(rules: Rules) -> str:
    """The hex board is another game to its players: rated apart."""
    return rules.board


KIND = GameKind(
    name="moai",
    title="Moai",
    rules=Rules,
    start=Position.start,
    from_text=Position.from_text,
    ends=ENDS,
    split_moves=split_record,
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
    board=SQUARE.board,
    drawing=Drawing(
        draw_board=draw_board,
        describe=describe,
        announcement=announcement,
        picture=board_png,
        editor=editor,
        why=why,
        choice_field="counter",
        choice_default="",
        rules_template="moai/_rules.html",
    ),
    rules_doc="MOAI.md",
    # Each board is rated apart, and its ladder measured apart.
    board_arenas=(
        ("Elo, square", "game/moai/arena.json"),
        ("Elo, hex", "game/moai/arena-hex.json"),
    ),
    rating_family=rating_family,
    score_line=score_line,
    example_moves=("D4", "D8:D4-D6"),
    noun="piece",
    nouns="pieces",
    tagline="put a counter in line with a Moai, then push or pull it; "
    "whoever leaves the other Moai no move wins",
    sides=SIDES,
    # Mid-game on the cornerless board: counters closing in on the black Moai.
    showcase="#oo..o.#/o..oBoo./...oo.../.oo..oo./....oWoo/......../.......o/#.o....# w",
    credit="from a 2014 blog post, “New Game: Moai”",
)
