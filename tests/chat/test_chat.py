"""Chat in games between people: who may say what, where it shows, and what it does
to the game (its revision, its replay, the operator's admin)."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory

from chat import talk
from chat.admin import MessageAdmin
from chat.models import Message, Mute
from game import play
from game.models import Game
from tests.support.accounts import PASSWORD, account
from tests.support.games import HTMX, created

pytestmark = pytest.mark.django_db


def new_game(creator: Client, mode: str = "friend") -> Game:
    """A game created through the home page's form, its creator playing dark."""
    data = {"mode": mode, "special_stones": "on", "scoring": "standard", "color": "dark"}
    if mode == "computer":
        data["level"] = "cild"
    return created(creator, **data)


def friend_game(creator: Client, friend: Client) -> Game:
    """A friend game under way: the creator plays dark, the friend joined as light."""
    game = new_game(creator)
    joined = friend.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    assert joined.status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def say(client: Client, game: Game, htmx: bool = True, **fields: str):
    return client.post(f"/g/{game.public_id}/chat", fields, headers=HTMX if htmx else {})


def page(client: Client, game: Game, query: str = "") -> str:
    response = client.get(f"/g/{game.public_id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def chat_section(html: str) -> str:
    """The chat box of a page (empty when it has none)."""
    found = re.search(r"<section class=\"chat\".*?</section>", html, re.S)
    return found[0] if found else ""


def error_of(html: str) -> str:
    """The refusal a redrawn game shows, in lower case."""
    found = re.search(r"data-error>(.*?)</p>", html, re.S)
    return found[1].lower() if found else ""


@pytest.fixture
def players() -> tuple[Client, Client, Game]:
    ann, bob = account("ann"), account("bob")
    return ann, bob, friend_game(ann, bob)


def test_an_account_posts_text_and_the_opponent_sees_it_escaped(players):
    ann, bob, game = players
    response = say(ann, game, text="  <script>alert(1)</script> good game  ")
    assert response.status_code == 200
    message = Message.objects.get()
    assert (message.room, message.color, message.name, message.quick) == (
        "players",
        "dark",
        "ann",
        False,
    )
    assert message.text == "<script>alert(1)</script> good game"
    box = chat_section(page(bob, game))
    assert f'data-chat-message="{message.id}"' in box
    assert "&lt;script&gt;alert(1)&lt;/script&gt; good game" in box
    assert "<script>alert" not in box


def test_a_plain_form_post_redirects_to_the_game(players):
    ann, _, game = players
    response = say(ann, game, htmx=False, quick="Good luck")
    assert response.status_code == 303
    assert response["Location"] == f"/g/{game.public_id}/"
    assert Message.objects.get().text == "Good luck"


def test_guests_send_only_the_quick_messages():
    ann, guest = Client(), Client()
    game = friend_game(ann, guest)
    box = chat_section(page(guest, game))
    assert 'name="text"' not in box
    for text in talk.QUICK:
        assert f'name="quick" value="{text}"' in box
    refused = say(guest, game, text="hello there")
    assert refused.status_code == 200
    assert "guests can send the quick messages only" in error_of(refused.content.decode())
    assert not Message.objects.exists()
    assert say(guest, game, quick="Well played").status_code == 200
    assert list(Message.objects.values_list("text", "quick", "name")) == [
        ("Well played", True, "Guest")
    ]


def test_a_guest_named_themselves_is_named_so():
    ann, guest = Client(), Client()
    assert guest.post("/accounts/guest-name/", {"name": "Wynn"}).status_code == 302
    game = friend_game(ann, guest)
    say(guest, game, quick="Thanks")
    assert Message.objects.get().name == "Wynn (guest)"


def test_a_quick_message_must_be_one_of_the_four(players):
    ann, _, game = players
    refused = say(ann, game, quick="Resign now")
    assert "is not a quick message" in error_of(refused.content.decode())
    assert not Message.objects.exists()


def test_an_account_sees_the_text_box_with_its_limit(players):
    ann, _, game = players
    assert 'name="text" maxlength="200"' in chat_section(page(ann, game))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("x" * 201, "at most 200 characters: this one has 201"),
        ("   ", "write something first"),
        ("bell\x07", "control characters"),
        ("abc\u202edcb", "control characters"),
    ],
)
def test_a_message_too_long_empty_or_with_control_characters_is_refused(players, text, why):
    ann, _, game = players
    refused = say(ann, game, text=text)
    assert refused.status_code == 200
    assert why in error_of(refused.content.decode())
    assert not Message.objects.exists()


