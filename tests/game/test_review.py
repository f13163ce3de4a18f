"""Going over a game: replay, takebacks, continuing from a moment, "My games"."""

from __future__ import annotations

import random
import re
import time
from types import SimpleNamespace

import pytest
from django.test import Client

from game import computer, play
from game.engine import Position, Rules
from game.models import Analysis, BrowserGame, Game, Move
from game.pages import Replay, Step, position_keys, replay_steps
from game.registry import DEFAULT
from tests.support.games import HTMX, OPENING, friends, played

pytestmark = pytest.mark.django_db


def hotseat(client: Client, moves=OPENING) -> Game:
    """A hot-seat game with the special stones, made and played through the pages."""
    return played(client, moves, mode="hotseat", special_stones="on", scoring="standard")


def squares(html: str) -> dict[str, str]:
    """The stones a page shows, by square."""
    return dict(re.findall(r'data-square="([A-G][1-7])" data-stone="([a-z-]+)"', html))


def game_ply(html: str) -> int:
    return int(re.search(r'id="game"[^>]*data-ply="(\d+)"', html, re.S)[1])


# Replay ------------------------------------------------------------------------------------


def test_every_moment_of_a_game_has_its_url_and_shows_that_position(client):
    game = hotseat(client)
    for ply in range(len(OPENING) + 1):
        html = client.get(f"/g/{game.public_id}/?ply={ply}").content.decode()
        assert game_ply(html) == ply
        expected = Position.replay(Rules(), OPENING[:ply])
        assert squares(html) == {
            f"{'ABCDEFG'[index % 7]}{index // 7 + 1}": f"{on[0]}-{on[1]}"
            for index, on in enumerate(expected.board())
            if on
        }


def test_a_past_moment_is_only_looked_at(client):
    game = hotseat(client)
    html = client.get(f"/g/{game.public_id}/?ply=2").content.decode()
    assert 'name="move"' not in html  # no square can be played
    assert "data-reviewing" in html
    assert f'href="/g/{game.public_id}/" data-replay-back' in html
    # Its links step back and forth, and to the game now.
    assert f'href="/g/{game.public_id}/?ply=1" data-replay-step="back"' in html
    assert f'href="/g/{game.public_id}/?ply=3" data-replay-step="forward"' in html
    assert f'href="/g/{game.public_id}/?ply=0" data-replay-step="first"' in html
    assert f'href="/g/{game.public_id}/" data-replay-step="live"' in html
    assert 'aria-current="step"' in html and 'data-ply="2">' in html


def test_the_game_now_is_the_live_board_with_its_steps_back(client):
    game = hotseat(client)
    html = client.get(f"/g/{game.public_id}/?ply={game.ply}").content.decode()
    assert "data-reviewing" not in html and 'name="move"' in html
    assert game_ply(html) == game.ply
    assert f'?ply={game.ply - 1}" data-replay-step="back"' in html
    assert 'data-replay-step="forward"' not in html  # nothing after now


@pytest.mark.parametrize("ply", ["5", "99", "-1", "x", "1.5", "٣", "9" * 12, "000002"])
def test_a_moment_the_game_does_not_have_is_a_404_saying_so(client, ply):
    game = hotseat(client)
    response = client.get(f"/g/{game.public_id}/", {"ply": ply})
    assert response.status_code == 404
    assert "is not a moment of this game: it has moves 0 to 4" in response.content.decode()


def test_a_moment_written_with_leading_zeros_or_none_at_all_is_read(client):
    game = hotseat(client)
    assert game_ply(client.get(f"/g/{game.public_id}/", {"ply": "00002"}).content.decode()) == 2
    response = client.get(f"/g/{game.public_id}/", {"ply": ""})
    assert response.status_code == 200 and game_ply(response.content.decode()) == 4


@pytest.mark.parametrize(("moves", "has"), [([], "no moves"), (OPENING[:1], "moves 0 to 1")])
def test_a_moment_past_a_short_game_names_the_moments_it_has(client, moves, has):
    game = hotseat(client, moves)
    response = client.get(f"/g/{game.public_id}/", {"ply": "2" + "0" * 30})
    assert response.status_code == 404
    assert f"{'2' + '0' * 19!r} is not a moment of this game: it has {has}" in (
        response.content.decode().replace("&#x27;", "'")
    )


def test_looking_back_the_player_hears_of_the_new_move_and_stays_put(client):
    game, tokens = play.create_game("hotseat", Rules())
    for move in OPENING:
        play.make_move(game.public_id, tokens, move)
    game.refresh_from_db()
    revision = game.revision
    play.make_move(game.public_id, tokens, "A1")
    url = f"/g/{game.public_id}/poll/{revision}?ply=1&seen=4&stone=stone"
    html = client.get(url, headers=HTMX).content.decode()
    assert game_ply(html) == 1  # still the moment looked at
    assert "Dark played A1." in html
    assert f'href="/g/{game.public_id}/" data-replay-back' in html
    # Without news since it began, the page says nothing.
    html = client.get(f"/g/{game.public_id}/?ply=1").content.decode()
    assert "data-news" not in html


