"""Each kind names its sides: the seats stay ``dark`` (first to move) and ``light``, and
people read the kind's words for them, and for a game nobody won."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import transaction
from django.test import Client

from game import play, records
from game.cyngesheall.editor import PIECES
from game.cyngesheall.site import KIND as CYNGESHEALL
from game.forms import NewGameForm
from game.maerstanas.engine import Position, Rules
from game.maerstanas.site import KIND as MAERSTANAS
from game.models import Game
from game.moves import ended_outside_rules
from game.registry import KINDS
from game.sides import DARK_AND_LIGHT, Sides
from game.surface import (
    Color,
    Outcome,
)
from lobby.forms import ChallengeForm
from lobby.models import Challenge
from players import names

pytestmark = pytest.mark.usefixtures("settings")  # static URLs without a collected manifest

BLUE_AND_RED = Sides(first="Blue", second="Red", no_winner="tie")
# Mǽrstánas as a rule book that names its sides blue and red would have it.
BLUE_RED_KIND = dataclasses.replace(MAERSTANAS, sides=BLUE_AND_RED)


def test_sides_name_each_seat_and_the_results():
    assert BLUE_AND_RED.name(Color.DARK) == BLUE_AND_RED.name("dark") == "Blue"
    assert BLUE_AND_RED.word("light") == "red"
    assert BLUE_AND_RED.as_mapping() == {"dark": "Blue", "light": "Red"}
    assert BLUE_AND_RED.result_text("light") == "Red wins"
    assert BLUE_AND_RED.result_text("tie") == "Tie"
    assert BLUE_AND_RED.result_text("") == ""
    assert BLUE_AND_RED.verdict("dark") == "blue wins"
    assert BLUE_AND_RED.verdict("tie") == "a tie"
    with pytest.raises(ValueError):
        BLUE_AND_RED.name("purple")


class BlueRedOutcome(Outcome):
    """An engine's ending in a rule book's words for its sides."""

    __slots__ = ()
    FIRST, SECOND = "blue", "red"


class Ended:
    """A finished position as far as ``GameKind.outcome`` reads one."""

    def __init__(self, outcome: Outcome) -> None:
        self._outcome = outcome

    def outcome(self) -> Outcome:
        return self._outcome


def test_a_side_is_found_by_its_seat_or_the_kinds_word_for_it():
    assert BLUE_AND_RED.seat("blue") is BLUE_AND_RED.seat("dark") is Color.DARK
    assert BLUE_AND_RED.seat("Red") is BLUE_AND_RED.seat(Color.LIGHT) is Color.LIGHT
    assert BLUE_AND_RED.name("red") == "Red"
    assert BLUE_AND_RED.result_text("blue") == "Blue wins"
    assert BLUE_AND_RED.verdict("red") == "red wins"
    with pytest.raises(ValueError, match="Blue or Red"):
        BLUE_AND_RED.seat("white")


def test_an_outcome_in_the_games_words_names_the_winners_seat():
    assert BlueRedOutcome("blue", "board-full").winner is Color.DARK
    assert BlueRedOutcome("red", "board-full").winner is Color.LIGHT
    assert BlueRedOutcome("draw", "equal-groups").winner is None
    assert BlueRedOutcome("dark", "board-full").winner is None  # not this game's word
    assert Outcome("light", "no-moves").winner is Color.LIGHT
    assert Outcome("tie", "no-moves").winner is None


def test_a_kind_says_an_engines_ending_in_the_words_the_site_stores():
    kind = dataclasses.replace(MAERSTANAS, sides=Sides("Blue", "Red", no_winner="draw"))
    assert kind.outcome(Ended(BlueRedOutcome("red", "board-full"))) == ("light", "board-full")
    assert kind.outcome(Ended(BlueRedOutcome("draw", "equal-groups"))) == (
        "draw",
        "equal-groups",
    )
    assert MAERSTANAS.outcome(Position.start(Rules())) is None


def test_the_two_games_keep_dark_and_light_and_their_own_word_for_no_winner():
    assert MAERSTANAS.sides == DARK_AND_LIGHT
    assert (MAERSTANAS.sides.first, MAERSTANAS.sides.second) == ("Dark", "Light")
    assert (CYNGESHEALL.sides.first, CYNGESHEALL.sides.second) == ("Dark", "Light")
    assert (MAERSTANAS.sides.no_winner, CYNGESHEALL.sides.no_winner) == ("tie", "draw")


def test_the_status_bar_names_the_kinds_sides():
    drawing = BLUE_RED_KIND.drawing
    start = Position.start(Rules())
    status = drawing.describe(start, None, frozenset(), sides=BLUE_RED_KIND.sides)
    assert status.headline == "Blue to move"
    markup = str(status)
    assert "Blue" in markup and "Red" in markup and "Dark" not in markup
    assert 'data-turn="dark"' in markup  # the mark names the seat, as before
    after = start.play("D4")
    status = drawing.describe(after, None, frozenset(), sides=BLUE_RED_KIND.sides)
    assert status.headline == "Red to move"
    assert drawing.announcement(after, status) == "Blue played D4. Red to move."
    resigned = Outcome("dark", "resigned")
    ended = drawing.describe(after, resigned, frozenset(), sides=BLUE_RED_KIND.sides)
    assert ended.headline == "Red resigned: blue wins"
    assert ended.result_text == "Blue wins" and ended.result == "dark"


def test_the_ends_and_the_move_list_name_the_kinds_sides():
    assert ended_outside_rules(Outcome("light", "timeout"), BLUE_AND_RED) == (
        "Blue ran out of time"
    )
    assert CYNGESHEALL.drawing.why(Outcome("light", "king-home"), BLUE_AND_RED) == (
        "Red's king reached home"
    )
    moves = BLUE_RED_KIND.drawing.move_list(
        Position.start(Rules()).play("D4").play("E4"), sides=BLUE_AND_RED
    )
    assert [item.who for item in moves] == ["Blue", "Red"]
    assert '<span class="moves__who">Red</span>' in str(moves)


def test_pictures_name_the_kinds_sides():
    position = Position.start(Rules()).play("D4")
    assert BLUE_RED_KIND.picture(position) != MAERSTANAS.picture(position)
    assert MAERSTANAS.picture(position) == MAERSTANAS.drawing.picture(position)


@pytest.fixture
def blue_and_red(monkeypatch):
    """Mǽrstánas's games played as a kind naming its sides blue and red."""
    monkeypatch.setitem(KINDS, "maerstanas", BLUE_RED_KIND)


