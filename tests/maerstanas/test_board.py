"""Drawing a position (game/board.py): any position, for any viewer, no saved game needed."""

from __future__ import annotations

import pytest
from django.template import engines

from game import fragments
from game.engine import Color, Position, Rules, Stone
from game.maerstanas.drawing import Choice, announcement, describe, draw_board, why
from game.moves import move_list
from game.surface import (
    Outcome,
)
from tests.support.diagrams import CHECKERBOARD, board

pytestmark = pytest.mark.usefixtures("settings")  # static URLs without a collected manifest

EVERYONE = frozenset({"dark", "light"})


def cells(drawn) -> dict[str, object]:
    return {item.name: item for item in drawn.squares if hasattr(item, "name")}


def test_a_board_has_every_square_in_rows_with_their_numbers():
    drawn = draw_board(Position.start())
    numbers = [item.number for item in drawn.squares if hasattr(item, "number")]
    assert numbers == [1, 2, 3, 4, 5, 6, 7]
    assert list(cells(drawn)) == [f"{c}{r}" for r in range(1, 8) for c in "ABCDEFG"]


def test_a_viewer_who_may_move_gets_a_button_value_on_each_open_square():
    position = Position.replay(Rules(), ["A2", "G7", "B1"])  # A1 would have four hinges
    drawn = draw_board(position, Color.LIGHT)
    squares = cells(drawn)
    assert drawn.can_move and drawn.stone is Stone.STONE
    assert squares["D4"].value == "D4" and squares["D4"].reason == ""
    assert squares["A1"].value == "" and squares["A1"].reason == "A1 would have four hinges"
    assert squares["A1"].label == "A1, empty: A1 would have four hinges"
    assert squares["A2"].label == "A2, dark stone" and squares["A2"].reason == ""
    assert [choice.kind for choice in drawn.stones.choices] == ["stone", "thunder", "woden"]


def test_a_viewer_who_may_not_move_only_looks():
    position = Position.replay(Rules(), ["D4"])
    for mover in (None, Color.DARK):  # nobody, or the side that is not to move
        drawn = draw_board(position, mover)
        assert not drawn.can_move and drawn.stones.choices == ()
        assert all(cell.value == "" and cell.reason == "" for cell in cells(drawn).values())


def test_a_finished_position_offers_no_move():
    rules = Rules(special_stones=False)
    position = Position.start(rules)
    while not position.is_over:
        position = position.play(position.legal_moves()[0])
    assert not draw_board(position, position.turn).can_move


def test_the_thunder_stone_shows_what_it_would_clear_and_woden_what_it_may_take():
    position = Position.replay(Rules(), ["D4", "E5"])
    thunder = cells(draw_board(position, Color.DARK, "thunder"))
    assert thunder["E4"].value == "T E4" and thunder["E4"].clears == "D4 E5"
    assert thunder["E4"].label == "E4, empty: a thunder-stone here clears D4, E5"
    woden = cells(draw_board(position, Color.DARK, "woden"))
    assert [name for name, cell in woden.items() if cell.value] == ["E5"]
    assert woden["D4"].reason == "W D4: D4 is not your opponent's stone"


@pytest.mark.parametrize("stone", ["thunder", "woden", "<script>", ""])
def test_a_stone_the_mover_cannot_place_falls_back_to_a_normal_stone(stone):
    spent = Position.replay(Rules(), ["T D4", "T E4", "W E4", "W E4"])  # all four spent
    drawn = draw_board(spent, Color.DARK, stone)
    assert drawn.stone is Stone.STONE
    plain = draw_board(Position.start(Rules(special_stones=False)), Color.DARK, stone)
    assert plain.stone is Stone.STONE and plain.stones.choices[0].kind == "stone"
    assert len(plain.stones.choices) == 1


def test_the_last_move_and_what_its_thunder_stone_cleared_are_marked():
    position = Position.replay(Rules(), ["D4", "E5", "T E4"])
    squares = cells(draw_board(position))
    assert [name for name, cell in squares.items() if cell.is_last] == ["E4"]
    assert sorted(name for name, cell in squares.items() if cell.was_cleared) == ["D4", "E5"]
    after_pass = cells(draw_board(Position.replay(Rules(), ["D4"]).play("E4")))
    assert [name for name, cell in after_pass.items() if cell.is_last] == ["E4"]


