"""Game records: a whole game as text, written for download and read back for import.

Engine only, no Django. The format is PGN's, adapted (``docs/RULES.md``, "Game
records"): a header of tags, the moves numbered in pairs in the rules' notation,
then the score line::

    [Game "k3J9xQ2aBc1D"]
    [Date "2026-11-24"]
    [Dark "Player"]
    [Light "Wita (computer, level 6)"]
    [SpecialStones "on"]
    [Scoring "standard"]
    [Wraparound "off"]
    [Result "dark"]
    [End "resigned"]

    1. D4 E4
    2. T C3xD3 W E4
    Dark: 3, Light: 1

Reading is forgiving, as the notation is: the header is optional (a bare list of
moves is a record), moves may be numbered or not, separated by spaces, commas or
lines, in any case. What cannot be read is refused, saying where and why; nothing
is skipped in silence.

The format is the site's; what it holds is the game kind's (``game.kinds``): the
options' tags come from its codec, the moves are split by its notation
(``split_moves``), the positions are its engine's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game.kinds import GameKind, GamePosition
from game.options import OptionError, Options
from game.registry import DEFAULT, find_kind, kind_of
from game.sides import Sides
from game.surface import (
    Color,
    InvalidPositionError,
    MoveError,
)

__all__ = [
    "MAX_BYTES",
    "MAX_PLIES",
    "Record",
    "RecordError",
    "make_record",
    "read_record",
    "write_record",
]

# Bounds on what is read: a record of the longest game is a few kilobytes.
MAX_BYTES = 64 * 1024
MAX_PLIES = 500

RESIGNED = "resigned"
# Ends outside the rules: a resignation or a timeout has a winner; an abort none.
TIMEOUT = "timeout"
ABORTED = "aborted"
WON_OUTSIDE_RULES = (RESIGNED, TIMEOUT)
_HOW = {RESIGNED: "by resignation", TIMEOUT: "by timeout", ABORTED: "by an abort"}
# Tags the reader makes from the kind, the start and the end, after the options' own:
# ``Variant`` names a game other than Mǽrstánas (``game.registry``), and the reader
# reads the record as that game's.
GAME_TAGS = ("Variant", "Position", "Result", "End")

_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
# The score line, matched against the record's last line with its runs of white space
# made single spaces: every optional part is then at most one character long, so the
# match is linear in the line. (Over the whole text, with a "\s*" each side of an
# optional ":", it backtracked in cubic time: 7 s of CPU on 2.4 kB.)
_SCORE_LINE = re.compile(r"dark ?:? ?(\d+) ?[,;]? ?light ?:? ?(\d+) ?\.?\Z", re.IGNORECASE)
# A result line, which ends a record of a game whose rules end it by a result, not a
# score (Cyngesheall's "Dark wins: king captured"): the kind writes it
# (``GameKind.final_line``), and the reader checks it against the moves.
# "Blue 4+4, Red 4+3+1 — Blue wins: next largest group" too: a side's win or a draw,
# then a colon, anywhere on the line. Only a word's start may begin a match, and a
# word is read once from there, so the search is linear in the line.
_RESULT_LINE = re.compile(r"\b(?:[a-z]+ wins|draw|tie) ?:", re.IGNORECASE)


class RecordError(ValueError):
    """A record that cannot be read: the message says where and why, for a player."""


@dataclass(frozen=True, slots=True)
class Record:
    """A game: its tags, rules, the position it started from, its moves, how it ended.

    ``tags`` are the names, date and any others, in order, without the tags of the
    rules, the start and the end, which the other fields hold.
    """

    tags: tuple[tuple[str, str], ...]
    rules: Options
    start: GamePosition
    moves: tuple[str, ...]  # the notation as the engine writes it
    result: str  # "dark", "light", "tie", or "" while the game goes on
    end: str  # the rules' end ("no-moves"), "resigned", or ""
    final: GamePosition

    @property
    def kind(self) -> GameKind:
        """The kind of game recorded."""
        return kind_of(self.rules)

    def position(self, ply: int) -> GamePosition:
        """The position after the first ``ply`` moves."""
        return self.kind.replay(self.start, self.moves[:ply])

    @property
    def text(self) -> str:
        """The record as text (``write_record``)."""
        return write_record(self)


def make_record(
    *,
    rules: Options,
    moves: Iterable[str],
    start: GamePosition | None = None,
    result: str = "",
    end: str = "",
    tags: Iterable[tuple[str, str]] = (),
) -> Record:
    """A record of these moves from ``start`` (the empty board by default), checked
    by replaying them. Raises ``RecordError`` for a move the rules refuse or an end
    the moves do not lead to."""
    kind = kind_of(rules)
    first = start if start is not None else kind.start(rules)
    moves = tuple(moves)
    if len(moves) > MAX_PLIES:
        raise RecordError(f"a record has at most {MAX_PLIES} moves; this one has {len(moves)}")
    position = first
    for ply, move in enumerate(moves, start=1):
        try:
            position = position.play(move)
        except MoveError as error:
            raise RecordError(f"{_which(ply, first.turn, kind.sides)}: {error}") from None
    result, end = _ending(kind, position, result, end)
    made = (*rules.tag_names(), *GAME_TAGS)
    kept = tuple((name, value) for name, value in tags if name not in made)
    return Record(kept, rules, first, position.record, result, end, position)


def _ending(kind: GameKind, position: GamePosition, result: str, end: str) -> tuple[str, str]:
    """The result and end a record's last position allows, or ``RecordError``."""
    if result not in ("", Color.DARK, Color.LIGHT, kind.sides.no_winner):
        first, second = kind.sides.word("dark"), kind.sides.word("light")
        nobody = kind.sides.no_winner
        raise RecordError(f"result: {result!r} is not {first}, {second}, {nobody} or *")
    ends = (*kind.ends, *WON_OUTSIDE_RULES, ABORTED)
    if end not in ("", *ends):
        raise RecordError(f"end: {end!r} is not {', '.join(ends[:-1])} or {ends[-1]}")
    outcome = kind.outcome(position)
    if outcome is not None:
        if end in (*WON_OUTSIDE_RULES, ABORTED):
            words = kind.ends[outcome.reason]
            raise RecordError(f"the game cannot end {_HOW[end]}: {words[:1].lower()}{words[1:]}")
        if result and result != outcome.result:
            said, ended = _said(kind, result), _said(kind, outcome.result)
            raise RecordError(f"the result says {said}, but the moves end the game: {ended}")
        return outcome.result, outcome.reason
    if end in kind.ends:
        raise RecordError("the game did not end: after the last move there are moves to play")
    if end in WON_OUTSIDE_RULES:
        if result not in (Color.DARK, Color.LIGHT):
            first, second = kind.sides.word("dark"), kind.sides.word("light")
            raise RecordError(f"a game ended {_HOW[end]} has a winner: {first} or {second}")
        return result, end
    if end == ABORTED:
        if result:
            raise RecordError("an aborted game has no result: say *")
        return "", end
    if result:
        said = _said(kind, result)
        raise RecordError(f"the result says {said}, but the game goes on: say how it ended")
    return "", ""


