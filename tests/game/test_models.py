"""The move log is the truth: the cached fields always equal a replay of it."""

from __future__ import annotations

import random

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import Subquery
from django.test.utils import CaptureQueriesContext

from game import managers, play
from game.cyngesheall import ENDS as CYNGESHEALL_ENDS
from game.engine import Position, Rules
from game.land_grab import ENDS as LAND_GRAB_ENDS
from game.maerstanas.engine import ENDS
from game.moai import ENDS as MOAI_ENDS
from game.models import Game, Move, Seat, status_choices
from game.parking_lot import ENDS as PARKING_LOT_ENDS
from game.seven_four import ENDS as SEVEN_FOUR_ENDS
from game.tokens import new_seat_token

pytestmark = pytest.mark.django_db

RULE_SETS = [
    Rules(),
    Rules(special_stones=False),
    Rules(scoring="simple"),
    Rules(wraparound=True),
    Rules(special_stones=False, scoring="simple", wraparound=True),
]


def assert_cache_matches_replay(game: Game) -> None:
    game.refresh_from_db()
    position = Position.replay(game.rules, game.logged_record(), game.start())
    standing = game.moves.filter(taken_back=None)
    assert game.ply == position.ply == standing.count()
    assert game.cached_record() == game.logged_record() == list(position.record)
    assert list(standing.values_list("color", flat=True)) == [
        played.color.value for played in position.history
    ]
    assert game.position() == position and game.position().record == position.record
    assert game.position(history=False) == position  # the cached text, the same position
    assert game.position(history=False).history == ()
    assert game.position_text == position.to_text()
    assert (game.dark_score, game.light_score) == tuple(position.score())
    assert game.turn == ("" if position.is_over else position.turn.value)
    assert game.status == ("no-moves" if position.is_over else "active")
    assert game.end == ("no-moves" if position.is_over else None)
    assert game.result_word == (position.result or "")
    plies = list(standing.values_list("ply", flat=True))
    assert plies == list(range(1, len(plies) + 1))


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_cache_equals_a_replay_after_every_move(rules):
    rng = random.Random(str(rules))
    game, tokens = play.create_game("hotseat", rules)
    assert_cache_matches_replay(game)
    while True:
        game.refresh_from_db()
        position = Position.from_text(game.position_text, rules)
        if position.is_over:
            break
        moves = [m for m in position.legal_moves() if not m.is_pass]
        play.make_move(game.public_id, tokens, str(rng.choice(moves)), expected_ply=game.ply)
        assert_cache_matches_replay(game)


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_cache_equals_a_replay_of_the_log_with_takebacks(rules):
    """Moves taken back stay in the log, marked; what stands still replays to the cache."""
    rng = random.Random(f"takeback {rules}")
    game, tokens = play.create_game("hotseat", rules)
    taken = 0
    for _ in range(80):
        game.refresh_from_db()
        position = Position.from_text(game.position_text, rules)
        if position.is_over:
            break
        if game.ply and rng.random() < 0.3:
            play.take_back(game.public_id, tokens)
            taken += 1
        else:
            moves = [m for m in position.legal_moves() if not m.is_pass]
            play.make_move(game.public_id, tokens, str(rng.choice(moves)), expected_ply=game.ply)
        assert_cache_matches_replay(game)
    assert taken > 5
    assert game.moves.exclude(taken_back=None).count() >= taken


def test_move_colours_follow_the_plies():
    game, tokens = play.create_game("hotseat", Rules())
    for text in ["D4", "E4", "A1"]:
        play.make_move(game.public_id, tokens, text)
    assert list(game.moves.values_list("color", flat=True)) == ["dark", "light", "dark"]


def test_a_duplicate_ply_is_rejected_by_the_database():
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4")
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=game, ply=1, notation="E4", color="dark")
    assert game.logged_record() == ["D4"]


def test_public_ids_are_unique_and_unguessable():
    ids = {play.create_game("hotseat", Rules())[0].public_id for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) == 12 for i in ids)


def test_save_change_writes_the_named_fields_advances_the_revision_and_the_time() -> None:
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4")
    before = Game.objects.get(pk=game.pk)
    assert before.revision == 1
    other = Game.objects.get(pk=game.pk)
    other.mode = Game.Mode.FRIEND  # changed in memory only: not named, so not written
    other.ply, other.position_text = 7, "changed"
    with transaction.atomic():
        other.save_change("ply", "position_text", "ply")  # named twice, written once
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ply, stored.position_text) == (7, "changed")
    assert stored.mode == Game.Mode.HOTSEAT
    assert stored.revision == before.revision + 1 == other.revision
    assert stored.updated > before.updated and stored.updated == other.updated
    assert stored.created == before.created


def test_seat_tokens_carry_24_random_bytes():
    tokens = [new_seat_token() for _ in range(50)]
    assert {len(token) for token in tokens} == {32}  # 24 bytes in URL-safe base64
    assert len(set(tokens)) == 50


