"""The Cyngesheall engine against its rule book (shared/CYNGESHEALL.md).

One test per rule and per refusal on small diagrams; the notation and the position
text; move counts (perft) from the start; and random games checked move by move
against an independent plain model of the rules (``tests/cyngesheall/model.py``).

Diagrams read like the board: rows 1..7 from top to bottom (north is up), columns A..G
from left to right; ``K C S`` are dark's king, commander and stones, ``k c s`` light's,
``.`` an empty square. Expected values are worked out by hand from the rule book; the
comments show how.
"""

from __future__ import annotations

import random

import pytest

from game.cyngesheall import (
    ENDS,
    START_TEXT,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    MoveError,
    Outcome,
    Piece,
    Position,
    Rules,
    format_move,
    parse_move,
    read_move,
    split_moves,
)
from game.grid import (
    SQUARES,
    Square,
    parse_square,
)
from tests.cyngesheall.model import Model, perft

NAMES = [f"{column}{row}" for row in range(1, 8) for column in "ABCDEFG"]
LETTERS = {
    "K": (Color.DARK, Piece.KING),
    "C": (Color.DARK, Piece.COMMANDER),
    "S": (Color.DARK, Piece.STONE),
    "k": (Color.LIGHT, Piece.KING),
    "c": (Color.LIGHT, Piece.COMMANDER),
    "s": (Color.LIGHT, Piece.STONE),
}
SIDES = {"d": Color.DARK, "l": Color.LIGHT}
RESULTS = {"d": "dark", "l": "light", "draw": "draw"}


# --- Helpers ---------------------------------------------------------------------------


def rows_of(diagram: str) -> list[str]:
    rows = ["".join(line.split()) for line in diagram.strip().splitlines()]
    rows = [row for row in rows if row]
    assert len(rows) == 7, f"a diagram has 7 rows, got {rows}"
    assert all(len(row) == 7 and set(row) <= set(".KCSkcs") for row in rows), rows
    return rows


def text_of(diagram: str, to_move: str = "d", quiet: int = 0) -> str:
    return f"{'/'.join(rows_of(diagram))} {to_move} {quiet}"


def board(diagram: str, to_move: str = "d", quiet: int = 0) -> Position:
    """The position drawn in ``diagram``, ``to_move`` ("d" or "l") to move."""
    return Position.from_text(text_of(diagram, to_move, quiet))


def sq(name: str) -> Square:
    return parse_square(name)


def move(text: str) -> Move:
    origin, target = text.split("-")
    return Move(sq(origin), sq(target))


def names(squares: tuple[Square, ...] | list[Square]) -> list[str]:
    return [str(square) for square in squares]


def targets(pos: Position, name: str) -> set[str]:
    return set(names(pos.targets(name)))


def play_all(pos: Position, *moves: str) -> Position:
    for text in moves:
        assert not pos.is_over, f"over before {text}: {pos.outcome()}"
        pos = pos.play(text)
    return pos


def assert_refused(pos: Position, text: str, *named: str, error=IllegalMoveError) -> str:
    """Playing ``text`` raises ``error`` whose message names each of ``named``; the
    position is unchanged, and ``why_illegal`` gives a reason too."""
    before = (pos.to_text(), pos.record, pos.ply)
    with pytest.raises(error) as caught:
        pos.play(text)
    message = str(caught.value)
    for name in named:
        assert name in message, f"{name} not named in {message!r}"
    assert (pos.to_text(), pos.record, pos.ply) == before
    if error is IllegalMoveError and "x" not in text:
        as_move = move(text.replace(" ", "-")) if "-" not in text else move(text)
        assert not pos.is_legal(as_move)
        reason = pos.why_illegal(as_move)
        assert isinstance(reason, str) and reason
        for name in named:
            assert name in reason, f"{name} not named in {reason!r}"
    return message


# --- The start -------------------------------------------------------------------------


def test_start_text_is_the_rule_books_set_up():
    assert START_TEXT == "...sssk/....scs/.....ss/S.....s/SS...../SCS..../KSSS... d 0"
    pos = Position.start()
    assert pos.to_text() == START_TEXT
    assert Position.from_text(START_TEXT) == pos
    assert Position.start(Rules()) == pos


def test_start_places_ten_pieces_a_side_in_opposite_corners():
    pos = Position.start()
    dark = {"A7": Piece.KING, "B6": Piece.COMMANDER}
    dark |= dict.fromkeys(["A4", "A5", "A6", "B5", "B7", "C6", "C7", "D7"], Piece.STONE)
    light = {"G1": Piece.KING, "F2": Piece.COMMANDER}
    light |= dict.fromkeys(["D1", "E1", "E2", "F1", "F3", "G2", "G3", "G4"], Piece.STONE)
    for name in NAMES:
        if name in dark:
            expected = (Color.DARK, dark[name])
        elif name in light:
            expected = (Color.LIGHT, light[name])
        else:
            expected = None
        assert pos.piece_at(name) == expected, name
    assert pos.board() == tuple(pos.piece_at(name) for name in NAMES)
    assert len(pos.board()) == 49
    assert tuple(pos.score()) == (10, 10)


def test_start_state_dark_to_move_nothing_played():
    pos = Position.start()
    assert pos.turn is Color.DARK
    assert pos.ply == 0 and pos.quiet == 0
    assert not pos.is_over
    assert pos.result is None and pos.outcome() is None
    assert pos.record == () and pos.last_move is None and tuple(pos.last_captured) == ()