@pytest.mark.django_db
def test_a_game_of_a_kind_with_other_sides_shows_them_everywhere(client: Client, blue_and_red):
    game, tokens = play.create_game("hotseat", Rules())
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Blue to move" in page and "No moves yet: blue begins." in page
    play.make_move(game.public_id, tokens, "D4", 0)
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Red to move" in page and '<span class="moves__who">Blue</span>' in page
    state = client.get(f"/api/games/{game.public_id}").json()
    assert state["sides"] == {"dark": "Blue", "light": "Red"}
    assert (state["turn"], state["score"]) == ("light", {"dark": 0, "light": 0})
    play.resign(game.public_id, {"light": tokens["light"]})
    record = client.get(f"/g/{game.public_id}/record.txt").content.decode()
    assert '[Blue "Player"]' in record and '[Red "Player"]' in record
    assert '[Dark "' not in record
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Red resigned: blue wins" in page and 'data-result="dark"' in page


@pytest.mark.django_db
def test_a_record_of_a_kind_with_other_sides_reads_its_players_back(client, blue_and_red):
    text = '[Blue "Ann"]\n[Red "Bo"]\n\n1. D4 2. E4\n'
    found = records.read_record(text, Rules())
    game = play.import_game(found.rules, found.start, found.moves, tags=dict(found.tags))
    assert game.imported_players == ("Ann", "Bo")
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert '<strong title="Blue">Ann</strong> vs <strong title="Red">Bo</strong>' in page


