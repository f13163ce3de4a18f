"""Every view, as htmx and as a plain browser, and the page marks outside tests rely on."""

from __future__ import annotations

import functools
import html
import re

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import Client, RequestFactory

from game import play, seats
from game.engine import Position, Rules
from game.forms import NewGameForm
from game.models import Analysis, Game, Move
from tests.support import games
from tests.support.games import HTMX, created

pytestmark = pytest.mark.django_db


def new_game(client: Client, **fields: str) -> Game:
    """A hot-seat game with the special stones made through the form, unless ``fields``
    say otherwise."""
    return created(
        client, **({"mode": "hotseat", "special_stones": "on", "scoring": "standard"} | fields)
    )


def seat_path(html: str) -> str:
    """The path of the (first) private seat link a page shows."""
    return re.search(r'data-seat-url="http://testserver([^"]+)"', html)[1]


post_move = functools.partial(games.post_move, htmx=True)  # as htmx, unless told otherwise


# Home and creating games ------------------------------------------------------------------


def test_home_has_the_new_game_form(client):
    html = client.get("/").content.decode()
    assert '<form method="post"' in html
    for name in ("mode", "special_stones", "wraparound", "scoring", "color"):
        assert f'name="{name}"' in html
    assert 'value="hotseat"' in html and 'value="friend"' in html


def test_creating_a_hotseat_game_redirects_to_it_with_the_chosen_rules(client):
    game = new_game(client, wraparound="on", scoring="simple")
    assert (game.mode, game.rules.special_stones, game.rules.scoring, game.rules.wraparound) == (
        "hotseat",
        True,
        "simple",
        True,
    )
    assert re.fullmatch(r"[A-Za-z0-9_-]{12}", game.public_id)


def test_unchecked_special_stones_means_off(client):
    game = new_game(client, special_stones="")
    assert game.rules.special_stones is False
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "data-stone-choice" not in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"mode": "solo"},
            "'solo' is not a kind of game (mode): choose hotseat, friend or computer.",
        ),
        ({"scoring": "golf"}, "'golf' is not a scoring: choose standard or simple."),
        (
            {"color": "purple", "mode": "friend"},
            "'purple' is not a colour: choose dark, light or random.",
        ),
        (
            {"level": "king", "mode": "computer"},
            "'king' is not a level: choose one of Mǽrstánas's levels: Cild,",
        ),
        ({"mode": ""}, "Choose a kind of game (mode): hotseat, friend or computer."),
        ({"special_stones": "maybe"}, "Special stones: 'maybe' is neither on nor off."),
        ({"wraparound": "sideways"}, "Wraparound board: 'sideways' is neither on nor off."),
    ],
)
def test_a_bad_option_is_refused_with_a_message_that_names_it(client, fields, message):
    data = {"mode": "hotseat", "scoring": "standard"} | fields
    response = client.post("/", data)
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "value, expected", [("on", True), ("true", True), ("off", False), ("0", False), ("", False)]
)
def test_checkboxes_read_on_and_off(client, value, expected):
    game = new_game(client, wraparound=value)
    assert game.rules.wraparound is expected


def test_an_invite_with_a_wrong_code_says_so(client):
    game = new_game(client, mode="friend", color="dark")
    page = Client().get(f"/g/{game.public_id}/invite/{'0' * 32}/").content
    assert b"This invite link is not valid" in page
    assert b"data-join" not in page


def test_malformed_game_ids_are_404_before_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        for path in ["/g/a%00b/", "/g/a%20b/poll/0", "/api/games/" + "x" * 40]:
            assert client.get(path).status_code == 404


def test_creating_through_htmx_redirects_the_client(client):
    response = client.post("/", {"mode": "hotseat", "scoring": "standard"}, headers=HTMX)
    game = Game.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/g/{game.public_id}/"


# The game page ----------------------------------------------------------------------------


