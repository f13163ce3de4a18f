"""A Mǽrstánas program playing through the site's API: one of our levels, on any server.

Run it from the repository's root (it thinks with ``game.bots``; only the standard
library and the engine, no Django)::

    python examples/api_client.py --server http://127.0.0.1:8000 --level thegn
    python examples/api_client.py --mode friend              # prints the invite link
    python examples/api_client.py --join http://…/g/<id>/invite/<code>/ --level cniht

It starts a game (against the site's computer, or a friend game that waits for
someone to take the invite) or joins one, then waits for its turn with the poll
endpoint, thinks, and posts its move with its seat token, until the game ends.
The last line it prints is the result as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a Mǽrstánas game through the API.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--level", default=bots.LEVEL_IDS[2], choices=bots.LEVEL_IDS)
    parser.add_argument("--seconds", type=float, help="think this long a move instead")
    parser.add_argument("--mode", choices=["computer", "friend"], default="computer")
    parser.add_argument("--opponent", default=bots.LEVEL_IDS[0], help="the site's level")
    parser.add_argument("--color", choices=["dark", "light", "random"], default="dark")
    parser.add_argument("--join", metavar="INVITE_URL", help="join this friend game")
    args = parser.parse_args(argv)
    server = Server(args.server)
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
