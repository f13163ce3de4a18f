"""The actions on a game (game/play/): who may act, what is written, what is refused."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext

from game import play, seats
from game.engine import IllegalMoveError, InvalidMoveError, Outcome, Position, Rules
from game.models import BrowserGame, Game, Move
from tests.support.games import hotseat

pytestmark = pytest.mark.django_db


def test_hotseat_creator_holds_both_seats():
    game, tokens = hotseat()
    assert set(tokens) == {"dark", "light"}
    assert play.seated_colors(game, tokens) == {"dark", "light"}
    assert game.status == Game.Status.ACTIVE


def test_seat_tokens_are_long_random_and_stored_hashed():
    game, tokens = hotseat()
    for color, token in tokens.items():
        # token_urlsafe(24): 24 random bytes, 192 bits.
        assert len(token) >= 32
        stored = game.seat_hash(color)
        assert stored and token not in stored
        assert len(stored) == 64
    other_game, other_tokens = hotseat()
    assert tokens["dark"] != other_tokens["dark"]


def test_friend_game_waits_for_the_invited_player():
    game, tokens = play.create_game("friend", Rules(), "light")
    assert set(tokens) == {"light"}
    assert game.status == Game.Status.WAITING
    assert game.free_seat() == "dark"


def test_random_colour_gives_the_creator_one_seat():
    seen = set()
    for _ in range(30):
        _, tokens = play.create_game("friend", Rules(), "random")
        seen |= set(tokens)
    assert seen == {"dark", "light"}


def test_join_with_invite_takes_the_free_seat_once():
    game, _ = play.create_game("friend", Rules(), "dark")
    joined, color, token = play.join(game.public_id, play.invite_code(game))
    assert color == "light"
    assert joined.holds_seat("light", token)
    assert joined.status == Game.Status.ACTIVE
    with pytest.raises(play.NotSeated, match="both seats are taken"):
        play.join(game.public_id, play.invite_code(game))


def test_joining_advances_the_revision_the_creators_page_waits_on(client):
    game, dark = play.create_game("friend", Rules(), "dark")
    seen = game.revision
    play.join(game.public_id, play.invite_code(game))
    game.refresh_from_db()
    assert game.revision == seen + 1
    # The creator's page polls at the revision it was drawn at: it now gets the news.
    response = client.get(f"/g/{game.public_id}/poll/{seen}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert f'data-revision="{seen + 1}"' in response.content.decode()


def test_join_with_a_wrong_invite_is_refused():
    game, _ = play.create_game("friend", Rules(), "dark")
    with pytest.raises(play.NotSeated, match="not valid"):
        play.join(game.public_id, "0" * 32)
    game.refresh_from_db()
    assert game.free_seat() == "light"


def test_make_move_writes_the_move_and_refreshes_the_cache():
    game, tokens = hotseat()
    game = play.make_move(game.public_id, tokens, "d4", expected_ply=0)
    assert list(game.moves.values_list("ply", "notation", "color")) == [(1, "D4", "dark")]
    game.refresh_from_db()
    assert game.ply == 1
    assert game.turn == "light"
    assert game.revision == 1
    assert game.position_text == Position.start().play("D4").to_text()


def test_thunder_move_is_recorded_with_its_removals():
    game, tokens = hotseat()
    for text in ["D4", "E5", "T E4"]:
        play.make_move(game.public_id, tokens, text)
    assert game.logged_record() == ["D4", "E5", "T E4xD4/E5"]


def test_illegal_move_changes_nothing():
    game, tokens = hotseat()
    play.make_move(game.public_id, tokens, "D4")
    before = (Game.objects.get(pk=game.pk).revision, Move.objects.count())
    with pytest.raises(IllegalMoveError, match="D4 is taken"):
        play.make_move(game.public_id, tokens, "D4")
    with pytest.raises(InvalidMoveError, match="not a move"):
        play.make_move(game.public_id, tokens, "E4; DROP TABLE game_move")
    assert (Game.objects.get(pk=game.pk).revision, Move.objects.count()) == before


def test_stale_ply_is_refused():
    game, tokens = hotseat()
    play.make_move(game.public_id, tokens, "D4", expected_ply=0)
    with pytest.raises(play.StaleMove, match="board changed"):
        play.make_move(game.public_id, tokens, "E4", expected_ply=0)
    assert Move.objects.filter(game=game).count() == 1


def test_watcher_and_wrong_side_cannot_move():
    game, dark = play.create_game("friend", Rules(), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    with pytest.raises(play.NotSeated):
        play.make_move(game.public_id, {}, "D4")
    with pytest.raises(play.NotYourTurn, match="dark's turn"):
        play.make_move(game.public_id, {"light": light}, "D4")
    with pytest.raises(play.NotSeated):
        play.make_move(game.public_id, {"dark": light}, "D4")  # a token for the wrong seat
    play.make_move(game.public_id, dark, "D4")
    with pytest.raises(play.NotYourTurn, match="light's turn"):
        play.make_move(game.public_id, dark, "E4")


def test_another_games_token_does_not_seat_you():
    game, _ = hotseat()
    _, other_tokens = hotseat()
    with pytest.raises(play.NotSeated):
        play.make_move(game.public_id, other_tokens, "D4")


def record_with_a_pass(rules: Rules) -> list[str]:
    """A random game's record that contains an automatic pass (fixed seed: deterministic)."""
    rng = random.Random(7)
    for _ in range(5000):
        pos = Position.start(rules)
        while not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if "Pass" in pos.record:
            return list(pos.record)
    raise AssertionError("no game with a pass found")


