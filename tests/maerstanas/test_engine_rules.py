"""One test per rule of RULES.md, on small diagrams.

Diagrams read like the board: rows 1..7 from top to bottom, columns A..G from left
to right; ``S T W`` are dark stones, ``s t w`` light ones. Expected values are
worked out by hand from the rules; the comments show the sums.
"""

from __future__ import annotations

import re

import pytest

from game.engine import (
    PASS,
    SQUARES,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveError,
    Position,
    Rules,
    Score,
    Stone,
    parse_square,
)
from tests.support.diagrams import CHECKERBOARD, board

WRAP = Rules(wraparound=True)
SIMPLE = Rules(scoring="simple")
NO_SPECIALS = Rules(special_stones=False)
NAMES = [f"{column}{row}" for row in range(1, 8) for column in "ABCDEFG"]


def squares(*names: str) -> tuple[object, ...]:
    return tuple(parse_square(name) for name in names)


def stone_squares(pos: Position) -> set[str]:
    """Squares where the side to move may put a normal stone."""
    return {str(SQUARES[m.square]) for m in pos.legal_moves() if m.stone is Stone.STONE}


def empty_squares(pos: Position) -> set[str]:
    return {name for name in NAMES if pos.stone_at(name) is None}


def observe(pos: Position) -> tuple[object, ...]:
    """Everything a caller can see of a position."""
    return (
        pos.to_text(),
        pos.record,
        pos.ply,
        pos.turn,
        pos.is_over,
        pos.must_pass,
        pos.winner,
        pos.result,
        pos.last_move,
        pos.last_removed,
        pos.score(),
        [str(m) for m in pos.legal_moves()],
        [pos.hinges(name) for name in NAMES],
        [pos.stone_at(name) for name in NAMES],
        [pos.has_special(c, s) for c in Color for s in (Stone.THUNDER, Stone.WODEN)],
        hash(pos),
    )


def stones_on(*names: str, rules: Rules | None = None) -> Position:
    """A position with stones on ``names``, dark and light in turn (colour never matters
    for hinges), drawn as a diagram."""
    rows = [["."] * 7 for _ in range(7)]
    for number, name in enumerate(names):
        rows[int(name[1]) - 1]["ABCDEFG".index(name[0])] = "Ss"[number % 2]
    return board("\n".join(" ".join(row) for row in rows), rules=rules)


def assert_refused(
    pos: Position, move: str | Move, message: str, error: type[MoveError] = IllegalMoveError
) -> None:
    """Playing ``move`` raises ``error`` saying ``message`` and leaves ``pos`` as it was."""
    before = observe(pos)
    copy = Position.from_text(pos.to_text(), pos.rules)
    with pytest.raises(error, match=re.escape(message)) as caught:
        pos.play(move)
    assert str(caught.value).endswith(message)
    assert observe(pos) == before
    assert pos == copy


# The empty squares of CHECKERBOARD (tests/support/diagrams.py).
CHECKERBOARD_EMPTY = {
    name for name in NAMES if ("ABCDEFG".index(name[0]) + int(name[1]) - 1) % 2 == 1
}


# --- Hinges --------------------------------------------------------------------------


def test_board_edge_sides_are_hinges_two_on_a_corner():
    pos = Position.start()
    assert [pos.hinges(c) for c in ("A1", "G1", "A7", "G7")] == [2, 2, 2, 2]
    assert [pos.hinges(e) for e in ("D1", "A4", "G4", "D7", "B1", "G6")] == [1] * 6
    assert [pos.hinges(i) for i in ("D4", "B2", "F6")] == [0, 0, 0]