@pytest.mark.parametrize(
    "hidden",
    ["\u200b", "\u200c", "\u200d", "\ufeff", "\u200e", "\u2060", "\u00ad", "\U000e0041"],
)
def test_a_message_with_an_invisible_format_character_is_refused(players, hidden):
    ann, bob, game = players
    refused = say(ann, game, text=f"well{hidden} played")
    assert refused.status_code == 200
    assert "invisible characters" in error_of(refused.content.decode())
    assert not Message.objects.exists()
    assert "well" not in chat_section(page(bob, game))


def test_a_tower_of_combining_marks_is_refused(players):
    ann, _, game = players
    for tower in ("Z" + "\u0336" * 150, "q\u0301\u0308\u0304"):
        refused = say(ann, game, text=f"hello {tower}")
        assert refused.status_code == 200
        stacked = len(tower) - 1
        assert f"at most 2 accents: this message stacks {stacked} on one" in error_of(
            refused.content.decode()
        )
    assert not Message.objects.exists()


def test_accents_are_kept_composed_and_two_on_a_letter_are_allowed(players):
    ann, _, game = players
    say(ann, game, text="Vie\u0323\u0302t cafe\u0301 q\u0301\u0308")
    (message,) = Message.objects.all()
    assert message.text == "Vi\u1ec7t caf\u00e9 q\u0301\u0308"


def test_200_characters_are_allowed_and_line_breaks_become_spaces(players):
    ann, _, game = players
    say(ann, game, text="y" * 200)
    say(ann, game, text="one\r\ntwo")
    assert list(Message.objects.order_by("id").values_list("text", flat=True)) == [
        "y" * 200,
        "one two",
    ]


def test_the_21st_message_within_a_minute_is_refused(players, settings):
    settings.RATE_LIMITS = True
    ann, _, game = players
    for n in range(20):
        assert say(ann, game, htmx=False, quick="Thanks").status_code == 303, n
    refused = say(ann, game, htmx=False, quick="Thanks")
    assert refused.status_code == 429
    assert "Retry-After" in refused
    assert Message.objects.count() == 20


def test_a_message_advances_the_revision(players):
    ann, _, game = players
    before = game.revision
    response = say(ann, game, text="hello")
    game.refresh_from_db()
    assert game.revision == before + 1
    assert f'data-revision="{game.revision}"' in response.content.decode()


def chat_lines(box: str) -> str:
    """The messages of a chat box, without its forms."""
    found = re.search(r'<ol class="chat__lines">.*?</ol>', box, re.S)
    return found[0] if found else ""


def muted_note(box: str) -> str:
    found = re.search(r"data-chat-muted[^>]*>(.*?)</p>", box, re.S)
    return found[1] if found else ""


