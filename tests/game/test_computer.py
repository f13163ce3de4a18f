"""Games against the computer and hints, on the site's side: who holds which seat, the
tasks a move enqueues, the reply played once per ply, recovery of lost work, the page."""

from __future__ import annotations

import dataclasses
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django_tasks_db.models import DBTaskResult

from game import bots, computer, play
from game.engine import Position, Rules
from game.models import Analysis, Game, Move
from game.registry import DEFAULT
from tests.support.exact import RULE_SETS
from tests.support.games import take_seats

pytestmark = pytest.mark.django_db

WEAKEST = bots.LEVEL_IDS[0]


def queued(task_name: str) -> list[list[object]]:
    """The arguments of the tasks of ``game.computer`` waiting for a worker."""
    return [
        task.args_kwargs["args"]
        for task in DBTaskResult.objects.ready().filter(task_path=f"game.computer.{task_name}")
    ]


def against_computer(color: str = "dark", level: str = WEAKEST, rules: Rules | None = None):
    game, tokens = play.create_game("computer", rules or Rules(), color, level=level)
    return game, tokens


def test_the_computer_holds_the_other_seat_with_its_level():
    game, tokens = against_computer("dark")
    assert list(tokens) == ["dark"]
    assert game.status == Game.Status.ACTIVE
    assert (game.level_of("dark"), game.level_of("light")) == ("", WEAKEST)
    assert game.seat("light").token_hash == "" and game.seat("dark").token_hash
    assert game.players == {
        "dark": {"kind": "human"},
        "light": {"kind": "computer", "level": WEAKEST},
    }
    assert game.computer_to_move == ""


def test_an_unknown_level_is_refused_and_nothing_is_stored():
    with pytest.raises(play.PlayError, match=r"'grandmaster' is not a level: choose one of "):
        play.create_game("computer", Rules(), "dark", level="grandmaster")
    with pytest.raises(play.PlayError, match=r"^'' is not a level: choose one of cild, "):
        play.create_game("computer", Rules(), "dark")
    assert not Game.objects.exists()


def test_the_computer_holds_exactly_one_seat_of_its_games_only():
    game, _ = against_computer()
    hotseat, _ = play.create_game("hotseat", Rules())
    friend, _ = play.create_game("friend", Rules(), "light")
    levels = {
        found.mode: sorted((seat.color, seat.level) for seat in found.seats.all())
        for found in (game, hotseat, friend)
    }
    assert levels == {
        "computer": [("dark", ""), ("light", WEAKEST)],
        "hotseat": [("dark", ""), ("light", "")],
        "friend": [("light", "")],
    }


def test_a_seat_is_held_by_a_person_or_the_computer_and_a_side_has_one():
    from django.db import IntegrityError, transaction

    from game.models import Seat

    game, _ = play.create_game("friend", Rules(), "light")
    for token_hash, level in [("f" * 64, WEAKEST), ("", "")]:
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.create(game=game, color="dark", token_hash=token_hash, level=level)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, color="light", level=WEAKEST)
    Seat.objects.create(game=game, color="dark", level=WEAKEST)
    assert Game.objects.get(pk=game.pk).level_of("dark") == WEAKEST


def test_a_move_enqueues_the_reply_once_it_is_saved(django_capture_on_commit_callbacks):
    game, tokens = against_computer("dark")
    assert queued("reply") == []
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play.make_move(game.public_id, tokens, "D4", 0)
    assert queued("reply") == []  # not before the move is committed
    for callback in callbacks:
        callback()
    assert queued("reply") == [[game.public_id, 1]]