def test_hinges_count_neighbouring_stones_of_both_colours_on_empty_and_taken_squares():
    pos = board("""
        . s . . . . .
        . . . . . . .
        . . . S . . .
        . . s . t . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    assert pos.hinges("A1") == 3  # two edge sides + light B1
    assert pos.hinges("B1") == 1  # a stone: its north edge; A1, C1, B2 are empty
    assert pos.hinges("D4") == 3  # empty: dark D3, light C4, light thunder-stone E4
    assert pos.hinges("D3") == 0  # a stone with four empty neighbours
    assert pos.hinges("C3") == 2  # dark D3 east, light C4 south
    assert pos.hinges("E3") == 2  # dark D3 west, light thunder-stone E4 south


def test_hinges_takes_a_name_in_any_case_or_a_square_index():
    pos = board("""
        . s . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    assert pos.hinges("a1") == pos.hinges(SQUARES[0]) == pos.hinges(0) == 3
    with pytest.raises(InvalidMoveError):
        pos.hinges("H1")


# --- Normal stones and the hinge limit -----------------------------------------------


def test_stone_may_have_three_hinges():
    pos = board("""
        . s . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    after = pos.play("A1")  # two edges + B1 = three hinges
    assert after.stone_at("A1") == (Color.DARK, Stone.STONE)
    assert after.hinges("A1") == 3


@pytest.mark.parametrize(
    ("diagram", "square"),
    [
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            . . . S . . .
            . . s . S . .
            . . . s . . .
            . . . . . . .
            . . . . . . .
            """,
            "D4",
            id="centre-four-stones",
        ),
        pytest.param(
            """
            . s . . . . .
            S . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            "A1",
            id="corner-two-edges-two-stones",
        ),
        pytest.param(
            """
            . . s . S . .
            . . . s . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            "D1",
            id="edge-one-edge-three-stones",
        ),
    ],
)
def test_stone_may_not_have_four_hinges(diagram, square):
    # Each neighbour of the square has at most two hinges, so only the new stone's
    # own count forbids the move.
    pos = board(diagram)
    assert pos.hinges(square) == 4
    assert square not in stone_squares(pos)
    assert_refused(pos, square, f"{square} would have four hinges")