def test_the_locked_game_is_a_saved_game_of_the_database_it_came_from():
    game, _ = play.create_game("hotseat", Rules())
    with transaction.atomic():
        locked = Game.objects.locked(game.public_id)
    assert locked == game and locked.position_text == game.position_text
    assert locked._state.db == "default" and not locked._state.adding
    assert Game.objects.locked("nosuchgame") is None


def test_the_locked_game_reads_its_values_as_the_orm_does():
    game, _ = play.create_game("computer", Rules(scoring="simple"), "light", level="cild")
    game.tags = {"Event": "a test"}
    game.save(update_fields=["tags"])
    with transaction.atomic():
        locked = Game.objects.locked(game.public_id)
    fresh = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(fresh, field.attname), field.name
    assert locked.rules == Rules(scoring="simple") and locked.tags == {"Event": "a test"}
    assert locked.level_of("dark") == "cild" and locked.seat("light").token_hash


def test_a_game_continued_from_a_position_replays_from_it():
    start = Position.from_text("S....../.s...../......./......./......./......./....... l TWt")
    game, tokens = play.create_game("hotseat", Rules(), start=start, moves=["T C1"])
    game = play.make_move(game.public_id, tokens, "D4", expected_ply=1)
    assert_cache_matches_replay(game)
    assert game.start_text == start.to_text() and game.start() == start
    assert game.position(1) == start.play("T C1") and game.position(0) == start
    assert game.position() is game.position()  # read once while the record stands


def test_a_games_seats_are_read_once_and_again_after_a_reload(django_assert_num_queries):
    game, tokens = play.create_game("friend", Rules(), "dark")
    game = Game.objects.get(pk=game.pk)
    with django_assert_num_queries(1):
        assert game.free_seat() == "light" and game.seat_hash("dark")
        assert game.players == {"dark": {"kind": "human"}, "light": {"kind": "human"}}
    play.join(game.public_id, play.invite_code(game))
    assert game.free_seat() == "light"  # as read
    game.refresh_from_db()
    assert game.free_seat() is None and game.holds_seat("dark", tokens["dark"])


def test_a_game_may_be_in_play_or_end_in_any_way_its_kind_knows():
    choices = dict(status_choices())
    assert choices == {
        "waiting": "Waiting for a player",
        "active": "In play",
        "resigned": "Resigned",
        "timeout": "Out of time",
        "aborted": "Aborted",
        **LAND_GRAB_ENDS,  # its repetition keeps Cyngesheall's word, the kind before it
        **CYNGESHEALL_ENDS,
        **SEVEN_FOUR_ENDS,
        **PARKING_LOT_ENDS,
        **MOAI_ENDS,
        **ENDS,  # an end both games know keeps Mǽrstánas's words
    }
    assert "no-moves" in choices and "king-captured" in choices


def test_a_seat_says_whose_game_and_side_it_is_and_who_holds_it():
    game, _ = play.create_game("computer", Rules(), "light", level="cild")
    assert str(game.seat("dark")) == f"{game.pk} dark: cild"
    assert str(game.seat("light")) == f"{game.pk} light: a person"


def test_the_locked_row_goes_through_the_converters_as_a_query_sends_it(monkeypatch):
    game, _ = play.create_game("hotseat", Rules())
    real = managers._converters
    given = []

    def noting(value, expression, used):
        given.append((expression, used))
        return value

    monkeypatch.setattr(
        managers,
        "_converters",
        lambda model, alias: [
            (i, column, [*found, noting]) for i, column, found in real(model, alias)
        ],
    )
    with transaction.atomic():
        locked = Game.objects.locked(game.public_id)
    assert locked == game and locked.options == game.options
    assert given == [(column, connections["default"]) for _, column, _ in real(Game, "default")]


def seat_reads(queries: CaptureQueriesContext) -> list[str]:
    table = Seat._meta.db_table
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and table in q["sql"]]


def test_a_new_game_knows_its_seats_without_reading_them_back(django_assert_num_queries):
    for mode, creator in [("hotseat", "dark"), ("friend", "light"), ("computer", "dark")]:
        with CaptureQueriesContext(connection) as queries:
            game, tokens = play.create_game(mode, Rules(), creator, level="cild")
        assert seat_reads(queries) == []
        with django_assert_num_queries(0):
            assert all(game.holds_seat(color, token) for color, token in tokens.items())
            assert game.level_of("light") == ("cild" if mode == "computer" else "")


def test_an_imported_game_has_no_seats_and_reads_none(django_assert_num_queries):
    with CaptureQueriesContext(connection) as queries:
        game = play.import_game(Rules(), Position.start(), ["D4", "E4"])
    assert seat_reads(queries) == []
    with django_assert_num_queries(0):
        assert game.seats_by_color() == {} and game.free_seat() == "dark"


def test_the_joined_game_knows_both_seats_without_reading_them_again(django_assert_num_queries):
    game, dark = play.create_game("friend", Rules(), "dark")
    joined, color, light = play.join(game.public_id, play.invite_code(game))
    with django_assert_num_queries(0):
        assert joined.holds_seat("dark", dark["dark"]) and joined.holds_seat("light", light)
        assert joined.free_seat() is None