# Takebacks ---------------------------------------------------------------------------------


def test_hotseat_takes_back_the_last_move_and_marks_it_in_the_log(client):
    game = hotseat(client)
    response = client.post(f"/g/{game.public_id}/takeback")
    assert response.status_code == 303
    game.refresh_from_db()
    assert game.cached_record() == OPENING[:3] and game.turn == "light"
    assert game.logged_record() == OPENING[:3]
    undone = Move.objects.get(game=game, ply=4)
    assert undone.taken_back is not None and undone.notation == "E5"
    # The ply is played again: a new move beside the one taken back.
    client.post(f"/g/{game.public_id}/move", {"move": "A7", "ply": 3})
    game.refresh_from_db()
    assert game.logged_record() == [*OPENING[:3], "A7"]
    assert Move.objects.filter(game=game, ply=4).count() == 2


def test_a_takeback_touches_only_its_game_and_the_moves_still_standing():
    other, other_tokens = play.create_game("hotseat", Rules())
    game, tokens = play.create_game("hotseat", Rules())
    for move in OPENING:
        play.make_move(other.public_id, other_tokens, move)
        play.make_move(game.public_id, tokens, move)
    play.ask_hint(game.public_id, tokens)
    play.take_back(game.public_id, tokens)
    first = Move.objects.get(game=game, ply=4).taken_back
    play.take_back(game.public_id, tokens)
    assert Move.objects.get(game=game, ply=4).taken_back == first  # its time is kept
    assert Move.objects.get(game=game, ply=3).taken_back is not None
    assert not Move.objects.filter(game=other, taken_back__isnull=False).exists()
    game.refresh_from_db()
    assert (game.ply, game.hint_ply, game.hint, game.takeback_by) == (2, None, "", "")


def test_a_takeback_with_nothing_to_take_back_is_refused_and_changes_nothing(client):
    game = hotseat(client, moves=[])
    response = client.post(f"/g/{game.public_id}/takeback", headers=HTMX)
    assert response.status_code == 200  # htmx swaps only a success: the board says why
    assert "There is no move to take back." in response.content.decode()
    game.refresh_from_db()
    assert game.revision == 0


def test_a_watcher_cannot_take_back(client):
    game = hotseat(client)
    response = Client().post(f"/g/{game.public_id}/takeback")
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.ply == 4


def test_against_the_computer_a_takeback_undoes_your_move_and_its_reply():
    game, tokens = play.create_game("computer", Rules(), "dark", level="cild")
    play.make_move(game.public_id, tokens, "D4")
    computer.reply.call(game.public_id, 1)
    game.refresh_from_db()
    assert game.ply == 2
    play.take_back(game.public_id, tokens)
    game.refresh_from_db()
    assert game.ply == 0 and game.turn == "dark" and game.logged_record() == []


def test_a_reply_thought_out_before_a_takeback_is_not_played_after_it():
    game, tokens = play.create_game("computer", Rules(), "dark", level="cild")
    play.make_move(game.public_id, tokens, "D4")
    game.refresh_from_db()
    seen = game.position_text
    play.take_back(game.public_id, tokens)
    play.make_move(game.public_id, tokens, "A1")  # the same ply, another position
    reply = Position.from_text(seen, Rules()).legal_moves()[0]
    assert play.computer_move(game.public_id, 1, str(reply), seen) is None
    game.refresh_from_db()
    assert game.logged_record() == ["A1"]


def test_a_friend_asks_and_the_other_accepts():
    game, dark, light = friends()
    play.make_move(game.public_id, dark, "D4")
    play.make_move(game.public_id, light, "E4")
    game = play.take_back(game.public_id, dark)  # in a friend game: asks
    assert game.takeback_by == "dark" and game.logged_record() == ["D4", "E4"]
    with pytest.raises(play.PlayError, match="your friend answers"):
        play.answer_takeback(game.public_id, dark, accept=True)
    game = play.answer_takeback(game.public_id, light, accept=True)
    assert game.logged_record() == [] and game.turn == "dark" and game.takeback_by == ""


def test_a_friend_declines_and_nothing_is_taken_back():
    game, dark, light = friends()
    play.make_move(game.public_id, dark, "D4")
    play.take_back(game.public_id, dark)
    with pytest.raises(play.PlayError, match="has asked for a takeback already"):
        play.take_back(game.public_id, dark)
    game = play.answer_takeback(game.public_id, light, accept=False)
    assert game.logged_record() == ["D4"] and game.takeback_by == ""
    with pytest.raises(play.PlayError, match="nobody has asked"):
        play.answer_takeback(game.public_id, light, accept=True)


def test_a_move_lets_a_takeback_request_lapse():
    game, dark, light = friends()
    play.make_move(game.public_id, dark, "D4")
    play.take_back(game.public_id, dark)
    game = play.make_move(game.public_id, light, "E4")
    assert game.takeback_by == ""


