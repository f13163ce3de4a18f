"""Optional accounts (django-allauth): signing up, logging in and out, the names a
player may take, and the games that become the account's and follow it to any
device. Nobody has to sign up to play."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache, caches
from django.test import Client

from game.models import BrowserGame, Game, Seat
from game.tokens import account_token
from players.names import is_reserved
from tests.support.accounts import PASSWORD, sign_up
from tests.support.games import created

pytestmark = pytest.mark.django_db

# Names that pass for the site's own: a level's, the computer's, a deleted account's,
# the words a page puts where a name stands; in look-alike letters, with separators,
# a number or a trailing "bot" added.
LOOKALIKES = [
    "W1ta", "Wita-bot", "c0mputer", "deleted_player", "Program", "Watcher", "dark",
    "light", "tie", "Draw", "SYSTEM", "Guest_7", "Cornputer", "Ce0rl2",
]  # fmt: skip


def log_in(client: Client, login: str, password: str = PASSWORD):
    return client.post("/accounts/login/", {"login": login, "password": password})


def new_hotseat(client: Client) -> Game:
    return created(client, mode="hotseat", scoring="standard")


def field_names(html: str, form: str) -> set[str]:
    found = BeautifulSoup(html, "html.parser").select_one(f'form[data-form="{form}"]')
    return {field["name"] for field in found.select("input[name]")}


def test_the_signup_and_login_forms_have_allauths_field_names(client):
    signup = client.get("/accounts/signup/")
    assert signup.status_code == 200
    assert {"username", "email", "password1", "password2"} <= field_names(
        signup.content.decode(), "signup"
    )
    login = client.get("/accounts/login/")
    assert {"login", "password"} <= field_names(login.content.decode(), "login")
    assert "You never need one to play" in login.content.decode()


def test_signing_up_makes_the_account_and_logs_it_in(client):
    response = sign_up(client, "Aelfwine")
    assert response.status_code == 302 and response["Location"] == "/games/"
    user = get_user_model().objects.get()
    assert user.username == "Aelfwine" and user.email == ""
    page = client.get("/").content.decode()
    assert 'data-username="Aelfwine"' in page
    assert "Log in" not in page.split("</header>")[0]


def header_of(client: Client) -> BeautifulSoup:
    return BeautifulSoup(client.get("/about/").content, "html.parser").select_one("header")


def test_the_header_folds_its_links_into_a_menu_but_not_who_you_are(client):
    """A phone shows the header's <details> menu closed: the site's destinations and
    the account's actions are in it; the name and the notices stay outside it."""
    destinations = {"/", "/lobby/", "/watch/", "/tournaments/", "/games/", "/players/", "/about/"}
    guest = header_of(client)
    menu = guest.select_one("details.site-menu")
    assert menu.select_one("summary").get_text(strip=True) == "Menu"
    assert {a["href"] for a in menu.select("nav a")} == destinations | {
        "/accounts/login/",
        "/accounts/signup/",
    }
    assert guest.select_one("[data-guest-name]") and not menu.select("[data-guest-name]")
    sign_up(client, "Eadgyth")
    account = header_of(client)
    menu = account.select_one("details.site-menu")
    assert {a["href"] for a in menu.select("nav a")} == destinations
    assert menu.select_one('form[action="/accounts/logout/"] button')
    for mark in ('[data-username="Eadgyth"]', 'a[data-notifications="0"]'):
        assert account.select_one(mark) and not menu.select(mark), mark


def test_an_address_given_is_sent_a_verification_mail(client):
    sign_up(client, "Hild", email="hild@example.org")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["hild@example.org"]
    assert "/accounts/confirm-email/" in mail.outbox[0].body


@pytest.mark.parametrize(
    ("username", "says"),
    [
        ("ab", "at least 3 characters"),
        ("a" * 21, "3 to 20 letters"),
        ("with space", "3 to 20 letters"),
        ("Ælfric", "3 to 20 letters"),
        ("<script>", "3 to 20 letters"),
        ("admin", "a name the site uses itself"),
        ("WITA", "a name the site uses itself"),
        ("Thegn", "a name the site uses itself"),
        ("tegn", "a name the site uses itself"),
        ("Ealdormann", "a name the site uses itself"),
        ("computer", "a name the site uses itself"),
        *((name, "a name the site uses itself") for name in LOOKALIKES),
    ],
)
def test_a_name_the_rules_refuse_makes_no_account(client, username, says):
    response = sign_up(client, username)
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("name", ["Ann", "Darkling", "Lighthouse", "Tiernan", "Robot", "Drawn"])
def test_a_real_name_that_holds_a_word_of_the_sites_is_taken(client, name):
    assert not is_reserved(name)
    assert sign_up(client, name).status_code == 302
    assert get_user_model().objects.get().username == name


