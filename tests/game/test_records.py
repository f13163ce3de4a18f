"""Game records (game/records.py): written, read back, and refused with a reason."""

from __future__ import annotations

import contextlib
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import Position, Rules
from game.records import (
    MAX_BYTES,
    MAX_PLIES,
    RecordError,
    make_record,
    read_record,
    write_record,
)
from tests.support.exact import RULE_SETS


def random_game(rules: Rules, seed: int, start: Position | None = None, limit: int = 200):
    """A game of random legal moves: its moves and its last position."""
    rng = random.Random(seed)
    position = start if start is not None else Position.start(rules)
    moves = []
    while not position.is_over and len(moves) < limit:
        move = rng.choice(position.legal_moves())
        position = position.play(move)
        moves.append(position.record[-1])
    return moves, position


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(RULE_SETS),
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 120),
    resign=st.booleans(),
)
def test_write_then_read_gives_the_same_record_for_every_rule_set(rules, seed, cut, resign):
    moves, final = random_game(rules, seed)
    moves = moves[:cut] if cut < len(moves) else moves
    going_on = not Position.replay(rules, moves).is_over
    result, end = ("light", "resigned") if resign and going_on else ("", "")
    record = make_record(
        rules=rules, moves=moves, result=result, end=end, tags=[("Game", f"g{seed}")]
    )
    text = write_record(record)
    again = read_record(text)
    assert write_record(again) == text
    assert again.moves == record.moves and again.rules == rules
    assert (again.result, again.end) == (record.result, record.end)
    assert again.final == Position.replay(rules, moves)


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_a_record_from_a_set_up_position_keeps_it(rules):
    start_moves, _ = random_game(rules, 7, limit=9)
    start = Position.from_text(Position.replay(rules, start_moves).to_text(), rules)
    moves, final = random_game(rules, 8, start=start)
    record = make_record(rules=rules, moves=moves, start=start)
    text = write_record(record)
    assert f'[Position "{start.to_text()}"]' in text
    again = read_record(text)
    assert again.start == start and again.final == final and write_record(again) == text
    assert again.result == final.result and again.end == "no-moves"


def test_the_text_of_a_small_game():
    record = make_record(
        rules=Rules(),
        moves=["D4", "E4", "T E5", "A7", "W A7"],
        result="dark",
        end="resigned",
        tags=[("Game", "abc"), ("Dark", 'The "Bold"'), ("Light", "Wita (computer, level 6)")],
    )
    assert write_record(record) == (
        '[Game "abc"]\n'
        '[Dark "The \\"Bold\\""]\n'
        '[Light "Wita (computer, level 6)"]\n'
        '[SpecialStones "on"]\n'
        '[Scoring "standard"]\n'
        '[Wraparound "off"]\n'
        '[Result "dark"]\n'
        '[End "resigned"]\n'
        "\n"
        "1. D4 2. E4\n"
        "3. T E5xE4 4. A7\n"
        "5. W A7\n"
        "Dark: 2, Light: 0\n"
    )


def test_a_record_numbers_each_move_from_its_start_whoever_moves_first():
    start = Position.from_text("......./......./......./...S.../......./......./....... l TWtw")
    text = write_record(make_record(rules=Rules(), moves=["E4", "A1", "G7"], start=start))
    assert "1. E4 2. A1\n3. G7\n" in text
    assert read_record(text).moves == ("E4", "A1", "G7")


def test_a_refusal_numbers_the_moves_as_the_record_and_the_page_do():
    start = "......./......./......./...S.../......./......./....... l TWtw"
    text = f'[Position "{start}"]\n1. ... E4 2. A1 A1'
    with pytest.raises(RecordError, match=r"move 3 \(light's\): A1 is taken"):
        read_record(text)
    with pytest.raises(RecordError, match=r"move 2 \(dark's\): E4 is taken"):
        read_record(f'[Position "{start}"]\n1. ... E4 2. E4')


@pytest.mark.parametrize(
    "breaking", ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x1e"]
)
def test_a_tag_value_is_written_on_one_line_and_read_back(breaking):
    name = f'Ann{breaking}"the\\bold"{breaking}Smith'
    record = make_record(rules=Rules(), moves=["D4"], tags=[("Dark", name), ("Round", "2")])
    text = write_record(record)
    again = read_record(text)
    spaced = "".join(" " if c in breaking else c for c in name)
    assert again.tags == (("Dark", spaced), ("Round", "2"))
    assert again.moves == ("D4",)
    assert write_record(again) == text


@pytest.mark.parametrize(
    "text",
    [
        "D4 E4 T E5",
        "d4, e4, t e5",
        "1. D4 E4 2. T E5",
        "1.D4 E4\n2.T E5xE4",
        "D4\nE4\n\nt  e5 x e4",
        "1. D4 E4 2. T E5\nDark: 0, Light: 0",
        "1. D4 1... E4 2. T E5",
    ],
)
def test_reading_is_forgiving_about_form(text):
    assert read_record(text).moves == ("D4", "E4", "T E5xE4")


def test_the_rules_come_from_the_tags_or_else_from_the_caller():
    assert read_record("D4").rules == Rules()
    simple = Rules(scoring="simple", wraparound=True)
    assert read_record("D4", simple).rules == simple
    tagged = read_record('[Scoring "simple"]\n[SpecialStones "off"]\nD4', simple)
    assert tagged.rules == Rules(special_stones=False, scoring="simple", wraparound=True)