def test_the_friend_sees_the_request_live_and_answers_it(client):
    game, dark, light = friends()
    play.make_move(game.public_id, dark, "D4")
    play.take_back(game.public_id, dark)
    client.post(f"/g/{game.public_id}/seat/light/{light['light']}/")  # the light player
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'data-takeback-asked="dark"' in html and "data-takeback-accept" in html
    response = client.post(f"/g/{game.public_id}/takeback", {"answer": "accept"}, headers=HTMX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.ply == 0


def test_no_takeback_once_the_game_is_over():
    game, tokens = play.create_game("hotseat", Rules())
    play.make_move(game.public_id, tokens, "D4")
    play.resign(game.public_id, tokens)
    with pytest.raises(play.GameFinished):
        play.take_back(game.public_id, tokens)


# Continuing from a moment ----------------------------------------------------------------


def test_continue_from_a_moment_hotseat_keeps_the_moves_up_to_it(client):
    game = hotseat(client)
    response = client.post(f"/g/{game.public_id}/continue", {"ply": "2", "mode": "hotseat"})
    assert response.status_code == 303
    new = Game.objects.get(public_id=response["Location"].split("/")[2])
    assert new.pk != game.pk and new.mode == "hotseat"
    assert new.logged_record() == OPENING[:2] and new.turn == "dark"
    assert client.post(f"/g/{new.public_id}/move", {"move": "A1", "ply": 2}).status_code == 303


def test_continue_against_the_computer_gives_it_the_turn_when_it_is_its_move(client):
    game = hotseat(client)
    response = client.post(
        f"/g/{game.public_id}/continue",
        {"ply": "3", "mode": "computer", "color": "dark", "level": "cild"},
    )
    new = Game.objects.get(public_id=response["Location"].split("/")[2])
    assert new.level_of("light") == "cild" and new.computer_to_move == "cild"
    assert computer.reply.call(new.public_id, 3)


def test_continue_with_a_bad_choice_says_which(client):
    game = hotseat(client)
    response = client.post(
        f"/g/{game.public_id}/continue", {"ply": "2", "mode": "computer"}, follow=True
    )
    assert "Choose the computer&#x27;s level." in response.content.decode()
    assert Game.objects.count() == 1


# My games ----------------------------------------------------------------------------------


def test_my_games_lists_this_browsers_games_going_on_first_your_turn_marked(client):
    finished = hotseat(client, moves=["D4"])
    client.post(f"/g/{finished.public_id}/resign")
    going = hotseat(client, moves=["D4"])
    client.post("/", {"mode": "friend", "color": "dark", "scoring": "standard"})
    html = client.get("/games/").content.decode()
    going_on, done = html.split('data-games="finished"')
    assert f'data-game="{going.public_id}" data-your-turn' in going_on
    assert finished.public_id in done and finished.public_id not in going_on
    assert "Waiting for your friend" in going_on
    assert "Dark wins" in done  # light, to move, resigned
    # Another browser has its own list.
    assert going.public_id not in Client().get("/games/").content.decode()


def test_my_games_is_not_capped_by_the_cookie(client):
    ids = [hotseat(client, moves=[]).public_id for _ in range(30)]
    html = client.get("/games/").content.decode()
    assert all(public_id in html for public_id in ids)
    assert BrowserGame.objects.count() == 30


# Positions ---------------------------------------------------------------------------------

MIDGAME = "......./......./..S..../...Ss../......./......./....... l TWtw"


def test_a_position_text_draws_that_position(client):
    response = client.get("/p/", {"text": MIDGAME})
    assert response.status_code == 200
    html = response.content.decode()
    assert squares(html) == {"C3": "dark-stone", "D4": "dark-stone", "E4": "light-stone"}
    assert 'data-turn="light"' in html and "Light to move" in html
    assert 'property="og:image"' in html and "/p/image.png?text=" in html


def test_the_editor_changes_a_square_by_a_link(client):
    html = client.get("/p/", {"text": MIDGAME}).content.decode()
    link = html_link(html, "A1")
    changed = client.get(link).content.decode()
    assert squares(changed)["A1"] == "dark-stone"
    assert squares(client.get(html_link(changed, "A1")).content.decode())["A1"] == "light-stone"


def html_link(html: str, square: str) -> str:
    import html as html_module

    found = re.search(rf'data-square="{square}"[^>]*>\s*<a class="sq__edit" href="([^"]+)"', html)
    return html_module.unescape(found[1])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nonsense", "is not position text"),
        ("SSS..../S....../......./......./......./......./....... d -", "has four hinges"),
        ("......./......./......./......./......./......./....... x -", "is not a side to move"),
        ("T....../t....../T....../......./......./......./....... d -", "dark has 2 thunder"),
    ],
)
def test_an_invalid_position_is_explained_and_cannot_be_played(client, text, message):
    response = client.get("/p/", {"text": text})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html.lower() or message in html
    assert "data-continue" not in html
    response = client.post("/p/continue", {"text": text, "mode": "hotseat"})
    assert response.status_code == 400 and not Game.objects.exists()