def test_muting_hides_what_the_opponent_says_from_then_on_only_for_the_muting_player(players):
    ann, bob, game = players
    say(bob, game, text="from bob")
    say(ann, game, text="from ann")
    before = Game.objects.get(pk=game.pk).revision
    response = ann.post(f"/g/{game.public_id}/chat/mute", {"on": "1"}, headers=HTMX)
    assert response.status_code == 200
    assert Mute.objects.filter(game=game, color="dark").exists()
    assert Game.objects.get(pk=game.pk).revision == before + 1
    # What was said before stays: the conversation reads as it went.
    ann_box = chat_section(page(ann, game))
    assert "from bob" in ann_box and "from ann" in ann_box
    assert muted_note(ann_box) == (
        "You switched bob's chat off: what they say from now on is hidden from you."
    )
    assert 'name="on" value="0"' in ann_box and "data-chat-mute" in ann_box
    # Bob may still speak; Ann does not see it, and is told how much is hidden.
    say(bob, game, text="still bob")
    say(bob, game, quick="Thanks")
    ann_box = chat_section(page(ann, game))
    lines = chat_lines(ann_box)
    assert "still bob" not in lines and "Thanks" not in lines and "from bob" in lines
    assert muted_note(ann_box) == "You switched bob's chat off: 2 messages since are hidden."
    assert 'data-chat-hidden="2"' in ann_box
    bob_box = chat_section(page(bob, game))
    assert "still bob" in bob_box and "from ann" in bob_box
    assert "data-chat-muted" not in bob_box
    # Switching back on shows it all.
    ann.post(f"/g/{game.public_id}/chat/mute", {"on": "0"})
    assert not Mute.objects.exists()
    ann_box = chat_section(page(ann, game))
    assert "still bob" in ann_box and "data-chat-muted" not in ann_box


def test_a_muted_chat_never_says_there_are_no_messages():
    ann, guest = account("ann"), Client()
    game = friend_game(ann, guest)  # a guest opponent: the page names nobody
    ann.post(f"/g/{game.public_id}/chat/mute", {"on": "1"})
    assert "No messages yet." in chat_section(page(ann, game))
    say(guest, game, quick="Rematch?")
    ann_box = chat_section(page(ann, game))
    assert "Rematch?" not in chat_lines(ann_box) and "No messages yet." not in ann_box
    assert muted_note(ann_box) == (
        "You switched your opponent's chat off: 1 message since is hidden."
    )


def test_a_watcher_cannot_mute(players):
    _, _, game = players
    watcher = Client()
    response = watcher.post(f"/g/{game.public_id}/chat/mute", {"on": "1"})
    assert response.status_code == 403
    assert not Mute.objects.exists()


def test_watchers_talk_in_their_own_room_which_players_do_not_see(players):
    ann, _, game = players
    watcher = account("wat")
    guest_watcher = Client()
    assert 'data-chat="watchers"' in page(watcher, game)
    assert say(watcher, game, text="nice move").status_code == 200
    assert say(guest_watcher, game, quick="Nice move").status_code == 200
    assert list(Message.objects.order_by("id").values_list("room", "color", "name")) == [
        ("watchers", "", "wat"),
        ("watchers", "", "Watcher"),
    ]
    assert "nice move" in chat_section(page(guest_watcher, game))
    ann_box = chat_section(page(ann, game))
    assert 'data-chat="players"' in ann_box and "nice move" not in ann_box


def test_watchers_are_offered_their_own_quick_messages_not_the_players(players):
    ann, _, game = players
    watcher = Client()
    box = chat_section(page(watcher, game))
    offered = re.findall(r'name="quick" value="([^"]+)"', box)
    assert offered == list(talk.WATCHERS_QUICK) == ["Hello", "Nice move", "What a game"]
    assert not set(offered) & set(talk.QUICK)
    for text in talk.QUICK:  # "Rematch?", "Good luck"… are the players' to say
        refused = say(watcher, game, quick=text)
        assert "is not a quick message here" in error_of(refused.content.decode()), text
    assert not Message.objects.exists()
    assert say(watcher, game, quick="Hello").status_code == 200
    # A player is offered the players' own, and not the watchers'.
    player_box = chat_section(page(ann, game))
    assert re.findall(r'name="quick" value="([^"]+)"', player_box) == list(talk.QUICK)
    refused = say(ann, game, quick="Nice move")
    assert "is not a quick message here" in error_of(refused.content.decode())
    assert list(Message.objects.values_list("room", "text")) == [("watchers", "Hello")]


def test_watchers_cannot_chat_when_the_site_says_so(players, settings):
    settings.WATCHER_CHAT = False
    ann, _, game = players
    watcher = account("wat")
    assert chat_section(page(watcher, game)) == ""
    refused = say(watcher, game, text="hello")
    assert refused.status_code == 200
    assert "watchers cannot chat" in error_of(refused.content.decode())
    assert say(watcher, game, htmx=False, text="hello").status_code == 403
    assert not Message.objects.exists()
    assert say(ann, game, text="players still can").status_code == 200