def test_start_has_thirty_seven_moves_counted_by_hand():
    # A4: A1-A3 north, B4-F4 east (G4 is light's) = 8. B5: B1-B4, C5-G5 = 9.
    # B6 (commander): only north-east C5 D4 E3 (F2 is light's) = 3. C6: C1-C5, D6-G6 = 9.
    # D7: D2-D6 (D1 is light's), E7-G7 = 8. A5, A6, B7, C7 and the king A7 are walled in.
    pos = Position.start()
    assert targets(pos, "A4") == {"A1", "A2", "A3", "B4", "C4", "D4", "E4", "F4"}
    assert targets(pos, "B5") == {"B1", "B2", "B3", "B4", "C5", "D5", "E5", "F5", "G5"}
    assert targets(pos, "B6") == {"C5", "D4", "E3"}
    assert targets(pos, "C6") == {"C1", "C2", "C3", "C4", "C5", "D6", "E6", "F6", "G6"}
    assert targets(pos, "D7") == {"D2", "D3", "D4", "D5", "D6", "E7", "F7", "G7"}
    for walled in ("A5", "A6", "A7", "B7", "C7"):
        assert pos.targets(walled) == ()
    assert len(pos.legal_moves()) == 37
    # Light's pieces are not dark's to move; an empty square has no moves.
    assert pos.targets("G4") == () and pos.targets("D4") == ()


def test_legal_moves_are_listed_by_origin_then_target_square():
    moves = Position.start().legal_moves()
    assert moves == sorted(moves, key=lambda m: (int(m.origin), int(m.target)))
    assert [str(m) for m in moves[:4]] == ["A4-A1", "A4-A2", "A4-A3", "A4-B4"]
    assert str(moves[-1]) == "D7-G7"


# --- Moves -------------------------------------------------------------------------------

ROOK_FROM_D4 = {"D1", "D2", "D3", "A4", "B4", "C4", "E4", "F4", "G4", "D5", "D6", "D7"}
DIAGONALS_FROM_D4 = {"A1", "B2", "C3", "E3", "F2", "G1", "C5", "B6", "A7", "E5", "F6", "G7"}


@pytest.mark.parametrize(
    ("letter", "expected"),
    [
        ("S", ROOK_FROM_D4),
        ("K", ROOK_FROM_D4),
        ("C", ROOK_FROM_D4 | DIAGONALS_FROM_D4),
        ("s", ROOK_FROM_D4),
        ("k", ROOK_FROM_D4),
        ("c", ROOK_FROM_D4 | DIAGONALS_FROM_D4),
    ],
)
def test_king_and_stones_move_like_rooks_the_commander_like_a_queen(letter, expected):
    # The other kings stand on B1 and F7, on none of D4's lines.
    light_king = "." if letter == "k" else "k"
    dark_king = "." if letter == "K" else "K"
    pos = board(
        f"""
        . {light_king} . . . . .
        . . . . . . .
        . . . . . . .
        . . . {letter} . . .
        . . . . . . .
        . . . . . . .
        . . . . . {dark_king} .
        """,
        to_move="d" if letter.isupper() else "l",
    )
    assert targets(pos, "D4") == expected
    assert {str(m.target) for m in pos.legal_moves() if str(m.origin) == "D4"} == expected
    for name in expected:
        assert pos.is_legal(move(f"D4-{name}"))
        after = pos.play(f"D4-{name}")
        assert after.piece_at(name) == LETTERS[letter]
        assert after.piece_at("D4") is None


BLOCKED = """
    . k . . . . .
    . . . S . . .
    . . . . . . .
    . S . X . s .
    . . . . . . .
    . . . . . S .
    . . . . . K .
"""


def test_a_stone_stops_before_any_piece_and_never_jumps():
    pos = board(BLOCKED.replace("X", "S"))
    assert targets(pos, "D4") == {"D3", "C4", "E4", "D5", "D6", "D7"}
    assert_refused(pos, "D4-D1", "D2")  # through its own D2
    assert_refused(pos, "D4-A4", "B4")
    assert_refused(pos, "D4-G4", "F4")  # through light's F4
    assert_refused(pos, "D4-D2", "D2")  # onto its own piece
    assert_refused(pos, "D4-F4", "F4")  # onto light's piece


def test_stones_and_the_king_do_not_move_diagonally_or_off_a_line():
    for letter in "SK":
        diagram = BLOCKED.replace("X", letter)
        if letter == "K":
            diagram = diagram.replace(". . . . . K .", ". . . . . . .")
        pos = board(diagram)
        assert_refused(pos, "D4-E5", "D4", "E5")
        assert_refused(pos, "D4-C3", "D4", "C3")
        assert_refused(pos, "D4-E6", "D4", "E6")


def test_the_commander_stops_before_pieces_on_its_diagonals_too():
    pos = board(BLOCKED.replace("X", "C"))
    # North-west C3 B2 A1 are open; south-east stops before dark's F6 at E5.
    assert targets(pos, "D4") == {
        "D3", "C4", "E4", "D5", "D6", "D7",
        "C3", "B2", "A1", "E3", "F2", "G1", "C5", "B6", "A7", "E5",
    }  # fmt: skip
    assert_refused(pos, "D4-G7", "F6")  # through its own F6
    assert_refused(pos, "D4-F6", "F6")
    assert_refused(pos, "D4-E6", "D4", "E6")  # a knight's jump is no line
    assert_refused(pos, "D4-B5", "D4", "B5")


def test_refusals_name_the_square_without_a_piece_of_the_mover():
    pos = Position.start()
    assert_refused(pos, "D4-D3", "D4")  # empty
    assert_refused(pos, "G4-G5", "G4")  # light's stone, dark to move
    assert_refused(pos, "A7-A1", "A6")  # the king is walled in
    assert_refused(pos, "B5-B5", "B5")  # going nowhere
    assert_refused(pos.play("C6-C5"), "C5-C4", "C5")  # now dark's stone and light to move