def test_forced_pass_is_played_automatically_and_written():
    record = record_with_a_pass(Rules())
    game, tokens = hotseat()
    for text in record:
        if text != "Pass":
            play.make_move(game.public_id, tokens, text)
    assert game.logged_record() == record
    game.refresh_from_db()
    assert game.status == "no-moves"
    final = Position.replay(Rules(), record)
    assert (game.dark_score, game.light_score) == tuple(final.score())
    assert game.result == final.result
    assert game.turn == ""


def test_a_game_with_no_moves_left_ends_with_that_reason():
    record = record_with_a_pass(Rules())
    game, tokens = hotseat()
    for text in record:
        if text != "Pass":
            play.make_move(game.public_id, tokens, text)
    game.refresh_from_db()
    assert (game.status, game.end, game.is_over, game.turn) == ("no-moves", "no-moves", True, "")
    assert game.result == Position.replay(Rules(), record).result


def test_a_resigned_game_keeps_who_resigned():
    game, tokens = hotseat()
    play.make_move(game.public_id, tokens, "D4")
    game = play.resign(game.public_id, tokens)
    game.refresh_from_db()
    assert (game.status, game.end, game.result, game.loser) == (
        "resigned",
        "resigned",
        "dark",
        "light",
    )


def test_finish_refuses_a_game_already_over_and_unknown_reasons():
    game, tokens = hotseat()
    with pytest.raises(ValueError, match="cannot end"):
        play.finish(game, Outcome("dark", Game.Status.ACTIVE))
    with pytest.raises(ValueError, match="cannot end"):
        play.finish(game, Outcome("dark", "checkmate"))  # no end of this kind's
    with pytest.raises(ValueError, match="cannot end"):
        play.finish(game, Outcome("nobody", Game.Status.RESIGNED))
    with pytest.raises(ValueError, match="cannot end"):
        play.finish(game, Outcome("draw", "no-moves"))  # Cyngesheall's word, not this kind's
    assert play.finish(game, Outcome("tie", "no-moves")) == ["status", "result", "turn"]
    assert (game.status, game.result, game.turn) == ("no-moves", "even", "")
    assert game.result_word == "tie"
    with pytest.raises(play.GameFinished):
        play.finish(game, Outcome("dark", Game.Status.RESIGNED))


def test_an_ended_game_without_a_result_cannot_be_stored():
    game, _ = hotseat()
    game.status = Game.Status.RESIGNED
    with pytest.raises(IntegrityError), transaction.atomic():
        game.save(update_fields=["status"])
    game.refresh_from_db()
    game.result = "dark"  # and a result while it goes on
    with pytest.raises(IntegrityError), transaction.atomic():
        game.save(update_fields=["result"])


def test_finished_game_refuses_moves():
    game, tokens = hotseat()
    play.resign(game.public_id, tokens)
    with pytest.raises(play.GameFinished, match="the game is over"):
        play.make_move(game.public_id, tokens, "D4")


