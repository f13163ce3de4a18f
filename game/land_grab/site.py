"""Land Grab as the site plays it: the registry's entry (``game.registry``) that ties its
engine, players, lessons, drawing and pictures together. What every game's folder lays
out alike (its templates ``land-grab/…``, its stylesheet, its About page, one rating)
follows from its name (``game.kinds``)."""

from __future__ import annotations

import re

from game.kinds import Arena, Drawing, GameKind, Players
from game.land_grab import bots, lessons
from game.land_grab.bots import reference
from game.land_grab.drawing import announcement, describe, draw_board, why
from game.land_grab.editor import editor
from game.land_grab.engine import ENDS, SIDES, Position, Rules
from game.land_grab.notation import BOARD, PASS, split_moves
from game.land_grab.pictures import board_png


def settle(position: Position) -> Position:
    """The position once a forced pass is played: a side with no legal action passes,
    which the site plays for it (the rule book allows no other pass)."""
    while position.moves() == [PASS]:
        position = position.play(PASS)
    return position


def score_line(position: Position) -> str:
    """A record's last line once the game is over: the claims, largest first, then the
    result, as the rule book writes them, on one line (``Black: 24 1 1, White: 15 14 6 —
    Black wins on claims: no flips left``); after a capture, the result alone (``White
    wins: all stones captured``); "" while the game goes on."""
    verdict = position.verdict()
    if verdict is None:
        return ""
    if position.outcome().reason == "all-captured":
        return verdict
    return f"{position.score()} — {verdict}"


# A record's last line after an end on the claims, which a record's reader must know:
# ``Black: 31, White: 32 1 — White wins on claims: threefold repetition``.
FINAL_LINE = re.compile(
    r"black: \d+(?: \d+)*, white: \d+(?: \d+)* — (?:black wins|white wins|draw) on claims: "
    r"[a-z0-9 ]+\Z",
    re.IGNORECASE,
)


KIND = GameKind(
    name="land-grab",
    title="Land Grab",
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
        announcement=announcement,
        picture=board_png,
        editor=editor,
        why=why,
        choice_field="from",
        choice_default="",
    ),
    rules_doc="LAND-GRAB.md",
    score_line=score_line,
    final_pattern=FINAL_LINE,
    example_moves=("D4", "D4-D2", "A1-C3xD4"),
    tagline="flip the tiles of an 8×8 checkerboard, capture by approach; the largest claim wins",
    # Its folder is a Python package's name, not the kind's: its arena's figures are
    # named, where its templates and stylesheet follow the kind's name.
    arena="game/land_grab/arena.json",
    sides=SIDES,
    # The rule book's mid-game position: both sides' stones among the flipped tiles.
    showcase=("bwwwbwbw/bbwbwBwb/bwwwwWWw/bbwbwbwb/bwbwwwbw/bbwbwbBb/bwwbbbbw/wbwbwbwb b 16 0 -"),
    credit="from a 2014 blog post, “New Game: Land Grab”",
)
