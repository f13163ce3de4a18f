"""Three in a row as the site plays it: the registry's entry (``game.registry``) that
ties its engine, players, drawing, editor and pictures together."""

from __future__ import annotations

from pathlib import Path

from game.kinds import Drawing, GameKind, Players
from tests.third_game import bots
from tests.third_game.drawing import announcement, describe, draw_board, why
from tests.third_game.editor import editor
from tests.third_game.engine import BOARD, ENDS, SIDE_NAMES, Position, Rules, split_moves
from tests.third_game.pictures import board_png

KIND = GameKind(
    name="threeinrow",
    title="Three in a row",
    rules=Rules,
    start=Position.start,
    from_text=Position.from_text,
    ends=ENDS,
    split_moves=split_moves,
    players=Players(levels=bots.LEVELS, choose_move=bots.choose_move, analyse=bots.analyse),
    lessons=(),
    board=BOARD,
    drawing=Drawing(
        draw_board=draw_board,
        describe=describe,
        announcement=announcement,
        picture=board_png,
        editor=editor,
        why=why,
        choice_field="stone",
        choice_default="",
    ),
    # Its rule book is in its own folder, not under docs/.
    rules_doc=str(Path(__file__).with_name("RULES.md")),
    example_moves=("C2",),
    tagline="three of a colour in a line on a 5×4 board",
    sides=SIDE_NAMES,
)