def messages_after(client: Client, response) -> list[str]:
    """The words the page a response leads to says to the player (its messages)."""
    page = BeautifulSoup(client.get(response["Location"]).content, "html.parser")
    return [item.get_text(" ", strip=True) for item in page.select(".messages li")]


def test_a_sign_up_with_a_taken_address_looks_like_one_with_a_free_one(client):
    from allauth.account.models import EmailAddress

    sign_up(Client(), "Hild", email="hild@example.org")
    caches["default"].clear()  # allauth's wait between two mails to her address is over
    mail.outbox.clear()
    free = sign_up(client, "Osric", email="osric@example.org")
    other = Client()
    taken = sign_up(other, "Oswy", email="HILD@example.org")
    assert free.status_code == taken.status_code == 302
    assert free["Location"] == taken["Location"]
    said = messages_after(client, free)
    assert said and any("osric@example.org" in line for line in said)
    assert [line.replace("osric@", "hild@").replace("Osric", "Oswy") for line in said] == [
        line.replace("HILD@", "hild@") for line in messages_after(other, taken)
    ]
    # Both made an account; the address stays Hild's alone, and she is told by mail.
    oswy = get_user_model().objects.get(username="Oswy")
    assert oswy.email == "" and not EmailAddress.objects.filter(user=oswy).exists()
    assert EmailAddress.objects.get(email__iexact="hild@example.org").user.username == "Hild"
    assert sorted(message.to[0].lower() for message in mail.outbox) == [
        "hild@example.org",
        "osric@example.org",
    ]
    told = next(message for message in mail.outbox if message.to[0].lower() == "hild@example.org")
    assert "already exists" in told.body and "/accounts/password/reset/" in told.body
    assert "/accounts/confirm-email/" not in told.body
    # Again at once: no second mail to her (allauth's wait), and the same words.
    again = Client()
    third = sign_up(again, "Wulfstan", email="hild@example.org")
    assert messages_after(again, third) == [
        "Confirmation email sent to hild@example.org.",
        "Successfully signed in as Wulfstan.",
    ]
    assert len(mail.outbox) == 2


def test_a_password_reset_says_the_same_of_a_known_and_an_unknown_address(client):
    sign_up(Client(), "Hild", email="hild@example.org")
    mail.outbox.clear()
    known = client.post("/accounts/password/reset/", {"email": "hild@example.org"})
    other = Client()
    unknown = other.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]

    def said(client: Client, response) -> str:
        page = BeautifulSoup(client.get(response["Location"]).content, "html.parser")
        return page.select_one("main").get_text(" ", strip=True)

    assert said(client, known) == said(other, unknown)
    assert [message.to for message in mail.outbox] == [["hild@example.org"], ["nobody@example.org"]]


def test_names_are_unique_ignoring_case(client):
    sign_up(client, "Eadric")
    other = Client()
    response = sign_up(other, "eADRIC")
    assert response.status_code == 200
    assert "already" in response.content.decode()
    assert get_user_model().objects.count() == 1


def test_a_weak_password_is_refused_by_djangos_validators(client):
    response = sign_up(client, "Osric", password="12345678")
    assert response.status_code == 200
    assert "too common" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_the_reserved_names_include_every_level_by_id_and_name():
    assert is_reserved("cild") and is_reserved("CEORL") and is_reserved("Þegn")
    assert is_reserved("ealdor") and is_reserved("Wita") and is_reserved("api")
    assert not is_reserved("Wulfstan")


def test_a_name_in_other_letters_is_read_as_the_plain_one():
    # Only a–z may be typed in a name; the check holds whatever reaches it.
    assert is_reserved("Ｗｉｔａ") and is_reserved("Wíta")
    assert is_reserved("ⓌⒾⓉⒶ") and is_reserved("W|ta")
    assert is_reserved("bot") and is_reserved("Botbot") and is_reserved("Wita computer")
    assert not is_reserved("Ceorlwulf") and not is_reserved("Witan")


def test_every_game_s_name_and_its_levels_are_reserved():
    assert is_reserved("maerstanas") and is_reserved("Mǽrstánas") and is_reserved("Cyngesheall")
    assert is_reserved("gesith") and is_reserved("Gesíþ") and is_reserved("Dugut")


