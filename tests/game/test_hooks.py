"""What a game's changes announce (game.hooks): once each, when the change commits,
to whoever listens; and the model's write sends the signals ``save()`` would."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_save, pre_save

from game import computer, hooks, play
from game.engine import Outcome, Position, Rules
from game.models import Game

pytestmark = pytest.mark.django_db

PLAIN = Rules(special_stones=False)


def one_move_from_the_end(seed: int = 7) -> tuple[Position, str]:
    """A position one move from the end of a game, and that move."""
    rng = random.Random(seed)
    position = Position.start(PLAIN)
    while True:
        move = rng.choice(position.legal_moves())
        after = position.play(move)
        if after.is_over:
            return Position.from_text(position.to_text(), PLAIN), str(move)
        position = after


class Heard:
    """The deliveries of one signal, while the test runs."""

    def __init__(self, signal) -> None:
        self.signal = signal
        self.calls: list[dict] = []
        self._lock = threading.Lock()

    def __call__(self, sender, signal, **kwargs) -> None:
        assert signal is self.signal and sender is Game
        with self._lock:
            self.calls.append(kwargs)


@pytest.fixture
def heard() -> Iterator:
    listeners = []

    def listen(signal) -> Heard:
        listener = Heard(signal)
        signal.connect(listener, weak=False)
        listeners.append(listener)
        return listener

    yield listen
    for listener in listeners:
        listener.signal.disconnect(listener)


def test_a_game_played_to_its_end_is_announced_once_with_its_outcome(
    heard, django_capture_on_commit_callbacks
):
    finished = heard(hooks.game_finished)
    before, last = one_move_from_the_end()
    game, tokens = play.create_game("hotseat", PLAIN, start=before)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        game = play.make_move(game.public_id, tokens, last)
        assert finished.calls == []  # not before the change commits
    (call,) = finished.calls
    expected = before.play(last).outcome()
    assert call["outcome"] == expected and expected.reason == "no-moves"
    assert call["game"].public_id == game.public_id and call["game"].status == "no-moves"
    assert len(callbacks) >= 1


def test_a_resignation_is_announced_once_with_the_winner(heard, django_capture_on_commit_callbacks):
    finished = heard(hooks.game_finished)
    game, tokens = play.create_game("hotseat", Rules())
    with django_capture_on_commit_callbacks(execute=True):
        play.resign(game.public_id, tokens)
        with pytest.raises(play.GameFinished):
            play.resign(game.public_id, tokens)
    (call,) = finished.calls
    assert call["outcome"] == Outcome("light", "resigned")


def test_an_end_rolled_back_is_never_announced(heard, django_capture_on_commit_callbacks):
    finished = heard(hooks.game_finished)
    game, tokens = play.create_game("hotseat", Rules())
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        play.resign(game.public_id, tokens)
        raise RuntimeError("the change is undone")
    assert finished.calls == []
    game.refresh_from_db()
    assert not game.is_over


def test_an_imported_game_that_ended_is_announced_as_it_is_saved(
    heard, django_capture_on_commit_callbacks
):
    finished = heard(hooks.game_finished)
    before, last = one_move_from_the_end(3)
    with django_capture_on_commit_callbacks(execute=True):
        game = play.import_game(PLAIN, before, [last])
    (call,) = finished.calls
    assert call["game"].pk == game.pk and call["outcome"] == before.play(last).outcome()


@pytest.mark.django_db(transaction=True)
def test_racing_to_end_a_game_announces_its_end_once(heard):
    """A move that ends the game and resignations from both seats and a second tab, all
    at once: one of them ends it, the others are refused, and the end is heard once."""
    finished = heard(hooks.game_finished)
    changed = heard(hooks.game_changed)
    before, last = one_move_from_the_end(11)
    game, tokens = play.create_game("hotseat", PLAIN, start=before)
    gate = threading.Barrier(5)
    outcomes: list[object] = []

    def act(action) -> None:
        gate.wait()
        try:
            outcomes.append(action())
        except Exception as exc:  # the assertions below say which
            outcomes.append(exc)
        finally:
            connection.close()

    actions = [
        lambda: play.make_move(game.public_id, tokens, last, expected_ply=game.ply),
        lambda: play.make_move(game.public_id, tokens, last, expected_ply=game.ply),
        lambda: play.resign(game.public_id, tokens),
        lambda: play.resign(game.public_id, {"dark": tokens["dark"]}),
        lambda: play.resign(game.public_id, {"light": tokens["light"]}),
    ]
    threads = [threading.Thread(target=act, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    done = [outcome for outcome in outcomes if isinstance(outcome, Game)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, play.PlayError)]
    assert len(done) == 1 and len(refused) == 4, outcomes
    assert len(finished.calls) == 1
    assert len(changed.calls) == 1  # the one change that was made
    game.refresh_from_db()
    assert game.is_over and game.revision == 1


def test_the_computer_hears_that_it_is_to_move_and_play_does_not_call_it(
    heard, django_capture_on_commit_callbacks
):
    to_move = heard(hooks.computer_to_move)
    with django_capture_on_commit_callbacks(execute=True):
        game, tokens = play.create_game("computer", Rules(), "light", level="cild")
    assert to_move.calls == [{"public_id": game.public_id, "ply": 0}]
    # Without the computer's listener a change still says so, and nothing thinks.
    assert hooks.computer_to_move.disconnect(dispatch_uid="game.computer.to_move")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            other, _ = play.create_game("computer", Rules(), "light", level="cild")
        assert to_move.calls[-1] == {"public_id": other.public_id, "ply": 0}
        from django_tasks_db.models import DBTaskResult

        assert DBTaskResult.objects.filter(args_kwargs__args=[other.public_id, 0]).count() == 0
    finally:
        hooks.computer_to_move.connect(computer._to_move, dispatch_uid="game.computer.to_move")


def test_a_hint_asked_for_is_heard_once_it_commits(heard, django_capture_on_commit_callbacks):
    asked = heard(hooks.hint_asked)
    game, tokens = play.create_game("hotseat", Rules())
    with django_capture_on_commit_callbacks(execute=True):
        play.ask_hint(game.public_id, tokens)
        play.ask_hint(game.public_id, tokens)  # asked again: the same hint
    assert asked.calls == [{"public_id": game.public_id, "ply": 0}]


def test_a_change_is_announced_inside_its_transaction_and_saved_as_save_would(heard):
    changed = heard(hooks.game_changed)
    saved = heard(post_save)
    game, tokens = play.create_game("hotseat", Rules())
    saved.calls.clear()
    with transaction.atomic():
        play.make_move(game.public_id, tokens, "D4")
        (call,) = changed.calls  # already: a NOTIFY must go out in the transaction
        assert call["game"].ply == 1 and call["using"] == "default"
    writes = [call for call in saved.calls if isinstance(call["instance"], Game)]
    (write,) = writes
    assert write["created"] is False and write["using"] == "default"
    assert {"revision", "updated", "ply", "record_text"} <= write["update_fields"]


def test_the_model_s_write_sends_exactly_the_signals_save_sends(heard):
    before, after = heard(pre_save), heard(post_save)
    game, _ = play.create_game("hotseat", Rules())
    game.hint = "D4"
    sent = []
    for write in (
        lambda: game.save(update_fields=["hint", "revision"]),
        lambda: Game.objects.write(game, ("hint", "revision")),
    ):
        before.calls.clear()
        after.calls.clear()
        with transaction.atomic():
            write()
        sent.append((list(before.calls), list(after.calls)))
    assert sent[0] == sent[1]
    ((pre,), (post,)) = sent[1]
    assert pre == {
        "instance": game,
        "raw": False,
        "using": "default",
        "update_fields": frozenset({"hint", "revision"}),
    }
    assert post == pre | {"created": False}