def test_the_computer_thinks_at_once_when_it_plays_dark(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game, tokens = against_computer("light")
    assert game.computer_to_move == WEAKEST
    assert queued("reply") == [[game.public_id, 0]]
    with pytest.raises(play.NotYourTurn):
        play.make_move(game.public_id, tokens, "D4", 0)


def test_the_reply_is_played_once_per_ply_however_often_it_runs():
    game, tokens = against_computer("dark")
    play.make_move(game.public_id, tokens, "D4", 0)
    reply = computer.reply.call(game.public_id, 1)
    game.refresh_from_db()
    assert game.ply == 2 and game.turn == "dark"
    assert Position.replay(game.rules, ["D4"]).is_legal(reply)
    assert game.logged_record() == ["D4", reply]
    assert Move.objects.get(game=game, ply=2).color == "light"
    revision = game.revision
    assert computer.reply.call(game.public_id, 1) == ""  # the same ply again: nothing
    assert computer.reply.call(game.public_id, 2) == ""  # the person's turn: nothing
    assert play.computer_move(game.public_id, 1, "A1") is None
    game.refresh_from_db()
    assert (game.ply, game.revision) == (2, revision)


def test_a_reply_after_the_player_resigned_changes_nothing():
    game, tokens = against_computer("dark")
    play.make_move(game.public_id, tokens, "D4", 0)
    play.resign(game.public_id, tokens)
    assert computer.reply.call(game.public_id, 1) == ""
    assert play.computer_move(game.public_id, 1, "A1") is None
    game.refresh_from_db()
    assert (game.ply, game.result, game.loser) == (1, "light", "dark")


def test_the_computer_plays_a_whole_game_to_its_end():
    game, tokens = against_computer("dark", rules=Rules(wraparound=True))
    while not game.is_over:
        if game.computer_to_move:
            computer.reply.call(game.public_id, game.ply)
        else:
            move = game.position().legal_moves()[0]
            play.make_move(game.public_id, tokens, str(move), game.ply)
        game.refresh_from_db()
    position = Position.replay(game.rules, game.logged_record())
    assert position.is_over and game.result_word == position.result
    assert game.status == "no-moves"


def test_a_rematch_against_the_computer_keeps_its_level_and_swaps_colours(
    django_capture_on_commit_callbacks,
):
    game, tokens = against_computer("dark", level=bots.LEVEL_IDS[1])
    play.resign(game.public_id, tokens)
    with django_capture_on_commit_callbacks(execute=True):
        new, new_tokens = play.rematch(game.public_id, tokens)
    assert list(new_tokens) == ["light"]
    assert (new.level_of("dark"), new.level_of("light")) == (bots.LEVEL_IDS[1], "")
    assert queued("reply") == [[new.public_id, 0]]


# --- Hints ------------------------------------------------------------------------


def test_a_hint_is_asked_once_and_marks_the_strongest_levels_move(
    django_capture_on_commit_callbacks,
):
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4", 0)
    with django_capture_on_commit_callbacks(execute=True):
        game = play.ask_hint(game.public_id, tokens)
        play.ask_hint(game.public_id, tokens)  # asked again: still one task
    assert (game.hint_ply, game.hint, game.hint_asked) == (1, "", True)
    assert queued("hint") == [[game.public_id, 1]]
    move = computer.hint.call(game.public_id, 1)
    game.refresh_from_db()
    assert game.hint == move
    assert Position.replay(game.rules, ["D4"]).is_legal(move)
    assert computer.hint.call(game.public_id, 1) == ""  # thought out already
    play.make_move(game.public_id, tokens, move, 1)
    game.refresh_from_db()
    assert not game.hint_asked  # a hint stands for its position only
    play.ask_hint(game.public_id, tokens)  # asked anew: the old move is not shown
    game.refresh_from_db()
    assert (game.hint_ply, game.hint) == (2, "")


def test_a_hint_is_given_once():
    game, tokens = play.create_game("hotseat", Rules())
    play.ask_hint(game.public_id, tokens)
    assert play.give_hint(game.public_id, 0, "D4") is not None
    assert play.give_hint(game.public_id, 0, "A1") is None
    game.refresh_from_db()
    assert game.hint == "D4"


def test_hints_are_refused_in_friend_games_to_watchers_and_out_of_turn():
    friend, tokens = play.create_game("friend", Rules(), "dark")
    with pytest.raises(play.PlayError, match="hints are for hot-seat games and games against"):
        play.ask_hint(friend.public_id, tokens)
    game, tokens = against_computer("light")
    with pytest.raises(play.NotYourTurn):
        play.ask_hint(game.public_id, tokens)
    with pytest.raises(play.NotSeated):
        play.ask_hint(game.public_id, {})
    play.resign(game.public_id, tokens)
    with pytest.raises(play.GameFinished):
        play.ask_hint(game.public_id, tokens)
    for stored in Game.objects.all():
        assert stored.hint_ply is None


def test_a_hint_for_a_position_left_behind_is_dropped():
    game, tokens = play.create_game("hotseat", Rules())
    play.ask_hint(game.public_id, tokens)
    play.make_move(game.public_id, tokens, "D4", 0)
    assert computer.hint.call(game.public_id, 0) == ""
    assert play.give_hint(game.public_id, 0, "A1") is None
    game.refresh_from_db()
    assert game.hint == ""


# --- Recovery and the worker ---------------------------------------------------------


def test_recover_enqueues_the_replies_and_hints_still_due(django_capture_on_commit_callbacks):
    due, tokens = against_computer("dark")
    play.make_move(due.public_id, tokens, "D4", 0)
    due_dark, _ = against_computer("light")  # the computer plays dark: it is to move
    waiting, _ = against_computer("dark")  # the person is to move
    hinted, hinted_tokens = play.create_game("hotseat", Rules())
    play.ask_hint(hinted.public_id, hinted_tokens)
    stale_hint, stale_tokens = play.create_game("hotseat", Rules())
    play.ask_hint(stale_hint.public_id, stale_tokens)
    play.make_move(stale_hint.public_id, stale_tokens, "D4", 0)
    given, given_tokens = play.create_game("hotseat", Rules())
    play.ask_hint(given.public_id, given_tokens)
    play.give_hint(given.public_id, 0, "D4")
    over, over_tokens = against_computer("dark")
    play.make_move(over.public_id, over_tokens, "D4", 0)
    play.resign(over.public_id, over_tokens)
    DBTaskResult.objects.all().delete()

    assert computer.recover() == 3
    assert sorted(queued("reply")) == sorted([[due.public_id, 1], [due_dark.public_id, 0]])
    assert queued("hint") == [[hinted.public_id, 0]]
    assert waiting.public_id not in json.dumps(queued("reply"))


def test_recover_leaves_what_still_waits_in_the_queue_where_it_is(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        waiting, tokens = against_computer("dark")
        play.make_move(waiting.public_id, tokens, "D4", 0)  # its reply waits, queued fairly
        hinted, hinted_tokens = play.create_game("hotseat", Rules())
        play.ask_hint(hinted.public_id, hinted_tokens)
    lost, lost_tokens = against_computer("dark")
    play.make_move(lost.public_id, lost_tokens, "D4", 0)  # its reply was never enqueued
    running, running_tokens = against_computer("dark")
    with django_capture_on_commit_callbacks(execute=True):
        play.make_move(running.public_id, running_tokens, "D4", 0)
    # A killed worker's task stays "running" for ever: it is enqueued again.
    DBTaskResult.objects.filter(args_kwargs__args=[running.public_id, 1]).update(status="RUNNING")
    # A task for a ply already played (the game moved on) does not stand for this one.
    computer.reply.enqueue(lost.public_id, 0)
    Analysis.objects.bulk_create([Analysis(key="Ssw queued"), Analysis(key="Ssw lost")])
    computer.analyse.enqueue(["Ssw queued"], computer.ANALYSIS_SECONDS, DEFAULT.name)
    before = DBTaskResult.objects.count()

    assert computer.recover() == 3
    assert DBTaskResult.objects.count() == before + 3
    replies = queued("reply")
    assert replies.count([waiting.public_id, 1]) == 1
    assert replies.count([lost.public_id, 1]) == 1
    assert replies.count([running.public_id, 1]) == 1
    assert queued("hint") == [[hinted.public_id, 0]]
    chunks = [chunk for chunk, *_ in queued("analyse")]
    assert sorted(chunks) == [["Ssw lost"], ["Ssw queued"]]
    assert computer.recover() == 0  # everything due now waits in the queue


def test_the_worker_looks_for_work_five_times_a_second():
    from game.management.commands.worker import Command

    parser = Command().create_parser("manage.py", "worker")
    assert parser.parse_args([]).interval == 0.2
    assert parser.parse_args(["--interval", "2"]).interval == 2


@pytest.mark.django_db(transaction=True)
def test_the_worker_recovers_and_plays_what_is_due():
    game, tokens = against_computer("dark")
    play.make_move(game.public_id, tokens, "D4", 0)
    DBTaskResult.objects.all().delete()  # as if a killed worker took it along
    out = StringIO()
    call_command("worker", "--batch", "--no-reload", "--no-startup-delay", verbosity=0, stdout=out)
    assert out.getvalue().splitlines()[:2] == [
        "Enqueued again 1 computer moves and hints left undone.",
        "Scheduled the daily pruning of abandoned games.",
    ]
    game.refresh_from_db()
    assert game.ply == 2 and game.turn == "dark"
    replies = DBTaskResult.objects.filter(task_path=computer.reply.module_path)
    # The task returns the move as chosen; the log writes a thunder-stone's removals
    # after it ("T C4" is logged "T C4xD4").
    chosen, logged = replies.get().return_value, game.logged_record()[1]
    assert logged == chosen or logged.startswith(chosen + "x")


# --- Pages --------------------------------------------------------------------------


def test_the_form_starts_a_game_against_the_chosen_level(client):
    level = bots.LEVELS[2]
    data = {"mode": "computer", "level": level.id, "color": "light", "scoring": "standard"}
    reply = client.post("/", data)
    assert reply.status_code == 303
    game = Game.objects.get()
    assert (game.level_of("dark"), game.level_of("light")) == (level.id, "")
    page = client.get(reply["Location"]).content.decode()
    assert f'data-computer="dark" data-level="{level.id}"' in page
    assert level.name in page and "level 3" in page
    assert "data-thinking" in page
    api = client.get(f"/api/games/{game.public_id}").json()
    assert api["players"] == {
        "dark": {"kind": "computer", "level": level.id},
        "light": {"kind": "human", "name": "Guest", "username": None, "rating": None},
    }


def test_the_form_lists_every_level_and_refuses_a_missing_or_unknown_one(client):
    page = client.get("/").content.decode()
    for level in bots.LEVELS:
        assert f'value="{level.id}"' in page and level.description in page
    for data, words in (
        ({"mode": "computer", "level": ""}, "Choose the computer&#x27;s level."),
        (
            {"mode": "computer", "level": "nobody"},
            "&#x27;nobody&#x27; is not a level: choose one of Mǽrstánas&#x27;s levels: Cild, ",
        ),
    ):
        reply = client.post("/", data | {"color": "dark", "scoring": "standard"})
        assert reply.status_code == 400
        fieldset = reply.content.decode().split("The computer's level", 1)[1]
        fieldset = fieldset.split("</fieldset>", 1)[0]
        assert f'<p class="error" role="alert">{words}' in fieldset
    assert not Game.objects.exists()


def test_the_page_shows_the_thinking_mark_only_while_the_computer_is_to_move(client):
    game, tokens = against_computer("dark")
    take_seats(client, game, tokens)
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "data-thinking" not in page and "data-hint-button" in page
    client.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": "0"})
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "data-thinking" in page and "data-hint-button" not in page


def test_the_hint_button_asks_and_the_board_marks_the_move(client):
    game, tokens = play.create_game("hotseat", Rules())
    take_seats(client, game, tokens)
    reply = client.post(f"/g/{game.public_id}/hint", headers={"HX-Request": "true"})
    assert reply.status_code == 200
    assert "Looking for a hint" in reply.content.decode()
    move = computer.hint.call(game.public_id, 0)
    page = client.get(f"/g/{game.public_id}/").content.decode()
    square = Position.start().play(move).last_move.square
    assert f'data-square="{square}" data-hint' in page
    assert f'data-hint-move="{move}"' in page
    assert page.count("data-hint ") + page.count("data-hint>") == 1
    # The move in words, which name its square, said once.
    said = re.search(r"<p[^>]*data-hint-move[^>]*>(.*?)</p>", page, re.S)[1]
    assert re.sub(r"<[^>]+>", "", said) == f"Hint: stone on {square}, marked on the board."
    client.post(f"/g/{game.public_id}/move", {"move": move, "ply": "0"})
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "data-hint-move" not in page and "data-hint " not in page  # it was for ply 0
    assert "data-hint-button" in page


def test_the_hint_button_is_refused_in_a_friend_game(client):
    game, tokens = play.create_game("friend", Rules(), "dark")
    take_seats(client, game, tokens)
    assert "data-hint-button" not in client.get(f"/g/{game.public_id}/").content.decode()
    reply = client.post(f"/g/{game.public_id}/hint", headers={"HX-Request": "true"})
    assert reply.status_code == 200  # htmx swaps only a success: the board says why
    assert "Hints are for hot-seat games" in reply.content.decode()
    game.refresh_from_db()
    assert game.hint_ply is None


def test_hint_requests_from_watchers_and_for_unknown_games_change_nothing(client):
    game, _ = play.create_game("hotseat", Rules())
    assert client.post(f"/g/{game.public_id}/hint").status_code == 403
    assert client.post("/g/AAAAAAAAAAAA/hint").status_code == 404
    assert client.get(f"/g/{game.public_id}/hint").status_code == 405
    game.refresh_from_db()
    assert game.hint_ply is None


def test_the_about_page_lists_the_levels_with_their_arena_elo(client, settings, tmp_path):
    from game import pages

    (tmp_path / "game" / "maerstanas").mkdir(parents=True)
    ratings = {level.id: 100 * number for number, level in enumerate(bots.LEVELS, start=1)}
    del ratings[bots.STRONGEST.id]
    (tmp_path / "game" / "maerstanas" / "arena.json").write_text(json.dumps({"ratings": ratings}))
    settings.BASE_DIR = tmp_path
    pages.arena_ratings.cache_clear()
    try:
        page = client.get("/about/").content.decode()
    finally:
        pages.arena_ratings.cache_clear()
    for number, level in enumerate(bots.LEVELS, start=1):
        row = page.split(f'<tr data-level="{level.id}">', 1)[1].split("</tr>", 1)[0]
        assert f"<td>{number}</td>" in row and level.name in row and level.description in row
        elo = "not measured" if level is bots.STRONGEST else str(100 * number)
        assert f"<td>{elo}</td>" in row


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_an_analysis_key_names_the_rules_and_the_position_and_reads_back(rules):
    text = Position.start(rules).to_text()
    key = computer.analysis_key(rules, text)
    special = "S" if rules.special_stones else "s"
    scoring = "s" if rules.scoring == "standard" else "p"
    wrap = "W" if rules.wraparound else "w"
    assert key == f"{special}{scoring}{wrap} {text}"
    assert computer.rules_of_key(DEFAULT, key) == (rules, text)


def test_each_rule_set_has_its_own_analysis_key():
    text = Position.start().to_text()
    assert len({computer.analysis_key(rules, text) for rules in RULE_SETS}) == len(RULE_SETS)


def test_the_queue_takes_every_clients_first_task_before_anyones_second(
    django_capture_on_commit_callbacks,
):
    """One address keeping a dozen games against the computer busy, and a newcomer:
    the newcomer's reply is among the first two a worker takes, not the thirteenth."""
    from django_tasks_db.models import DBTaskResult

    from kit import limits

    def as_client(client: str, color: str = "light") -> Game:
        token = limits.current_client.set(client)
        try:
            with django_capture_on_commit_callbacks(execute=True):
                game, _ = play.create_game("computer", Rules(), color, level="wita")
        finally:
            limits.current_client.reset(token)
        return game

    busy = [as_client("203.0.113.5") for _ in range(12)]
    newcomer = as_client("198.51.100.7")
    order = [row.args_kwargs["args"][0] for row in DBTaskResult.objects.ready()]
    assert len(order) == 13 and set(order[12:]) <= {game.public_id for game in busy}
    assert newcomer.public_id in order[:2]
    priorities = sorted(DBTaskResult.objects.ready().values_list("priority", flat=True))
    assert priorities == [-11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 0]
    keys = {row.args_kwargs["kwargs"]["client"] for row in DBTaskResult.objects.ready()}
    assert len(keys) == 2 and "203.0.113.5" not in str(keys)  # the queue keeps no address
    # A worker starting (a recovery) leaves the waiting tasks in their places: enqueued
    # again at nobody's priority, 0, the dozen would go before the newcomer's.
    assert computer.recover() == 0
    assert DBTaskResult.objects.ready().filter(priority=0).count() == 2


def test_hints_count_against_a_clients_allowance(client):
    from kit import limits

    game, tokens = play.create_game("hotseat", Rules())
    take_seats(client, game, tokens)
    for _ in range(limits.THINK.requests):
        client.post(f"/g/{game.public_id}/hint")
    refused = client.post(f"/g/{game.public_id}/hint")
    assert refused.status_code == 429 and "at most 60 to think every 10 minutes" in (
        refused.content.decode()
    )
    by_htmx = client.post(f"/g/{game.public_id}/hint", headers={"HX-Request": "true"})
    assert by_htmx.status_code == 200 and by_htmx["Retry-After"]
    assert "Too many requests: at most 60 to think" in by_htmx.content.decode()


def test_recover_enqueues_the_analyses_still_waiting_a_few_positions_a_task():
    keys = [f"Ssw waiting{number}" for number in range(4)]
    Analysis.objects.bulk_create([Analysis(key=key) for key in keys])
    Analysis.objects.create(key="Ssw done", dark_win=0.5)
    assert computer.recover() == 2
    tasks = queued("analyse")
    assert sorted(len(chunk) for chunk, *_ in tasks) == [1, computer.POSITIONS_PER_TASK]
    assert sorted(key for chunk, *_ in tasks for key in chunk) == keys
    for _, *rest in tasks:
        assert rest == [computer.GAME_ANALYSIS_SECONDS, DEFAULT.name]


def test_an_analysis_is_asked_for_the_positions_of_its_kind_not_known_yet(
    django_capture_on_commit_callbacks,
):
    Analysis.objects.create(key="Ssw known")
    Analysis.objects.create(kind="other", key="Ssw elsewhere")  # of another kind of game
    keys = ["Ssw known", "Ssw elsewhere", "Ssw new", "Ssw new"]
    with django_capture_on_commit_callbacks(execute=True):
        assert computer.request_analysis(DEFAULT, keys) == 2
    mine = Analysis.objects.filter(kind=DEFAULT.name).values_list("key", flat=True)
    assert sorted(mine) == ["Ssw elsewhere", "Ssw known", "Ssw new"]
    assert queued("analyse") == [
        [["Ssw elsewhere", "Ssw new"], computer.ANALYSIS_SECONDS, DEFAULT.name]
    ]
    assert computer.request_analysis(DEFAULT, keys) == 0
    # Another kind of game keeps its analyses apart, under its own name.
    other = dataclasses.replace(DEFAULT, name="other")
    assert computer.request_analysis(other, ["Ssw known"]) == 1
    assert Analysis.objects.filter(kind="other", key="Ssw known").exists()


def test_a_position_asked_for_by_two_pages_at_once_is_stored_once():
    raced = []

    def meanwhile(execute, sql, params, many, context):
        # Another page's request stores the same position between this one's look
        # and its write.
        if not raced and sql.startswith("INSERT") and Analysis._meta.db_table in sql:
            raced.append(sql)
            Analysis.objects.create(key="Ssw both")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(meanwhile):
        computer.request_analysis(DEFAULT, ["Ssw both"])
    assert raced and Analysis.objects.filter(key="Ssw both").count() == 1