@pytest.mark.parametrize("to_move", ["d", "l"])
@pytest.mark.parametrize(
    ("diagram", "square", "neighbour"),
    [
        # C4 has three hinges (C3, B4, C5; both colours): its fourth side D4 is closed.
        # D4 itself has one hinge (C4); no other stone has three hinges and no empty
        # square four, so D4 is the only closed empty square.
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            . . S . . . .
            . s S . . . .
            . . s . . . .
            . . . . . . .
            . . . . . . .
            """,
            "D4",
            "C4",
            id="inner",
        ),
        # A1: two edge sides + B1 = three hinges, so A2 is closed (A2 itself: edge + A1).
        pytest.param(
            """
            S s . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            "A2",
            "A1",
            id="corner",
        ),
        # A4: west edge + A3 + A5 = three hinges, so B4 is closed.
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            s . . . . . .
            S . . . . . .
            s . . . . . .
            . . . . . . .
            . . . . . . .
            """,
            "B4",
            "A4",
            id="edge",
        ),
    ],
)
def test_stone_may_not_give_a_neighbour_a_fourth_hinge(diagram, square, neighbour, to_move):
    pos = board(diagram, to_move=to_move)
    assert pos.hinges(neighbour) == 3
    assert pos.hinges(square) < 4
    assert stone_squares(pos) == empty_squares(pos) - {square}
    assert_refused(pos, square, f"{square} would give {neighbour} a fourth hinge")


@pytest.mark.parametrize(
    ("free_side", "others"),
    [
        ("D3", ("C4", "E4", "D5")),
        ("C4", ("D3", "E4", "D5")),
        ("E4", ("D3", "C4", "D5")),
        ("D5", ("D3", "C4", "E4")),
    ],
)
def test_stone_with_three_hinges_keeps_its_fourth_side_free_whichever_it_is(free_side, others):
    # D4 has three neighbours; its free side is the only closed square (it has one
    # hinge itself, D4; each of the three neighbours has one hinge too, D4).
    pos = stones_on("D4", *others)
    assert pos.hinges("D4") == 3
    assert stone_squares(pos) == empty_squares(pos) - {free_side}
    assert_refused(pos, free_side, f"{free_side} would give D4 a fourth hinge")


def test_stone_may_not_go_on_a_taken_square():
    pos = Position.start().play("D4")
    assert_refused(pos, "D4", "D4 is taken")
    assert_refused(pos, "T D4", "D4 is taken")


def test_play_returns_a_new_position_and_leaves_the_old_one():
    start = Position.start()
    before = observe(start)
    after = start.play("D4")
    assert after is not start
    assert observe(start) == before
    assert after.stone_at("D4") == (Color.DARK, Stone.STONE)
    assert start.stone_at("D4") is None


# --- Thunder-stone -------------------------------------------------------------------

# D4 is empty with four neighbours: light thunder-stone D3, dark Woden-stone C4,
# light stone E4, light Woden-stone D5. D2 and C3 are further away. Light's special
# stones are both on the board and dark's Woden-stone too, so only dark's
# thunder-stone is in hand.
SURROUNDED = """
    . . . . . . .
    . . . S . . .
    . . s t . . .
    . . W . s . .
    . . . w . . .
    . . . . . . .
    . . . . . . .
"""


def test_thunder_stone_clears_neighbours():
    pos = board(SURROUNDED, hand="T")
    assert pos.thunder_clears("D4") == squares("D3", "C4", "E4", "D5")
    after = pos.play("T D4")
    assert after.to_text() == "......./...S.../..s..../...T.../......./......./....... l -"
    assert after.last_move == Move(Stone.THUNDER, parse_square("D4"))
    assert after.last_removed == squares("D3", "C4", "E4", "D5")  # north, west, east, south
    assert after.record == ("T D4xD3/C4/E4/D5",)
    assert after.stone_at("D4") == (Color.DARK, Stone.THUNDER)
    for name in ("D3", "C4", "E4", "D5"):
        assert after.stone_at(name) is None
    assert after.stone_at("D2") == (Color.DARK, Stone.STONE)  # two squares away: kept
    assert after.stone_at("C3") == (Color.LIGHT, Stone.STONE)  # diagonal: kept


def test_thunder_stone_ignores_hinge_limits():
    pos = board(SURROUNDED, hand="T")
    assert_refused(pos, "D4", "D4 would have four hinges")
    assert Move(Stone.THUNDER, parse_square("D4")) in pos.legal_moves()
    # C4 has three hinges, so a normal stone on D4 is refused, a thunder-stone is not.
    pos = board(
        """
        . . . . . . .
        . . . . . . .
        . . S . . . .
        . s S . . . .
        . . s . . . .
        . . . . . . .
        . . . . . . .
        """,
        hand="T",
    )
    assert_refused(pos, "D4", "D4 would give C4 a fourth hinge")
    after = pos.play("T D4")
    assert after.last_removed == squares("C4")
    assert after.stone_at("C4") is None


def test_thunder_stone_may_go_on_every_empty_square():
    pos = board(SURROUNDED, hand="T")
    thunder = {str(SQUARES[m.square]) for m in pos.legal_moves() if m.stone is Stone.THUNDER}
    assert thunder == empty_squares(pos)
    assert len(thunder) == 49 - 6


def test_removed_special_stones_are_not_given_back():
    after = board(SURROUNDED, hand="T").play("T D4")
    for color in Color:
        for stone in (Stone.THUNDER, Stone.WODEN):
            assert not after.has_special(color, stone)
    # Light to move holds no special stone: only normal stones are listed.
    assert {m.stone for m in after.legal_moves()} == {Stone.STONE}
    assert_refused(after, "T A1", "you have no thunder-stone left")
    assert_refused(after, "W D2", "you have no Woden-stone left")


def test_thunder_stone_hinges_and_scores_like_a_normal_stone():
    pos = Position.start().play("T A1")
    assert pos.score() == Score(2, 0)  # a corner stone: two edge sides
    pos = pos.play("B1")
    assert pos.score() == Score(2, 1)  # light B1: its north edge
    assert pos.hinges("A1") == 3  # two edge sides + B1
    assert_refused(pos, "A2", "A2 would give A1 a fourth hinge")


@pytest.mark.parametrize(
    ("rows", "square", "expected"),
    [
        ({3: "...S.s.", 5: "...s..."}, "E4", ()),  # diagonal stones only
        ({3: "....S..", 4: "...s..."}, "E4", ("E3", "D4")),
        ({4: ".....S.", 5: "....s.."}, "E4", ("F4", "E5")),
        ({3: "....s..", 4: "...S.s.", 5: "....S.."}, "E4", ("E3", "D4", "F4", "E5")),
        ({1: ".s.....", 2: "S......"}, "A1", ("B1", "A2")),  # no north or west on the flat board
    ],
)
def test_thunder_clears_lists_neighbours_north_west_east_south(rows, square, expected):
    pos = board("\n".join(rows.get(row, ".......") for row in range(1, 8)), hand="T")
    assert pos.thunder_clears(square) == squares(*expected)
    assert pos.play(f"T {square}").last_removed == squares(*expected)


def test_each_player_has_one_thunder_stone():
    pos = Position.start().play("T A1").play("T G7")  # light still had its own
    assert not pos.has_special(Color.DARK, Stone.THUNDER)
    assert not pos.has_special(Color.LIGHT, Stone.THUNDER)
    assert not any(m.stone is Stone.THUNDER for m in pos.legal_moves())
    assert_refused(pos, "T C3", "you have no thunder-stone left")


# --- Woden-stone ---------------------------------------------------------------------

# Light has a stone on B2, its thunder-stone on D4 and its Woden-stone on F6; dark a
# stone on A7 and both special stones in hand.
WODEN_TARGETS = """
    . . . . . . .
    . s . . . . .
    . . . . . . .
    . . . t . . .
    . . . . . . .
    . . . . . w .
    S . . . . . .
"""


@pytest.mark.parametrize("target", ["B2", "D4", "F6"])
def test_woden_stone_replaces_any_opponent_stone(target):
    pos = board(WODEN_TARGETS, hand="TW")
    wodens = {str(SQUARES[m.square]) for m in pos.legal_moves() if m.stone is Stone.WODEN}
    assert wodens == {"B2", "D4", "F6"}
    after = pos.play(f"W {target}")
    assert after.stone_at(target) == (Color.DARK, Stone.WODEN)
    assert after.record == (f"W {target}",)
    assert after.last_removed == ()
    # Swapping a stone changes no hinge anywhere.
    assert [after.hinges(n) for n in NAMES] == [pos.hinges(n) for n in NAMES]
    assert after.has_special(Color.DARK, Stone.THUNDER)
    assert not after.has_special(Color.DARK, Stone.WODEN)
    # A replaced special stone does not go back to light.
    assert not after.has_special(Color.LIGHT, Stone.THUNDER)
    assert not after.has_special(Color.LIGHT, Stone.WODEN)


def test_woden_stone_may_replace_a_stone_with_three_hinges():
    # Light's A1 has two edges + B1 = three hinges; the swap changes no hinge.
    pos = board(
        """
        s S . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        hand="W",
    )
    after = pos.play("W A1")
    assert after.stone_at("A1") == (Color.DARK, Stone.WODEN)
    assert after.hinges("A1") == 3