def test_every_piece_may_enter_every_corner():
    pos = board("""
        . . . S . . .
        . . . . . . .
        . . . . . . .
        . k . C . . .
        . . . . . . .
        . . . . . . K
        . . . S . . .
    """)
    for text in ("D1-A1", "D1-G1", "D7-A7", "D7-G7", "D4-A1", "D4-G1", "D4-A7", "D4-G7"):
        after = pos.play(text)
        corner = text[-2:]
        assert after.piece_at(corner)[0] is Color.DARK
        assert not after.is_over  # only the king wins by reaching G1
    # The king may go home to its own corner, and a light king to its own G1.
    kings = board("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        K . . . . . k
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    assert "A7" in targets(kings, "A4")
    home = kings.play("A4-A7")
    assert not home.is_over and "G1" in targets(home, "G4")
    assert not home.play("G4-G1").is_over


# --- Captures -------------------------------------------------------------------------------


def test_a_stone_between_the_mover_and_a_friend_is_captured():
    pos = board(
        """
        . . . . . . k
        . . . . . . .
        . . . S . . .
        . . . s . . .
        S . . . . . .
        . . . . . . .
        K . . . . . .
        """,
        quiet=7,
    )
    after = pos.play("A5-D5")  # D4 has D5 south, dark's D3 north
    assert after.record == ("A5-D5xD4",)
    assert after.last_move == move("A5-D5")
    assert names(after.last_captured) == ["D4"]
    assert after.piece_at("D4") is None
    assert after.piece_at("D5") == (Color.DARK, Piece.STONE)
    assert tuple(after.score()) == (3, 1)
    assert after.quiet == 0
    assert after.turn is Color.LIGHT and after.ply == pos.ply + 1
    assert not after.is_over


def test_several_captures_are_listed_north_west_east_south():
    pos = board("""
        . . . . . . k
        . . . S . . .
        . . . s . . .
        . S s . s S .
        . . . . . . .
        . . . . . . .
        K . . S . . .
    """)
    after = pos.play("D7-D4")
    assert after.record == ("D7-D4xD3/C4/E4",)
    assert names(after.last_captured) == ["D3", "C4", "E4"]
    assert all(after.piece_at(name) is None for name in ("D3", "C4", "E4"))


RULE_BOOK_EXAMPLE = """
    . . S . . . k
    . . s . . . .
    . . . s S . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    K . S . . . .
"""


def test_the_rule_books_example_c7_c3_takes_c2_and_d3():
    after = board(RULE_BOOK_EXAMPLE).play("C7-C3")
    assert after.record == ("C7-C3xC2/D3",)
    assert names(after.last_captured) == ["C2", "D3"]


def test_a_commander_landing_diagonally_captures_on_all_four_sides():
    pos = board("""
        . . . . . . k
        . C . S . . .
        . . . s . . .
        . S s . s S .
        . . . s . . .
        . . . S . . .
        K . . . . . .
    """)
    after = pos.play("B2-D4")
    assert after.record == ("B2-D4xD3/C4/E4/D5",)
    assert names(after.last_captured) == ["D3", "C4", "E4", "D5"]
    assert tuple(after.score()) == (6, 1)


@pytest.mark.parametrize("edge_piece", ["s", "c", "k"])
def test_the_board_edge_never_helps_to_capture(edge_piece):
    light_king = "." if edge_piece == "k" else "k"
    pos = board(f"""
        . s . . . . {light_king}
        . . . . . . .
        . . . . . . .
        {edge_piece} . . . . . .
        . . . . . . .
        . S . . . . .
        K . . . . . .
    """)
    beside_b1 = pos.play("B6-B2")  # B1 lies between B2 and the board's north edge
    assert beside_b1.record == ("B6-B2",) and beside_b1.piece_at("B1") is not None
    beside_a4 = pos.play("B6-B4")  # A4 lies between B4 and the west edge
    assert beside_a4.record == ("B6-B4",) and beside_a4.piece_at("A4") is not None
    assert not beside_a4.is_over


@pytest.mark.parametrize("corner_piece", ["s", "c", "k"])
def test_a_piece_in_a_corner_is_never_captured(corner_piece):
    light_king = "." if corner_piece == "k" else "k"
    pos = board(f"""
        {corner_piece} . . . . . {light_king}
        S . . . . . .
        . . . . . . .
        . . . . . . s
        . S . . . . .
        . . . . . . .
        K . . . . . .
    """)
    after = pos.play("B5-B1")  # A1 now has dark on both its sides on the board
    assert after.record == ("B5-B1",)
    assert after.piece_at("A1") == LETTERS[corner_piece]
    assert not after.is_over  # light still has G4 to move


@pytest.mark.parametrize("mover", ["S", "C"])
def test_diagonal_neighbours_are_never_captured(mover):
    pos = board(f"""
        . . . . . . k
        . S . . . . .
        . . s . . . .
        . . . . . . .
        . . . . s . .
        . . . . . S .
        K . . {mover} . . .
    """)
    after = pos.play("D7-D4")  # C3 and E5 are diagonal to D4, with dark beyond each
    assert after.record == ("D7-D4",)
    assert after.piece_at("C3") is not None and after.piece_at("E5") is not None


def test_a_capture_needs_a_piece_of_the_movers_side_beyond():
    pos = board("""
        . . . . . . k
        . . . s . . .
        . . . s . . .
        . s S . s . .
        . . . . . . .
        . . . . . . .
        K . . S . . .
    """)
    # D3 has light beyond it, E4 nothing beyond, and C4 is dark's own piece.
    after = pos.play("D7-D4")
    assert after.record == ("D7-D4",)
    assert tuple(after.score()) == tuple(pos.score()) == (3, 5)


def test_moving_between_two_enemies_is_safe_until_one_moves_away_and_back():
    pos = board("""
        . . . . . . k
        . . . . . . .
        . . . . . . .
        . . s . s . .
        . . . . . . .
        . . . . . . .
        K . . S . . .
    """)
    between = pos.play("D7-D4")
    assert between.record == ("D7-D4",)
    assert between.piece_at("D4") == (Color.DARK, Piece.STONE)
    assert between.piece_at("C4") is not None and between.piece_at("E4") is not None
    away = play_all(between, "C4-C2", "A7-A6")
    back = away.play("C2-C4")  # the stone that moved now has light's E4 beyond D4
    assert back.record[-1] == "C2-C4xD4"
    assert back.piece_at("D4") is None


@pytest.mark.parametrize(
    ("mover", "far"), [("S", "K"), ("S", "C"), ("K", "S"), ("C", "S"), ("K", "C"), ("C", "K")]
)
@pytest.mark.parametrize("victim", ["s", "c"])
def test_kings_and_commanders_capture_as_mover_and_as_far_side(mover, far, victim):
    dark_king = "." if "K" in (mover, far) else "K"
    pos = board(f"""
        . . . . . . k
        . . . . . . .
        . . . . . . .
        . . {far} {victim} . . .
        . . . . . . .
        . . . . . . .
        {dark_king} . . . {mover} . .
    """)
    after = pos.play("E7-E4")
    assert after.record == ("E7-E4xD4",)
    assert after.piece_at("D4") is None
    assert after.piece_at("E4") == LETTERS[mover]


# --- Capturing the king ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mover", "far"), [("S", "S"), ("S", "K"), ("S", "C"), ("K", "S"), ("C", "S"), ("C", "K")]
)
def test_the_king_is_captured_between_two_enemies_and_the_captor_wins(mover, far):
    dark_king = "." if "K" in (mover, far) else "K"
    pos = board(f"""
        . . . . . . s
        . . . . . . .
        . . . . . . .
        . . {far} k . . .
        . . . . . . .
        . . . . . . .
        {dark_king} . . . {mover} . .
    """)
    after = pos.play("E7-E4")
    assert after.record == ("E7-E4xD4",)
    assert after.piece_at("D4") is None
    assert after.is_over
    assert after.outcome() == Outcome("dark", "king-captured")
    assert after.result == "dark"
    assert after.legal_moves() == []