@pytest.mark.parametrize("login", ["Godric", "godric@example.org", "GODRIC"])
def test_one_logs_in_by_username_or_email(login):
    sign_up(Client(), "Godric", email="godric@example.org")
    client = Client()
    response = log_in(client, login)
    assert response.status_code == 302, response.content
    assert 'data-username="Godric"' in client.get("/").content.decode()


def test_a_wrong_password_logs_nobody_in(client):
    sign_up(Client(), "Godric")
    response = log_in(client, "Godric", password="not-the-password")
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert "data-username" not in client.get("/").content.decode()


def test_logging_out_takes_a_post_and_a_get_only_asks(client):
    sign_up(client, "Leofric")
    asked = client.get("/accounts/logout/")
    assert asked.status_code == 200 and 'data-username="Leofric"' in asked.content.decode()
    assert 'data-username="Leofric"' in client.get("/").content.decode()  # still in
    out = client.post("/accounts/logout/")
    assert out.status_code == 302
    assert "data-username" not in client.get("/").content.decode()


def copy_of(client: Client) -> Client:
    """Another client holding a copy of ``client``'s cookies, as one who took them would."""
    copy = Client()
    for name, cookie in client.cookies.items():
        copy.cookies[name] = cookie.value
    return copy


def test_a_copied_session_cookie_is_logged_out_with_the_browser_it_came_from(client):
    game = new_hotseat(client)  # a guest's seats, in the cookie
    sign_up(client, "Leofric")
    copy = copy_of(client)
    assert 'data-username="Leofric"' in copy.get("/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "data-username" not in copy.get("/").content.decode()
    assert copy.get("/accounts/settings/")["Location"].startswith("/accounts/login/")
    assert copy.post("/accounts/delete/", {"password": PASSWORD}).status_code == 302
    assert get_user_model().objects.filter(username="Leofric").exists()
    # The seats the cookie held as a guest's still play, as a guest's do.
    response = copy.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert response.status_code == 303
    assert Game.objects.get(pk=game.pk).ply == 1


def test_changing_the_password_keeps_this_browser_in_and_ends_the_others(client):
    sign_up(client, "Leofric")
    elsewhere = Client()
    log_in(elsewhere, "Leofric")
    changed = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": PASSWORD,
            "password1": "woden-takes-over-77",
            "password2": "woden-takes-over-77",
        },
    )
    assert changed.status_code == 302
    assert 'data-username="Leofric"' in client.get("/").content.decode()
    assert "data-username" not in elsewhere.get("/").content.decode()


def test_an_asynchronous_view_reads_an_ended_login_as_a_guest_too(client):
    from asgiref.sync import async_to_sync
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.test import RequestFactory

    from players.sessions import AuthenticationMiddleware

    sign_up(client, "Leofric")
    cookie = client.cookies["sessionid"].value

    def user_of(copy: str, asynchronous: bool):
        request = RequestFactory().get("/lobby/live", HTTP_COOKIE=f"sessionid={copy}")
        SessionMiddleware(lambda request: None).process_request(request)
        AuthenticationMiddleware(lambda request: None).process_request(request)
        return async_to_sync(request.auser)() if asynchronous else request.user

    assert user_of(cookie, asynchronous=True).username == "Leofric"
    client.post("/accounts/logout/")
    assert not user_of(cookie, asynchronous=True).is_authenticated
    assert not user_of(cookie, asynchronous=False).is_authenticated


def test_logging_out_ends_only_that_browsers_login(client):
    sign_up(client, "Leofric")
    elsewhere = Client()
    log_in(elsewhere, "Leofric")
    copy = copy_of(elsewhere)
    client.post("/accounts/logout/")
    assert 'data-username="Leofric"' in elsewhere.get("/").content.decode()
    assert 'data-username="Leofric"' in copy.get("/").content.decode()
    log_in(client, "Leofric")  # a new login of the first browser is a login again
    assert 'data-username="Leofric"' in client.get("/").content.decode()