def test_a_player_reports_the_opponents_message_for_the_admin(players):
    ann, bob, game = players
    say(bob, game, text="rude words")
    message = Message.objects.get()
    box = chat_section(page(ann, game))
    assert f"/chat/{message.id}/report" in box
    assert "/report" not in chat_section(page(bob, game))  # nobody reports themselves
    response = ann.post(f"/g/{game.public_id}/chat/{message.id}/report", headers=HTMX)
    assert response.status_code == 200
    assert "data-chat-reported" in response.content.decode()
    message.refresh_from_db()
    assert message.reported_at is not None and message.reported_by_color == "dark"
    say(ann, game, text="and mine")
    reported = _admin_changelist({"reported": "yes"})
    assert [m.text for m in reported] == ["rude words"]
    assert {m.text for m in _admin_changelist({"reported": "no"})} == {"and mine"}


def _admin_changelist(query: dict[str, str]) -> list[Message]:
    """The messages the admin's change list shows for ``query``."""
    operator = get_user_model().objects.create_superuser(
        f"op{len(query)}{next(iter(query.values()))}", "op@example.org", "x"
    )
    request = RequestFactory().get("/", query)
    request.user = operator
    model_admin = admin.site._registry[Message]
    assert isinstance(model_admin, MessageAdmin)
    return list(model_admin.get_changelist_instance(request).get_queryset(request))


def test_a_player_cannot_report_their_own_message_nor_a_watchers(players):
    ann, _, game = players
    say(ann, game, text="mine")
    say(Client(), game, quick="Hello")
    assert Message.objects.filter(room="watchers").count() == 1
    for message in Message.objects.all():
        response = ann.post(f"/g/{game.public_id}/chat/{message.id}/report", headers=HTMX)
        assert "only your opponent" in error_of(response.content.decode())
    assert not Message.objects.filter(reported_at__isnull=False).exists()


def test_a_message_of_another_game_cannot_be_reported_there(players):
    ann, bob, game = players
    other = friend_game(account("cat"), account("dan"))
    say(bob, game, text="here")
    message = Message.objects.get()
    response = ann.post(f"/g/{other.public_id}/chat/{message.id}/report")
    assert response.status_code == 403  # ann plays no side there
    assert Message.objects.get().reported_at is None


@pytest.mark.parametrize("mode", ["hotseat", "computer"])
def test_a_game_not_between_people_has_no_chat(mode):
    client = account("ann")
    game = new_game(client, mode)
    assert 'class="chat"' not in page(client, game)
    assert say(client, game, htmx=False, quick="Good luck").status_code == 404
    refused = say(client, game, quick="Good luck")
    assert "this game has no chat" in error_of(refused.content.decode())
    assert client.post(f"/g/{game.public_id}/chat/mute", {"on": "1"}).status_code == 404
    assert not Message.objects.exists() and not Mute.objects.exists()


def test_an_unknown_game_is_a_404():
    assert Client().post("/g/nosuchgame/chat", {"quick": "Thanks"}).status_code == 404
    assert Client().post("/g/nosuchgame/chat/1/report").status_code == 404


@pytest.mark.parametrize("path", ["chat", "chat/mute", "chat/1/report"])
def test_the_chat_urls_take_only_post(players, path):
    _, _, game = players
    assert Client().get(f"/g/{game.public_id}/{path}").status_code == 405


def test_the_chat_urls_need_the_csrf_token(players):
    ann, _, game = players
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = ann.cookies
    assert strict.post(f"/g/{game.public_id}/chat", {"quick": "Thanks"}).status_code == 403
    assert not Message.objects.exists()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page(strict, game))[1]
    data = {"quick": "Thanks", "csrfmiddlewaretoken": token}
    assert strict.post(f"/g/{game.public_id}/chat", data).status_code == 303
    assert Message.objects.get().color == "dark"