@pytest.mark.parametrize("square", ["A7", "C3"])
def test_woden_stone_may_not_replace_own_stone_or_empty_square(square):
    pos = board(WODEN_TARGETS, hand="TW")
    assert_refused(pos, f"W {square}", f"W {square}: {square} is not your opponent's stone")


def test_woden_stone_needs_an_opponent_stone():
    assert_refused(Position.start(), "W D4", "W D4: D4 is not your opponent's stone")


def test_each_player_has_one_woden_stone():
    pos = Position.start().play("D4").play("E4").play("W E4").play("W D4")
    assert pos.stone_at("E4") == (Color.DARK, Stone.WODEN)
    assert pos.stone_at("D4") == (Color.LIGHT, Stone.WODEN)
    assert not any(m.stone is Stone.WODEN for m in pos.legal_moves())
    assert_refused(pos, "W D4", "you have no Woden-stone left")


@pytest.mark.parametrize("kind", "STW")
def test_special_stones_score_like_normal_stones(kind):
    # A1 (corner) and B1 (edge): 2 + 1 edge sides + the pair A1-B1 = 4.
    row = f"{kind}S....."
    dark = board(f"{row}\n" + ".......\n" * 6)
    light = board(f"{row.lower()}\n" + ".......\n" * 6)
    assert dark.score() == Score(4, 0)
    assert light.score() == Score(0, 4)
    assert dark.stone_at("A1")[1] == {"S": Stone.STONE, "T": Stone.THUNDER, "W": Stone.WODEN}[kind]