def test_a_game_continues_from_a_position(client):
    response = client.post(
        "/p/continue",
        {"text": MIDGAME, "mode": "computer", "color": "light", "level": "cild"},
    )
    assert response.status_code == 303
    game = Game.objects.get()
    assert game.start_text == MIDGAME and game.ply == 0 and game.turn == "light"
    assert "No moves yet: light begins." in client.get(f"/g/{game.public_id}/").content.decode()
    assert game.level_of("dark") == "cild" and game.computer_to_move == ""
    assert client.post(f"/g/{game.public_id}/move", {"move": "A1", "ply": 0}).status_code == 303
    game.refresh_from_db()
    assert game.logged_record() == ["A1"] and game.position().to_text().startswith("s......")


def test_a_position_is_read_with_the_rules_asked_for(client):
    corner = "Ss...../......./......./......./......./......./....... d TWtw"
    standard = client.get("/p/", {"text": corner}).content.decode()
    assert 'data-score="dark">2<' in standard and 'data-hand="dark"' in standard
    simple = client.get("/p/", {"text": corner, "scoring": "simple", "special_stones": "off"})
    html = simple.content.decode()
    assert 'data-score="dark">0<' in html and "data-hand" not in html


def test_bad_rules_for_a_position_say_which(client):
    response = client.get("/p/", {"text": MIDGAME, "scoring": "golf"})
    assert response.status_code == 400
    assert "Scoring: &#x27;golf&#x27; is not standard or simple" in response.content.decode()


# Records -----------------------------------------------------------------------------------


def test_a_game_downloads_as_its_record(client):
    game = hotseat(client)
    response = client.get(f"/g/{game.public_id}/record.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert f'filename="maerstanas-{game.public_id}.txt"' in response["Content-Disposition"]
    text = response.content.decode()
    assert f'[Game "{game.public_id}"]' in text
    assert f'[Site "http://testserver/g/{game.public_id}/"]' in text
    assert '[Dark "Player"]' in text and '[Result "*"]' in text
    assert "1. D4 2. E4\n3. C3 4. E5\n" in text and text.endswith(f"{game.position().score()}\n")


def test_a_computer_game_record_names_the_level_and_the_end(client):
    client.post("/", {"mode": "computer", "level": "wita", "color": "dark", "scoring": "standard"})
    game = Game.objects.get()
    client.post(f"/g/{game.public_id}/move", {"move": "D4", "ply": 0})
    client.post(f"/g/{game.public_id}/resign")
    text = client.get(f"/g/{game.public_id}/record.txt").content.decode()
    assert '[Light "Wita (computer, level 6)"]' in text
    assert '[Result "light"]\n[End "resigned"]' in text


def import_text(client: Client, text: str, **fields) -> Game:
    response = client.post("/import/", {"record": text, **fields})
    assert response.status_code == 303, response.content.decode()
    return Game.objects.get(public_id=response["Location"].split("/")[2])


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(special_stones=False),
        Rules(scoring="simple", wraparound=True),
        Rules(special_stones=False, scoring="simple", wraparound=True),
    ],
    ids=str,
)
def test_export_then_import_gives_back_the_same_record(client, rules):
    import random

    game, tokens = play.create_game("hotseat", rules)
    rng = random.Random(str(rules))
    for _ in range(30):
        position = game.position()
        if position.is_over:
            break
        move = rng.choice([m for m in position.legal_moves() if not m.is_pass])
        game = play.make_move(game.public_id, tokens, str(move))
    exported = client.get(f"/g/{game.public_id}/record.txt").content.decode()
    imported = import_text(client, exported)
    assert imported.mode == "imported" and imported.rules == rules
    assert imported.logged_record() == game.logged_record()
    again = client.get(f"/g/{imported.public_id}/record.txt").content.decode()
    body = exported.split("[SpecialStones")[1]
    assert again.split("[SpecialStones")[1] == body
    assert '[Date "' in again  # the record's own tags come back


def test_a_bare_list_of_moves_imports_with_the_chosen_rules(client):
    game = import_text(client, "1. d4 e4 2. c3", scoring="simple", special_stones="off")
    assert game.logged_record() == ["D4", "E4", "C3"]
    assert game.rules == Rules(special_stones=False, scoring="simple")
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert 'name="move"' not in html  # nobody plays an imported game
    assert (
        "data-continue" in html and f'/g/{game.public_id}/?ply=2" data-replay-step="back"' in html
    )


def test_an_imported_game_played_to_the_end_is_over():
    rng = random.Random(5)
    position, moves = Position.start(), []
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        position, moves = position.play(move), [*moves, str(move)]
    game = play.import_game(Rules(), Position.start(), moves)
    game.refresh_from_db()
    assert (game.status, game.result) == ("no-moves", position.result)
    assert game.is_over and game.ply == len(position.history)


