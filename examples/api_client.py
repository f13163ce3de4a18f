"""A Mǽrstánas program playing through the site's API: one of our levels, on any server.

Run it from the repository's root (it thinks with ``game.bots``; only the standard
library and the engine, no Django)::

    python examples/api_client.py --server http://127.0.0.1:8000 --level thegn
    python examples/api_client.py --mode friend              # prints the invite link
    python examples/api_client.py --join http://…/g/<id>/invite/<code>/ --level cniht
    python examples/api_client.py --lobby --token mt_… --post 5+3   # a bot in the lobby

It starts a game (against the site's computer, or a friend game that waits for
someone to take the invite) or joins one, then waits for its turn with the poll
endpoint, thinks, and posts its move with its seat token, until the game ends.
The last line it prints is the result as JSON.

With ``--lobby`` it sits in the lobby as the account of its API token (made on the
site's "API tokens" page): it follows the account's event stream, accepts every
challenge to the account, plays every game that starts (each in a thread of its
own) and prints each one's result as a line of JSON as it ends. ``--post 5+3`` (or
``3d``, ``unlimited``) first posts a challenge to the lobby, or with ``--to`` to
one player; ``--games N`` stops after N games.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import bots  # noqa: E402
from game.engine import Position, Rules  # noqa: E402


class Server:
    """The few API calls a program needs."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def call(self, method: str, path: str, body: dict | None = None, token: str = ""):
        """The JSON answer (None for a 204); raises ``RuntimeError`` with the API's error."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read()) if response.status != 204 else None
        except urllib.error.HTTPError as exc:
            message = json.loads(exc.read() or b"{}").get("error", exc.reason)
            raise RuntimeError(f"{method} {path}: {exc.code} {message}") from None

    def events(self, token: str):
        """The account's events, one dict each, as the stream sends them; it ends when
        the server closes the stream. Raises ``RuntimeError`` with the API's error."""
        request = urllib.request.Request(self.url + "/api/stream/events")
        request.add_header("Authorization", f"Bearer {token}")
        try:
            # The server sends a blank line while idle: a silence this long is a lost line.
            with urllib.request.urlopen(request, timeout=120) as response:
                for line in response:
                    if line.strip():
                        yield json.loads(line)
        except urllib.error.HTTPError as exc:
            message = json.loads(exc.read() or b"{}").get("error", exc.reason)
            raise RuntimeError(f"GET /api/stream/events: {exc.code} {message}") from None


def play(server: Server, game_id: str, color: str, token: str, level: str, seconds: float | None):
    """Play ``color`` until the game is over; return its final state."""
    state = server.call("GET", f"/api/games/{game_id}")
    while not state["over"]:
        if state["status"] == "waiting":  # a friend game starts when the friend joins
            time.sleep(1)
            state = server.call("GET", f"/api/games/{game_id}")
            continue
        if state["turn"] != color:
            # 204 until the opponent moves; the short pause keeps the server's load low.
            news = server.call("GET", f"/api/games/{game_id}/poll/{state['ply']}")
            if news is None:
                time.sleep(0.2)
            else:
                state = news
            continue
        # The position as it stands: a game need not have started on the empty board.
        position = Position.from_text(
            state["position"], Rules.from_mapping(state["rules"], typed=True)
        )
        move = bots.choose_move(position, level, seconds=seconds)
        ply = state["ply"]
        state = server.call(
            "POST", f"/api/games/{game_id}/moves", {"move": str(move), "ply": ply}, token
        )
        print(f"{color} played {state['record'][ply]}", flush=True)
    return state


def terms(text: str) -> dict:
    """A challenge's time control as ``--post`` writes it: ``5+3`` (minutes each and
    seconds added a move), ``3d`` (days a move) or ``unlimited``."""
    if text == "unlimited":
        return {"speed": "unlimited"}
    if text.endswith("d"):
        return {"days": int(text[:-1])}
    minutes, _, increment = text.partition("+")
    return {"clock": {"initial": round(float(minutes) * 60), "increment": int(increment or 0)}}