def test_resign_in_hotseat_loses_for_the_side_to_move():
    game, tokens = hotseat()
    play.make_move(game.public_id, tokens, "D4")
    game = play.resign(game.public_id, tokens)
    assert (game.loser, game.result, game.status, game.end) == (
        "light",
        "dark",
        "resigned",
        "resigned",
    )


def test_resign_in_a_friend_game_loses_for_the_resigner_and_watchers_cannot():
    game, dark = play.create_game("friend", Rules(), "dark")
    play.join(game.public_id, play.invite_code(game))
    with pytest.raises(play.NotSeated):
        play.resign(game.public_id, {})
    game = play.resign(game.public_id, dark)
    assert (game.loser, game.result) == ("dark", "light")


def test_a_friend_game_starts_when_both_seats_are_taken():
    game, dark = play.create_game("friend", Rules(), "dark")
    for action in (
        lambda: play.make_move(game.public_id, dark, "D4", 0),
        lambda: play.resign(game.public_id, dark),
    ):
        with pytest.raises(play.NotStarted):
            action()
    game.refresh_from_db()
    assert (game.status, game.ply, game.revision) == (Game.Status.WAITING, 0, 0)
    play.join(game.public_id, play.invite_code(game))
    assert play.make_move(game.public_id, dark, "D4", 0).ply == 1


def test_the_creator_cannot_take_the_other_seat_of_their_own_game():
    game, dark = play.create_game("friend", Rules(), "dark")
    with pytest.raises(play.PlayError, match="you play dark in this game already"):
        play.join(game.public_id, play.invite_code(game), held=dark)
    game.refresh_from_db()
    assert game.seat("light") is None and game.status == Game.Status.WAITING


def test_a_finished_game_cannot_be_joined_back_to_life():
    game, dark = play.create_game("friend", Rules(), "dark")
    play.join(game.public_id, play.invite_code(game))
    play.resign(game.public_id, dark)
    game.refresh_from_db()
    game.seats.filter(color="light").delete()  # as if the seat were free: the end stands
    with pytest.raises(play.GameFinished):
        play.join(game.public_id, play.invite_code(game))
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED and game.seat("light") is None