def test_an_imported_resignation_ends_the_game(client):
    game = import_text(client, '[Result "dark"]\n[End "resigned"]\nD4 E4')
    assert (game.status, game.result, game.loser) == ("resigned", "dark", "light")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"record": "D4 D4"}, "Move 2 (light&#x27;s): D4 is taken."),
        ({"record": "D4 hello"}, "Move 2 (light&#x27;s): &#x27;hello&#x27; is not a move"),
        ({"record": ""}, "Paste a record or a list of moves, or choose a file."),
        ({"record": "D4 " * 30000}, "A record is at most 64 kB"),
        ({"record": "D4", "scoring": "golf"}, "Scoring: &#x27;golf&#x27; is not standard"),
    ],
)
def test_a_record_that_cannot_be_read_says_why_and_imports_nothing(client, data, message):
    response = client.post("/import/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_a_record_file_is_read_and_a_binary_one_refused(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("game.txt", b"\xef\xbb\xbfD4 E4", content_type="text/plain")
    response = client.post("/import/", {"record": "", "file": upload})
    assert response.status_code == 303
    binary = SimpleUploadedFile("game.png", b"\x89PNG\r\n\x1a\n\x00\xff", content_type="image/png")
    response = client.post("/import/", {"record": "", "file": binary})
    assert response.status_code == 400
    assert "The file is not text (UTF-8)." in response.content.decode()
    assert Game.objects.count() == 1


# Pictures ----------------------------------------------------------------------------------


def test_every_moment_has_a_picture_cached_by_its_etag(client):
    game = hotseat(client)
    response = client.get(f"/g/{game.public_id}/image.png", {"ply": 2})
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG") and "max-age=300" in response["Cache-Control"]
    etag = response["ETag"]
    again = client.get(
        f"/g/{game.public_id}/image.png", {"ply": 2}, headers={"If-None-Match": etag}
    )
    assert again.status_code == 304 and not again.content
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert (again["ETag"], again["Cache-Control"]) == (etag, response["Cache-Control"])
    other = client.get(f"/g/{game.public_id}/image.png", {"ply": 3})
    assert other["ETag"] != etag and other.content != response.content
    assert client.get(f"/g/{game.public_id}/image.png", {"ply": 9}).status_code == 404


def test_a_picture_marks_the_last_move_and_carries_its_caption(client):
    def picture(moves, ply):
        game = hotseat(client, moves)
        return client.get(f"/g/{game.public_id}/image.png", {"ply": ply})

    # The same stones, the last move on another square: another picture.
    c3_last, d4_last = picture(["D4", "E4", "C3"], 3), picture(["C3", "E4", "D4"], 3)
    assert c3_last["ETag"] != d4_last["ETag"] and c3_last.content != d4_last.content
    # The same moment, "after move 2 of 4" and "after move 2 of 2": another caption.
    looking_back, now = picture(OPENING, 2), picture(OPENING[:2], 2)
    assert looking_back["ETag"] != now["ETag"] and looking_back.content != now.content


def test_the_game_page_names_its_picture_for_link_previews(client):
    game = hotseat(client)
    html = client.get(f"/g/{game.public_id}/?ply=2").content.decode()
    assert (
        f'<meta property="og:image" content="http://testserver/g/{game.public_id}/image.png?ply=2">'
        in html
    )


def test_a_position_has_a_picture_and_a_bad_one_is_a_404(client):
    response = client.get("/p/image.png", {"text": MIDGAME})
    assert response.status_code == 200 and response.content.startswith(b"\x89PNG")
    assert "max-age=604800" in response["Cache-Control"]
    assert client.get("/p/image.png", {"text": "nonsense"}).status_code == 404


# Analysis ----------------------------------------------------------------------------------


def test_analysing_a_moment_asks_a_worker_and_shows_what_it_found(
    client, django_capture_on_commit_callbacks
):
    game = hotseat(client)
    from django_tasks_db.models import DBTaskResult

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/g/{game.public_id}/analyse", {"ply": "2"})
    assert response.status_code == 303 and response["Location"].endswith("?ply=2")
    html = client.get(f"/g/{game.public_id}/?ply=2").content.decode()
    assert "data-analysing" in html and 'hx-trigger="every 1s"' in html
    (task,) = DBTaskResult.objects.ready()
    keys, seconds, kind = task.args_kwargs["args"]
    assert (seconds, kind) == (computer.ANALYSIS_SECONDS, "maerstanas")
    assert computer.analyse.call(keys, 0.05, kind) == 1
    html = client.get(f"/g/{game.public_id}/analysis", {"ply": 2}).content.decode()
    move = re.search(r'data-analysis-move="([^"]+)"', html)[1]
    assert Position.replay(Rules(), OPENING[:2]).is_legal(move)
    assert re.search(r'data-estimate="\d+"', html) and "every 1s" not in html


def test_the_analysis_says_the_levels_move_once_then_the_replies_it_expects(client):
    game = hotseat(client)
    keys = position_keys(game)
    Analysis.objects.create(key=keys[2], dark_win=0.6, move="B7", line="B7, A1, G7")
    Analysis.objects.create(key=keys[1], dark_win=0.6, move="B2", line="B2")
    said = client.get(f"/g/{game.public_id}/analysis", {"ply": 2}).content.decode()
    said = re.sub(r"<[^>]+>", "", re.search(r"<p data-analysis-move=.*?</p>", said)[0])
    assert said == "The strongest level plays B7, expecting A1 · G7."
    alone = client.get(f"/g/{game.public_id}/analysis", {"ply": 1}).content.decode()
    assert "The strongest level plays <strong>B2</strong>." in alone and "expecting" not in alone


def test_analysing_the_whole_game_draws_the_graph(client, django_capture_on_commit_callbacks):
    game = hotseat(client)
    client.post(f"/g/{game.public_id}/resign")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/g/{game.public_id}/analyse", {"ply": "4", "whole": "1"})
    from django_tasks_db.models import DBTaskResult

    tasks = list(DBTaskResult.objects.ready())
    assert [len(task.args_kwargs["args"][0]) for task in tasks] == [3, 2]  # in chunks
    assert {task.priority for task in tasks} == {computer.ANALYSIS_PRIORITY}
    for task in tasks:
        computer.analyse.call(task.args_kwargs["args"][0], 0.02)
    html = client.get(f"/g/{game.public_id}/").content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="estimate"' in html
    assert "data-analyse-whole" not in html


def test_the_panel_that_judges_the_moves_brings_the_move_list_marked(client):
    game = hotseat(client)
    client.post(f"/g/{game.public_id}/resign")
    keys = position_keys(game)
    for ply, key in enumerate(keys):  # dark's chances fall by 40 points at move 3
        Analysis.objects.create(key=key, dark_win=0.9 if ply < 3 else 0.5, move="B7")
    answer = client.get(f"/g/{game.public_id}/analysis", {"ply": 1}, headers={"HX-Request": "true"})
    html = answer.content.decode()
    assert html.startswith('<section id="analysis"')
    assert (
        '<section id="moves" class="moves" aria-labelledby="moves-title" hx-swap-oob="true">'
        in html
    )
    assert 'data-mistake="3" data-best="B7" data-judgement="blunder"' in html
    assert f"{OPENING[2]} lost 40%: B7 was best" in html
    assert 'data-review-side="dark"' in html and 'data-blunders="1"' in html
    # Before any move can be judged, the panel comes alone.
    Analysis.objects.all().delete()
    alone = client.get(f"/g/{game.public_id}/analysis", {"ply": 1}, headers={"HX-Request": "true"})
    assert 'id="moves"' not in alone.content.decode()


def test_a_marked_mistake_leads_to_the_board_before_it_with_the_better_move_drawn(client):
    from bs4 import BeautifulSoup

    game = hotseat(client)
    client.post(f"/g/{game.public_id}/resign")
    for ply, key in enumerate(position_keys(game)):  # dark's C3, move 3, loses 40 points
        Analysis.objects.create(key=key, dark_win=0.9 if ply < 3 else 0.5, move="B7")
    page = BeautifulSoup(client.get(f"/g/{game.public_id}/").content, "html.parser")
    # The graph's mark, and the move list's words for the move, lead to move 2.
    assert page.select_one('[data-graph-mistake="3"]')["href"] == f"/g/{game.public_id}/?ply=2"
    words = page.select_one('[data-mistake="3"] [data-better-link]')
    assert words["href"] == "?ply=2" and "C3 lost 40%: B7 was best" in words.get_text()
    assert page.select_one('[data-mistake="3"] .moves__link')["href"] == "?ply=3"
    assert not page.select("[data-better-move]")
    before = client.get(f"/g/{game.public_id}/?ply=2").content
    before = BeautifulSoup(before, "html.parser")
    assert before.select_one("#game")["data-ply"] == "2"
    assert [cell["data-square"] for cell in before.select("[data-better-move]")] == ["B7"]
    assert before.select_one('[data-square="B7"]')["data-better-move"] == "B7"
    note = before.select_one("[data-better]")
    assert note["data-better"] == "3"
    assert " ".join(note.get_text().split()).startswith(
        "Next, dark played C3, a blunder that lost 40%: B7 was best, marked on the board."
    )
    assert note.select_one("[data-after-mistake]")["href"] == "?ply=3"
    # A line tried from here starts before the mistake.
    assert before.select_one("[data-try-line]")["href"] == f"/g/{game.public_id}/try?ply=2"
    after = client.get(f"/g/{game.public_id}/?ply=3").content.decode()
    assert "data-better-move" not in after and "data-better=" not in after


def test_a_friend_game_in_play_is_not_analysed():
    game, dark, light = friends()
    client = Client()
    client.post(f"/g/{game.public_id}/seat/dark/{dark['dark']}/")
    play.make_move(game.public_id, dark, "D4")
    response = client.post(f"/g/{game.public_id}/analyse", {"ply": "0"})
    assert response.status_code == 400
    assert "analysed once it is over" in response.content.decode()
    huge = client.post(f"/g/{game.public_id}/analyse", {"ply": "9" * 5000})
    assert huge.status_code == 400 and "is not a moment of this game" in huge.content.decode()
    assert client.get(f"/g/{game.public_id}/analysis", {"ply": 0}).status_code == 404


def test_analyses_left_undone_by_a_stopped_worker_are_enqueued_again():
    from django_tasks_db.models import DBTaskResult

    from game.models import Analysis

    texts = [Position.replay(Rules(), OPENING[:ply]).to_text() for ply in range(4)]
    keys = [computer.analysis_key(Rules(), text) for text in texts]
    Analysis.objects.bulk_create([Analysis(key=key) for key in keys])
    Analysis.objects.filter(key=keys[0]).update(dark_win=0.5)  # done: not again
    assert computer.recover() == 1
    (task,) = DBTaskResult.objects.ready()
    assert task.args_kwargs["args"][0] == keys[1:]
    assert computer.rules_of_key(DEFAULT, keys[1]) == (Rules(), texts[1])


@pytest.mark.parametrize(
    ("ply", "first", "back", "forward", "live"),
    [
        (0, "", "", "/g/x/?ply=1", "/g/x/"),
        (1, "/g/x/?ply=0", "/g/x/?ply=0", "/g/x/?ply=2", "/g/x/"),
        (3, "/g/x/?ply=0", "/g/x/?ply=2", "/g/x/?ply=4", "/g/x/"),
        (4, "/g/x/?ply=0", "/g/x/?ply=3", "/g/x/", "/g/x/"),
        (5, "/g/x/?ply=0", "/g/x/?ply=4", "", ""),
    ],
)
def test_the_replay_steps_link_each_moment_there_is_and_no_other(ply, first, back, forward, live):
    assert replay_steps("/g/x/", ply, 5) == Replay(
        ply=ply,
        last=5,
        first_step=Step(first, "First position"),
        back=Step(back, "Back a move"),
        forward=Step(forward, "Forward a move"),
        live=Step(live, "The game now"),
    )


def test_my_games_come_a_page_at_a_time_going_on_first(client, settings):
    from game.seats import GAMES_PER_PAGE

    settings.RATE_LIMITS = False  # more new games than one address may make

    finished = hotseat(client, moves=[])
    client.post(f"/g/{finished.public_id}/resign")
    ids = [hotseat(client, moves=[]).public_id for _ in range(GAMES_PER_PAGE + 2)]
    first = client.get("/games/").content.decode()
    assert first.count("data-game=") == GAMES_PER_PAGE
    assert all(public_id in first for public_id in ids[-GAMES_PER_PAGE:])  # newest first
    assert finished.public_id not in first and "Page 1 of 2" in first
    assert 'href="?page=2" rel="next">Older games</a>' in first
    second = client.get("/games/", {"page": 2}).content.decode()
    assert second.count("data-game=") == 3 and finished.public_id in second
    assert 'href="?page=1" rel="prev">Newer games</a>' in second
    assert client.get("/games/", {"page": "999"}).content.decode().count("data-game=") == 3
    assert client.get("/games/", {"page": "x"}).content.decode().count("data-game=") == 50


def test_a_picture_is_drawn_once_and_a_client_may_have_only_so_many_drawn(client, monkeypatch):
    from kit import limits

    # The limit counts in fixed windows of a minute: the clock stands still in the middle
    # of one, so that a slow run does not cross into the next and start counting afresh.
    middle = (time.time() // limits.DRAW.seconds + 0.5) * limits.DRAW.seconds
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: middle))

    def text(square: int) -> str:
        board = "." * square + "S" + "." * (48 - square)
        return f"{'/'.join(board[i : i + 7] for i in range(0, 49, 7))} l TWtw"

    first = client.get("/p/image.png", {"text": text(0)})
    for _ in range(limits.DRAW.requests + 5):  # a crawler, previews: drawn once, not counted
        again = client.get("/p/image.png", {"text": text(0)})
        assert again.status_code == 200 and again.content == first.content
    for square in range(1, limits.DRAW.requests):
        assert client.get("/p/image.png", {"text": text(square)}).status_code == 200
    refused = client.get("/p/image.png", {"text": text(limits.DRAW.requests)})
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= limits.DRAW.seconds
    assert "at most 30 to draw every 60 s" in refused.content.decode()
    # What was drawn is still served, and another client draws its own.
    assert client.get("/p/image.png", {"text": text(5)}).status_code == 200
    other = Client(REMOTE_ADDR="10.1.2.3").get("/p/image.png", {"text": text(40)})
    assert other.status_code == 200