def write_record(record: Record) -> str:
    """The record as text: its tags, its moves numbered in pairs, its score line."""
    kind = record.kind
    variant = [("Variant", kind.name)] if kind is not DEFAULT else []
    tags = [*record.tags, *variant, *record.rules.to_tags()]
    if not record.kind.is_start(record.start):
        tags.append(("Position", record.start.to_text()))
    tags.append(("Result", _said(kind, record.result) or "*"))
    if record.end:
        tags.append(("End", record.end))
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    lines.append("")
    lines.extend(_numbered(record.moves))
    lines.append(kind.final_line(record.final))
    return "\n".join(lines) + "\n"


def _said(kind: GameKind, result: str) -> str:
    """A stored result as the record says it: the winner in the kind's words
    (``blue``), or its word for a game nobody won; "" for none."""
    if result in (Color.DARK, Color.LIGHT):
        return kind.sides.word(result)
    return result


def _stored(kind: GameKind, said: str) -> str:
    """A record's result as the site stores it: a side named in the kind's words or by
    its seat (``dark``, as records said before each game named its sides) is that seat;
    the word for nobody winning, or anything else, is kept for ``_ending`` to judge."""
    try:
        return kind.sides.seat(said).value
    except ValueError:
        return said


def _numbered(moves: Sequence[str]) -> list[str]:
    """The moves numbered one by one, as the game's page numbers them (a pass is a
    move too), two to a line: ``1. D4 2. E4``."""
    numbered = [f"{number}. {move}" for number, move in enumerate(moves, start=1)]
    return [" ".join(numbered[index : index + 2]) for index in range(0, len(numbered), 2)]