def test_any_position_text_can_be_drawn_with_light_to_move():
    position = board(
        """
        S . . . . . .
        . . . . . . .
        . . . s . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . W
        """,
        to_move="l",
        hand="t",
    )
    squares = cells(draw_board(position, Color.LIGHT))
    assert squares["A1"].color == "dark" and squares["G7"].kind == "woden"
    assert squares["B2"].value == "B2"
    assert not any(cell.is_last for cell in squares.values())
    assert move_list(position) == ()


def test_the_move_list_numbers_the_plies_and_names_who_played():
    position = Position.replay(Rules(), ["D4", "E5", "T E4"])
    items = move_list(position)
    assert [(m.ply, m.color, m.text, m.is_pass) for m in items] == [
        (1, "dark", "D4", False),
        (2, "light", "E5", False),
        (3, "dark", "T E4xD4/E5", False),
    ]
    later = Position.from_text(position.to_text()).play("A1")
    assert [(m.ply, m.color) for m in move_list(later)] == [(1, "light")]


def test_status_and_announcement_of_a_game_going_on():
    position = Position.replay(Rules(), ["A1"])
    status = describe(position, None, EVERYONE)
    assert (status.turn, status.finished, status.headline) == ("light", False, "Light to move")
    assert status.score == (2, 0)
    assert describe(position, None, frozenset({"light"})).headline == "Your turn"
    assert describe(position, None, frozenset({"dark"})).your_color == "dark"
    assert describe(position, None, frozenset()).headline == "Light to move"
    assert announcement(position, status) == "Dark played A1. Light to move."
    start = Position.start()
    assert announcement(start, describe(start, None, EVERYONE)) == (
        "The game has started. Dark to move."
    )


@pytest.mark.parametrize(
    "outcome, headline, words, result_text",
    [
        (Outcome("dark", "resigned"), "Light resigned: dark wins", "Light resigned", "Dark wins"),
        (
            Outcome("tie", "no-moves"),
            "Neither side can move: a tie",
            "Neither side can move",
            "Tie",
        ),
        (
            Outcome("light", "no-moves"),
            "Neither side can move: light wins",
            "Neither side can move",
            "Light wins",
        ),
    ],
)
def test_status_of_a_finished_game_says_why(outcome, headline, words, result_text):
    position = Position.replay(Rules(), ["A1", "G7"])
    status = describe(position, outcome, EVERYONE)
    assert (status.turn, status.result, status.headline) == ("", outcome.result, headline)
    assert (status.why, status.result_text) == (words, result_text)
    assert why(outcome) == words
    assert announcement(position, status) == f"Light played G7. {headline}. Dark: 2, Light: 2."


def test_each_distinct_piece_is_rendered_once(monkeypatch):
    fragments._render.cache_clear()
    drawn = draw_board(Position.replay(Rules(), ["D4"]), Color.LIGHT)
    rendered = []
    real = fragments.get_template

    def counting(name: str):
        rendered.append(name)
        return real(name)

    monkeypatch.setattr(fragments, "get_template", counting)
    first = str(drawn.squares)
    assert first.count('data-square="') == 49
    # 7 row numbers, and the squares that differ: D4, the 47 open squares, none alike.
    assert rendered.count("game/_row_number.html") == 7
    again = str(draw_board(Position.replay(Rules(), ["D4"]), Color.LIGHT).squares)
    assert again == first
    assert len(rendered) == 7 + 49  # nothing rendered the second time


def test_a_drawn_value_shows_as_its_template_in_any_template():
    drawn = draw_board(Position.start())
    page = engines["django"].from_string("<div>{{ board.squares }}</div>")
    html = page.render({"board": drawn})
    assert html.count('data-square="') == 49 and "&lt;" not in html