def test_light_captures_the_dark_king_the_same_way():
    pos = board(
        """
        . . . . . . k
        . . . . . . .
        . . . . . . .
        . . s K . . .
        . . . . . . .
        . . . . . . .
        . . . . s . .
        """,
        to_move="l",
    )
    after = pos.play("E7-E4")
    assert after.record == ("E7-E4xD4",)
    assert after.outcome() == Outcome("light", "king-captured")
    assert after.result == "light"


def test_a_king_between_two_enemies_is_safe_until_one_moves_away_and_back():
    pos = board(
        """
        K . . . . . .
        . . . . . . .
        . . . . . . .
        . . S . S . .
        . . . . . . .
        . . . . . . .
        . . . k . . s
        """,
        to_move="l",
    )
    between = pos.play("D7-D4")
    assert between.record == ("D7-D4",) and not between.is_over
    away = play_all(between, "E4-E2", "G7-G6")
    assert not away.is_over
    back = away.play("E2-E4")
    assert back.record[-1] == "E2-E4xD4"
    assert back.outcome() == Outcome("dark", "king-captured")


def test_a_king_between_an_enemy_and_the_edge_with_enemies_diagonal_stays():
    pos = board("""
        . . . . . . .
        . . . . . . .
        . S . . . . .
        k . . . . . S
        . S . . . . .
        . . . . . . .
        . . . . . . K
    """)
    # Beyond A4 from B4 is the west edge; B3 and B5 are only diagonal to A4.
    after = pos.play("G4-B4")
    assert after.record == ("G4-B4",) and not after.is_over
    assert after.piece_at("A4") == (Color.LIGHT, Piece.KING)


# --- The king going home ------------------------------------------------------------------


def test_the_dark_king_on_g1_wins():
    pos = board("""
        . . . . . . .
        . . . . . . .
        k . . . . . .
        . . . . . . .
        . . . . . . K
        . . . . . . .
        . . . . . . .
    """)
    after = pos.play("G5-G1")
    assert after.record == ("G5-G1",)
    assert after.outcome() == Outcome("dark", "king-home")
    assert after.is_over and after.result == "dark" and after.legal_moves() == []


def test_the_light_king_on_a7_wins():
    pos = board(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . K
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . k . . .
        """,
        to_move="l",
    )
    after = pos.play("D7-A7")
    assert after.outcome() == Outcome("light", "king-home")
    assert after.result == "light"


def test_a_stone_or_commander_on_the_goal_corner_wins_nothing():
    pos = board("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        k . . C . . S
        . . . . . . .
        . . . . . . .
        . . . . . . K
    """)
    assert not pos.play("G4-G1").is_over
    assert not pos.play("D4-G1").is_over


# --- The order of the end checks -------------------------------------------------------------


def test_capturing_the_king_while_arriving_home_is_king_captured():
    pos = board("""
        . . K . . . .
        . . . . . . k
        . . . . . . S
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    after = pos.play("C1-G1")  # home on G1, and G2's king has dark's G3 beyond
    assert after.record == ("C1-G1xG2",)
    assert after.outcome() == Outcome("dark", "king-captured")


def test_light_capturing_the_king_while_arriving_home_is_king_captured():
    pos = board(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        s . . . . . .
        K . . . . . .
        . . . . k . .
        """,
        to_move="l",
    )
    after = pos.play("E7-A7")
    assert after.record == ("E7-A7xA6",)
    assert after.outcome() == Outcome("light", "king-captured")