def test_game_page_shows_every_square_scores_and_turn(client):
    game = new_game(client)
    response = client.get(f"/g/{game.public_id}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert len(re.findall(r'data-square="[A-G][1-7]"', html)) == 49
    assert 'data-score="dark"' in html and 'data-score="light"' in html
    assert 'data-turn="dark"' in html
    # The seated player gets a button per legal square, in a POST form with CSRF.
    assert html.count('name="move" value="') == 49
    assert 'name="csrfmiddlewaretoken"' in html
    assert "<html" in html


def test_htmx_request_gets_only_the_partial(client):
    game = new_game(client)
    response = client.get(f"/g/{game.public_id}/", headers=HTMX)
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="game"' in html
    assert 'hx-swap-oob="innerHTML"' in html
    assert response["Vary"].count("HX-Request") == 1


def test_stone_parameter_selects_the_thunder_stone(client):
    game = new_game(client)
    post_move(client, game, "D4")
    html = client.get(f"/g/{game.public_id}/?stone=thunder").content.decode()
    assert 'value="T E4"' in html
    assert 'value="E4"' not in html
    # The thunder target next to D4 says what it would clear.
    assert 'data-clears="D4"' in html


def test_woden_selection_offers_only_opponent_stones(client):
    game = new_game(client)
    post_move(client, game, "D4")
    html = client.get(f"/g/{game.public_id}/?stone=woden").content.decode()
    assert re.findall(r'name="move" value="([^"]+)"', html) == ["W D4"]


def test_unknown_stone_choice_falls_back_to_a_normal_stone(client):
    game = new_game(client)
    html = client.get(f"/g/{game.public_id}/?stone=<script>").content.decode()
    assert "<script>" not in html.split("</head>")[1]
    assert 'value="D4"' in html


def test_closed_squares_say_why(client):
    game = new_game(client)
    for move in ["A2", "G7", "B1"]:  # A1 now has A2 and B1 beside it plus two edges
        post_move(client, game, move)
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "A1, empty: A1 would have four hinges" in html


def test_unknown_game_is_404_everywhere(client):
    for url in ["/g/nope/", "/g/nope/poll/0", "/api/games/nope", "/g/nope/resign"]:
        assert client.get(url).status_code == 404, url
    for url in ["/g/nope/move", "/g/nope/join", "/g/nope/resign", "/g/nope/rematch"]:
        assert client.post(url, {"move": "D4"}).status_code == 404, url


def test_state_changing_urls_refuse_get(client):
    game = new_game(client)
    for action in ("move", "join", "rematch"):
        assert client.get(f"/g/{game.public_id}/{action}").status_code == 405
    assert not Move.objects.exists()


# Moves -------------------------------------------------------------------------------------


def test_move_by_htmx_returns_the_new_board(client):
    game = new_game(client)
    response = post_move(client, game, "D4")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'data-square="D4" data-stone="dark-stone"' in html
    assert 'data-turn="light"' in html
    assert Move.objects.get().notation == "D4"


def test_move_without_javascript_redirects(client):
    game = new_game(client)
    response = post_move(client, game, "D4", htmx=False)
    assert response.status_code == 303
    assert response["Location"] == f"/g/{game.public_id}/"
    assert Move.objects.count() == 1


def test_illegal_move_is_shown_on_the_board_and_changes_nothing(client):
    game = new_game(client)
    post_move(client, game, "D4")
    response = post_move(client, game, "D4")
    assert response.status_code == 200
    assert b"D4 is taken" in response.content
    assert b"data-error" in response.content
    assert Move.objects.count() == 1


def test_illegal_move_without_javascript_shows_a_message_after_redirect(client):
    game = new_game(client)
    response = post_move(client, game, "Z9", htmx=False)
    assert response.status_code == 303
    page = client.get(response["Location"]).content.decode()
    assert "&#x27;Z9&#x27; is not a move: squares run A1 to G7" in page
    assert not Move.objects.exists()


def test_stale_ply_does_not_play_twice(client):
    game = new_game(client)
    post_move(client, game, "D4", ply=0)
    response = post_move(client, game, "E4", ply=0)
    assert b"board changed" in response.content
    assert list(Move.objects.values_list("notation", flat=True)) == ["D4"]


def test_watcher_cannot_move(client):
    game = new_game(client)
    watcher = Client()
    response = watcher.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert response.status_code == 403
    assert b"watching" in response.content
    assert not Move.objects.exists()
    html = watcher.get(f"/g/{game.public_id}/").content.decode()
    assert 'name="move"' not in html
    assert len(re.findall(r"data-square=", html)) == 49


def test_missing_csrf_token_is_refused():
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    response = client.post("/", {"mode": "hotseat", "scoring": "standard"})
    assert response.status_code == 403
    assert b"security token" in response.content
    assert not Game.objects.exists()


# Live polling -------------------------------------------------------------------------------


def test_poll_answers_204_while_nothing_changed(client, django_assert_max_num_queries):
    game = new_game(client)
    with django_assert_max_num_queries(1):
        response = client.get(f"/g/{game.public_id}/poll/{game.revision}", headers=HTMX)
    assert response.status_code == 204
    assert response.content == b""


def test_poll_returns_the_fresh_board_after_a_move(client):
    game = new_game(client)
    watcher = Client()
    revision = game.revision
    post_move(client, game, "D4")
    response = watcher.get(f"/g/{game.public_id}/poll/{revision}", headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-square="D4" data-stone="dark-stone"' in html
    assert "hx-trigger" in html
    assert "Dark played D4" in html


def test_finished_game_stops_polling(client):
    game = new_game(client)
    client.post(f"/g/{game.public_id}/resign", headers=HTMX)
    html = client.get(f"/g/{game.public_id}/", headers=HTMX).content.decode()
    assert "hx-trigger" not in html.split('id="game"')[1].split(">")[0]
    assert 'data-result="light"' in html
    assert "Dark resigned" in html


# JSON -------------------------------------------------------------------------------------------


def test_api_returns_the_public_state(client):
    game = new_game(client)
    for move in ["D4", "E5", "T E4"]:
        post_move(client, game, move)
    data = client.get(f"/api/games/{game.public_id}").json()
    pos = Position.replay(Rules(), ["D4", "E5", "T E4"])
    assert data["id"] == game.public_id
    assert data["rules"] == {"special_stones": True, "scoring": "standard", "wraparound": False}
    assert data["record"] == ["D4", "E5", "T E4xD4/E5"]
    assert data["ply"] == 3
    assert data["turn"] == "light"
    assert data["score"] == {"dark": pos.score().dark, "light": pos.score().light}
    assert data["over"] is False and data["result"] is None
    assert sorted(data["legal"]) == sorted(str(m) for m in pos.legal_moves())


def test_api_shows_no_secret_to_a_watcher(client):
    game = new_game(client, mode="friend", color="dark")
    tokens = client.session["seats"][game.public_id]
    body = Client().get(f"/api/games/{game.public_id}").content.decode()
    secrets = [play.invite_code(game), game.seat_hash("dark"), tokens["dark"]]
    for secret in secrets:
        assert secret not in body
        assert secret[:16] not in body  # nor a part of it


def test_api_of_a_finished_game_says_why_it_ended(client):
    game = new_game(client)
    assert client.get(f"/api/games/{game.public_id}").json()["end"] is None
    client.post(f"/g/{game.public_id}/resign")
    data = client.get(f"/api/games/{game.public_id}").json()
    assert (data["over"], data["result"], data["turn"], data["legal"]) == (True, "light", None, [])
    assert (data["status"], data["end"], data["resigned"]) == ("finished", "resigned", "dark")


def test_api_of_a_game_played_out(client):
    game, tokens = play.create_game("hotseat", Rules(special_stones=False))
    position = Position.start(game.rules)
    while not position.is_over:
        move = position.legal_moves()[-1]
        play.make_move(game.public_id, tokens, str(move))
        position = position.play(move)
    data = client.get(f"/api/games/{game.public_id}").json()
    assert (data["end"], data["result"], data["resigned"]) == ("no-moves", position.result, None)
    assert data["score"] == position.score()._asdict()


# Friends: invite, seat link, rematch ------------------------------------------------------------


def test_friend_game_shows_the_invite_only_to_its_creator(client):
    game = new_game(client, mode="friend", color="dark")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    invite = re.search(r'data-invite-url="([^"]+)"', html)
    assert invite and invite[1].endswith(f"/invite/{play.invite_code(game)}/")
    assert "data-invite-url" not in Client().get(f"/g/{game.public_id}/").content.decode()


def test_until_the_friend_joins_the_creator_waits_and_cannot_take_the_seat(client):
    game = new_game(client, mode="friend", color="dark")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Waiting for your friend to join" in html and 'name="move"' not in html
    assert ">Resign</a>" not in html  # nobody to resign to yet
    refused = post_move(client, game, "D4")
    assert b"The game starts when your friend joins" in refused.content
    joined = client.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    assert joined.status_code == 303
    assert "You play dark in this game already" in client.get(joined["Location"]).content.decode()
    game.refresh_from_db()
    assert (
        game.seat_hash("light") == "" and game.status == Game.Status.WAITING and game.revision == 0
    )
    watcher = Client().get(f"/g/{game.public_id}/").content.decode()
    assert "Waiting for a second player" in watcher


def test_the_invite_of_a_finished_game_says_it_is_over(client):
    game = new_game(client, mode="friend", color="dark")
    play.join(game.public_id, play.invite_code(game))
    client.post(f"/g/{game.public_id}/resign")
    page = Client().get(f"/g/{game.public_id}/invite/{play.invite_code(game)}/").content
    assert b"This game is over" in page and b"data-join" not in page


def test_invited_friend_joins_then_the_invite_only_lets_people_watch(client):
    game = new_game(client, mode="friend", color="dark")
    invite_path = f"/g/{game.public_id}/invite/{play.invite_code(game)}/"
    friend = Client()
    page = friend.get(invite_path)
    assert page.status_code == 200 and b"data-join" in page.content
    # Taking the seat is a click: nothing on the page sends the form by itself.
    form = re.search(r"<form[^>]*>", page.content.decode())[0]
    assert "hx-" not in form
    game.refresh_from_db()
    assert game.free_seat() == "light"  # opening the invite changes nothing
    response = friend.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    assert response.status_code == 303
    game.refresh_from_db()
    assert game.free_seat() is None
    assert game.status == Game.Status.ACTIVE
    # The creator moves, the friend answers.
    post_move(client, game, "D4")
    assert post_move(friend, game, "E4").status_code == 200
    assert game.logged_record() == ["D4", "E4"]
    # A third browser with the invite only gets to watch.
    third = Client()
    assert b"has been used" in third.get(invite_path).content
    third.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    html = third.get(f"/g/{game.public_id}/").content.decode()
    assert 'name="move"' not in html


def test_seat_link_continues_the_game_in_another_browser(client):
    game = new_game(client, mode="friend", color="dark")
    play.join(game.public_id, play.invite_code(game))
    html = client.get(f"/g/{game.public_id}/").content.decode()
    seat_url = seat_path(html)
    phone = Client()
    assert b"Play as dark here" in phone.get(seat_url).content
    assert phone.post(seat_url).status_code == 303
    assert post_move(phone, game, "D4").status_code == 200
    assert game.logged_record() == ["D4"]


def test_a_leaked_seat_link_is_revoked_by_making_a_new_one(client):
    game = new_game(client, mode="friend", color="dark")
    play.join(game.public_id, play.invite_code(game))
    html = client.get(f"/g/{game.public_id}/").content.decode()
    leaked = seat_path(html)
    thief = Client()
    assert thief.post(leaked).status_code == 303
    assert 'data-renew-seat="dark"' in html
    renewed = client.post(f"/g/{game.public_id}/seat/dark/renew")
    assert renewed.status_code == 303
    page = client.get(renewed["Location"]).content.decode()
    assert "the old one no longer works" in page
    fresh = seat_path(page)
    assert fresh != leaked
    assert Client().get(leaked).status_code == 403  # the leaked link is dead
    assert post_move(thief, game, "D4", htmx=False).status_code == 403  # and its seat
    assert post_move(client, game, "D4").status_code == 200  # the player plays on
    assert game.logged_record() == ["D4"]


def test_only_the_holder_of_a_seat_can_renew_its_link(client):
    game = new_game(client, mode="friend", color="dark")
    before = Game.objects.get().seat_hash("dark")
    assert Client().post(f"/g/{game.public_id}/seat/dark/renew").status_code == 403
    assert client.post(f"/g/{game.public_id}/seat/light/renew").status_code == 403
    assert client.post(f"/g/{game.public_id}/seat/purple/renew").status_code == 403
    assert client.get(f"/g/{game.public_id}/seat/dark/renew").status_code == 405
    assert Game.objects.get().seat_hash("dark") == before


def test_pages_with_seat_or_invite_links_are_never_cached(client):
    game = new_game(client, mode="friend", color="dark")
    code = play.invite_code(game)
    html = client.get(f"/g/{game.public_id}/").content.decode()
    seat_url = seat_path(html)
    for path in (
        f"/g/{game.public_id}/",
        f"/g/{game.public_id}/poll/99",
        f"/g/{game.public_id}/invite/{code}/",
        seat_url,
        f"/api/games/{game.public_id}",
    ):
        assert "no-store" in client.get(path)["Cache-Control"], path


def test_forged_seat_link_is_refused(client):
    game = new_game(client, mode="friend", color="dark")
    response = Client().get(f"/g/{game.public_id}/seat/dark/forged-token/")
    assert response.status_code == 403
    response = Client().post(f"/g/{game.public_id}/seat/light/forged-token/")
    assert response.status_code == 403


def test_resign_asks_for_confirmation_first(client):
    game = new_game(client)
    page = client.get(f"/g/{game.public_id}/resign")
    assert page.status_code == 200 and b"data-confirm-resign" in page.content
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert client.post(f"/g/{game.public_id}/resign").status_code == 303
    game.refresh_from_db()
    assert (game.status, game.result, game.loser) == ("resigned", "light", "dark")


def test_watcher_cannot_resign(client):
    game = new_game(client)
    assert Client().post(f"/g/{game.public_id}/resign").status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_rematch_after_a_friend_game(client):
    game = new_game(client, mode="friend", color="dark")
    friend = Client()
    friend.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    client.post(f"/g/{game.public_id}/resign")
    response = client.post(f"/g/{game.public_id}/rematch")
    new = Game.objects.get(rematch_of=game)
    assert response["Location"] == f"/g/{new.public_id}/"
    assert new.seat_hash("light") and not new.seat_hash("dark")
    # The friend's page offers to join it; joining seats them as dark.
    assert b"Join the rematch" in friend.get(f"/g/{game.public_id}/").content
    friend.post(f"/g/{game.public_id}/rematch")
    new.refresh_from_db()
    assert new.seat_hash("dark") and new.status == Game.Status.ACTIVE
    assert post_move(friend, new, "D4").status_code == 200
    # Asking again leads the first player to it, seated as before.
    again = client.post(f"/g/{game.public_id}/rematch")
    assert again["Location"] == f"/g/{new.public_id}/"
    # A watcher is offered to watch it, not to play.
    watcher_html = Client().get(f"/g/{game.public_id}/").content.decode()
    assert "Go to the rematch" in watcher_html


def test_about_page_is_linked_from_every_page(client):
    game = new_game(client)
    for url in ["/", f"/g/{game.public_id}/", "/about/"]:
        assert b'href="/about/"' in client.get(url).content


# Headers ----------------------------------------------------------------------------------------


def test_security_headers_are_set(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_session_and_csrf_cookies_are_httponly_and_samesite(client):
    client.get("/")  # the form sets the CSRF cookie
    new_game(client)
    cookies = client.cookies
    for name in ("sessionid", "csrftoken"):
        assert cookies[name]["httponly"], name
        assert cookies[name]["samesite"] == "Lax", name


def test_pages_carry_no_inline_script_or_style(client):
    game = new_game(client)
    for url in ["/", f"/g/{game.public_id}/", "/about/"]:
        html = client.get(url).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert " style=" not in html, url


# Marks that a careless change to the views would drop ----------------------------------------


def test_the_new_game_form_starts_with_special_stones_on_and_forces_no_checkbox(client):
    page = client.get("/").content.decode()
    special = re.search(r'<input[^>]*name="special_stones"[^>]*>', page)[0]
    wrap = re.search(r'<input[^>]*name="wraparound"[^>]*>', page)[0]
    assert " checked" in special and " checked" not in wrap
    assert " required" not in special and " required" not in wrap


def test_a_checkbox_that_is_neither_on_nor_off_is_refused_with_its_own_error():
    form = NewGameForm({"mode": "hotseat", "scoring": "standard", "wraparound": "maybe"})
    assert not form.is_valid()
    assert form.has_error("wraparound", code="invalid")
    assert form.errors["wraparound"] == ["Wraparound board: 'maybe' is neither on nor off."]


def test_a_live_page_subscribes_to_its_games_stream_from_the_revision_it_shows(client):
    game = new_game(client)
    post_move(client, game, "D4")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "data-error" not in html
    live = re.search(r'<div id="live"[^>]*>', html)[0]
    url = f"/g/{game.public_id}/live?revision=1"
    assert f'sse-connect="{url}"' in live and f'data-live-url="{url}"' in live
    assert 'hx-ext="sse"' in live and 'sse-close="end"' in live
    board = re.search(r'<div id="game"[^>]*>', html)[0]
    assert 'hx-trigger="sse:move, live-poll"' in board
    assert f'hx-get="/g/{game.public_id}/poll/1?stone=stone"' in board


def test_a_finished_games_page_holds_no_stream(client):
    game = new_game(client)
    client.post(f"/g/{game.public_id}/resign")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'data-result="' in html
    assert "data-live-url" not in html and "sse-connect" not in html and "hx-trigger" not in html


def reloads(html: str) -> int | None:
    """Every how many seconds a page reloads itself without JavaScript, as its head says,
    checking that its words say the same; None when it does not."""
    found = re.search(r'<noscript><meta http-equiv="refresh" content="(\d+)"></noscript>', html)
    words = re.search(r"This page reloads itself every (second|(\d+) seconds) while you wait", html)
    assert bool(found) == bool(words), (found, words)
    if not found:
        return None
    assert words[1] == ("second" if found[1] == "1" else f"{found[1]} seconds")
    return int(found[1])


def test_without_javascript_a_waiting_page_reloads_itself_and_says_so(client):
    game = new_game(client)
    watcher = Client().get(f"/g/{game.public_id}/").content.decode()
    assert reloads(watcher) == 2


def test_a_page_whose_player_is_to_move_does_not_reload_itself(client):
    game = new_game(client)
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'http-equiv="refresh"' not in html
    assert "reloads itself" not in html


def test_without_javascript_a_page_reloads_itself_each_second_while_the_computer_thinks(client):
    game = new_game(client, mode="computer", color="light", level="cild")
    assert reloads(client.get(f"/g/{game.public_id}/").content.decode()) == 1
    play.computer_move(game.public_id, 0, "D4")
    assert reloads(client.get(f"/g/{game.public_id}/").content.decode()) is None


def test_without_javascript_a_page_reloads_itself_until_the_hint_shows(client):
    game = new_game(client)
    assert reloads(client.get(f"/g/{game.public_id}/").content.decode()) is None
    client.post(f"/g/{game.public_id}/hint")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Looking for a hint" in html and reloads(html) == 1
    play.give_hint(game.public_id, 0, "D4")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'data-hint-move="D4"' in html and reloads(html) is None


def test_without_javascript_a_page_reloads_itself_until_the_analysis_shows(client):
    game = new_game(client)
    post_move(client, game, "D4")
    page = f"/g/{game.public_id}/?ply=0"
    assert reloads(client.get(page).content.decode()) is None
    assert client.post(f"/g/{game.public_id}/analyse", {"ply": "0"})["Location"] == page
    html = client.get(page).content.decode()
    assert "data-analysing" in html and reloads(html) == 1
    Analysis.objects.filter(dark_win=None).update(dark_win=0.5, move="E4", line="E4")
    html = client.get(page).content.decode()
    assert "data-analysing" not in html and reloads(html) is None


def test_without_javascript_a_finished_friend_game_reloads_until_a_rematch_is_offered(client):
    game = new_game(client, mode="friend", color="dark")
    friend = Client()
    friend.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    client.post(f"/g/{game.public_id}/resign")
    page = f"/g/{game.public_id}/"
    assert reloads(friend.get(page).content.decode()) == 2
    assert reloads(client.get(page).content.decode()) == 2
    assert reloads(Client().get(page).content.decode()) is None  # a watcher
    client.post(f"/g/{game.public_id}/rematch")
    html = friend.get(page).content.decode()
    assert "Join the rematch" in html and reloads(html) is None


def test_a_watchers_move_is_refused_on_the_board_by_htmx_and_on_a_page_without(client):
    game = new_game(client)
    watcher = Client()
    by_htmx = watcher.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0}, headers=HTMX)
    assert by_htmx.status_code == 200  # htmx swaps only a success: the board says why
    error = re.search(r"<p[^>]*data-error[^>]*>([^<]*)</p>", by_htmx.content.decode())
    assert error and error[1] == "You are watching this game: only its players can move."
    plain = watcher.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert plain.status_code == 403
    assert f'href="/g/{game.public_id}/">Back to the game' in plain.content.decode()
    assert not Move.objects.exists()


def test_the_move_list_shows_the_moves_played(client):
    game = new_game(client)
    assert b"No moves yet" in client.get(f"/g/{game.public_id}/").content
    post_move(client, game, "D4")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "No moves yet" not in html
    assert re.search(r'<ol id="move-list"[^>]*>.*D4.*</ol>', html, re.S)


def test_players_are_offered_resign_and_watchers_are_not(client):
    game = new_game(client)
    assert (
        f'hx-post="/g/{game.public_id}/resign"'
        in client.get(f"/g/{game.public_id}/").content.decode()
    )
    assert "/resign" not in Client().get(f"/g/{game.public_id}/").content.decode()


def test_a_friend_game_offers_each_player_their_own_seat_link(client):
    game = new_game(client, mode="friend", color="light")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    link = re.search(r'id="seat-light"[^>]*data-seat-url="([^"]+)"', html)
    assert link and f"/g/{game.public_id}/seat/light/" in link[1]
    assert 'id="seat-dark"' not in html


def test_who_started_the_rematch_is_led_to_it_not_asked_to_join(client):
    game = new_game(client, mode="friend", color="dark")
    Client().post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    client.post(f"/g/{game.public_id}/resign")
    client.post(f"/g/{game.public_id}/rematch")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Go to the rematch" in html and "Join the rematch" not in html


# The seats a browser holds ----------------------------------------------------------------


def test_a_browser_keeps_the_seats_of_its_newest_games_only():
    request = RequestFactory().get("/")
    request.session = SessionStore()
    seats.remember(request, "first", {"dark": "d"})
    seats.remember(request, "first", {"light": "l"})  # a second seat in the same game
    assert seats.tokens_for(request, "first") == {"dark": "d", "light": "l"}
    for number in range(seats.MAX_GAMES - 1):
        seats.remember(request, f"game{number}", {"dark": "t"})
    assert len(request.session[seats.SESSION_KEY]) == seats.MAX_GAMES
    assert seats.tokens_for(request, "first") == {"dark": "d", "light": "l"}
    seats.remember(request, "newest", {"dark": "t"})
    assert len(request.session[seats.SESSION_KEY]) == seats.MAX_GAMES
    assert seats.tokens_for(request, "first") == {}  # the oldest went
    request.session[seats.SESSION_KEY]["odd"] = "not a dict of seats"
    assert seats.tokens_for(request, "odd") == {}


def test_every_page_offers_the_source_the_site_runs(client, settings):
    """AGPL §13: set MAERSTANAS_SOURCE_URL and every page links to it, refusals too."""
    settings.SOURCE_URL = "https://code.example.org/maerstanas"
    link = 'href="https://code.example.org/maerstanas">get the source</a>'
    game = new_game(client)
    assert link in client.get("/").content.decode()
    assert link in client.get(f"/g/{game.public_id}/").content.decode()
    refused = Client().post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert refused.status_code == 403 and link in refused.content.decode()


def test_a_tab_drawn_before_a_takeback_cannot_play_in_the_new_position(client):
    game = new_game(client)
    post_move(client, game, "D4")
    stale = client.get(f"/g/{game.public_id}/").content.decode()
    seen = re.search(r'name="position" value="([^"]+)"', stale)[1]
    assert seen == Game.objects.get().position_text
    client.post(f"/g/{game.public_id}/takeback", headers=HTMX)
    post_move(client, game, "A1")  # the same ply again, in another position
    # The old tab posts what it showed: ply 1 and the position after D4.
    reply = client.post(
        f"/g/{game.public_id}/move", {"move": "D5", "ply": 1, "position": seen}, headers=HTMX
    )
    assert (
        reply.status_code == 200 and "The board changed since you saw it" in reply.content.decode()
    )
    assert Game.objects.get().logged_record() == ["A1"]
    plain = client.post(f"/g/{game.public_id}/move", {"move": "D5", "ply": 1, "position": seen})
    assert plain.status_code == 303 and Game.objects.get().logged_record() == ["A1"]
    fresh = Game.objects.get().position_text
    post = {"move": "D5", "ply": 1, "position": fresh}
    assert client.post(f"/g/{game.public_id}/move", post, headers=HTMX).status_code == 200
    assert Game.objects.get().logged_record() == ["A1", "D5"]


def test_the_creator_renews_a_leaked_invite_and_the_old_one_takes_no_seat(client):
    game = new_game(client, mode="friend", color="dark")
    leaked = play.invite_code(game)
    assert Client().post(f"/g/{game.public_id}/invite/renew").status_code == 403
    assert client.get(f"/g/{game.public_id}/invite/renew").status_code == 405
    reply = client.post(f"/g/{game.public_id}/invite/renew", follow=True)
    assert "Your invite link is new: the old one no longer works." in reply.content.decode()
    game.refresh_from_db()
    fresh = play.invite_code(game)
    assert fresh != leaked and game.invite_version == 1
    assert f"/invite/{fresh}/" in reply.content.decode()
    thief = Client()
    thief.post(f"/g/{game.public_id}/join", {"invite": leaked})
    game.refresh_from_db()
    assert game.free_seat() == "light"
    friend = Client()
    friend.post(f"/g/{game.public_id}/join", {"invite": fresh})
    game.refresh_from_db()
    assert game.free_seat() is None and game.status == Game.Status.ACTIVE
    refused = client.post(f"/g/{game.public_id}/invite/renew", follow=True)
    assert "there is no invite to renew" in refused.content.decode()
    game.refresh_from_db()
    assert game.invite_version == 1


# What the views share ----------------------------------------------------------------------


def plain_request(method: str = "get", **headers: str):
    """A request as a view sees it, with a session and htmx's reading of its headers."""
    from django_htmx.middleware import HtmxDetails

    request = getattr(RequestFactory(), method)("/", headers=headers)
    request.session = SessionStore()
    request.htmx = HtmxDetails(request)
    return request


def test_a_game_is_drawn_with_the_status_it_is_given():
    from game.views.common import render_game

    game, _ = play.create_game("hotseat", Rules())
    response = render_game(plain_request(), game, status=409)
    assert response.status_code == 409 and b'id="game"' in response.content


def test_a_page_saying_a_client_asked_too_often_links_to_the_source(settings):
    from game.views.common import too_many
    from kit import limits

    settings.SOURCE_URL = "https://code.example.org/maerstanas"
    response = too_many(plain_request(), limits.Exceeded(limits.DRAW, 12))
    html = response.content.decode()
    assert "at most 30 to draw every 60 s; try again in 12 s" in html
    assert 'href="https://code.example.org/maerstanas">get the source</a>' in html


@pytest.mark.parametrize(
    ("text", "revision"),
    [(None, 0), ("", 0), ("7", 7), ("999999999", 999999999), ("0000000007", 0), ("x", 0)],
)
def test_a_revision_sent_by_the_browser_is_read_up_to_nine_digits(text, revision):
    from game.views.common import whole

    assert whole(text) == revision


@pytest.mark.parametrize(
    ("text", "ply"), [("00002", 2), ("000002", None), ("", None), ("2.0", None), ("٣", None)]
)
def test_the_moment_a_review_began_is_read_up_to_five_digits(text, ply):
    from game.views.common import seen

    assert seen(RequestFactory().get("/", {"seen": text})) == ply


def test_a_lesson_move_that_is_no_move_is_a_bad_request_but_htmx_gets_it_drawn(client):
    plain = client.get("/learn/hinges/", {"move": "Z9"})
    assert plain.status_code == 400
    by_htmx = client.get("/learn/hinges/", {"move": "Z9"}, headers=HTMX)
    assert by_htmx.status_code == 200  # htmx swaps only a success: the board says why
    assert "<html" not in by_htmx.content.decode()


def test_a_watchers_takeback_is_refused_with_a_way_back_to_the_game(client):
    game = new_game(client)
    post_move(client, game, "D4")
    watcher = Client()
    plain = watcher.post(f"/g/{game.public_id}/takeback")
    assert plain.status_code == 403
    assert f'href="/g/{game.public_id}/">Back to the game' in plain.content.decode()
    by_htmx = watcher.post(f"/g/{game.public_id}/takeback", headers=HTMX)
    assert by_htmx.status_code == 200 and "only its players" in by_htmx.content.decode()
    game.refresh_from_db()
    assert game.ply == 1


def test_a_takeback_in_a_game_that_does_not_exist_says_so():
    from django.http import Http404

    from game.views.games import takeback

    with pytest.raises(Http404, match="^there is no such game$"):
        takeback(plain_request("post"), "nosuchgame00")


# Newcomers: the new-game form's parts, the board's words and the hinge bars ---------------


def test_the_level_and_the_colour_say_which_games_they_are_for(client):
    from bs4 import BeautifulSoup

    page = BeautifulSoup(client.get("/").content, "html.parser")
    level = page.select_one('input[name="level"]').find_parent("fieldset")
    color = page.select_one('input[name="color"]').find_parent("fieldset")
    # site.js hides them by the mode chosen; without it they stay, saying when they apply.
    assert level["data-for-modes"] == "computer" and color["data-for-modes"] == "friend computer"
    assert not level.has_attr("hidden") and not color.has_attr("hidden")
    assert "when playing the computer" in level.legend.get_text()
    assert "playing a friend or the computer" in color.legend.get_text()


def test_each_game_offers_its_own_levels_and_rules_in_parts_that_say_which_game(client):
    from bs4 import BeautifulSoup

    from game.registry import KINDS

    page = BeautifulSoup(client.get("/").content, "html.parser")
    form = page.select_one(".new-game__form")
    # The game is chosen first; site.js shows each game's parts for that game alone.
    assert form.select_one("fieldset").has_attr("data-game-choice")
    for kind in KINDS.values():
        levels = form.select_one(f'fieldset[data-for-game="{kind.name}"][data-for-modes]')
        assert kind.title in levels.legend.get_text()
        offered = [each["value"] for each in levels.select('input[name="level"]')]
        assert offered == list(kind.players.level_ids)
    rules = form.select('fieldset[data-for-game] input[name="special_stones"]')
    assert [each.find_parent("fieldset")["data-for-game"] for each in rules] == ["maerstanas"]
    assert "Mǽrstánas" in rules[0].find_parent("fieldset").legend.get_text()
    checked = [each["value"] for each in form.select('input[name="level"][checked]')]
    assert checked == ["cild"]


def test_a_game_asked_for_in_the_address_is_chosen_with_its_weakest_level(client):
    from bs4 import BeautifulSoup

    page = BeautifulSoup(client.get("/", {"game": "cyngesheall"}).content, "html.parser")
    assert page.select_one('input[name="game"][checked]')["value"] == "cyngesheall"
    assert [each["value"] for each in page.select('input[name="level"][checked]')] == ["byrele"]
    # Mǽrstánas's rules keep their inputs, as they start, should the player switch back.
    assert page.select_one('input[name="special_stones"]').has_attr("checked")
    assert client.get("/", {"game": "chess"}).status_code == 404


def test_a_wraparound_board_says_so_in_words(client):
    plain = client.get(f"/g/{new_game(client).public_id}/").content.decode()
    assert "data-wraparound" not in plain
    Game.objects.all().delete()
    wrapped = client.get(f"/g/{new_game(client, wraparound='on').public_id}/").content.decode()
    assert re.search(r"data-wraparound>Wraparound: the edges join up\.<", wrapped)
    assert "A double border: wraparound" in wrapped


def test_each_side_s_hinge_bars_look_their_own_and_the_legend_says_so(client):
    game = new_game(client)
    for move in ["A1", "G7", "B1"]:
        post_move(client, game, move, htmx=False)
    page = client.get(f"/g/{game.public_id}/", {"hinges": "on"}).content.decode()
    assert re.search(r'data-square="A1".*?class="sq__hinges sq__hinges--dark"', page, re.S)
    assert re.search(r'data-square="G7".*?class="sq__hinges sq__hinges--light"', page, re.S)
    assert "solid dark bars for dark, light outlined bars for light" in page


# Newcomers: hints, takebacks, My games -----------------------------------------------------

# Light to move, holding its thunder-stone alone: a plain stone may go on E5 too, but
# every winning move is a thunder-stone, and the strongest level's is the one on E5.
THUNDER_TO_WIN = "s.SS.sS/SsS.s../.Ss.SSs/sSS.Ss./S.sS.Ss/s..s.../S..sssS l t"


def hinted(client: Client, hint: str) -> tuple[Game, str]:
    """A game against the computer from THUNDER_TO_WIN, the player light, with ``hint``
    asked for and found; and where the page waiting for it asked for news."""
    fields = {"text": THUNDER_TO_WIN, "mode": "computer", "color": "light", "level": "cild"}
    assert client.post("/p/continue", fields).status_code == 303
    game = Game.objects.get()
    waiting = client.post(f"/g/{game.public_id}/hint", headers=HTMX).content.decode()
    assert "Looking for a hint" in waiting
    poll = html.unescape(re.search(r'id="game"[^>]*hx-get="([^"]+)"', waiting, re.S)[1])
    assert play.give_hint(game.public_id, 0, hint) is not None
    return game, poll


def button_on(page: str, square: str) -> str:
    """The move the button of ``square`` plays."""
    found = re.search(rf'data-square="{square}"[^>]*>\s*<button[^>]*value="([^"]+)"', page)
    return found[1]


def test_a_thunder_hint_chooses_the_thunder_stone_and_says_what_it_clears(client):
    game, poll = hinted(client, "T E5")
    page = client.get(f"/g/{game.public_id}/").content.decode()
    assert "Hint: <strong>thunder-stone on E5, clearing E4, D5 and F5</strong>" in page
    assert 'data-placing="thunder"' in page and button_on(page, "E5") == "T E5"
    assert re.search(r'is-selected"[^>]*id="stone-thunder"', page)
    # The live part, redrawn when the hint arrives, chooses it too, though the page
    # that waited for it showed a plain stone.
    assert "hint=due&stone=stone" in poll
    news = client.get(poll, headers=HTMX).content.decode()
    assert 'data-placing="thunder"' in news and button_on(news, "E5") == "T E5"
    assert "hint=due" not in news and "stone=thunder" in news  # kept from now on
    # A stone the player chooses since stays chosen; the hint still says its move.
    chosen = client.get(f"/g/{game.public_id}/", {"stone": "stone"}).content.decode()
    assert 'data-placing="stone"' in chosen and button_on(chosen, "E5") == "E5"
    assert "thunder-stone on E5, clearing E4, D5 and F5" in chosen


def test_the_hinted_square_s_button_plays_the_hinted_thunder_stone(client):
    game, _ = hinted(client, "T E5")
    page = client.get(f"/g/{game.public_id}/").content.decode()
    stone = re.search(r'name="stone" value="([^"]+)"', page)[1]
    data = {"move": button_on(page, "E5"), "ply": 0, "position": THUNDER_TO_WIN, "stone": stone}
    assert client.post(f"/g/{game.public_id}/move", data).status_code == 303
    game.refresh_from_db()
    assert game.logged_record() == ["T E5xE4/D5/F5"]


def test_a_hint_is_said_in_words_whatever_its_stone():
    from game.maerstanas.drawing import draw_board
    from game.maerstanas.notation import Stone
    from game.surface import (
        Color,
    )

    cases = [
        (["E4", "D5"], "T E5xE4/D5", Stone.THUNDER, "thunder-stone on E5, clearing E4 and D5"),
        (["E4", "D5"], "T A1", Stone.THUNDER, "thunder-stone on A1, clearing nothing"),
        (["D4", "C3"], "W C3", Stone.WODEN, "Woden-stone on C3, taking over light's stone"),
        (["D4"], "W D4", Stone.WODEN, "Woden-stone on D4, taking over dark's stone"),
        (["D4", "C3"], "D5", Stone.STONE, "stone on D5"),
    ]
    for moves, hint, stone, words in cases:
        position = Position.replay(Rules(), moves)
        board = draw_board(position, position.turn, "", hint)
        assert (board.stone, board.hint) == (stone, words)
        assert draw_board(position, position.turn, "stone", hint).stone is Stone.STONE
    watched = draw_board(Position.replay(Rules(), ["E4", "D5"]), None, "", "T E5")
    assert watched.stone is Stone.STONE and watched.hint  # a watcher places nothing
    assert draw_board(Position.replay(Rules(), ["D4"]), Color.LIGHT).hint == ""


def friends_in_two_browsers() -> tuple[Game, Client, Client]:
    """A friend game: dark's browser and light's, each holding its seat."""
    dark, light = Client(), Client()
    dark.post("/", {"mode": "friend", "color": "dark", "scoring": "standard"})
    game = Game.objects.get()
    light.post(f"/g/{game.public_id}/join", {"invite": play.invite_code(game)})
    return game, dark, light


def test_a_declined_takeback_is_told_to_the_asker_who_may_not_ask_again_at_once():
    game, dark, light = friends_in_two_browsers()
    post_move(dark, game, "D4", htmx=False)
    post_move(light, game, "E4", htmx=False)
    dark.post(f"/g/{game.public_id}/takeback")
    light.post(f"/g/{game.public_id}/takeback", {"answer": "decline"})
    page = dark.get(f"/g/{game.public_id}/").content.decode()
    assert "data-takeback-declined" in page
    assert "Your friend declined to take back your move" in page
    assert "data-takeback>" not in page  # no button to ask for it again
    assert "data-takeback-declined" not in light.get(f"/g/{game.public_id}/").content.decode()
    asked = dark.post(f"/g/{game.public_id}/takeback", headers=HTMX).content.decode()
    assert "data-error>Your friend declined to take back this move: you may ask again" in asked
    game.refresh_from_db()
    assert game.takeback_by == "" and game.ply == 2
    post_move(dark, game, "C3", htmx=False)  # a new move may be asked for
    page = dark.get(f"/g/{game.public_id}/").content.decode()
    assert "data-takeback-declined" not in page and "Ask to take back your last move" in page
    dark.post(f"/g/{game.public_id}/takeback")
    game.refresh_from_db()
    assert game.takeback_by == "dark"