def read_record(text: str, rules: Options | None = None, kind: GameKind = DEFAULT) -> Record:
    """The record ``text`` holds: a header and moves, or moves alone, of a game of
    ``kind`` (of ``rules``' kind when they are given).

    ``rules`` are the options of a record whose header does not name them. A
    ``Variant`` tag names the game, whatever ``kind`` or ``rules`` say. Raises
    ``RecordError`` saying where and why for anything that cannot be read.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RecordError(f"a record is at most {MAX_BYTES // 1024} kB; this text is larger")
    # A regular expression reads \x0b and \x0B as the same character.
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text):  # pragma: no mutate
        raise RecordError("this is not a record: it holds characters that are not text")
    tags, body = _read_tags(text)
    if rules is not None:
        kind = kind_of(rules)
    if "Variant" in tags:
        try:
            named = find_kind(tags["Variant"].strip().lower())
        except KeyError as error:
            raise RecordError(f"the Variant tag: {error.args[0]}") from None
        if named is not kind:  # the options given are another game's: the tag decides
            kind, rules = named, None
    try:
        rules = kind.rules.from_tags(tags, rules)
    except OptionError as error:
        raise RecordError(str(error)) from None
    start = kind.start(rules)
    if "Position" in tags:
        try:
            start = kind.from_text(tags["Position"], rules)
        except InvalidPositionError as error:
            raise RecordError(f"the Position tag: {error}") from None
    body, said = _result_line(body, kind)
    body, score = _score_line(body)
    moves = _read_moves(kind, body, start)
    result = tags.get("Result", "*").strip().lower()
    record = make_record(
        rules=rules,
        moves=moves,
        start=start,
        result="" if result == "*" else _stored(kind_of(rules), result),
        end=tags.get("End", "").strip().lower(),
        tags=tags.items(),
    )
    if said is not None and said.lower() != kind.final_line(record.final).lower():
        raise RecordError(
            f"the record ends {said!r}, but the moves give {kind.final_line(record.final)!r}"
        )
    if score is not None and score != tuple(record.final.score()):
        raise RecordError(
            f"the score line says Dark: {score[0]}, Light: {score[1]}, "
            f"but the moves give {record.final.score()}"
        )
    return record


def _read_tags(text: str) -> tuple[dict[str, str], str]:
    """The header's tags, by name, and the rest of the text: the moves."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        if not line:
            index += 1
            continue
        if not line.startswith("["):
            break
        found = _TAG.fullmatch(line)
        if found is None:
            raise RecordError(f'line {index + 1}: {line[:60]!r} is not a tag like [Name "value"]')
        name, value = found[1], re.sub(r"\\(.)", r"\1", found[2])
        if name in tags:
            raise RecordError(f"line {index + 1}: the tag {name} comes twice")
        tags[name] = value
        index += 1
    return tags, "\n".join(lines[index:])


def _score_line(body: str) -> tuple[str, tuple[int, int] | None]:
    """The moves without the score line at their end, and the score it gives. The
    score ends the last line that is not blank, alone or after the last moves."""
    before, _, last = body.rstrip().rpartition("\n")
    flat = " ".join(last.split())
    found = _SCORE_LINE.search(flat)
    if found is None:
        return body, None
    return f"{before}\n{flat[: found.start()]}", (int(found[1]), int(found[2]))


def _result_line(body: str, kind: GameKind) -> tuple[str, str | None]:
    """The moves without the result line at their end, and that line ("Draw: …"; a
    kind that writes its own reads it by its ``final_pattern``)."""
    before, _, last = body.rstrip().rpartition("\n")
    flat = " ".join(last.split())
    pattern = kind.final_pattern
    if _RESULT_LINE.search(flat) is None and (pattern is None or pattern.match(flat) is None):
        return body, None
    return before, flat


def _read_moves(kind: GameKind, body: str, start: GamePosition) -> list[str]:
    """The moves of a record's body, in the order written, split by the kind's
    notation; checked one by one only for their form here (``make_record`` plays them)."""
    moves: list[str] = []
    try:
        for move in kind.split_moves(body):
            moves.append(move)
            if len(moves) > MAX_PLIES:
                raise RecordError(f"a record has at most {MAX_PLIES} moves; this one has more")
    except MoveError as error:
        which = _which(len(moves) + 1, start.turn, kind.sides)
        raise RecordError(f"{which}: {error}") from None
    return moves


def _which(ply: int, first: Color, sides: Sides) -> str:
    """How a message names move ``ply`` of a record whose first move is ``first``'s:
    "move 7 (dark's)", numbered as the record and the game's page number moves (sides
    alternate, passes included), its side named as the kind names it (``sides``)."""
    color = first if ply % 2 else first.opponent
    return f"move {ply} ({sides.word(color)}'s)"


def _escape(value: str) -> str:
    """A tag value as it is written between quotes: on one line, since the reader
    reads a tag a line (and Python's lines also end at U+2028, U+0085 and other
    controls), with its quotes and backslashes escaped."""
    flat = "".join(" " if unicodedata.category(c) in _BREAKING else c for c in value)
    return flat.replace("\\", "\\\\").replace('"', '\\"')


# Control characters, and the line and paragraph separators.
_BREAKING = frozenset({"Cc", "Zl", "Zp"})