# --- Special stones off ------------------------------------------------------------


def test_special_stones_off_allow_no_thunder_or_woden_moves():
    pos = Position.start(NO_SPECIALS)
    assert pos.to_text().endswith(" d -")
    assert [str(m) for m in pos.legal_moves()] == NAMES
    assert_refused(pos, "T D4", "special stones are off in this game")
    pos = pos.play("D4")
    assert {m.stone for m in pos.legal_moves()} == {Stone.STONE}
    assert_refused(pos, "W D4", "special stones are off in this game")
    for color in Color:
        assert not pos.has_special(color, Stone.THUNDER)
        assert not pos.has_special(color, Stone.WODEN)


def test_special_stones_off_ignore_stones_in_hand_of_position_text():
    pos = board(".......\n" * 7, hand="TWtw", rules=NO_SPECIALS)
    assert pos.to_text().endswith(" d -")
    assert len(pos.legal_moves()) == 49


# --- Pass and the end of the game ----------------------------------------------------


def test_player_must_pass_when_only_the_opponent_has_a_thunder_stone():
    pos = board(CHECKERBOARD, hand="t")
    assert pos.legal_moves() == [PASS]
    assert pos.must_pass
    assert not pos.is_over
    assert pos.winner is None and pos.result is None
    assert_refused(pos, "B1", "dark must pass")
    assert_refused(pos, "T B1", "dark must pass")
    after = pos.play("Pass")
    assert after.record == ("Pass",)
    assert after.last_move == PASS and after.last_move.is_pass
    assert str(after.last_move) == "Pass"
    assert after.turn is Color.LIGHT
    # Light's only moves: its thunder-stone on each of the 24 empty squares.
    assert {str(m) for m in after.legal_moves()} == {f"T {n}" for n in CHECKERBOARD_EMPTY}
    assert len(CHECKERBOARD_EMPTY) == 24
    assert_refused(after, "Pass", "light cannot pass while it has a legal move")


def test_player_must_pass_when_only_the_opponent_has_a_woden_stone():
    pos = board(CHECKERBOARD, hand="w")  # light's Woden-stone can replace any dark stone
    assert pos.legal_moves() == [PASS]
    after = pos.play(PASS)
    assert len(after.legal_moves()) == 21  # the 21 dark stones
    assert {m.stone for m in after.legal_moves()} == {Stone.WODEN}


def test_pass_is_refused_while_a_move_exists():
    assert_refused(Position.start(), "Pass", "dark cannot pass while it has a legal move")
    assert_refused(Position.start(), PASS, "dark cannot pass while it has a legal move")


def test_game_ends_when_neither_side_can_move():
    pos = board(CHECKERBOARD)
    assert pos.legal_moves() == []
    assert pos.is_over
    assert not pos.must_pass
    for move in ("B1", "T B1", "W A1", "Pass"):
        assert_refused(pos, move, "the game is over")


def test_game_ends_when_a_woden_stone_has_nothing_to_replace():
    # Every stone is light; light's Woden-stone could only replace a dark stone.
    pos = board(CHECKERBOARD.lower(), hand="w")
    assert pos.legal_moves() == []
    assert pos.is_over


