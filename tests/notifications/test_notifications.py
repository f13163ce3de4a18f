"""Notifications: the notices the games and the lobby give accounts, the count in every
page's header and the list at /notifications/, their e-mail (sent by the worker only,
one each or a daily digest, and reminders before a correspondence deadline), and the
"Your turn" list of the home page and "My games"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.core import mail
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from game import clocks, play
from game.cyngesheall.site import KIND as CYNGESHEALL
from game.engine import Rules
from game.maerstanas.site import KIND as MAERSTANAS
from game.models import BrowserGame, Game
from game.surface import (
    Outcome,
)
from game.tokens import account_token, hash_token
from lobby import challenges
from lobby import signals as lobby_signals
from lobby.challenges import Who
from lobby.models import Challenge as LobbyChallenge
from notifications import tasks, turns
from notifications.context_processors import unread
from notifications.models import Notification, Preference
from notifications.receivers import _verdict
from tests.support.accounts import PASSWORD

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


def person(name: str, email: bool = True):
    address = f"{name.lower()}@example.org" if email else ""
    return get_user_model().objects.create_user(name, email=address, password=PASSWORD)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def match(dark, light, speed: str = "correspondence", **terms) -> Game:
    """A game between two people (accounts, or a guest's token hash given as a str)."""
    terms = {"days": 3} | terms if speed == "correspondence" else terms
    people = {
        color: play.Person(token_hash=hash_token(f"{color}-{who}"))
        if isinstance(who, str)
        else play.Person(token_hash=hash_token(f"{color}-{who.pk}"), user=who)
        for color, who in (("dark", dark), ("light", light))
    }
    return play.create_match(Rules(), people, speed=speed, **terms)


def move(game: Game, user, color: str, text: str) -> Game:
    return play.make_move(
        game.public_id, {color: account_token(user.pk, game.public_id, color)}, text
    )


def notices(user, kind: str | None = None) -> list[Notification]:
    found = Notification.objects.filter(user=user).order_by("created", "pk")
    return list(found.filter(kind=kind) if kind else found)


def wants_mail(user, choice: str) -> None:
    Preference.objects.update_or_create(user=user, defaults={"email": choice})


def queued(task) -> list[DBTaskResult]:
    """The tasks waiting for a worker, now or later (``run_after``), oldest first."""
    waiting = DBTaskResult.objects.filter(task_path=task.module_path, status="READY")
    return list(waiting.order_by("enqueued_at", "pk"))


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what waits for the transaction's commit, as a real request's commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def act(committed):
    """Do one action and commit it, as one request would: ``act(play.resign, id, tokens)``."""

    def run(action, *args, **kwargs):
        with committed():
            return action(*args, **kwargs)

    return run


@dataclass
class Challenge:
    """A stand-in for the lobby's challenge: the attributes the receivers read."""

    public_id: str
    creator: object
    to_user: object = None
    creator_name: str = ""
    speed: str = "correspondence"

    @property
    def creator_id(self) -> int | None:
        return getattr(self.creator, "pk", None)

    def __str__(self) -> str:
        return "3 days a move, standard rules"


# Your turn, takebacks, ends ---------------------------------------------------------------


def test_a_correspondence_move_tells_the_account_to_move_once_the_move_commits(
    django_capture_on_commit_callbacks,
):
    ann, bob = person("Ann"), person("Bob")
    with django_capture_on_commit_callbacks(execute=True):
        game = match(ann, bob)
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        move(game, ann, "dark", "D4")
    assert notices(bob) == []  # nothing before the move commits
    for callback in waiting:
        callback()
    (told,) = notices(bob)
    assert told.kind == Kind.YOUR_TURN and told.url == f"/g/{game.public_id}/"
    assert told.game == game and told.read_at is None and told.mailed_at is None
    assert told.text == "Your turn against Ann: 2 days left"
    assert notices(ann) == []  # the player who moved is not told


def test_each_turn_is_told_once_whatever_else_changes_in_it(act):
    ann, bob = person("Ann"), person("Bob")
    game = act(match, ann, bob)
    act(move, game, ann, "dark", "D4")
    # A seat's link renewed changes the game, but begins no turn.
    bob_tokens = {"light": account_token(bob.pk, game.public_id, "light")}
    act(play.renew_seat, game.public_id, bob_tokens, "light")
    act(move, game, bob, "light", "E4")
    act(move, game, ann, "dark", "C3")
    assert [n.kind for n in notices(bob)] == [Kind.YOUR_TURN, Kind.YOUR_TURN]
    assert [n.kind for n in notices(ann)] == [Kind.YOUR_TURN]


@pytest.mark.parametrize(
    "speed, terms", [("live", {"initial": 300, "increment": 2}), ("unlimited", {})]
)
def test_live_and_unlimited_games_give_no_turn_notices(act, speed, terms):
    ann, bob = person("Ann"), person("Bob")
    game = act(match, ann, bob, speed, **terms)
    act(move, game, ann, "dark", "D4")
    act(move, game, bob, "light", "E4")
    assert Notification.objects.count() == 0


def test_a_guest_is_never_told_and_the_account_against_a_guest_is(act):
    ann = person("Ann")
    game = act(match, "guest", ann)
    act(play.make_move, game.public_id, {"dark": "dark-guest"}, "D4")
    act(move, game, ann, "light", "E4")
    (told,) = notices(ann)
    assert told.text == "Your turn against a guest: 2 days left"
    assert Notification.objects.count() == 1


def test_a_takeback_request_tells_the_other_account_and_no_turn_again(act):
    ann, bob = person("Ann"), person("Bob")
    game = act(match, ann, bob)
    act(move, game, ann, "dark", "D4")
    act(move, game, bob, "light", "E4")
    act(play.take_back, game.public_id, {"light": account_token(bob.pk, game.public_id, "light")})
    (asked,) = notices(ann, Kind.TAKEBACK)
    assert asked.text == "Takeback request from Bob: answer it on the game's page"
    assert asked.url == f"/g/{game.public_id}/"
    assert len(notices(ann, Kind.YOUR_TURN)) == 1  # told at Bob's move, not again
    assert notices(bob, Kind.TAKEBACK) == []


def test_the_end_of_a_friend_game_tells_both_accounts_who_won(act):
    ann, bob = person("Ann"), person("Bob")
    game = act(match, ann, bob, "unlimited")
    act(move, game, ann, "dark", "D4")
    act(play.resign, game.public_id, {"light": account_token(bob.pk, game.public_id, "light")})
    (ann_told,) = notices(ann, Kind.ENDED)
    (bob_told,) = notices(bob, Kind.ENDED)
    assert ann_told.text == "Your game against Bob ended: Light resigned. You won."
    assert bob_told.text == "Your game against Ann ended: Light resigned. You lost."
    assert ann_told.url == bob_told.url == f"/g/{game.public_id}/"


def test_the_end_of_a_game_against_the_computer_tells_nobody(committed):
    from game import bots

    ann = person("Ann")
    with committed():
        game, tokens = play.create_game(
            "computer", Rules(), "dark", level=bots.LEVEL_IDS[0], user=ann
        )
        play.resign(game.public_id, tokens)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RESIGNED
    assert Notification.objects.count() == 0


# Challenges ------------------------------------------------------------------------------


def test_a_challenge_to_a_player_tells_them_and_an_open_one_tells_nobody():
    ann, bob = person("Ann"), person("Bob")
    lobby_signals.challenge_made.send(sender=Challenge, challenge=Challenge("open1", ann))
    assert Notification.objects.count() == 0
    lobby_signals.challenge_made.send(sender=Challenge, challenge=Challenge("abc123", ann, bob))
    (told,) = notices(bob)
    assert told.kind == Kind.CHALLENGE and told.url == "/lobby/abc123/"
    assert told.text == "Challenge from Ann: 3 days a move, standard rules"
    assert told.game is None and notices(ann) == []


def test_a_challenge_accepted_or_declined_tells_its_creator(committed):
    ann, bob = person("Ann"), person("Bob")
    with committed():
        game = match(ann, bob)
    challenge = Challenge("abc123", ann, bob)
    lobby_signals.challenge_accepted.send(sender=Challenge, challenge=challenge, game=game)
    lobby_signals.challenge_declined.send(sender=Challenge, challenge=Challenge("xyz", ann, bob))
    accepted, declined = notices(ann)
    assert (accepted.kind, accepted.url, accepted.game) == (
        Kind.ACCEPTED,
        f"/g/{game.public_id}/",
        game,
    )
    assert accepted.text == "Challenge accepted by Bob: 3 days a move, standard rules"
    assert (declined.kind, declined.url) == (Kind.CHALLENGE, "/lobby/xyz/")
    assert declined.text.startswith("Challenge declined by Bob")
    assert notices(bob) == []


def test_a_guests_challenge_accepted_tells_nobody():
    ann = person("Ann")
    game = match("guest", ann)
    challenge = Challenge("guest1", None, None, "Wulf")
    lobby_signals.challenge_accepted.send(sender=Challenge, challenge=challenge, game=game)
    lobby_signals.challenge_declined.send(sender=Challenge, challenge=challenge)
    assert Notification.objects.count() == 0


# The header's count and the list ----------------------------------------------------------


def test_the_header_counts_an_accounts_unread_notices():
    ann = person("Ann")
    for text in ("one", "two", "three"):
        tasks.notify(ann.pk, Kind.CHALLENGE, text, "/lobby/x/")
    Notification.objects.filter(text="one").update(read_at=clocks.now())
    client = logged_in(ann)
    page = client.get("/about/").content.decode()
    assert 'href="/notifications/" data-notifications="2"' in page
    assert '<span class="badge">2</span>' in page
    with CaptureQueriesContext(connection) as queries:
        client.get("/about/")
    counts = [q["sql"] for q in queries if "notifications_notification" in q["sql"]]
    assert len(counts) == 1 and "COUNT" in counts[0]

    Notification.objects.update(read_at=clocks.now())
    page = client.get("/about/").content.decode()
    assert 'data-notifications="0"' in page and 'class="badge"' not in page


def test_a_guest_has_no_count_and_it_costs_no_query(client, django_assert_num_queries):
    request = RequestFactory().get("/")
    request.user, request.session = AnonymousUser(), SessionStore()
    with django_assert_num_queries(0):
        assert unread(request) == {"unread_notifications": 0}
    page = client.get("/").content.decode()
    assert "data-notifications" not in page


def test_hot_pages_of_a_guest_ask_nothing_more(client, settings, monkeypatch):
    """A guest's home page (no games: the hottest), "My games" and game page cost the
    queries they cost without notifications and the your-turn list."""
    game, _ = play.create_game("hotseat", Rules())
    paths = ["/", "/games/", f"/g/{game.public_id}/"]

    def queries_of(path: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        return len(queries)

    with_notifications = [queries_of(path) for path in paths]
    monkeypatch.setattr(turns, "your_turn", lambda request: [])
    engine = settings.TEMPLATES[0]
    processors = [p for p in engine["OPTIONS"]["context_processors"] if "notifications" not in p]
    settings.TEMPLATES = [
        engine | {"OPTIONS": engine["OPTIONS"] | {"context_processors": processors}}
    ]
    without = [queries_of(path) for path in paths]
    assert with_notifications == without


def test_the_list_shows_an_accounts_notices_newest_first_unread_marked(client):
    ann, bob = person("Ann"), person("Bob")
    first = tasks.notify(ann.pk, Kind.CHALLENGE, "first", "/lobby/a/")
    second = tasks.notify(ann.pk, Kind.ACCEPTED, "second", "/g/abc/")
    tasks.notify(bob.pk, Kind.CHALLENGE, "not Ann's", "/lobby/b/")
    Notification.objects.filter(pk=first.pk).update(read_at=clocks.now())
    page = logged_in(ann).get("/notifications/").content.decode()
    items = re.findall(r'<li class="notification[^"]*" data-notification="(\d+)"[^>]*>', page)
    assert items == [str(second.pk), str(first.pk)]
    assert re.search(rf'data-notification="{second.pk}"[^>]*data-unread', page)
    assert not re.search(rf'data-notification="{first.pk}"[^>]*data-unread', page)
    assert 'href="/g/abc/"' in page and "not Ann's" not in page
    assert 'action="/notifications/email"' in page and 'name="email" value="daily"' in page


def test_the_list_is_paged_fifty_at_a_time():
    ann = person("Ann")
    for number in range(55):
        tasks.notify(ann.pk, Kind.CHALLENGE, f"n{number}", "/lobby/x/")
    client = logged_in(ann)
    first = client.get("/notifications/").content.decode()
    second = client.get("/notifications/?page=2").content.decode()
    assert first.count("data-notification=") == 50 and second.count("data-notification=") == 5
    assert ">n54<" in first and ">n0<" in second


def test_marking_all_read_clears_the_count_and_touches_no_one_elses():
    ann, bob = person("Ann"), person("Bob")
    tasks.notify(ann.pk, Kind.CHALLENGE, "one", "/lobby/a/")
    tasks.notify(ann.pk, Kind.CHALLENGE, "two", "/lobby/b/")
    tasks.notify(bob.pk, Kind.CHALLENGE, "Bob's", "/lobby/c/")
    response = logged_in(ann).post("/notifications/read")
    assert response.status_code == 303 and response["Location"] == "/notifications/"
    assert Notification.objects.filter(user=ann, read_at=None).count() == 0
    assert Notification.objects.filter(user=bob, read_at=None).count() == 1
    page = logged_in(ann).get("/notifications/").content.decode()
    assert "data-unread" not in page and 'data-notifications="0"' in page


def test_a_guest_is_told_notifications_are_for_accounts(client):
    ann = person("Ann")
    tasks.notify(ann.pk, Kind.CHALLENGE, "Ann's secret", "/lobby/a/")
    response = client.get("/notifications/")
    page = response.content.decode()
    assert response.status_code == 200 and 'href="/accounts/signup/"' in page
    assert "for accounts" in page and "Ann's secret" not in page
    refused = client.post("/notifications/read")
    assert refused.status_code == 302 and refused["Location"].startswith("/accounts/login/")
    assert Notification.objects.filter(read_at=None).count() == 1


def test_the_email_choice_is_kept_and_a_wrong_one_refused():
    ann = person("Ann")
    client = logged_in(ann)
    response = client.post("/notifications/email", {"email": "daily"})
    assert response.status_code == 303 and response["Location"] == "/notifications/"
    assert Preference.objects.get(user=ann).email == "daily"
    page = client.get("/notifications/").content.decode()
    assert re.search(r'name="email" value="daily"[^>]*checked', page)
    assert client.post("/notifications/email", {"email": "hourly"}).status_code == 400
    assert Preference.objects.get(user=ann).email == "daily"


# E-mail ---------------------------------------------------------------------------------


def test_each_notice_is_mailed_by_the_worker_never_in_the_request(committed):
    ann, bob = person("Ann"), person("Bob")
    wants_mail(bob, "each")
    with committed():
        game = match(ann, bob)
    with committed():
        response = logged_in(ann).post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert response.status_code == 303
    assert mail.outbox == []  # the request sends nothing
    (told,) = notices(bob)
    (task,) = queued(tasks.send_notification)
    assert task.args_kwargs["args"] == [told.pk]

    assert tasks.send_notification.call(*task.args_kwargs["args"]) is True
    (sent,) = mail.outbox
    assert sent.to == ["bob@example.org"] and sent.from_email == settings.DEFAULT_FROM_EMAIL
    assert sent.subject == "Mǽrstánas: Your turn against Ann: 2 days left"
    assert f"{settings.SITE_URL}/g/{game.public_id}/" in sent.body
    assert tasks.send_notification.call(told.pk) is False  # mailed once, however often it runs
    assert len(mail.outbox) == 1
    told.refresh_from_db()
    assert told.mailed_at is not None


def test_no_mail_without_the_choice_or_an_address(committed):
    ann, bob, cyn = person("Ann"), person("Bob", email=False), person("Cyn")
    wants_mail(bob, "each")  # but has no address
    with committed():
        tasks.notify(ann.pk, Kind.CHALLENGE, "mail is off", "/lobby/a/")
        without_address = tasks.notify(bob.pk, Kind.CHALLENGE, "no address", "/lobby/b/")
        tasks.notify(cyn.pk, Kind.CHALLENGE, "never asked", "/lobby/c/")
    assert [task.args_kwargs["args"] for task in queued(tasks.send_notification)] == [
        [without_address.pk]
    ]
    assert tasks.send_notification.call(without_address.pk) is False
    assert mail.outbox == []


def test_a_daily_digest_mails_the_days_notices_in_one(committed):
    ann, bob = person("Ann"), person("Bob")
    wants_mail(bob, "daily")
    before = clocks.now()
    with committed():
        game = match(ann, bob)
        move(game, ann, "dark", "D4")
        challenge = Challenge("abc123", ann, bob)
        lobby_signals.challenge_made.send(sender=Challenge, challenge=challenge)
        tasks.notify(bob.pk, Kind.CHALLENGE, "already read", "/lobby/r/")
    Notification.objects.filter(text="already read").update(read_at=clocks.now())
    assert mail.outbox == []
    (digest,) = queued(tasks.send_digest)  # one for the day, however many notices
    due = Preference.objects.get(user=bob).digest_due
    assert digest.run_after == due and due - before >= timedelta(days=1)
    assert digest.args_kwargs["args"] == [bob.pk]

    assert tasks.send_digest.call(bob.pk) == 2
    (sent,) = mail.outbox
    assert sent.to == ["bob@example.org"] and sent.subject == "Mǽrstánas: 2 notifications"
    assert "Your turn against Ann" in sent.body and "Challenge from Ann" in sent.body
    assert "already read" not in sent.body
    assert f"{settings.SITE_URL}/lobby/abc123/" in sent.body
    assert Preference.objects.get(user=bob).digest_due is None
    assert tasks.send_digest.call(bob.pk) == 0 and len(mail.outbox) == 1  # nothing new

    with committed():  # the next notice sets the next digest going
        tasks.notify(bob.pk, Kind.CHALLENGE, "later", "/lobby/l/")
    assert len(queued(tasks.send_digest)) == 2
    assert Preference.objects.get(user=bob).digest_due is not None


def reminder_of(game: Game) -> DBTaskResult:
    """The reminder set for the game's deadline now (each turn sets its own)."""
    args = [game.public_id, game.deadline.isoformat()]
    (task,) = [t for t in queued(tasks.remind) if t.args_kwargs["args"] == args]
    return task


def test_a_reminder_is_mailed_when_less_than_a_day_is_left(committed, monkeypatch):
    ann, bob = person("Ann"), person("Bob")
    wants_mail(bob, "daily")
    with committed():
        game = match(ann, bob)
        move(game, ann, "dark", "D4")
    game.refresh_from_db()
    task = reminder_of(game)
    assert task.run_after == game.deadline - timedelta(days=1)
    assert task.args_kwargs["args"] == [game.public_id, game.deadline.isoformat()]

    monkeypatch.setattr(clocks, "now", lambda: game.deadline - timedelta(hours=20))
    assert tasks.remind.call(*task.args_kwargs["args"]) is True
    (sent,) = mail.outbox
    assert sent.to == ["bob@example.org"]
    assert sent.subject == "Mǽrstánas: Your turn against Ann: 20 hours left"
    assert f"{settings.SITE_URL}/g/{game.public_id}/" in sent.body
    reminded = notices(bob, Kind.YOUR_TURN)[-1]
    assert reminded.text == "Your turn against Ann: 20 hours left"
    assert reminded.mailed_at is not None  # the digest does not mail it again


def test_no_reminder_once_the_player_has_moved_or_without_mail(committed, monkeypatch):
    ann, bob = person("Ann"), person("Bob")
    wants_mail(bob, "each")
    with committed():
        game = match(ann, bob)
        move(game, ann, "dark", "D4")
    game.refresh_from_db()
    args = reminder_of(game).args_kwargs["args"]
    with committed():
        move(game, bob, "light", "E4")
    monkeypatch.setattr(clocks, "now", lambda: game.deadline - timedelta(hours=20))
    assert tasks.remind.call(*args) is False  # Bob moved: the deadline is another
    # Ann's turn now: she has no mail, so no reminder either.
    game.refresh_from_db()
    assert tasks.remind.call(*reminder_of(game).args_kwargs["args"]) is False
    assert mail.outbox == []
    assert [n.kind for n in notices(bob)] == [Kind.YOUR_TURN]


def test_a_one_day_turn_is_reminded_six_hours_before_and_live_games_never(committed):
    ann, bob = person("Ann"), person("Bob")
    with committed():
        short = match(ann, bob, days=1)
        live = match(ann, bob, "live", initial=600, increment=5)
    assert reminder_of(short).run_after == short.deadline - timedelta(hours=6)
    assert live.deadline is not None
    assert [t.args_kwargs["args"][0] for t in queued(tasks.remind)] == [short.public_id]


# The "Your turn" list ---------------------------------------------------------------------


def waiting_ids(page: str) -> list[str]:
    section = re.search(r"<section[^>]*data-your-turn-list.*?</section>", page, re.S)
    return re.findall(r'data-your-turn="([^"]+)"', section[0]) if section else []


def test_the_your_turn_list_of_an_account_soonest_deadline_first(committed):
    from game import bots

    ann, bob = person("Ann"), person("Bob")
    with committed():
        three_days = match(ann, bob, days=3)
        unlimited = match(ann, bob, "unlimited")
        one_day = match(ann, bob, days=1)
        bobs = match(bob, ann)  # Bob's turn
        over = match(ann, bob, "unlimited")
        play.resign(over.public_id, {"dark": account_token(ann.pk, over.public_id, "dark")})
        play.create_game("computer", Rules(), "dark", level=bots.LEVEL_IDS[0], user=ann)
        play.create_game("hotseat", Rules(), user=ann)
    expected = [one_day.public_id, three_days.public_id, unlimited.public_id]
    client = logged_in(ann)
    home = client.get("/").content.decode()
    assert waiting_ids(home) == expected
    assert waiting_ids(client.get("/games/").content.decode()) == expected
    line = re.search(rf'data-your-turn="{three_days.public_id}".*?</li>', home, re.S)[0]
    assert "Against Bob" in line and "2 days left" in line
    assert f'href="/g/{three_days.public_id}/"' in line
    assert (
        "no time limit"
        in re.search(rf'data-your-turn="{unlimited.public_id}".*?</li>', home, re.S)[0]
    )
    assert waiting_ids(logged_in(bob).get("/").content.decode()) == [bobs.public_id]


def test_the_your_turn_list_of_a_guest_browser(client, committed):
    bob = person("Bob")
    response = client.post("/", {"mode": "friend", "color": "dark", "scoring": "standard"})
    assert response.status_code == 303
    assert waiting_ids(client.get("/").content.decode()) == []  # waiting for a friend
    browser = SessionStore(session_key=client.cookies[settings.SESSION_COOKIE_NAME].value)[
        "browser"
    ]
    with committed():
        later = match("guest", bob, days=5)
        sooner = match("guest", bob, days=2)
        theirs = match(bob, "guest", days=1)  # the guest plays light: Bob's turn
    for game, colors in ((later, "dark"), (sooner, "dark"), (theirs, "light")):
        BrowserGame.objects.create(browser=browser, game=game, colors=colors)
    assert waiting_ids(client.get("/").content.decode()) == [sooner.public_id, later.public_id]
    games = client.get("/games/").content.decode()
    assert waiting_ids(games) == [sooner.public_id, later.public_id]
    assert waiting_ids(Client().get("/").content.decode()) == []  # another browser


def test_a_guest_without_games_costs_the_list_no_query(django_assert_num_queries):
    request = RequestFactory().get("/")
    request.user, request.session = AnonymousUser(), SessionStore()
    with django_assert_num_queries(0):
        assert turns.your_turn(request) == []


def test_time_left_in_words_never_says_more_than_there_is():
    now = clocks.now()
    words = [
        turns.time_left(now + delta, now)
        for delta in (
            timedelta(days=2, hours=23),
            timedelta(days=1, hours=5),
            timedelta(days=1),
            timedelta(hours=1, minutes=59),
            timedelta(minutes=40),
            timedelta(seconds=30),
            timedelta(seconds=-1),
        )
    ]
    assert words == [
        "2 days left",
        "1 day 5 hours left",
        "1 day left",
        "1 hour left",
        "40 minutes left",
        "less than a minute left",
        "no time left",
    ]
    assert turns.time_left(None, now) == "no time limit"


def test_the_count_is_not_asked_for_by_the_parts_htmx_redraws(act):
    ann, bob = person("Ann"), person("Bob")
    tasks.notify(ann.pk, Kind.CHALLENGE, "unread", "/lobby/a/")
    game = act(match, ann, bob, "unlimited")
    client = logged_in(ann)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/g/{game.public_id}/move", {"move": "D4", "ply": 0}, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200 and b"<html" not in response.content
    assert Game.objects.get(pk=game.pk).ply == 1
    assert not [q for q in queries if "notifications_notification" in q["sql"]]


# What one player can make another receive ---------------------------------------------------

LIVE_1_0 = {"speed": "live", "minutes": "1", "increment": "0", "color": "dark"}
LIVE_1_0 |= {"special_stones": "on", "scoring": "standard"}


def run_queued_mail() -> list[bool]:
    """What the worker does with the mails queued: whether it sent each."""
    return [
        tasks.send_notification.call(*task.args_kwargs["args"])
        for task in queued(tasks.send_notification)
    ]


def test_posting_and_cancelling_challenges_to_one_player_mails_them_nothing_and_stops(
    committed,
):
    """The attack: one account posted and cancelled a challenge to one player 30 times,
    from two sessions; each sent the player a mail, and each notice stayed."""
    ann, bob = person("Ann"), person("Bob")
    wants_mail(bob, "each")
    sessions = [logged_in(ann), logged_in(ann)]
    answers = []
    for n in range(30):
        session = sessions[n % 2]
        with committed():
            answer = session.post("/players/bob/challenge", LIVE_1_0)
        answers.append(answer.status_code)
        if answer.status_code == 303:
            posted = LobbyChallenge.objects.latest("pk")
            with committed():
                assert session.post(f"/lobby/{posted.public_id}/cancel").status_code == 303
    assert answers == [303] * 5 + [429] * 25
    assert "You have challenged Bob 5 times in the last hour" in answer.content.decode()
    assert LobbyChallenge.objects.filter(status="cancelled").count() == 5
    assert notices(bob) == []  # each went with its challenge
    assert run_queued_mail() == [False] * 5
    assert mail.outbox == []


def test_an_offer_closed_before_the_worker_comes_to_it_is_not_mailed(committed):
    ann, bob, cyn = person("Ann"), person("Bob"), person("Cyn")
    wants_mail(bob, "each")
    terms = challenges.Terms(rules=Rules(), speed="correspondence", days=3)
    with committed():
        declined, _ = challenges.create(Who(f"account:{ann.pk}", ann), terms, to_user=bob)
        raced, _ = challenges.create(Who(f"account:{cyn.pk}", cyn), terms, to_user=bob)
    assert [told.challenge for told in notices(bob)] == [declined, raced]
    with committed():
        challenges.decline(declined.public_id, Who(f"account:{bob.pk}", bob))
    # Cancelled, its notice not yet gone: the worker reads the challenge as it mails.
    LobbyChallenge.objects.filter(pk=raced.pk).update(status="cancelled")
    assert run_queued_mail() == [False, False]
    assert mail.outbox == []


def test_a_digest_leaves_out_the_offers_no_longer_open(committed):
    ann, bob, cyn = person("Ann"), person("Bob"), person("Cyn")
    wants_mail(bob, "daily")
    terms = challenges.Terms(rules=Rules(), speed="correspondence", days=3)
    with committed():
        standing, _ = challenges.create(Who(f"account:{ann.pk}", ann), terms, to_user=bob)
        gone, _ = challenges.create(Who(f"account:{cyn.pk}", cyn), terms, to_user=bob)
        challenges.decline(gone.public_id, Who(f"account:{bob.pk}", bob))
    assert tasks.send_digest.call(bob.pk) == 1
    (sent,) = mail.outbox
    assert sent.subject.startswith("Mǽrstánas: Challenge from Ann")
    assert f"/lobby/{standing.public_id}/" in sent.body and "Cyn" not in sent.body


def test_many_accounts_challenging_one_player_make_twenty_notices_and_ten_mails(committed):
    bob = person("Bob")
    wants_mail(bob, "each")
    terms = challenges.Terms(rules=Rules(), speed="correspondence", days=3)
    senders = [get_user_model().objects.create(username=f"sybil{n}") for n in range(25)]
    for sender in senders:
        with committed():
            challenges.create(Who(f"account:{sender.pk}", sender), terms, to_user=bob)
    assert len(notices(bob, Kind.CHALLENGE)) == tasks.OFFERS_PER_HOUR == 20
    # Every challenge still stands, in the player's lobby.
    assert LobbyChallenge.objects.filter(to_user=bob, status="open").count() == 25
    lobby_page = logged_in(bob).get("/lobby/").content.decode()
    assert all(f"/lobby/{c.public_id}/decline" in lobby_page for c in LobbyChallenge.objects.all())
    assert run_queued_mail() == [True] * 10 + [False] * 10
    assert len(mail.outbox) == tasks.MAILS_PER_HOUR == 10
    assert Notification.objects.filter(user=bob, mailed_at=None).count() == 10


def test_no_account_is_mailed_more_than_ten_times_an_hour_whatever_tells_it(committed):
    ann, bob = person("Ann"), person("Bob")
    wants_mail(bob, "each")
    with committed():
        for n in range(12):
            tasks.notify(bob.pk, Kind.ENDED, f"game {n} ended", f"/g/game{n}/")
    assert run_queued_mail() == [True] * 10 + [False] * 2
    assert [sent.subject for sent in mail.outbox][-1] == "Mǽrstánas: game 9 ended"
    assert len(notices(bob)) == 12  # the rest wait on the site
    with committed():
        tasks.notify(ann.pk, Kind.ENDED, "ann's own", "/g/x/")
    assert Notification.objects.filter(user=ann).count() == 1


def test_the_end_of_a_game_nobody_won_is_told_in_its_kinds_word():
    assert _verdict(Outcome("draw", "repetition"), "dark", CYNGESHEALL.sides) == "A draw."
    assert _verdict(Outcome("tie", "no-moves"), "light", MAERSTANAS.sides) == "A tie."
    assert _verdict(Outcome("light", "king-captured"), "dark", CYNGESHEALL.sides) == "You lost."