def test_arriving_home_with_a_capture_of_a_stone_is_king_home():
    pos = board("""
        . . K . . . .
        . . . . . . s
        k . . . . . S
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    after = pos.play("C1-G1")
    assert after.record == ("C1-G1xG2",)
    assert after.outcome() == Outcome("dark", "king-home")


def test_arriving_home_on_the_sixtieth_quiet_ply_is_king_home():
    pos = board(
        """
        . . . . . . .
        . . . . . . .
        k . . . . . .
        . . . . . . .
        . . . . . . K
        . . . . . . .
        . . . . . . .
        """,
        quiet=59,
    )
    after = pos.play("G5-G1")
    assert after.quiet == 60
    assert after.outcome() == Outcome("dark", "king-home")


CORNERED = """
    k S . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    S . . . . . .
    . . . . . . .
    . . . . . . K
"""


def test_leaving_the_opponent_no_move_wins():
    after = board(CORNERED).play("A5-A2")  # A1 has no neighbour left; nothing is captured
    assert after.record == ("A5-A2",)
    assert after.piece_at("A1") == (Color.LIGHT, Piece.KING)
    assert after.outcome() == Outcome("dark", "no-moves")
    assert after.result == "dark" and after.legal_moves() == []


def test_sixty_quiet_plies_come_before_no_moves():
    after = board(CORNERED, quiet=59).play("A5-A2")
    assert after.outcome() == Outcome("draw", "sixty-plies")
    assert after.result == "draw"


SHUTTLE = ("D4-D5", "B2-B3", "D5-D4", "B3-B2") * 2
KINGS = """
    . . . . . . .
    . k . . . . .
    . . . . . . .
    . . . K . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


def test_the_third_time_a_set_up_stands_is_a_draw():
    pos = board(KINGS, quiet=5)
    for ply, text in enumerate(SHUTTLE, start=1):
        pos = pos.play(text)
        if ply < 8:
            assert not pos.is_over, ply  # the set-up stands again after ply 4: twice
    assert pos.outcome() == Outcome("draw", "repetition")
    assert pos.quiet == 13 and pos.result == "draw"


def test_repetition_comes_before_sixty_plies():
    pos = play_all(board(KINGS, quiet=52), *SHUTTLE[:-1])
    last = pos.play(SHUTTLE[-1])
    assert last.quiet == 60
    assert last.outcome() == Outcome("draw", "repetition")
    # One quiet ply further on, the sixty plies end it first.
    early = play_all(board(KINGS, quiet=53), *SHUTTLE[:-2]).play(SHUTTLE[-2])
    assert early.quiet == 60
    assert early.outcome() == Outcome("draw", "sixty-plies")


# --- Repetition ---------------------------------------------------------------------------


def test_the_start_standing_for_the_third_time_is_a_draw():
    pos = Position.start()
    shuttle = ["C6-C5", "E2-E3", "C5-C6", "E3-E2"] * 2
    for ply, text in enumerate(shuttle, start=1):
        pos = pos.play(text)
        assert pos.is_over == (ply == 8), ply
        if ply == 4:
            assert pos.to_text().split()[:2] == START_TEXT.split()[:2]
    assert pos.outcome() == Outcome("draw", "repetition")
    assert pos.legal_moves() == []
    # The record replays to the same end.
    again = Position.replay(None, pos.record)
    assert again.outcome() == Outcome("draw", "repetition")


def test_the_same_board_with_the_other_side_to_move_does_not_count():
    # Dark's commander goes round a triangle (D4 D2 B4) in three moves while light's king
    # steps A1 B1 and back in two: after 5 plies the set-up board stands with light to
    # move, after 12 again with dark to move, and the third time with dark to move is
    # ply 24. Counting the board alone would end the game at ply 12.
    pos = board("""
        k . . . . . .
        . . . . . . .
        . . . . . . .
        . . . C . . K
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    set_up = pos.to_text().split()[0]
    dark = ["D4-D2", "D2-B4", "B4-D4"] * 4
    light = ["A1-B1", "B1-A1"] * 6
    for ply in range(1, 25):
        pos = pos.play(dark[(ply - 1) // 2] if ply % 2 else light[ply // 2 - 1])
        if ply in (5, 17):
            assert pos.to_text().split()[:2] == [set_up, "l"]
        if ply == 12:
            assert pos.to_text().split()[:2] == [set_up, "d"]
        assert pos.is_over == (ply == 24), ply
    assert pos.outcome() == Outcome("draw", "repetition")


# --- Sixty quiet plies --------------------------------------------------------------------


def test_sixty_plies_without_capture_draw():
    pos = board(KINGS, quiet=58)
    one = pos.play("D4-D5")
    assert one.quiet == 59 and not one.is_over
    two = one.play("B2-B3")
    assert two.quiet == 60
    assert two.outcome() == Outcome("draw", "sixty-plies")
    assert two.legal_moves() == []


def test_a_capture_resets_the_quiet_count():
    pos = board(
        """
        . . . . . . k
        . . . . . . .
        . . . S . . .
        . . . s . . .
        S . . . . . .
        . . . . . . .
        K . . . . . .
        """,
        quiet=59,
    )
    after = pos.play("A5-D5")
    assert after.quiet == 0 and not after.is_over
    assert after.play("G1-G2").quiet == 1


def test_the_quiet_count_starts_at_the_start():
    pos = Position.start().play("C6-C5")
    assert pos.quiet == 1 and pos.to_text().endswith(" l 1")
    assert pos.play("E2-E3").quiet == 2


# --- No moves -------------------------------------------------------------------------------


def test_a_text_whose_side_to_move_cannot_move_is_a_finished_game():
    pos = board("""
        . . . . . . k
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        s . . . . . .
        K s . . . . .
    """)
    assert pos.is_over
    assert pos.outcome() == Outcome("light", "no-moves")
    assert pos.result == "light"
    assert pos.legal_moves() == [] and pos.targets("A7") == ()
    light_stuck = board(
        """
        . . . . . S k
        . . . . . . S
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        K . . . . . .
        """,
        to_move="l",
    )
    assert light_stuck.outcome() == Outcome("dark", "no-moves")


def test_a_finished_game_refuses_every_move():
    captured = board("""
        . . S . . . .
        . . s . . . .
        . . . k S . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        K . S . . . s
    """).play("C7-C3")
    assert captured.record == ("C7-C3xC2/D3",)
    assert captured.outcome() == Outcome("dark", "king-captured")
    home = board("""
        . . . . . . .
        . . . . . . .
        k . . . . . .
        . . . . . . .
        . . . . . . K
        . . . . . . .
        . . . . . . .
    """).play("G5-G1")
    sixty = board(KINGS, quiet=58).play("D4-D5").play("B2-B3")
    repeated = play_all(board(KINGS), *SHUTTLE)
    # Each move would be legal if the game went on.
    for pos, text in ((captured, "G7-G6"), (home, "A3-A4"), (sixty, "D5-D6"), (repeated, "D4-D5")):
        assert pos.is_over
        assert pos.legal_moves() == []
        with pytest.raises(IllegalMoveError):
            pos.play(text)
        assert not pos.is_legal(move(text))
        assert pos.why_illegal(move(text))
        assert pos.targets(text[:2]) == ()


# --- Reading moves --------------------------------------------------------------------------


def test_moves_print_as_from_dash_to():
    m = Move(sq("B5"), sq("B2"))
    assert str(m) == "B5-B2"
    assert m.origin == SQUARES[29] and m.target == SQUARES[8]
    assert str(m.origin) == "B5" and str(m.target) == "B2"
    assert Position.start().play(m).last_move == m


@pytest.mark.parametrize(
    "text", ["B5-B2", "b5-b2", "B5 B2", "B5B2", "b5b2", "  B5 - B2  ", "B5   B2", "\tb5-B2\n"]
)
def test_move_input_is_forgiving(text):
    assert parse_move(text) == Move(sq("B5"), sq("B2"))
    assert read_move(text) == (Move(sq("B5"), sq("B2")), None)
    assert Position.start().play(text).record == ("B5-B2",)


def test_format_move_and_parse_move_round_trip():
    for m in Position.start().legal_moves():
        assert parse_move(format_move(m)) == m
        assert format_move(m) == str(m)


@pytest.mark.parametrize(
    "text",
    [
        "C7-C3xC2/D3",
        "C7-C3xD3/C2",
        "c7-c3xd3/c2",
        "C7C3xD3/C2",
        "C7 C3xC2/D3",
        "C7-C3 x C2 / D3",
        "c7 c3 X d3/C2",
    ],
)
def test_a_capture_list_reads_in_any_order(text):
    m, captures = read_move(text)
    assert parse_move(text) == m
    assert m == move("C7-C3")
    assert captures == frozenset({sq("C2"), sq("D3")})
    after = board(RULE_BOOK_EXAMPLE).play(text)
    assert after.record == ("C7-C3xC2/D3",)  # the record writes north, west, east, south


@pytest.mark.parametrize("text", ["C7-C3xC2", "C7-C3xD3", "C7-C3xC2/D3/B3", "C7-C3xC4"])
def test_a_capture_list_that_differs_from_the_captures_is_refused(text):
    pos = board(RULE_BOOK_EXAMPLE)
    message = assert_refused(pos, text)
    assert all(name in message for name in ("C7", "C3", "C2", "D3")), message


def test_a_capture_list_on_a_quiet_move_is_refused():
    assert_refused(Position.start(), "B5-B2xB1")
    assert_refused(Position.start(), "B5-B2xC2")


@pytest.mark.parametrize(
    "text",
    [
        "Z9",
        "",
        "   ",
        "B6",
        "B6-Z2",
        "Z2-B6",
        "B6-B2xZ9",
        "B6-",
        "-B2",
        "B6-B2-B1",
        "pass",
        "B8-B2",
    ],
)
def test_unreadable_move_text_is_an_invalid_move_error(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)
    with pytest.raises(InvalidMoveError) as caught:
        Position.start().play(text)
    assert isinstance(caught.value, MoveError) and isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, IllegalMoveError)


def test_unreadable_text_is_quoted_in_the_message():
    with pytest.raises(InvalidMoveError, match="Z9"):
        Position.start().play("B6-Z9")


def test_illegal_moves_are_move_errors_not_invalid_ones():
    with pytest.raises(IllegalMoveError) as caught:
        Position.start().play("B6-B2")  # B5 is in the way
    assert isinstance(caught.value, MoveError)
    assert not isinstance(caught.value, InvalidMoveError)
    assert "B5" in str(caught.value)


def test_a_record_reads_as_one_text_split_on_commas_semicolons_and_lines():
    moves = ["C6-C5", "E2-E3", "C5-C6", "E3-E2", "B5-B2"]
    listed = Position.replay(None, moves)
    for text in ("C6-C5, E2-E3; C5-C6\nE3-E2,B5-B2", "c6 c5;e2-e3\nC5C6 , E3-E2 ; b5-b2"):
        assert len(list(split_moves(text))) == 5
        again = Position.replay(None, text)
        assert again == listed
        assert again.record == tuple(moves)
    assert Position.replay(None, [move(text) for text in moves]).record == tuple(moves)


def test_replay_refuses_an_illegal_record():
    with pytest.raises(IllegalMoveError):
        Position.replay(None, ["C6-C5", "C5-C4"])  # the second is light's turn
    with pytest.raises(InvalidMoveError):
        Position.replay(None, "C6-C5, Z9")


def test_ends_name_the_five_reasons():
    assert set(ENDS) == {"king-captured", "king-home", "repetition", "sixty-plies", "no-moves"}
    assert all(isinstance(words, str) and words for words in ENDS.values())


# --- Position text --------------------------------------------------------------------------


def test_position_text_round_trips_with_side_and_quiet_count():
    text = "k....../......./..C..../......./....S../......./......K l 17"
    pos = Position.from_text(text)
    assert pos.to_text() == text
    assert pos.turn is Color.LIGHT and pos.quiet == 17
    assert pos.piece_at("C3") == (Color.DARK, Piece.COMMANDER)
    assert Position.from_text(pos.to_text()) == pos


def test_positions_are_equal_by_board_side_and_quiet_count_not_history():
    by_play = Position.start().play("C6-C5").play("E2-E3").play("C5-C6").play("E3-E2")
    assert by_play.record != Position.start().record
    assert by_play != Position.start()  # four quiet plies more
    assert by_play == Position.from_text(START_TEXT.replace(" 0", " 4"))
    one_way = Position.start().play("C6-C5").play("E2-E3").play("B5-B4")
    other_way = Position.start().play("B5-B4").play("E2-E3").play("C6-C5")
    assert one_way == other_way and one_way.record != other_way.record


START_ROWS = START_TEXT.split()[0].split("/")


def with_row(number: int, row: str, rest: str = "d 0") -> str:
    rows = list(START_ROWS)
    rows[number - 1] = row
    return f"{'/'.join(rows)} {rest}"


@pytest.mark.parametrize(
    "text",
    [
        with_row(7, ".SSS..."),  # dark's king missing
        with_row(1, "...sss."),  # light's king missing
        with_row(4, "S..K..s"),  # two dark kings
        with_row(4, "S..k..s"),  # two light kings
        with_row(4, "S..C..s"),  # two dark commanders
        with_row(4, "S..c..s"),  # two light commanders
        with_row(4, "S..S..s"),  # nine dark stones
        with_row(4, "S..s..s"),  # nine light stones
        "...sssK/....scs/.....ss/S..k..s/SS...../SCS..../.SSS... d 0",  # dark king on G1
        "...sss./....scs/.....ss/S..K..s/SS...../SCS..../kSSS... l 0",  # light king on A7
        with_row(4, "S.....s", "d 60"),
        with_row(4, "S.....s", "l 99"),
        with_row(4, "S.....s", "d -1"),
        with_row(4, "S.....s", "d x"),
        with_row(4, "S.....s", "x 0"),
        with_row(4, "S.....s", "d"),
        with_row(4, "S.....ss", "d 0"),  # eight squares in a row
        with_row(4, "S....s", "d 0"),
        with_row(4, "S..Q..s", "d 0"),
        "...sssk/....scs/.....ss/S.....s/SS...../SCS.... d 0",  # six rows
        "",
        "hello",
    ],
)
def test_impossible_position_texts_are_refused_with_a_message(text):
    with pytest.raises(InvalidPositionError) as caught:
        Position.from_text(text)
    assert str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_texts_with_fewer_pieces_and_fifty_nine_quiet_plies_are_read():
    pos = Position.from_text("k....../......./......./......./......./......./......K d 59")
    assert pos.quiet == 59 and tuple(pos.score()) == (1, 1)
    assert not pos.is_over
    assert pos.to_text() == "k....../......./......./......./......./......./......K d 59"


# --- Move counts --------------------------------------------------------------------------

# Counted by the plain model (tests/cyngesheall/model.py); a position whose game is
# over has no moves, so its branch ends there. The first level is worked out by hand in
# test_start_has_thirty_seven_moves_counted_by_hand.
START_PERFT = [37, 1253, 47477, 1709312]

# After 30 random plies from the start (one capture so far); five moves capture.
MIDGAME = ".....ck/S..s.ss/...s.../SC.Ss../...S.../..s...S/KSSs.S. d 11"
MIDGAME_PERFT = [44, 1855, 82590]
# Both kings a step or two from home: branches end by king-home and king-captured.
ENDGAME = "......./..s..../....S../.C.s.../......K/.k.S.../...c... d 40"
ENDGAME_PERFT = [41, 1454, 56778]


def engine_perft(pos: Position, depth: int) -> int:
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(engine_perft(pos.play(m), depth - 1) for m in moves)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_engine_perft_from_the_start(depth):
    assert engine_perft(Position.start(), depth) == START_PERFT[depth - 1]


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_model_perft_from_the_start(depth):
    assert perft(Model.start(), depth) == START_PERFT[depth - 1]


@pytest.mark.slow
def test_model_perft_from_the_start_depth_four():
    assert perft(Model.start(), 4) == START_PERFT[3]


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize(
    ("text", "counts"), [(MIDGAME, MIDGAME_PERFT), (ENDGAME, ENDGAME_PERFT)], ids=["mid", "end"]
)
def test_perft_from_later_positions(text, counts, depth):
    assert engine_perft(Position.from_text(text), depth) == counts[depth - 1]
    assert perft(Model.from_text(text), depth) == counts[depth - 1]


# --- Random games against the model ---------------------------------------------------------


def expected_outcome(model: Model) -> Outcome | None:
    if model.outcome is None:
        return None
    result, reason = model.outcome
    return Outcome(RESULTS[result], reason)


def assert_agrees(pos: Position, model: Model) -> None:
    """What the engine says of a position equals what the model says."""
    context = f"{model.text()} after {model.record}"
    assert pos.to_text() == model.text(), context
    assert pos.turn is SIDES[model.turn], context
    assert pos.quiet == model.quiet, context
    assert tuple(pos.score()) == model.score(), context
    assert pos.outcome() == expected_outcome(model), context
    assert pos.is_over == (model.outcome is not None), context
    assert pos.result == (None if model.outcome is None else RESULTS[model.outcome[0]]), context
    assert [str(m) for m in pos.legal_moves()] == [f"{a}-{b}" for a, b in model.moves()], context
    pieces = model.pieces()
    assert pos.board() == tuple(LETTERS.get(pieces.get(name, ".")) for name in NAMES)


def assert_agrees_on_every_move(pos: Position, model: Model, rng: random.Random) -> None:
    """Each legal move captures, ends and reads alike; other moves are refused."""
    legal = {f"{a}-{b}" for a, b in model.moves()}
    for name in NAMES:
        assert targets(pos, name) == set(model.targets(name)), f"{name} in {model.text()}"
    for text in sorted(legal):
        after, model_after = pos.play(text), model.play(*text.split("-"))
        assert after.record[-1] == model_after.record[-1], f"{text} in {model.text()}"
        assert names(after.last_captured) == list(model_after.captured)
        assert after.outcome() == expected_outcome(model_after), f"{text} in {model.text()}"
        assert after.to_text() == model_after.text()
        assert pos.is_legal(move(text)) and pos.why_illegal(move(text)) is None
    for _ in range(25):
        origin, target = rng.sample(NAMES, 2)
        text = f"{origin}-{target}"
        if text in legal:
            continue
        assert not pos.is_legal(move(text)), f"{text} in {model.text()}"
        assert pos.why_illegal(move(text)), f"{text} in {model.text()}"
        with pytest.raises(IllegalMoveError):
            pos.play(text)


def random_text(rng: random.Random, lopsided: bool = False) -> str:
    """A position text the rule book accepts: a king a side, not on its goal. A
    ``lopsided`` one has a king with a stone or none against a full side, which is where
    games end with a side unable to move."""
    while True:
        pieces = ["K", "k"]
        if lopsided:
            strong, weak = rng.choice([("CS", "s"), ("cs", "S")])
            pieces += [strong[0]] + [strong[1]] * 8 + [weak] * rng.randint(0, 1)
        else:
            pieces += [letter for letter in "Cc" if rng.random() < 0.7]
            pieces += ["S"] * rng.randint(0, 8) + ["s"] * rng.randint(0, 8)
        cells = ["."] * 49
        for letter, square in zip(pieces, rng.sample(range(49), len(pieces)), strict=False):
            cells[square] = letter
        if cells[6] == "K" or cells[42] == "k":
            continue
        rows = ["".join(cells[row * 7 : row * 7 + 7]) for row in range(7)]
        return f"{'/'.join(rows)} {rng.choice('dl')} {rng.randrange(0, 50)}"


STYLES = ["plain", "back", "kings", "squeeze"]


def choose(rng: random.Random, model: Model, style: str) -> tuple[str, str]:
    """A random legal move. The styles steer toward the rarer ends: ``back`` undoes
    its own last move (repetitions), ``kings`` walks the kings (home, or captured),
    ``squeeze`` leaves the opponent as few moves as it can (no moves)."""
    moves = model.moves()
    if style == "back" and len(model.record) >= 2 and rng.random() < 0.6:
        origin, target = model.record[-2][:5].split("-")
        if (target, origin) in moves:
            return target, origin
    if style == "kings" and rng.random() < 0.5:
        kings = [m for m in moves if model.at(m[0]) in "Kk"]
        if kings:
            return rng.choice(kings)
    if style == "squeeze" and rng.random() < 0.7:

        def freedom(m: tuple[str, str]) -> tuple[int, float]:
            after = model.play(*m)
            if after.outcome is not None and after.outcome[1] != "no-moves":
                return 99, rng.random()  # any other end is for the other styles
            return len(after.all_moves(after.turn)), rng.random()

        return min(moves, key=freedom)
    return rng.choice(moves)


def game_plan(game: int) -> tuple[str | None, str, random.Random]:
    """Game number ``game``'s set-up (None: the start), style and move chooser. Games
    below SET_UPS start from the start, the others from a random set-up."""
    rng = random.Random(game)
    style = STYLES[game % len(STYLES)]
    text = None if game < SET_UPS else random_text(rng, lopsided=style == "squeeze")
    return text, style, rng


def model_game(game: int) -> Model:
    """Game number ``game`` played by the model alone: the same moves as below."""
    text, style, rng = game_plan(game)
    model = Model.start() if text is None else Model.from_text(text)
    while model.outcome is None:
        model = model.play(*choose(rng, model, style))
    return model


def play_checked_game(game: int) -> Position:
    """Play game number ``game`` on the engine and the model side by side, checking that
    they agree at every position; every move of a few positions is tried too."""
    text, style, rng = game_plan(game)
    checks = random.Random(-1 - game)
    start = Position.start() if text is None else Position.from_text(text)
    model = Model.start() if text is None else Model.from_text(text)
    pos = start
    while True:
        assert_agrees(pos, model)
        # A text never holds a captured king, a king home or sixty quiet plies.
        ended = pos.outcome()
        if pos.quiet < 60 and (ended is None or ended.reason in ("repetition", "no-moves")):
            assert Position.from_text(model.text()) == pos
        if checks.random() < 0.04:
            assert_agrees_on_every_move(pos, model, checks)
        if pos.is_over:
            break
        origin, target = choose(rng, model, style)
        m = move(f"{origin}-{target}")
        pos = pos.play(m)
        model = model.play(origin, target)
        assert pos.last_move == m
        assert names(pos.last_captured) == list(model.captured)
    assert pos.record == model.record
    assert pos.ply == start.ply + len(pos.record)
    assert [played.text for played in pos.history] == list(pos.record)
    assert [played.move for played in pos.history] == [parse_move(t) for t in pos.record]
    sides = [start.turn, start.turn.opponent] * len(pos.record)
    assert [played.color for played in pos.history] == sides[: len(pos.record)]
    again = Position.replay(None, pos.record, start=None if text is None else start)
    assert again == pos and again.record == pos.record
    assert again.outcome() == pos.outcome()
    REACHED[game] = pos.outcome().reason
    return pos


# How each game numbered below ended, as the checked games found (the last test plays
# those that did not run on the model alone).
REACHED: dict[int, str] = {}


SET_UPS = 10_000
BATCH = 20
START_GAMES = [range(batch * BATCH, (batch + 1) * BATCH) for batch in range(5)]
SET_UP_GAMES = [range(SET_UPS + batch * BATCH, SET_UPS + (batch + 1) * BATCH) for batch in range(8)]


def batches(games: list[range]) -> list:
    """The batches of games, the first in every run and the others in the slow runs
    (`make test`): `make quick` checks 40 games of the 260."""
    return [
        pytest.param(batch, id=f"games-{batch[0]}", marks=[pytest.mark.slow] if number else [])
        for number, batch in enumerate(games)
    ]


@pytest.mark.parametrize("games", batches(START_GAMES))
def test_random_games_from_the_start_agree_with_the_model(games):
    for game in games:
        assert play_checked_game(game).is_over


@pytest.mark.parametrize("games", batches(SET_UP_GAMES))
def test_random_games_from_random_set_ups_agree_with_the_model(games):
    for game in games:
        assert play_checked_game(game).is_over


def test_the_random_games_reach_every_end():
    # The games above are worth only as much as the ends they reach: those every run
    # checks (the first batch of each kind) reach every end, and so all 260 do.
    reasons = set()
    for games in (START_GAMES[0], SET_UP_GAMES[0]):
        for game in games:
            if game not in REACHED:
                REACHED[game] = model_game(game).outcome[1]
            reasons.add(REACHED[game])
    assert reasons == set(ENDS)