@pytest.mark.parametrize(
    ("swap", "rules", "score", "winner", "result"),
    [
        # Light: A1 2 + C1 1 + E1 1 + G1 2 = 6 edge sides. Dark: A3, A5, G3, G5, C7, E7
        # one each, A7 and G7 two each = 10. No two stones touch: no pairs.
        (False, Rules(), Score(10, 6), Color.DARK, "dark"),
        (True, Rules(), Score(6, 10), Color.LIGHT, "light"),
        (False, SIMPLE, Score(0, 0), None, "tie"),
    ],
)
def test_finished_game_has_winner_and_result(swap, rules, score, winner, result):
    diagram = CHECKERBOARD.swapcase() if swap else CHECKERBOARD
    pos = board(diagram, to_move="l", rules=rules)
    assert pos.is_over
    assert pos.score() == score
    assert pos.winner == winner
    assert pos.result == result


def test_running_game_has_no_winner_or_result():
    pos = Position.start().play("A1").play("B1")  # dark A1: 2 edge sides, light B1: 1
    assert pos.score() == Score(2, 1)
    assert pos.winner is None
    assert pos.result is None


# --- Scoring -------------------------------------------------------------------------

# Dark: A1 (corner), B1 (edge), C4, D4, E4, D5. Light: G1 (corner), F7 (edge), G7
# (corner). Every stone has at most three hinges.
SCORING = """
    S S . . . . s
    . . . . . . .
    . . . . . . .
    . . S S S . .
    . . . S . . .
    . . . . . . .
    . . . . . s s
"""


def test_standard_scoring_counts_pairs_once_and_edge_sides():
    # Dark pairs A1-B1, C4-D4, D4-E4, D4-D5 = 4, edges A1 2 + B1 1 = 3: 7.
    # Light pair F7-G7 = 1, edges G1 2 + F7 1 + G7 2 = 5: 6.
    assert board(SCORING).score() == Score(7, 6)


def test_simple_scoring_counts_only_pairs():
    assert board(SCORING, rules=SIMPLE).score() == Score(4, 1)


@pytest.mark.parametrize(
    ("square", "standard"),
    [("A1", 2), ("G1", 2), ("A7", 2), ("G7", 2), ("D1", 1), ("A4", 1), ("G5", 1), ("D4", 0)],
)
def test_lone_stone_scores_its_edge_sides_in_standard_and_nothing_in_simple(square, standard):
    for rules, expected in ((Rules(), standard), (SIMPLE, 0)):
        pos = Position.start(rules).play(square)
        assert pos.score() == Score(expected, 0)


def test_score_is_a_named_tuple_of_ints():
    score = board(SCORING).score()
    assert isinstance(score, Score)
    assert isinstance(score, tuple)
    assert type(score.dark) is int and type(score.light) is int
    assert (score.dark, score.light) == tuple(score)


# --- Wraparound ----------------------------------------------------------------------


def test_wraparound_has_no_edge_hinges():
    pos = Position.start(WRAP)
    assert [pos.hinges(name) for name in NAMES] == [0] * 49


def test_wraparound_neighbours_lie_across_the_board():
    diagram = """
        . . . . . . .
        . . . . . . S
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . s . . . . .
    """
    flat, wrap = board(diagram), board(diagram, rules=WRAP)
    assert wrap.thunder_clears("A2") == squares("G2")  # A2's west is G2
    assert wrap.thunder_clears("B1") == squares("B7")  # B1's north is B7
    assert flat.thunder_clears("A2") == flat.thunder_clears("B1") == ()
    assert wrap.hinges("A2") == 1  # G2 only; no edge side
    assert wrap.hinges("A3") == 0  # an empty wrapped neighbour G3: no hinge
    assert flat.hinges("A3") == 1  # the west edge


def test_wraparound_corner_looks_at_both_opposite_squares():
    pos = board(
        """
        . . . . . . s
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        S . . . . . .
        """,
        rules=WRAP,
    )
    assert pos.thunder_clears("A1") == squares("A7", "G1")  # north, west
    assert pos.hinges("A1") == 2
    assert pos.hinges("G7") == 2  # its east A7 and south G1