def test_a_login_is_checked_by_one_indexed_query_a_request_and_a_guest_by_none(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from players.models import LoginSession

    table = LoginSession._meta.db_table

    def logins_read(visitor: Client) -> list[str]:
        with CaptureQueriesContext(connection) as done:
            assert visitor.get("/games/").status_code == 200
        return [query["sql"] for query in done.captured_queries if table in query["sql"]]

    guest = Client()
    new_hotseat(guest)
    assert logins_read(guest) == []
    sign_up(client, "Leofric")
    new_hotseat(client)
    [read] = logins_read(client)
    assert read.startswith("SELECT") and f'"{table}"."key" = ' in read


def test_logging_in_makes_this_browsers_games_the_accounts(client):
    game = new_hotseat(client)
    assert not Seat.objects.filter(user__isnull=False).exists()
    sign_up(client, "Wulfstan")
    user = get_user_model().objects.get()
    assert sorted(game.seats.filter(user=user).values_list("color", flat=True)) == [
        "dark",
        "light",
    ]
    assert BrowserGame.objects.filter(browser=f"account:{user.pk}", game=game).exists()


def test_a_seat_taken_while_logged_in_is_the_accounts_at_once(client):
    sign_up(client, "Eadgyth")
    game = new_hotseat(client)
    user = get_user_model().objects.get()
    assert game.seats.filter(user=user).count() == 2
    page = client.get("/games/").content.decode()
    assert f'data-game="{game.public_id}"' in page


def test_the_accounts_games_follow_it_to_another_device(client):
    game = new_hotseat(client)
    sign_up(client, "Cyneburh")
    elsewhere = Client()
    assert f'data-game="{game.public_id}"' not in elsewhere.get("/games/").content.decode()
    log_in(elsewhere, "Cyneburh")
    assert f'data-game="{game.public_id}"' in elsewhere.get("/games/").content.decode()
    # …and its seats too: the other device plays in the game with no seat link.
    response = elsewhere.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert response.status_code == 303
    game.refresh_from_db()
    assert game.ply == 1


def test_another_account_cannot_play_or_take_the_accounts_seats(client):
    game = new_hotseat(client)
    sign_up(client, "Cyneburh")
    other = Client()
    sign_up(other, "Sigeric")
    response = other.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.ply == 0
    owner = get_user_model().objects.get(username="Cyneburh")
    assert game.seats.filter(user=owner).count() == 2


def test_an_account_token_holds_only_the_accounts_own_seat(client):
    game = new_hotseat(client)
    sign_up(client, "Beornwulf")
    user = get_user_model().objects.get()
    game = Game.objects.get(pk=game.pk)
    token = account_token(user.pk, game.public_id, "dark")
    assert game.holds_seat("dark", token)
    assert not game.holds_seat("light", token)
    assert not game.holds_seat("dark", account_token(user.pk + 1, game.public_id, "dark"))
    assert not game.holds_seat("dark", account_token(user.pk, "elsewhere", "dark"))
    Seat.objects.filter(game=game).update(user=None)  # the account is no longer its
    assert not Game.objects.get(pk=game.pk).holds_seat("dark", token)


def test_a_deleted_account_leaves_its_games_held_by_nobodys_account(client):
    game = new_hotseat(client)
    sign_up(client, "Eorpwald")
    get_user_model().objects.get().delete()
    assert game.seats.count() == 2 and not game.seats.filter(user__isnull=False).exists()


def test_the_account_settings_need_a_login_and_link_every_setting(client):
    assert client.get("/accounts/settings/")["Location"].startswith("/accounts/login/")
    sign_up(client, "Aldhelm")
    page = client.get("/accounts/settings/").content.decode()
    for path in ["/games/", "/accounts/password/change/", "/accounts/email/", "/accounts/delete/"]:
        assert f'href="{path}"' in page
    assert client.get("/accounts/password/change/").status_code == 200
    assert client.get("/accounts/email/").status_code == 200


def test_deleting_an_account_takes_its_password_and_leaves_its_games(client):
    game = new_hotseat(client)
    sign_up(client, "Eorpwald", email="eorp@example.org")
    user = get_user_model().objects.get()
    refused = client.post("/accounts/delete/", {"password": "not-it"})
    assert refused.status_code == 400
    assert "That is not your password." in refused.content.decode()
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert client.get("/accounts/delete/").status_code == 200

    response = client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not get_user_model().objects.exists()
    assert not BrowserGame.objects.filter(browser__startswith="account:").exists()
    from allauth.account.models import EmailAddress

    assert not EmailAddress.objects.exists()
    assert game.seats.count() == 2 and not game.seats.filter(user__isnull=False).exists()
    page = client.get("/").content.decode()
    assert "data-username" not in page and "Your account is deleted" in page
    assert client.get(f"/g/{game.public_id}/").status_code == 200


def test_deleting_takes_a_post_and_a_login(client):
    sign_up(Client(), "Eorpwald")
    response = client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert get_user_model().objects.count() == 1


def test_a_login_keeps_the_sites_year_long_session(client):
    sign_up(Client(), "Oswy")
    response = log_in(client, "Oswy")
    cookie = response.cookies["sessionid"]
    assert cookie["max-age"] == 60 * 60 * 24 * 365
    assert 'name="remember"' not in client.get("/accounts/login/").content.decode()


# A guest's name --------------------------------------------------------------------------


def test_a_guest_names_themselves_and_opponents_and_watchers_see_it(client):
    response = client.post("/", {"mode": "friend", "color": "dark", "scoring": "standard"})
    game = Game.objects.get(public_id=response["Location"].split("/")[2])
    named = client.post("/accounts/guest-name/", {"name": "  Wulf   the  Red "})
    assert named.status_code == 302
    assert game.seats.get().guest_name == "Wulf the Red"
    watcher = Client().get(f"/g/{game.public_id}/").content.decode()
    assert "Wulf the Red (guest)" in watcher
    assert "data-guest-name>Wulf the Red (guest)<" in client.get("/").content.decode()
    state = Client().get(f"/api/games/{game.public_id}").json()
    assert state["players"]["dark"]["name"] == "Wulf the Red (guest)"
    assert state["players"]["dark"]["username"] is None
    # A game begun afterwards takes the name at once.
    later = new_hotseat(client)
    assert set(later.seats.values_list("guest_name", flat=True)) == {"Wulf the Red"}


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("x", "2 to 20 letters"),
        ("<script>", "2 to 20 letters"),
        ("a" * 21, "at most 20 characters"),
        ("Wita", "a name the site uses itself"),
        ("Wita bot", "a name the site uses itself"),
        ("deleted player", "a name the site uses itself"),
        *((name, "a name the site uses itself") for name in LOOKALIKES),
        ("Sigeric", "name here: choose another"),
        ("sigeric", "name here: choose another"),
    ],
)
def test_a_guest_name_the_rules_refuse_changes_nothing(client, name, says):
    sign_up(Client(), "Sigeric")
    game = new_hotseat(client)
    response = client.post("/accounts/guest-name/", {"name": name})
    assert response.status_code == 400 and says in response.content.decode()
    assert set(game.seats.values_list("guest_name", flat=True)) == {""}
    assert "guest_name" not in client.session


