"""The operator's tournaments, made and started from the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from game.registry import find_kind
from tests.site.test_admin import admin_at, operator  # noqa: F401  (the fixture)
from tournaments import events
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

BASE = {
    "rules": find_kind("cyngesheall").rules(),
    "system": "arena",
    "speed": "live",
    "initial": 300,
    "increment": 3,
}

FORM = {
    "name": "Operator's arena",
    "kind": "cyngesheall",
    "options": "{}",
    "system": "arena",
    "rounds": "0",
    "minutes": "60",
    "rated": "on",
    "speed": "live",
    "initial": "300",
    "increment": "3",
    "days": "0",
    "password": "club",
    "entries-TOTAL_FORMS": "0",
    "entries-INITIAL_FORMS": "0",
}


def test_the_operator_makes_an_event_with_no_creator_and_starts_it(admin_at):  # noqa: F811
    admin_at("ops-7x")
    client = operator()
    response = client.post("/ops-7x/tournaments/tournament/add/", FORM)
    assert response.status_code == 302, response.content.decode()[-2000:]
    event = Tournament.objects.get()
    assert (event.creator, event.kind, event.minutes, event.initial) == (
        None,
        "cyngesheall",
        60,
        300,
    )
    assert event.password.startswith("pbkdf2") or event.password.startswith("md5")
    users = [get_user_model().objects.create_user(name) for name in ("ann", "bob")]
    for user in users:
        events.join(user, event.public_id, "club")
    client.post(
        "/ops-7x/tournaments/tournament/",
        {"action": "start", "_selected_action": [event.pk]},
    )
    event.refresh_from_db()
    assert event.status == "running" and event.pairings.count() == 1


def test_terms_that_make_no_event_are_refused_in_the_admin_too(admin_at):  # noqa: F811
    admin_at("ops-7x")
    client = operator()
    response = client.post("/ops-7x/tournaments/tournament/add/", FORM | {"minutes": "1"})
    assert (
        response.status_code == 200
        and "an arena lasts 2 to 720 minutes" in response.content.decode()
    )
    response = client.post(
        "/ops-7x/tournaments/tournament/add/", FORM | {"options": '{"board": "hex"}'}
    )
    assert response.status_code == 200 and not Tournament.objects.exists()


def test_the_operator_reads_and_deletes_a_chat_line(admin_at):  # noqa: F811
    admin_at("ops-7x")
    client = operator()
    user = get_user_model().objects.create_user("ann")
    made = events.create(None, events.Terms(**{**BASE, "system": "arena", "minutes": 30}))
    events.join(user, made.public_id)
    line = events.say(user, made.public_id, "buy cheap stones")
    listed = client.get("/ops-7x/tournaments/message/?q=cheap").content.decode()
    assert "buy cheap stones" in listed
    answer = client.post(f"/ops-7x/tournaments/message/{line.pk}/delete/", {"post": "yes"})
    assert answer.status_code == 302 and not made.messages.exists()