def test_a_records_result_names_the_winner_in_the_kinds_words(blue_and_red):
    resigned = records.make_record(rules=Rules(), moves=["D4"], result="light", end="resigned")
    assert '[Result "red"]' in resigned.text
    again = records.read_record(resigned.text)
    assert (again.result, again.end) == ("light", "resigned")
    # A record written before the kind named its sides says the seat: read alike.
    older = resigned.text.replace('[Result "red"]', '[Result "light"]')
    assert records.read_record(older).result == "light"
    with pytest.raises(records.RecordError, match="'purple' is not blue, red, tie or"):
        records.read_record('[Result "purple"]\n\nD4')
    with pytest.raises(records.RecordError, match="the result says blue, but the game goes on"):
        records.read_record('[Result "blue"]\n\nD4')


def test_a_records_last_line_is_read_whatever_the_kind_calls_its_sides():
    body = "1. D4 2. E4"
    for line in (
        "Blue wins: board full, red cannot move",
        "Blue 4+4, Red 4+3+1 — Blue wins: next largest group",
        "Draw: equal groups",
    ):
        assert records._result_line(f"{body}\n{line}\n", MAERSTANAS) == (body, line)
    assert records._result_line(f"{body}\n3. F4\n", MAERSTANAS) == (f"{body}\n3. F4\n", None)


@pytest.mark.django_db
def test_the_lobby_says_which_side_you_play_in_the_kinds_words(blue_and_red):
    challenge = Challenge(kind="maerstanas", color=Challenge.Color.DARK)
    assert challenge.color_text == "you play red"
    assert challenge.creator_color_text == "you play blue"


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "word"), [(MAERSTANAS, "tie"), (CYNGESHEALL, "draw")])
def test_a_game_nobody_won_is_stored_alike_and_said_in_its_kinds_word(kind, word):
    game, _ = play.create_game("hotseat", kind.rules())
    with transaction.atomic():
        play.finish(game, Outcome(word, next(iter(kind.ends))))
        game.save()
    game = Game.objects.get(pk=game.pk)
    assert game.result == Game.Result.NO_WINNER == "even"
    assert (game.result_word, game.result_text) == (word, word.capitalize())
    with pytest.raises(ValueError, match="is not a result"):
        game.store_result("purple")


def test_a_kinds_side_names_are_kept_from_players(monkeypatch):
    amber_jade = Sides(first="Amber", second="Jade", no_winner="tie")
    monkeypatch.setitem(KINDS, "maerstanas", dataclasses.replace(MAERSTANAS, sides=amber_jade))
    names.reserved.cache_clear()
    try:
        assert names.is_reserved("Amber") and names.is_reserved("jade")
    finally:
        monkeypatch.undo()
        names.reserved.cache_clear()
    assert not names.is_reserved("Amber")
    # 7-4-1776's sides are the site's own.
    assert names.is_reserved("Blue") and names.is_reserved("red")


def test_the_position_editor_names_pieces_by_the_kinds_sides():
    assert PIECES.name("K") == "dark king"
    assert dataclasses.replace(PIECES, sides=BLUE_AND_RED).name("k") == "red king"


def test_a_record_names_the_side_of_a_refused_move_as_its_kind_does(blue_and_red):
    with pytest.raises(records.RecordError, match=r"move 2 \(red's\): D4 is taken"):
        records.read_record("1. D4 2. D4\n", Rules())


def test_the_forms_offer_the_seats_by_the_kinds_side_names():
    assert NewGameForm(kind=BLUE_RED_KIND).fields["color"].choices == [
        ("dark", "Blue (moves first)"),
        ("light", "Red"),
        ("random", "Random"),
    ]
    assert ChallengeForm(kind=BLUE_RED_KIND).fields["color"].choices[1:] == [
        ("dark", "Blue (moves first)"),
        ("light", "Red"),
    ]
    assert NewGameForm().fields["color"].choices[0] == ("dark", "Dark (moves first)")