def test_an_accounts_seat_never_takes_a_guest_name(client):
    client.post("/accounts/guest-name/", {"name": "Wulf"})
    sign_up(client, "Sigeric")
    game = new_hotseat(client)
    assert set(game.seats.values_list("guest_name", flat=True)) == {""}
    assert client.get("/accounts/guest-name/")["Location"] == "/accounts/settings/"


def test_the_database_refuses_a_second_name_differing_only_in_case():
    from django.db import IntegrityError, transaction

    get_user_model().objects.create_user("Ann", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user("aNN", password=PASSWORD)
    assert get_user_model().objects.count() == 1


# Password resets: mail to anyone's address ------------------------------------------------


def ask_reset(address: str, ip: str = "203.0.113.9"):
    return Client(REMOTE_ADDR=ip).post("/accounts/password/reset/", {"email": address})


def test_one_address_gets_three_reset_mails_an_hour_however_it_is_asked(client):
    sign_up(client, "Eadgyth", email="eadgyth@example.org")
    mail.outbox.clear()
    answers = [ask_reset("Eadgyth@Example.org", f"198.51.100.{n}").status_code for n in range(10)]
    assert answers == [302] * 3 + [429] * 7  # from ten addresses, in any case
    assert [sent.to for sent in mail.outbox] == [["eadgyth@example.org"]] * 3


def test_one_client_asks_for_ten_resets_an_hour_whatever_the_addresses(client):
    answers = [ask_reset(f"nobody{n}@example.org").status_code for n in range(12)]
    assert answers == [302] * 10 + [429] * 2
    # An address with no account is mailed to say so: those count too.
    assert len(mail.outbox) == 10
    assert ask_reset("nobody11@example.org", "198.51.100.1").status_code == 302


def test_the_mail_stays_bounded_when_another_process_counted_the_requests(client):
    """allauth counts requests in the default cache, each process's own until the cache
    is shared: a process that never saw the earlier requests still sends no more than
    five mails an hour to one address, counted in the database."""
    sign_up(client, "Eadgyth", email="eadgyth@example.org")
    (verification,) = mail.outbox
    mail.outbox.clear()
    answers = []
    for n in range(8):
        cache.clear()  # as if each request reached a fresh process
        answers.append(ask_reset("eadgyth@example.org", f"198.51.100.{n}").status_code)
    assert answers == [302] * 8  # the page says the same, whatever the address
    # The address's verification, mailed as it signed up, was the first of its five.
    assert len(mail.outbox) == 4