def test_prefetched_seats_are_read_with_the_game(django_assert_num_queries):
    game, tokens = play.create_game("friend", Rules(), "dark")
    fetched = Game.objects.prefetch_related("seats").get(pk=game.pk)
    with django_assert_num_queries(0):
        assert fetched.free_seat() == "light" and fetched.holds_seat("dark", tokens["dark"])


def test_seats_are_saved_rows_of_the_database_they_came_from():
    game, _ = play.create_game("hotseat", Rules())
    seats = Seat.objects.of_game(game)
    assert {seat.color for seat in seats} == {"dark", "light"}
    assert all(seat._state.db == "default" and not seat._state.adding for seat in seats)


def test_the_seats_named_queries_find_whose_seats_they_are_and_where(django_user_model):
    ann = django_user_model.objects.create_user("ann")
    hotseat, tokens = play.create_game("hotseat", Rules(), user=ann)
    friend, mine = play.create_game("friend", Rules(), "dark")
    thinking, _ = play.create_game("computer", Rules(), "light", level="cild")
    waiting, _ = play.create_game("computer", Rules(), "dark", level="cild")
    over, held = play.create_game("computer", Rules(), "dark", level="cild")
    play.resign(over.public_id, held)
    in_hotseat = Seat.objects.in_game(hotseat.public_id)
    assert sorted(in_hotseat.values_list("color", flat=True)) == ["dark", "light"]
    assert list(Seat.objects.of(friend).values_list("color", flat=True)) == ["dark"]
    assert in_hotseat.side("light").get().color == "light"
    assert set(Seat.objects.held_by(ann)) == set(Seat.objects.held_by(ann.pk)) == set(in_hotseat)
    # A token's seat that no account holds yet: the friend game's, not the account's.
    assert list(Seat.objects.unclaimed([mine["dark"]])) == [friend.seat("dark")]
    assert not Seat.objects.unclaimed([tokens["dark"], new_seat_token()]).exists()
    computers = Seat.objects.computers()
    assert sorted(computers.values_list("game", "color")) == [
        (thinking.pk, "dark"),
        (waiting.pk, "light"),
        (over.pk, "light"),
    ]
    assert computers.at_level("cild").count() == 3 and not computers.at_level("wita").exists()
    assert sorted(computers.going_on().values_list("game", flat=True)) == [thinking.pk, waiting.pk]
    # The computer is to move in one game only: the one where it plays dark.
    to_move = Seat.objects.computers_to_move().values_list("game__public_id", "color")
    assert list(to_move) == [(thinking.public_id, "dark")]
    # Over games, each game's seat of the side not to move: a friend game's is free yet.
    other = Subquery(Seat.objects.not_to_move().values("color")[:1])
    games = Game.objects.filter(pk__in=[thinking.pk, waiting.pk, friend.pk])
    assert dict(games.annotate(other=other).values_list("pk", "other")) == {
        thinking.pk: "light",
        waiting.pk: "light",
        friend.pk: None,
    }


def test_a_game_set_up_under_other_rules_starts_from_its_position_under_them():
    rules = Rules(scoring="simple", wraparound=True)
    start = Position.from_text(
        "S....../.s...../......./......./......./......./....... l TWt", rules
    )
    game, _ = play.create_game("hotseat", rules, start=start)
    stored = Game.objects.get(pk=game.pk)
    assert stored.start() == start and stored.start().rules == rules


def test_a_reload_passes_its_arguments_on():
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4")
    game.mode = Game.Mode.FRIEND  # changed in memory only
    game.refresh_from_db(fields=["ply"])
    assert (game.ply, game.turn, game.mode) == (1, "dark", Game.Mode.FRIEND)
    game.refresh_from_db("default", ["turn"])
    assert (game.turn, game.mode) == ("light", Game.Mode.FRIEND)
    game.refresh_from_db()
    assert game.mode == Game.Mode.HOTSEAT


def test_texts_a_board_of_any_size_needs_are_stored_whole():
    """A position text, a move's notation and an analysis's key are as long as a game's
    rules make them (a 10×10 board's text is past 100 characters): the database keeps
    them whole, on PostgreSQL too, where a bounded column refused them."""
    from game.models import Analysis

    text = "/".join(["." * 10] * 10) + " d"  # a 10×10 board's rows
    long_move = "T " + "/".join(["E4"] * 30)
    game, _ = play.create_game("hotseat", Rules())
    Game.objects.filter(pk=game.pk).update(start_text=text * 3, position_text=text * 3)
    Move.objects.create(game=game, ply=1, color="dark", notation=long_move)
    Analysis.objects.create(kind="maerstanas", key=text * 5, line=",".join(["E4"] * 300))
    game.refresh_from_db()
    assert game.position_text == text * 3 and game.start_text == text * 3
    assert Move.objects.get(game=game, ply=1).notation == long_move
    assert Analysis.objects.get(key=text * 5).line.count("E4") == 300