# Newcomers: the start of a game, an imported game's players --------------------------------


def test_looking_back_at_the_start_says_so_in_words(client):
    game = hotseat(client)
    start = client.get(f"/g/{game.public_id}/", {"ply": 0}).content.decode()
    note = re.search(r"data-reviewing>(.*?)\n", start)[1]
    assert note == "Looking back: the start of the game, before its 4 moves."
    later = client.get(f"/g/{game.public_id}/", {"ply": 2}).content.decode()
    assert "Looking back: the board after move 2 of 4." in later


def test_an_imported_game_names_its_players_and_date(client):
    record = '[Date "2026-11-24"]\n[Dark "Ann"]\n[Light "Bob"]\n\n1. D4 E4\n'
    game = import_text(client, record)
    html = client.get(f"/g/{game.public_id}/").content.decode()
    line = re.search(r"<p[^>]*data-imported-players>(.*?)</p>", html)[1]
    assert re.sub(r"<[^>]+>", "", line) == "Ann vs Bob, 2026-11-24"
    bare = import_text(client, "D4 E4")
    assert "data-imported-players" not in client.get(f"/g/{bare.public_id}/").content.decode()


# Newcomers: hints, takebacks, My games -----------------------------------------------------


def my_games_rows(client: Client) -> dict[str, str]:
    """The rows of "My games", by game id."""
    html = client.get("/games/").content.decode()
    rows = re.findall(
        r'<li class="game-list__item[^"]*" data-game="([\w-]+)"(.*?)</li>', html, re.S
    )
    return dict(rows)