def test_a_browser_holding_both_seats_of_a_friend_game_can_start_its_rematch():
    game, dark = play.create_game("friend", Rules(), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    play.resign(game.public_id, dark)
    new, tokens = play.rematch(game.public_id, dark | {"light": light})
    assert new.rematch_of_id == game.id and set(tokens) == {"light"}


def test_rematch_swaps_colours_and_seats_the_other_player_when_they_ask():
    game, dark = play.create_game("friend", Rules(scoring="simple", wraparound=True), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    with pytest.raises(play.PlayError, match="once this game is over"):
        play.rematch(game.public_id, dark)
    play.resign(game.public_id, dark)

    new, new_tokens = play.rematch(game.public_id, dark)
    assert set(new_tokens) == {"light"}  # the old dark player now plays light
    assert new.rematch_of_id == game.id
    assert new.rules == Rules(special_stones=True, scoring="simple", wraparound=True)
    assert new.status == Game.Status.WAITING

    again, their_tokens = play.rematch(game.public_id, {"light": light})
    assert again.pk == new.pk
    assert set(their_tokens) == {"dark"}
    again.refresh_from_db()
    assert again.status == Game.Status.ACTIVE
    assert play.seated_colors(again, their_tokens) == {"dark"}


def test_returning_player_joins_the_rematch_without_an_invite():
    game, dark = play.create_game("friend", Rules(), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    play.resign(game.public_id, {"light": light})
    new, _ = play.rematch(game.public_id, dark)
    with pytest.raises(play.NotSeated):
        play.join(new.public_id, previous=dark)  # the old dark player already plays in it
    _, color, _ = play.join(new.public_id, previous={"light": light})
    assert color == "dark"


@pytest.mark.django_db(transaction=True)
def test_two_moves_at_once_queue_and_the_second_is_refused(monkeypatch):
    """The second move waits for the first one's transaction (SQLite: BEGIN IMMEDIATE;
    PostgreSQL: FOR UPDATE), then sees the new ply: refused, never a database error."""
    game, tokens = hotseat()
    inside, release = threading.Event(), threading.Event()
    real_position = Game.position

    def position_then_wait(self: Game, *args: object, **kwargs: object) -> Position:
        if threading.current_thread().name == "first":
            inside.set()  # the first move holds its transaction open here
            release.wait(10)
        return real_position(self, *args, **kwargs)

    monkeypatch.setattr(Game, "position", position_then_wait)
    outcomes: dict[str, object] = {}

    def move(name: str, text: str) -> None:
        try:
            outcomes[name] = play.make_move(game.public_id, tokens, text, expected_ply=0)
        except Exception as exc:  # whatever it is, the assertions below report it
            outcomes[name] = exc
        finally:
            connection.close()

    first = threading.Thread(target=move, args=("first", "D4"), name="first")
    second = threading.Thread(target=move, args=("second", "E4"), name="second")
    first.start()
    assert inside.wait(10)
    second.start()
    time.sleep(0.3)  # the second move reaches its transaction while the first holds one
    release.set()
    first.join(15)
    second.join(15)
    assert isinstance(outcomes["first"], Game), outcomes
    assert isinstance(outcomes["second"], play.StaleMove), outcomes
    assert game.logged_record() == ["D4"]


def test_unknown_game_is_reported():
    with pytest.raises(play.GameNotFound):
        play.make_move("nope", {}, "D4")


def test_the_seat_cookie_stays_under_the_browser_limit(client):
    """Seats live in a signed cookie; browsers drop cookies over 4096 bytes."""
    for _ in range(40):
        client.post("/", {"mode": "hotseat", "special_stones": "on", "scoring": "standard"})
    cookie = client.cookies["sessionid"]
    assert len(cookie.OutputString()) < 4096
    # The newest games keep their seats; the oldest were let go.
    newest = Game.objects.order_by("-id").first()
    response = client.post(f"/g/{newest.public_id}/move", {"move": "D4", "ply": 0})
    assert response.status_code == 303
    assert newest.logged_record() == ["D4"]


def _ended() -> tuple[str, dict[str, str]]:
    game, tokens = hotseat()
    play.resign(game.public_id, tokens)
    return game.public_id, tokens


def _started() -> tuple[str, dict[str, str]]:
    game, tokens = hotseat()
    return game.public_id, tokens


def _logged_ahead() -> tuple[str, dict[str, str]]:
    """A game whose log already holds the next ply (another process wrote it)."""
    game, tokens = hotseat()
    Move.objects.create(game=game, ply=1, notation="A1", color="dark")
    return game.public_id, tokens


def _computer_first() -> tuple[str, dict[str, str]]:
    """A game the computer opens as dark: the person, light, waits."""
    game, tokens = play.create_game("computer", Rules(), "light", level="cild")
    return game.public_id, tokens


def _friend_game() -> Game:
    return play.create_game("friend", Rules(), "dark")[0]


def _friends() -> tuple[str, dict[str, str], dict[str, str]]:
    """A friend game both friends have joined: its id, dark's tokens and light's."""
    game, dark = play.create_game("friend", Rules(), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    return game.public_id, dark, {"light": light}


def _join_holding_both_seats() -> object:
    """A browser that holds both seats of a friend game opens its invite."""
    public_id, dark, light = _friends()
    return play.join(public_id, "any", held=dark | light)


def _resign_before_the_friend_joins() -> object:
    game, dark = play.create_game("friend", Rules(), "dark")
    return play.resign(game.public_id, dark)


def _takeback_asked() -> tuple[str, dict[str, str], dict[str, str]]:
    """A friend game in which dark moved and asks to take it back."""
    public_id, dark, light = _friends()
    play.make_move(public_id, dark, "D4")
    play.take_back(public_id, dark)
    return public_id, dark, light


# Each refusal of game.play: the action, and the words the player reads on the board.
REFUSALS = {
    "no such game": (
        lambda: play.make_move("nosuchgame", {}, "D4"),
        "there is no such game",
    ),
    "unknown mode": (
        lambda: play.create_game("chess", Rules()),
        "'chess' is not a kind of game: choose hot-seat, play a friend or the computer",
    ),
    "unknown colour": (
        lambda: play.create_game("friend", Rules(), "blue"),
        "'blue' is not a colour: choose dark, light or random",
    ),
    "wrong invite": (
        lambda: play.join(_friend_game().public_id, "wrong"),
        "this invite is not valid for this game",
    ),
    "wrong seat link": (
        lambda: play.check_seat(_friend_game(), "light", "wrong"),
        "this seat link is not valid for this game",
    ),
    "move after the end": (lambda: play.make_move(*_ended(), "D4"), "the game is over"),
    "resign after the end": (lambda: play.resign(*_ended()), "the game is over"),
    "watcher moves": (
        lambda: play.make_move(_friend_game().public_id, {}, "D4"),
        "you are watching this game: only its players can move",
    ),
    "watcher resigns": (
        lambda: play.resign(_friend_game().public_id, {}),
        "you are watching this game: only its players can resign",
    ),
    "stale ply": (
        lambda: play.make_move(*_started(), "D4", 3),
        "the board changed since you saw it: look again and choose anew",
    ),
    "rematch too early": (
        lambda: play.rematch(*_started()),
        "a rematch can start once this game is over",
    ),
    "both seats taken": (
        lambda: play.join(_started()[0], "any"),
        "both seats are taken: you can watch this game",
    ),
    "finish an ended game": (
        lambda: play.finish(
            Game.objects.get(public_id=_ended()[0]), Outcome("dark", Game.Status.RESIGNED)
        ),
        "the game is over",
    ),
    "ply already in the log": (
        lambda: play.make_move(*_logged_ahead(), "D4"),
        "the board changed since you saw it: look again",
    ),
    "watcher asks a rematch": (
        lambda: play.rematch(_ended()[0], {}),
        "only the players of this game can start a rematch",
    ),
    "unknown level": (
        lambda: play.create_game("computer", Rules(), "dark", level="nobody"),
        "'nobody' is not a level: choose one of cild, ceorl, cniht, thegn, ealdor, wita",
    ),
    "hint after the end": (lambda: play.ask_hint(*_ended()), "the game is over"),
    "hint in a friend game": (
        lambda: play.ask_hint(_friend_game().public_id, {}),
        "hints are for hot-seat games and games against the computer",
    ),
    "watcher asks a hint": (
        lambda: play.ask_hint(_started()[0], {}),
        "you are watching this game: only its players can ask for a hint",
    ),
    "hint out of turn": (lambda: play.ask_hint(*_computer_first()), "it is dark's turn"),
    "watcher takes back": (
        lambda: play.take_back(_started()[0], {}),
        "you are watching this game: only its players can take a move back",
    ),
    "take back after the end": (
        lambda: play.take_back(*_ended()),
        "the game is over: moves can no longer be taken back",
    ),
    "take back before moving": (
        lambda: play.take_back(*_friends()[:2]),
        "you have no move to take back",
    ),
    "watcher answers a takeback": (
        lambda: play.answer_takeback(_takeback_asked()[0], {}, True),
        "you are watching this game: only its players can answer a takeback",
    ),
    "answer a takeback after the end": (
        lambda: play.answer_takeback(*_ended(), True),
        "the game is over: moves can no longer be taken back",
    ),
    "answer a takeback nobody asked": (
        lambda: play.answer_takeback(*_friends()[:2], True),
        "nobody has asked for a takeback",
    ),
    "answer your own takeback": (
        lambda: play.answer_takeback(*_takeback_asked()[:2], False),
        "your friend answers your takeback, not you",
    ),
    "join after the end": (
        lambda: play.join(_ended()[0], "any"),
        "the game is over: you can watch it, but not join it",
    ),
    "join holding both seats": (
        _join_holding_both_seats,
        "you play dark and light in this game already: send the invite to a friend",
    ),
    "resign before the friend joins": (
        _resign_before_the_friend_joins,
        "the game has not started: nobody has joined to win it",
    ),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_every_refusal_says_why_in_a_players_words(case):
    action, words = REFUSALS[case]
    with pytest.raises(play.PlayError) as refused:
        action()
    assert str(refused.value) == words


def test_a_hotseat_rematch_keeps_the_mode_and_rules_and_seats_both_again():
    game, tokens = hotseat(rules=Rules(special_stones=False, scoring="simple", wraparound=True))
    play.resign(game.public_id, tokens)
    new, new_tokens = play.rematch(game.public_id, tokens)
    assert (new.mode, new.rules) == (Game.Mode.HOTSEAT, game.rules)
    assert new.rematch_of_id == game.id and new.status == Game.Status.ACTIVE
    assert play.seated_colors(new, new_tokens) == {"dark", "light"}


def test_in_a_friend_game_the_resigner_loses_even_on_the_opponents_turn():
    game, dark = play.create_game("friend", Rules(), "dark")
    _, _, light = play.join(game.public_id, play.invite_code(game))
    play.make_move(game.public_id, dark, "D4")  # now light's turn
    game = play.resign(game.public_id, dark)
    assert (game.loser, game.result) == ("dark", "light")


def test_an_empty_ply_from_a_form_means_no_check():
    game, tokens = hotseat()
    play.make_move(game.public_id, tokens, "D4", "")
    assert Game.objects.get(pk=game.pk).ply == 1


def test_a_live_game_has_no_rematch_and_asks_no_database(django_assert_num_queries):
    game, _ = hotseat()
    with django_assert_num_queries(0):
        assert play.rematch_of(game) is None


def test_invite_codes_stay_the_same_across_upgrades(settings):
    """Links already sent must keep working: the code depends on the secret and the id only."""
    settings.SECRET_KEY = "a-fixed-secret-for-this-test-" + "k" * 30
    game = Game(public_id="Qx7Lm2Pa9Zt4")
    assert play.invite_code(game) == "306279d9285df0dc627334ff4dc9df1d"


def test_a_start_position_of_other_rules_is_refused():
    with pytest.raises(ValueError) as refused:
        play.create_game("hotseat", Rules(), start=Position.start(Rules(wraparound=True)))
    assert str(refused.value) == "the start position is for other rules than the game's"
    assert not Game.objects.exists()


def test_a_game_over_in_its_start_position_is_not_created():
    rules = Rules(special_stones=False)
    position = Position.start(rules)
    while not position.is_over:
        position = position.play(position.legal_moves()[0])
    with pytest.raises(play.GameFinished) as refused:
        play.create_game("hotseat", rules, start=Position.from_text(position.to_text(), rules))
    assert str(refused.value) == "the game is over in that position: there is nothing to play"
    assert not Game.objects.exists()


def test_a_game_from_the_empty_board_stores_no_start_text():
    game, _ = hotseat()
    assert Game.objects.get(pk=game.pk).start_text == ""
    empty = play.create_game("hotseat", Rules(), start=Position.start())[0]
    assert Game.objects.get(pk=empty.pk).start_text == ""


def test_a_game_is_saved_as_the_kind_its_rules_are_of(monkeypatch):
    from dataclasses import replace

    from game import registry

    renamed = replace(registry.DEFAULT, name="other")
    monkeypatch.setattr(registry, "KINDS", {"other": renamed})
    game, _ = hotseat()
    assert Game.objects.get(pk=game.pk).kind == "other"
    imported = play.import_game(Rules(), Position.start(), ["D4"])
    assert Game.objects.get(pk=imported.pk).kind == "other"


def test_an_imported_resignation_needs_a_winner():
    with pytest.raises(ValueError) as refused:
        play.import_game(Rules(), Position.start(), ["D4"], end="resigned")
    assert str(refused.value).startswith("a game cannot end with '' because ")


def test_a_takeback_drops_the_hint_shown_for_the_move_taken_back():
    game, tokens = hotseat()
    play.make_move(game.public_id, tokens, "D4")
    play.ask_hint(game.public_id, tokens)
    assert play.give_hint(game.public_id, 1, "E5") is not None
    assert Game.objects.get(pk=game.pk).hint == "E5"
    play.take_back(game.public_id, tokens)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ply, stored.hint_ply, stored.hint) == (0, None, "")


def test_an_accepted_takeback_is_no_longer_asked_for():
    public_id, dark, light = _takeback_asked()
    assert Game.objects.get(public_id=public_id).takeback_by == "dark"
    play.answer_takeback(public_id, light, True)
    stored = Game.objects.get(public_id=public_id)
    assert (stored.ply, stored.takeback_by) == (0, "")


def test_a_declined_takeback_is_no_longer_asked_for_and_the_move_stands():
    public_id, dark, light = _takeback_asked()
    play.answer_takeback(public_id, light, False)
    stored = Game.objects.get(public_id=public_id)
    assert (stored.ply, stored.takeback_by) == (1, "")


def test_the_computer_s_move_is_played_without_a_position_to_check():
    public_id, _ = _computer_first()
    game = play.computer_move(public_id, 0, "D4")
    assert game is not None and game.logged_record() == ["D4"]


def browser() -> HttpRequest:
    request = HttpRequest()
    request.session = {}
    return request


def test_a_browser_is_given_an_id_only_when_it_keeps_a_game():
    request = browser()
    assert seats.browser_id(request) == "" and request.session == {}
    made = seats.browser_id(request, create=True)
    assert len(made) == 32 and seats.browser_id(request) == made
    stranger = browser()
    assert seats.my_games(stranger).object_list.count() == 0
    assert stranger.session == {}  # looking at an empty list keeps nothing


def test_my_games_reads_each_game_and_its_seats_with_the_list(django_assert_num_queries):
    request = browser()
    for _ in range(3):
        game, tokens = hotseat()
        seats.remember(request, game.public_id, tokens)
    with django_assert_num_queries(3):  # the count, the list with its games, their seats
        page = seats.my_games(request)
        assert [entry.game.free_seat() for entry in page] == [None, None, None]
        assert {entry.game.seat_hash("dark") for entry in page} != {""}


def test_remembering_the_same_seats_again_writes_nothing():
    request = browser()
    game, tokens = hotseat()
    seats.remember(request, game.public_id, tokens)
    with CaptureQueriesContext(connection) as queries:
        seats.remember(request, game.public_id, tokens)
    assert not [q["sql"] for q in queries if q["sql"].startswith(("UPDATE", "INSERT"))]
    assert BrowserGame.objects.get(game=game).colors == "dark light"


# Newcomers: hints, takebacks, My games -----------------------------------------------------


def test_a_declined_takeback_is_remembered_and_the_same_move_not_asked_for_again():
    public_id, dark, light = _takeback_asked()
    game = play.answer_takeback(public_id, light, False)
    assert (game.takeback_by, game.takeback_declined_ply) == ("", 1)
    assert Game.objects.get(public_id=public_id).takeback_declined_ply == 1
    with pytest.raises(play.PlayError, match="your friend declined to take back this move"):
        play.take_back(public_id, dark)
    play.make_move(public_id, light, "E4")  # the friend's move changes nothing
    with pytest.raises(play.PlayError, match="you may ask again after your next move"):
        play.take_back(public_id, dark)
    play.make_move(public_id, dark, "C3")
    assert play.take_back(public_id, dark).takeback_by == "dark"


def test_the_friend_may_ask_for_their_own_move_after_declining():
    public_id, dark, light = _takeback_asked()
    play.answer_takeback(public_id, light, False)
    play.make_move(public_id, light, "E4")
    assert play.take_back(public_id, light).takeback_by == "light"


def test_a_declined_move_is_forgotten_once_it_is_taken_back():
    public_id, dark, light = _friends()
    for tokens, move in [(dark, "D4"), (light, "E4"), (dark, "C3")]:
        play.make_move(public_id, tokens, move)
    play.take_back(public_id, dark)
    assert play.answer_takeback(public_id, light, False).takeback_declined_ply == 3
    play.take_back(public_id, light)  # light's E4, and dark's C3 after it
    game = play.answer_takeback(public_id, dark, True)
    assert (game.ply, game.takeback_declined_ply) == (1, None)
    assert Game.objects.get(public_id=public_id).takeback_declined_ply is None
    play.make_move(public_id, light, "E4")
    play.make_move(public_id, dark, "C3")
    assert play.take_back(public_id, dark).takeback_by == "dark"


def test_a_takeback_after_the_declined_move_keeps_it_declined():
    public_id, dark, light = _takeback_asked()
    play.answer_takeback(public_id, light, False)  # dark's D4, the first move
    play.make_move(public_id, light, "E4")
    play.take_back(public_id, light)
    game = play.answer_takeback(public_id, dark, True)  # light's E4 alone
    assert (game.ply, game.takeback_declined_ply) == (1, 1)
    with pytest.raises(play.PlayError, match="declined"):
        play.take_back(public_id, dark)
