"""The move log is the truth: the cached fields always equal a replay of it."""

from __future__ import annotations

import random

import pytest
from django.db import IntegrityError, transaction

from game import play
from game.engine import Position, Rules
from game.models import Game, Move, new_seat_token

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
    assert game.result == (position.result or "")
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