def listen(server: Server, token: str, inbox: queue.Queue) -> None:
    """Put the account's events in ``inbox``, reconnecting whenever the stream ends."""
    while True:
        try:
            for event in server.events(token):
                inbox.put(event)
        except RuntimeError as exc:  # the server refused: no point asking again
            inbox.put({"type": "error", "message": str(exc)})
            return
        except OSError:  # the connection broke: ask again in a moment
            time.sleep(1)


def sit_in_lobby(server: Server, args: argparse.Namespace) -> int:
    """Accept the challenges to the account and play its games, until ``--games``."""
    inbox: queue.Queue = queue.Queue()
    threading.Thread(target=listen, args=(server, args.token, inbox), daemon=True).start()
    if args.post:
        body = terms(args.post) | {"color": args.color, "rated": args.rated}
        if args.to:
            body["to"] = args.to
        posted = server.call("POST", "/api/challenges", body, args.token)
        print(f"challenge: {posted['url']}", flush=True)

    def play_one(game: dict) -> None:
        try:
            final = play(server, game["id"], game["color"], args.token, args.level, args.seconds)
            result = {"id": game["id"], "result": final["result"], "score": final["score"]}
        except RuntimeError as exc:
            result = {"id": game["id"], "error": str(exc)}
        inbox.put({"type": "over", "result": result})

    started: set[str] = set()
    finished = 0
    while args.games is None or finished < args.games:
        event = inbox.get()
        if event["type"] == "challenge":
            challenge = event["challenge"]
            if args.games is not None and len(started) >= args.games:
                continue
            try:
                server.call("POST", f"/api/challenges/{challenge['id']}/accept", {}, args.token)
                print(f"accepted {challenge['id']} from {challenge['creator']['name']}", flush=True)
            except RuntimeError as exc:  # taken back meanwhile, or not for us after all
                print(f"could not accept {challenge['id']}: {exc}", flush=True)
        elif event["type"] == "gameStart" and event["game"]["id"] not in started:
            game = event["game"]
            started.add(game["id"])
            print(f"playing {game['color']} in {game['url']}", flush=True)
            threading.Thread(target=play_one, args=(game,), daemon=True).start()
        elif event["type"] == "over":
            finished += 1
            print(json.dumps(event["result"]), flush=True)
        elif event["type"] == "error":
            print(event["message"], file=sys.stderr)
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a Mǽrstánas game through the API.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--level", default=bots.LEVEL_IDS[2], choices=bots.LEVEL_IDS)
    parser.add_argument("--seconds", type=float, help="think this long a move instead")
    parser.add_argument("--mode", choices=["computer", "friend"], default="computer")
    parser.add_argument("--opponent", default=bots.LEVEL_IDS[0], help="the site's level")
    parser.add_argument("--color", choices=["dark", "light", "random"], default="dark")
    parser.add_argument("--join", metavar="INVITE_URL", help="join this friend game")
    parser.add_argument("--lobby", action="store_true", help="sit in the lobby as a bot")
    parser.add_argument("--token", default="", help="an account's API token (mt_…)")
    parser.add_argument("--post", metavar="5+3", help="post a challenge: 5+3, 3d or unlimited")
    parser.add_argument("--to", metavar="USERNAME", help="post it to this player")
    parser.add_argument("--rated", action="store_true", help="post a rated challenge")
    parser.add_argument("--games", type=int, help="stop after this many games")
    args = parser.parse_args(argv)
    server = Server(args.server)
    if args.lobby:
        if not args.token:
            parser.error("--lobby needs --token: an account's API token")
        return sit_in_lobby(server, args)
    if args.join:
        game_id = args.join.split("/g/", 1)[1].split("/", 1)[0]
        seat = server.call("POST", f"/api/games/{game_id}/join", {"invite": args.join})
    else:
        body = {"mode": args.mode, "color": args.color}
        if args.mode == "computer":
            body["level"] = args.opponent
        seat = server.call("POST", "/api/games", body)
        game_id = seat["id"]
        if "invite_url" in seat:
            print(f"invite: {seat['invite_url']}", flush=True)
    print(f"playing {seat['color']} in {seat['url']}", flush=True)
    final = play(server, game_id, seat["color"], seat["token"], args.level, args.seconds)
    print(json.dumps({"id": game_id, "result": final["result"], "score": final["score"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