def test_wraparound_placement_limits_count_wrapped_neighbours():
    # D1 has C1 and E1. On the flat board its north edge is a third hinge, so D2 is
    # closed; on the torus its north is D7: empty, two hinges, D2 open.
    row1 = "..sSs.."
    flat = board(f"{row1}\n" + ".......\n" * 6)
    wrap = board(f"{row1}\n" + ".......\n" * 6, rules=WRAP)
    assert_refused(flat, "D2", "D2 would give D1 a fourth hinge")
    assert "D2" in stone_squares(wrap)
    # With a stone on D7, D1 has three hinges on the torus too.
    wrap = board(f"{row1}\n" + ".......\n" * 5 + "...s...", rules=WRAP)
    assert wrap.hinges("D1") == 3
    assert_refused(wrap, "D2", "D2 would give D1 a fourth hinge")


@pytest.mark.parametrize(
    ("stone", "near", "across"),
    [
        # A stone on the edge with its three on-board neighbours taken: on the torus
        # its fourth side is the square across the edge, which is then closed.
        ("D1", ("C1", "E1", "D2"), "D7"),  # north of D1
        ("D7", ("C7", "E7", "D6"), "D1"),  # south of D7
        ("A4", ("A3", "A5", "B4"), "G4"),  # west of A4
        ("G4", ("G3", "G5", "F4"), "A4"),  # east of G4
    ],
)
def test_wraparound_fourth_side_across_the_edge_stays_free(stone, near, across):
    pos = stones_on(stone, *near, rules=WRAP)
    assert pos.hinges(stone) == 3
    assert pos.hinges(across) == 1  # the stone across the edge
    assert stone_squares(pos) == empty_squares(pos) - {across}
    assert_refused(pos, across, f"{across} would give {stone} a fourth hinge")


@pytest.mark.parametrize(
    ("square", "near", "across"),
    [
        ("D1", ("C1", "E1", "D2"), "D7"),
        ("D7", ("C7", "E7", "D6"), "D1"),
        ("A4", ("A3", "A5", "B4"), "G4"),
        ("G4", ("G3", "G5", "F4"), "A4"),
    ],
)
def test_wraparound_empty_square_counts_the_stone_across_the_edge(square, near, across):
    # Three on-board neighbours: three hinges on the torus (the edge is no hinge), so
    # the square is open; with a stone across the edge it has four and is closed.
    pos = stones_on(*near, rules=WRAP)
    assert pos.hinges(square) == 3
    assert square in stone_squares(pos)
    pos = stones_on(*near, across, rules=WRAP)
    assert pos.hinges(square) == 4
    assert square not in stone_squares(pos)
    assert_refused(pos, square, f"{square} would have four hinges")


def test_wraparound_stone_may_not_have_four_hinges_across_the_edges():
    # A1's neighbours on the torus: A7 north, G1 west, B1 east, A2 south.
    rows = [".s....s", "S......", ".......", ".......", ".......", ".......", "s......"]
    pos = board("\n".join(rows), rules=WRAP)
    assert pos.hinges("A1") == 4
    assert_refused(pos, "A1", "A1 would have four hinges")
    rows[6] = "......."  # without A7: three hinges, open on the torus
    pos = board("\n".join(rows), rules=WRAP)
    assert pos.hinges("A1") == 3
    assert "A1" in stone_squares(pos)


def test_wraparound_thunder_stone_removes_across_the_edges():
    pos = board(
        """
        . s . . . . S
        S . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        s . . . . . .
        """,
        hand="T",
        rules=WRAP,
    )
    after = pos.play("T A1")
    assert after.last_removed == squares("A7", "G1", "B1", "A2")
    assert after.record == ("T A1xA7/G1/B1/A2",)
    assert after.to_text() == "T....../......./......./......./......./......./....... l -"