def test_the_stone_choices_name_each_stone_its_picture_and_what_is_spent():
    start = draw_board(Position.start(), Color.DARK)
    assert start.stones.choices == (
        Choice("stone", "Stone", True, True, "", "/static/img/dark-stone.svg"),
        Choice("thunder", "Thunder-stone", False, True, "", "/static/img/dark-thunder.svg"),
        Choice("woden", "Woden-stone", False, True, "", "/static/img/dark-woden.svg"),
    )
    spent = Position.replay(Rules(), ["T D4", "E5"])  # dark's thunder-stone is used
    thunder = draw_board(spent, Color.DARK, "woden").stones.choices
    assert [(c.kind, c.selected, c.available, c.note) for c in thunder] == [
        ("stone", False, True, ""),
        ("thunder", False, False, "spent"),
        ("woden", True, True, ""),
    ]


def test_a_stone_on_the_board_shows_its_own_picture_and_an_empty_square_none():
    squares = cells(draw_board(Position.replay(Rules(), ["D4", "W D4"]), Color.DARK))
    assert (squares["D4"].color, squares["D4"].kind) == ("light", "woden")
    assert squares["D4"].image == "/static/img/light-woden.svg"
    assert (squares["E5"].color, squares["E5"].kind, squares["E5"].image) == ("", "", "")


def test_the_board_says_whether_its_edges_join_up():
    assert draw_board(Position.start(Rules(wraparound=True))).wraparound is True
    assert draw_board(Position.start()).wraparound is False


def test_a_pass_is_announced_as_a_pass():
    position = board(CHECKERBOARD, hand="t").play("Pass")  # dark could only pass
    status = describe(position, None, EVERYONE)
    assert announcement(position, status) == "Dark passed. Light to move."
    assert status.your_color == ""  # both seats: no "(you)"


def test_fragments_show_their_pieces_one_after_another_with_nothing_between():
    drawn = draw_board(Position.start())
    first, second = drawn.squares[0], drawn.squares[1]
    assert str(fragments.Fragments((first, second))) == str(first) + str(second)


def test_where_no_plain_stone_fits_the_special_stones_are_offered_by_name():
    position = board(CHECKERBOARD, hand="TW")
    drawn = draw_board(position, Color.DARK)
    assert drawn.stone is Stone.THUNDER
    assert drawn.note == (
        "No square takes a plain stone now: only your thunder-stone or your Woden-stone "
        "can be played"
    )
    assert draw_board(Position.start(), Color.DARK).note == ""


def test_a_board_shows_no_hinges_unless_asked_and_redraws_the_game_unless_told():
    position = Position.replay(Rules(), ["A1", "G7"])
    plain = draw_board(position, Color.DARK)
    assert all(cell.hinges == "" for cell in cells(plain).values())
    assert plain.stones.target == "#game"
    marked = draw_board(position, Color.DARK, hinges=True, target="#lesson")
    assert cells(marked)["A1"].hinges == "nw" and cells(marked)["B1"].hinges == ""
    assert marked.stones.target == "#lesson"


def test_the_move_list_marks_only_the_moment_looked_back_at():
    position = Position.replay(Rules(), ["D4", "E5", "T E4"])
    assert [m.current for m in move_list(position, current=2)] == [False, True, False]
    assert not any(m.current for m in move_list(position))


def test_a_game_waiting_for_its_second_player_says_so_to_each_viewer():
    start = Position.start()
    mine = describe(start, None, frozenset({"dark"}), waiting=True)
    assert mine.headline == "Waiting for your friend to join"
    assert describe(start, None, frozenset(), waiting=True).headline == (
        "Waiting for a second player"
    )


def test_each_side_s_special_stones_are_named_under_it():
    position = Position.replay(Rules(), ["T D4", "E5", "W E5", "T C3"])
    status = describe(position, None, EVERYONE)
    assert (status.dark_hand, status.light_hand) == ("holds no special stones", "holds Woden")
    fresh = describe(Position.start(), None, EVERYONE)
    assert fresh.dark_hand == fresh.light_hand == "holds thunder and Woden"
    plain = describe(Position.start(Rules(special_stones=False)), None, EVERYONE)
    assert plain.dark_hand == plain.light_hand == ""
