"""What the site asks of a kind of game: one seam between the site and each game.

A kind of game is a folder (``game/maerstanas/``) whose engine, notation, computer
players and lessons are plain Python, and whose site module builds one ``GameKind``
from them: its options and their codec, how to set up and read a position, how its
games end, its players, and how its boards are drawn and pictured. The registry
(``game.registry``) lists the kinds; the site asks it for a game's kind
(``Game.kind``) and calls what the kind gives, never an engine by name. The shape
follows python-chess's variants (``VARIANTS``, ``find_variant``, ``outcome()``) and
boardgame.io's game objects (``setup``, ``moves``, ``endIf``, ``ai.enumerate``).

What every game's folder lays out alike need not be said: a kind's templates
(``<name>/_board.html``, ``<name>/_legend.html``), its stylesheet
(``<name>/board.css``), its About page (``/about/<name>/``) and its arena's figures
(``game/<name>/arena.json``) are found by its name unless it names others, and a game
that forces no move and rates every game alike leaves ``settle`` and
``rating_family`` out. docs/DESIGN.md, "How to add a game", walks through making one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from django.urls import reverse_lazy

from game.boards.base import Board
from game.moves import move_list
from game.options import Options
from game.sides import DARK_AND_LIGHT, Sides
from game.surface import (
    Color,
    MoveError,
    Outcome,
    Played,
)
from game.thinking import find_level

__all__ = ["Arena", "Drawing", "GameKind", "GamePosition", "Players", "one_rating", "unchanged"]


class GamePosition(Protocol):
    """What the site reads of a position, whatever the game: the engines' shared shape."""

    @property
    def turn(self) -> Color: ...

    @property
    def ply(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def rules(self) -> Options: ...

    @property
    def history(self) -> tuple[Played, ...]: ...

    @property
    def last_played(self) -> Played | None: ...

    @property
    def record(self) -> tuple[str, ...]: ...

    def outcome(self) -> Outcome | None: ...

    def play(self, move: Any) -> GamePosition: ...

    def legal_moves(self) -> list[Any]: ...

    def to_text(self) -> str: ...


class Level(Protocol):
    """A computer player as the site shows it."""

    id: str
    name: str
    description: str
    seconds: float


@dataclass(frozen=True, slots=True)
class Arena:
    """What the arena (``bench/arena.py``) measures a kind's ladder against: reference
    players by name (``random``…: (position, rng) -> move), plain UCT given a time
    (``uct``: (position, rng, seconds) -> move), the reference the weakest level also
    meets (``second``) and the one the strongest level's goal is set against
    (``goal``)."""

    references: Mapping[str, Callable[..., Any]]
    uct: Callable[..., Any]
    second: str
    goal: str


@dataclass(frozen=True, slots=True)
class Players:
    """A kind's computer players: a ladder of levels, weakest first, how they choose a
    move, and the analysis of a position by the strongest; and the arena's references."""

    levels: tuple[Level, ...]
    # (position, level id, *, seconds=None, seed=None) -> move
    choose_move: Callable[..., Any]
    analyse: Callable[..., Any]  # (position, seconds) -> an analysis (move, line, dark_win…)
    arena: Arena | None = None

    @property
    def level_ids(self) -> tuple[str, ...]:
        return tuple(level.id for level in self.levels)

    @property
    def strongest(self) -> Level:
        return self.levels[-1]

    def level(self, level_id: str) -> Level:
        """The level with this id. Raises ``KeyError`` for an unknown one, naming those
        there are."""
        return find_level(self.levels, level_id)

    def number(self, level_id: str) -> int:
        """A level's place on the ladder, from 1, the weakest."""
        return self.level_ids.index(level_id) + 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawing:
    """How a kind's positions are shown: the values its templates draw, and pictures.

    ``draw_board(position, mover, choice, hint, hinges, better=None)`` gives the board
    (``mover`` the side the viewer may move for, ``choice`` what they chose before
    moving, read from the query field ``choice_field``, ``hint`` a move to mark,
    ``better`` the review's better move than the one played from the position);
    ``describe(position, outcome, seated, waiting, going_on=True, sides=...)`` the
    status bar (``going_on`` false for a moment of a game that has ended: nobody's turn);
    ``move_list(position, current, marks, sides=...)`` the moves;
    ``announcement(position, status)`` what a screen reader says;
    ``picture(position, caption=..., sides=...)`` a PNG (``GameKind.picture``);
    ``editor(text, rules, page)`` the position page's editor, or None; the board's and
    the legend's templates, left out, are the kind's ``<name>/_board.html`` and
    ``<name>/_legend.html`` (``GameKind`` fills them in), and the move list every
    kind's (``game.moves.move_list``) unless it gives its own. Those given
    ``sides`` (the kind's, ``GameKind.sides``) name the sides as it does. The board's
    ``squares`` are what the watch list's small board reads too: each cell's ``color``
    ("" when empty) and, where the game has more than one kind of piece, its ``kind``
    (``"thunder"``; a cell without one holds the kind's ``noun``).
    """

    draw_board: Callable[..., Any]
    describe: Callable[..., Any]
    move_list: Callable[..., Any] = move_list
    announcement: Callable[..., str]
    picture: Callable[..., bytes]
    editor: Callable[..., Any]
    board_template: str = ""  # the partial that draws ``draw_board``'s value
    why: Callable[..., str]  # (outcome, sides) -> why a game ended, in words
    legend_template: str = ""  # the partial under the board: what its marks mean
    # The query field of the viewer's choice before a move (Mǽrstánas's stone to place,
    # ``?stone=thunder``; a tafl game's piece picked, ``?from=B6``), and its default.
    choice_field: str
    choice_default: str
    # The fieldset of its options in the new-game and challenge forms (its own template,
    # reading its form from ``rules_forms.<name>``); "" for a game without options.
    rules_template: str = ""


def unchanged(position: GamePosition) -> GamePosition:
    """A game's ``settle`` when nothing is forced in it: every move is chosen."""
    return position


def one_rating(rules: Any) -> str:
    """A game's ``rating_family`` when it has no options to rate apart: one rating."""
    return "standard"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameKind:
    """One kind of game, as the site plays it.

    ``name`` is stored in ``Game.kind`` and is the API's ``"game"``. ``rules`` is the
    options class, which reads and writes itself (``game.options``). A position is
    set up by ``start(rules)`` or ``from_text(text, rules)``; ``settle(position)``
    plays the moves nobody chooses (Mǽrstánas's forced pass); ``ends`` names the
    ways the rules end a game (``Outcome.reason``) in words; ``split_moves`` reads
    the moves a record writes.

    What is left out is the convention's, from ``name``: ``about_url`` the
    ``about-kind`` page, ``stylesheet`` ``<name>/board.css``, ``arena``
    ``game/<name>/arena.json``, and the drawing's ``<name>/_board.html`` and
    ``<name>/_legend.html``.
    """

    name: str
    title: str
    rules: type[Options]
    start: Callable[[Any], GamePosition]
    from_text: Callable[[str, Any], GamePosition]
    settle: Callable[[GamePosition], GamePosition] = unchanged
    ends: Mapping[str, str]
    split_moves: Callable[[str], Iterator[str]]
    players: Players
    lessons: Sequence[Any]
    drawing: Drawing
    # The board as pages and pictures lay it out (``game.boards``): its cells' names,
    # its rows and columns, its shape.
    board: Board
    # The rule book, served at /docs/<name>.md: a file under docs/, or an absolute path
    # (a game may keep it in its own folder).
    rules_doc: str
    # The rating a game of these options counts in: options players would expect to
    # rate apart (Mǽrstánas's wraparound board) name a family of their own.
    rating_family: Callable[[Any], str] = one_rating
    # The rules look back at earlier positions (Cyngesheall's threefold repetition): a
    # move is then played on the position replayed from the record, never on one read
    # from the cached text, which knows nothing of them.
    remembers: bool = False
    # The line that ends a record (``final_line``), when it is not the score, and how
    # a record's reader knows that line (when it is not "Dark wins: …" or "Draw: …").
    score_line: Callable[[Any], str] | None = None
    final_pattern: re.Pattern[str] | None = None
    # Moves as its notation writes them, for messages that show how ("E4", "T E4").
    example_moves: tuple[str, ...] = ()
    # What its pieces are called, one and many ("stone", "stones"), and the game in a
    # few words beside its name where players choose a game ("place stones to make hinges").
    noun: str = "stone"
    nouns: str = "stones"
    tagline: str = ""
    # Its About page, with its rules (a lazy URL: the registry is built before the
    # URLs); left out, ``/about/<name>/``.
    about_url: str = ""
    # Its stylesheet, among its static files: its board's size and its own pieces'
    # marks; left out, "<name>/board.css".
    stylesheet: str = ""
    # Its arena's last full run (``make arena``), from the project's root, whose Elo
    # ratings its About page shows; left out, "game/<name>/arena.json" (a game never
    # measured has no file there, and its page says so).
    arena: str = ""
    # A game whose boards are rated apart measures its ladder on each: the heading of
    # each board's Elo column on its About page and its arena's file ("Elo, hex",
    # "game/moai/arena-hex.json"); left out, one column from ``arena``.
    board_arenas: tuple[tuple[str, str], ...] = ()
    # What its rule book calls its sides (the ``dark`` seat moves first, whatever its
    # name) and a game nobody won (``game.sides``).
    sides: Sides = DARK_AND_LIGHT
    # A position text that tells the game at a glance among the others (the home page's
    # choice of game shows it as a small board); "" for its start.
    showcase: str = ""
    # Who made the game, as every page's footer credits it after its title ("by John
    # Beers"), and the licence of its rules, a name and its address, where it has one.
    credit: str = ""
    licence: tuple[str, str] | tuple[()] = ()

    def __post_init__(self) -> None:
        # What was left out follows the kind's name; frozen, so set as the class would.
        name = self.name
        defaults = {
            "about_url": reverse_lazy("about-kind", args=[name]),
            "stylesheet": f"{name}/board.css",
            "arena": f"game/{name}/arena.json",
        }
        for field, value in defaults.items():
            given = getattr(self, field)  # a lazy URL is not read before the URLs are
            if type(given) is str and not given:
                object.__setattr__(self, field, value)
        drawing = self.drawing
        if not (drawing.board_template and drawing.legend_template):
            templates = {
                "board_template": drawing.board_template or f"{name}/_board.html",
                "legend_template": drawing.legend_template or f"{name}/_legend.html",
            }
            object.__setattr__(self, "drawing", replace(drawing, **templates))

    def outcome(self, position: GamePosition) -> Outcome | None:
        """How the rules ended ``position``'s game, in the words the site stores and the
        API sends whatever the game calls its sides: the winner's seat (``"dark"``,
        ``"light"``) or the kind's word for a game nobody won; None while it goes on."""
        found = position.outcome()
        if found is None:
            return None
        winner = found.winner
        return Outcome(winner.value if winner else self.sides.no_winner, found.reason)

    @property
    def examples(self) -> str:
        """The example moves in words: ``"E4", "T E4" or "W E4"``."""
        quoted = [f'"{move}"' for move in self.example_moves]
        return " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)

    def replay(self, start: GamePosition, moves: Iterable[Any]) -> GamePosition:
        """``start`` with ``moves`` played in turn. Raises ``MoveError``'s kinds, saying
        which move failed ("move 3: …")."""
        position = start
        for number, move in enumerate(moves, start=1):
            try:
                position = position.play(move)
            except MoveError as exc:
                raise type(exc)(f"move {number}: {exc}") from exc
        return position

    def final_line(self, position: GamePosition) -> str:
        """The line that ends a record of a game at ``position``: the kind's own
        (``score_line``) or the score (``Dark: 42, Light: 39``)."""
        if self.score_line is not None:
            return self.score_line(position)
        return str(position.score())

    def picture(self, position: GamePosition, caption: str = "") -> bytes:
        """The PNG picture of ``position`` with ``caption``, its sides named as the
        kind names them."""
        return self.drawing.picture(position, caption=caption, sides=self.sides)

    def is_start(self, position: GamePosition) -> bool:
        """True when ``position`` is the empty board of its rules."""
        return position == self.start(position.rules)