@pytest.mark.parametrize("scoring", ["standard", "simple"])
def test_wraparound_scores_wrapped_pairs_and_never_edges(scoring):
    rules = Rules(scoring=scoring, wraparound=True)
    # Dark A3-G3 and light C1-C7 are pairs across the edges.
    pairs = board(
        """
        . . s . . . .
        . . . . . . .
        S . . . . . S
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . s . . . .
        """,
        rules=rules,
    )
    assert pairs.score() == Score(1, 1)
    # Dark: A1-B1, C4-D4, D4-E4, D4-D5 (A1's wrapped neighbours are A7, empty, and
    # light G1). Light: F7-G7 and G7-G1 (G7's south is G1).
    assert board(SCORING, rules=rules).score() == Score(4, 2)


def test_flat_board_scores_no_wrapped_pairs():
    diagram = """
        . . s . . . .
        . . . . . . .
        S . . . . . S
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . s . . . .
    """
    assert board(diagram).score() == Score(2, 2)  # one edge side each, no pairs
    assert board(diagram, rules=SIMPLE).score() == Score(0, 0)


# --- Reading a position --------------------------------------------------------------


def test_stone_at_tells_colour_and_kind():
    pos = board(WODEN_TARGETS, hand="TW")
    assert pos.stone_at("B2") == (Color.LIGHT, Stone.STONE)
    assert pos.stone_at("d4") == (Color.LIGHT, Stone.THUNDER)
    assert pos.stone_at("F6") == (Color.LIGHT, Stone.WODEN)
    assert pos.stone_at(parse_square("A7")) == (Color.DARK, Stone.STONE)
    assert pos.stone_at("C3") is None
    with pytest.raises(InvalidMoveError):
        pos.stone_at("Z9")


def test_turn_ply_and_last_move_follow_the_game():
    pos = Position.start()
    assert (pos.turn, pos.ply, pos.last_move, pos.last_removed) == (Color.DARK, 0, None, ())
    pos = pos.play("D4")
    assert pos.turn is Color.LIGHT and pos.turn == "light"
    assert pos.ply == 1
    assert pos.last_move == Move(Stone.STONE, parse_square("D4"))
    assert str(pos.last_move) == "D4"
    pos = pos.play("T E4")  # removes D4 (west)
    assert pos.turn is Color.DARK and pos.turn == "dark"
    assert pos.ply == 2
    assert pos.last_move == Move(Stone.THUNDER, parse_square("E4"))
    assert str(pos.last_move) == "T E4"  # a move's own text carries no removal list
    assert pos.last_removed == squares("D4")
    assert pos.record == ("D4", "T E4xD4")


def test_legal_moves_list_stones_then_thunder_then_woden_from_a1_to_g7():
    pos = Position.start().play("G7")
    moves = [str(m) for m in pos.legal_moves()]
    empty = [n for n in NAMES if n != "G7"]
    assert moves == empty + [f"T {n}" for n in empty] + ["W G7"]


def test_changing_a_returned_move_list_does_not_change_the_position():
    pos = Position.start()
    pos.legal_moves().clear()
    assert len(pos.legal_moves()) == 98  # 49 stones + 49 thunder-stones


def test_unreadable_move_is_an_invalid_move_error_and_changes_nothing():
    pos = Position.start()
    assert_refused(pos, "Z9", "'Z9' is not a move: squares run A1 to G7", error=InvalidMoveError)
    with pytest.raises(MoveError):
        pos.play("Z9")
    assert issubclass(InvalidMoveError, MoveError) and issubclass(IllegalMoveError, MoveError)
    assert issubclass(MoveError, ValueError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)


def test_why_illegal_and_is_legal_say_the_same_as_play():
    pos = board(SURROUNDED, hand="T")
    assert pos.why_illegal("D4") == "D4 would have four hinges"
    assert pos.why_illegal("T D4") is None
    assert pos.why_illegal("D3") == "D3 is taken"
    assert not pos.is_legal("D4")
    assert pos.is_legal("T D4")
    assert not pos.is_legal("not a move")
    with pytest.raises(InvalidMoveError):
        pos.why_illegal("not a move")