def test_my_games_lists_the_records_this_browser_imported(client):
    named = import_text(client, '[Dark "Ann"]\n[Light "Bob"]\n\n1. D4 E4\n2. C3\n')
    imported = import_text(client, "D4 E4", special_stones="on", scoring="standard")
    html = client.get("/games/").content.decode()
    going_on, done = html.split('data-games="finished"')
    assert imported.public_id in done and imported.public_id not in going_on
    rows = my_games_rows(client)
    row = rows[imported.public_id]
    assert "data-imported" in row and ">Imported record<" in row
    assert ">2 moves<" in row and "Unfinished · 0–0" in row and "imported <time" in row
    assert "Imported record: Ann vs Bob" in rows[named.public_id]
    assert ">3 moves<" in rows[named.public_id]
    # Another browser did not import them.
    assert imported.public_id not in Client().get("/games/").content.decode()


def test_my_games_names_the_computer_s_level_and_lays_out_each_row_alike(client):
    computer = {"mode": "computer", "color": "dark", "scoring": "standard"}
    strong = client.post("/", {**computer, "level": "wita"})
    weak = client.post("/", {**computer, "level": "cild"})
    hot = hotseat(client, moves=["D4"])
    strong_id, weak_id = (r["Location"].split("/")[2] for r in (strong, weak))
    rows = my_games_rows(client)
    assert "Against Wita (level 6), you play dark" in re.sub(r"<[^>]+>", "", rows[strong_id])
    assert "Against Cild (level 1)" in rows[weak_id]
    assert "Hot-seat" in rows[hot.public_id] and "1 move<" in rows[hot.public_id]
    assert "No moves yet" in rows[weak_id] and "Your turn" in rows[weak_id]
    for row in rows.values():
        parts = re.findall(r'class="game-row__(\w+)"', row)
        assert parts == ["who", "side", "moves", "state", "date"] or parts == [
            "who",
            "moves",
            "state",
            "date",
        ], parts