def test_unknown_tags_are_kept_in_order():
    text = '[Event "Club night"]\n[Round "3"]\n\nD4'
    record = read_record(text)
    assert record.tags == (("Event", "Club night"), ("Round", "3"))
    assert write_record(record).startswith('[Event "Club night"]\n[Round "3"]\n')


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("D4 E4 Z9", "move 3 (dark's): 'Z9' is not a move"),
        ("D4 D4", "move 2 (light's): D4 is taken"),
        ("D4 E4 T E5xA1", "move 3 (dark's): T E5 removes E4, not A1"),
        ("D4 hello", "move 2 (light's): 'hello' is not a move"),
        ("D4 E44", "move 2 (light's): 'E44' is not a move: squares run A1 to G7"),
        ('[Scoring "golf"]\nD4', "the Scoring tag: 'golf' is not standard or simple"),
        ('[Wraparound "maybe"]\nD4', "the Wraparound tag: 'maybe' is neither on nor off"),
        ('[Game "a"]\n[Game "b"]\nD4', "line 2: the tag Game comes twice"),
        ("[Game a]\nD4", "line 1: '[Game a]' is not a tag like [Name \"value\"]"),
        (
            '[Game "' + "a" * 100,
            f'line 1: \'[Game "{"a" * 53}\' is not a tag like [Name "value"]',
        ),
        (
            '[Position "nonsense"]\nD4',
            "the Position tag: 'nonsense' is not position text: expected the board, the side"
            " to move and the special stones in hand, separated by spaces",
        ),
        (
            "D4 E4\nDark: 5, Light: 0",
            "the score line says Dark: 5, Light: 0, but the moves give Dark: 0, Light: 0",
        ),
        (
            "D4 E4\nDark: 5, Light: 0\n\n",
            "the score line says Dark: 5, Light: 0, but the moves give Dark: 0, Light: 0",
        ),
        # The score line is one line: split, its words are read as moves.
        ("D4 E4 Dark:\n0, Light: 0", "move 3 (dark's): 'Dark:' is not a move"),
        ('[Result "dark"]\nD4', "the result says dark, but the game goes on: say how it ended"),
        ('[Result "purple"]\nD4', "result: 'purple' is not dark, light, tie or *"),
        ('[End "purple"]\nD4', "end: 'purple' is not no-moves, resigned, timeout or aborted"),
        (
            '[End "no-moves"]\nD4',
            "the game did not end: after the last move there are moves to play",
        ),
        (
            '[End "resigned"]\n[Result "tie"]\nD4',
            "a game ended by resignation has a winner: dark or light",
        ),
        ("D4\x00E4", "this is not a record: it holds characters that are not text"),
        ("D4 " * 30000, "a record is at most 64 kB; this text is larger"),
        ("D4 " * (MAX_PLIES + 1), f"a record has at most {MAX_PLIES} moves; this one has more"),
        # As many moves as a record may hold are read, and played.
        ("D4 " * MAX_PLIES, "move 2 (light's): D4 is taken"),
    ],
)
def test_what_cannot_be_read_is_refused_saying_where_and_why(text, message):
    with pytest.raises(RecordError) as refused:
        read_record(text)
    assert str(refused.value) == message


def test_a_record_may_hold_as_many_bytes_and_moves_as_its_limits_and_no_more():
    text = "D4" + " " * (MAX_BYTES - 2)
    assert len(text.encode()) == MAX_BYTES
    assert read_record(text).moves == ("D4",)
    with pytest.raises(RecordError) as refused:
        make_record(rules=Rules(), moves=["D4"] * (MAX_PLIES + 1))
    assert str(refused.value) == f"a record has at most {MAX_PLIES} moves; this one has 501"
    with pytest.raises(RecordError, match=r"^move 2 \(light's\): D4 is taken$"):
        make_record(rules=Rules(), moves=["D4"] * MAX_PLIES)


def test_a_header_may_be_spaced_out_or_be_the_whole_record():
    record = read_record('\n[Event "Club night"]\n\n[Round "3"]\n\nD4\n')
    assert record.tags == (("Event", "Club night"), ("Round", "3"))
    assert record.moves == ("D4",)
    alone = read_record('[Event "Club night"]\n[Result "*"]')
    assert alone.tags == (("Event", "Club night"),) and alone.moves == ()


def test_a_finished_game_ends_by_no_moves_even_without_tags():
    moves, final = random_game(Rules(), 3)
    assert final.is_over
    record = read_record(" ".join(moves))
    assert (record.result, record.end) == (final.result, "no-moves")
    with pytest.raises(RecordError) as refused:
        make_record(rules=Rules(), moves=moves, result="dark", end="resigned")
    assert str(refused.value) == "the game cannot end by resignation: neither side can move"
    other = "light" if final.result == "dark" else "dark"
    with pytest.raises(RecordError) as refused:
        make_record(rules=Rules(), moves=moves, result=other)
    assert str(refused.value) == (
        f"the result says {other}, but the moves end the game: {final.result}"
    )


def test_a_record_gives_every_position_of_its_game():
    record = read_record("D4 E4 T E5")
    assert record.position(0) == Position.start()
    assert record.position(2) == Position.replay(Rules(), ["D4", "E4"])
    assert record.position(3) == record.final


@pytest.mark.timing
@pytest.mark.parametrize(
    "text",
    [
        "dark" + " " * 1200 + "1" + " " * 1200 + "x",
        ("dark:" + " " * 1200 + "1" + " " * 1200 + ",light") * 20 + "x",
        "D4 " * 20_000,
        "[" + "a" * 60_000,
        '[Name "' + "\\\\" * 30_000,
        "dark " + "1" * 60_000 + " light 2 x",
        "1." + " " * 60_000 + "x",
        "T " + " " * 60_000 + "x",
    ],
    ids=["score", "scores", "moves", "tag", "escapes", "digits", "number", "stone"],
)
def test_any_record_is_read_or_refused_within_two_seconds(text):
    started = time.perf_counter()
    with contextlib.suppress(RecordError):
        read_record(text)
    assert time.perf_counter() - started < 2