def test_a_finished_games_page_shows_the_players_chat_to_everyone(players):
    ann, bob, game = players
    assert ann.post(f"/g/{game.public_id}/move", {"move": "E4", "ply": 0}).status_code == 303
    say(ann, game, text="good luck bob")
    say(Client(), game, quick="Nice move")  # a watcher's, which stays in its room
    assert Message.objects.filter(room="watchers").count() == 1
    assert ann.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert game.is_over
    for viewer in (Client(), bob):
        box = chat_section(page(viewer, game))
        assert 'data-chat="players"' in box and "good luck bob" in box
        assert 'data-chat-message="' in box and "Watcher" not in box
    watcher_box = chat_section(page(Client(), game))
    assert 'name="quick"' not in watcher_box and "data-chat-mute" not in watcher_box
    # Its replay shows it too, read only.
    replay = chat_section(page(bob, game, "?ply=0"))
    assert "good luck bob" in replay and 'name="quick"' not in replay


def test_players_may_still_say_well_played_once_the_game_is_over(players):
    ann, bob, game = players
    bob.post(f"/g/{game.public_id}/resign")
    assert say(ann, game, quick="Well played").status_code == 200
    assert "Well played" in chat_section(page(Client(), game))
    refused = say(Client(), game, htmx=False, quick="Thanks")
    assert refused.status_code == 403  # the watchers' room closed with the game
    assert Message.objects.count() == 1


def test_the_chat_box_costs_two_queries_for_a_player_and_one_for_a_watcher(
    players, django_assert_num_queries
):
    ann, bob, game = players
    for n in range(3):
        say(bob, game, text=f"message {n}")
    with django_assert_num_queries(2):
        box = talk.box(game, frozenset({"dark"}))
    assert [line.text for line in box.lines] == ["message 0", "message 1", "message 2"]
    assert all(line.reportable and not line.mine for line in box.lines)
    with django_assert_num_queries(1):
        assert talk.box(game, frozenset()).room == "watchers"


def test_the_chat_box_shows_the_newest_100_oldest_first(players):
    _, _, game = players
    Message.objects.bulk_create(
        Message(game=game, room="players", color="light", name="bob", text=f"m{n}")
        for n in range(120)
    )
    lines = talk.box(game, frozenset({"dark"})).lines
    assert [line.text for line in lines] == [f"m{n}" for n in range(20, 120)]


def test_messages_go_with_their_game(players):
    _, bob, game = players
    say(bob, game, text="bye")
    Game.objects.filter(pk=game.pk).delete()
    assert not Message.objects.exists()


def names_in(box: str) -> list[str]:
    return re.findall(r'<span class="chat__name">([^<]*)</span>', box)


def test_a_deleted_accounts_messages_are_a_deleted_players_and_its_name_never_shows_again(
    players,
):
    ann, bob, game = players
    say(ann, game, text="my words")
    say(bob, game, text="bob's words")
    say(Client(), game, quick="Hello")  # a nameless watcher's
    deleted = ann.post("/accounts/delete/", {"password": PASSWORD})
    assert deleted.status_code == 302
    assert bob.post(f"/g/{game.public_id}/resign").status_code == 303

    # Someone else takes the name, and plays bob too.
    again = account("ann")
    box = chat_section(page(again, game))
    assert names_in(box) == ["deleted player", "bob"]
    assert "my words" in box and "chat__line--mine" not in box
    second = friend_game(again, bob)
    say(again, second, text="a new player's words")
    assert names_in(chat_section(page(bob, second))) == ["ann"]
    assert names_in(chat_section(page(Client(), game))) == ["deleted player", "bob"]
    watchers = Message.objects.get(room="watchers")
    assert watchers.name == "Watcher" and watchers.user is None


def test_a_deleted_accounts_messages_are_renamed_whichever_way_it_goes(players):
    ann, bob, game = players
    say(ann, game, text="mine")
    say(bob, game, text="bob's")
    get_user_model().objects.filter(username="ann").delete()  # as the admin deletes it
    assert dict(Message.objects.values_list("text", "name")) == {
        "mine": "deleted player",
        "bob's": "bob",
    }
    assert str(Message.objects.get(text="mine")) == "deleted player: mine"