def test_my_games_names_a_lobby_opponent_as_the_game_page_does():
    from lobby.models import Challenge
    from tests.support.accounts import account

    alice, bob, wulf = account("alice"), account("bob"), Client()
    assert wulf.post("/accounts/guest-name/", {"name": "Wulf"}).status_code in (302, 303)
    terms = {"speed": "unlimited", "color": "dark", "scoring": "standard"}
    games = {}
    for opponent in (bob, wulf, Client()):
        assert alice.post("/lobby/", terms).status_code == 303
        challenge = Challenge.objects.get(status="open")
        answer = opponent.post(f"/lobby/{challenge.public_id}/accept")
        games[opponent] = answer["Location"].split("/")[2]

    def against(client: Client, game_id: str) -> str:
        row = re.sub(r"<[^>]+>", "", my_games_rows(client)[game_id])
        return re.search(r"Against [^,\n]+", row)[0]

    assert [against(alice, game_id) for game_id in games.values()] == [
        "Against bob",
        "Against Wulf (guest)",
        "Against a guest",
    ]
    assert against(bob, games[bob]) == "Against alice"
    assert against(wulf, games[wulf]) == "Against alice"
    # An account's list is the account's, on any device; a guest's is the browser's.
    page = alice.get("/games/").content.decode()
    assert 'data-games-of="account"' in page and "not tied to an account" not in page
    assert "not tied to an account" in wulf.get("/games/").content.decode()


def test_my_games_costs_the_same_queries_however_many_games(client, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/games/").status_code == 200
        return len(captured)

    def some_games() -> None:
        computer = {"mode": "computer", "color": "dark", "level": "wita", "scoring": "standard"}
        assert client.post("/", computer).status_code == 303
        client.post("/", {"mode": "friend", "color": "light", "scoring": "standard"})
        hotseat(client, moves=["D4"])
        import_text(client, "D4 E4", special_stones="on", scoring="standard")

    settings.RATE_LIMITS = False  # more new games than one address may make
    some_games()
    few = queries()
    some_games()
    some_games()
    assert queries() == few
