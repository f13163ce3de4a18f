"""The computer's queue under a flood: how long a new player waits for a reply.

It serves the site as ``make run`` does (gunicorn, the computer's worker beside it,
SQLite in a temp dir, the rate limits on) and then:

- each of ``--attackers`` clients (a made-up address each, sent as the trusted
  proxy's ``X-Forwarded-For``) starts ``--games`` games against the strongest level
  through the API and moves in each as soon as the computer has replied, so the
  worker always has a dozen of its replies (a second of thinking each) waiting;
- every ``--every`` seconds a new player, from an address of its own, starts a game
  against the weakest level, plays a move and times the computer's reply (polling
  ``/api/games/<id>/poll/1`` every 50 ms) until it comes;
- for ``--seconds``, then prints the new players' waits (median, 95th percentile,
  worst), how many replies the flood got meanwhile, and the goal: a new player's
  reply within 3 s.

A queue served first come, first served would make the new player wait for every
reply queued before theirs (a second each); ``computer.fairly`` puts each
client's first task before anyone's second.

Run ``python -m bench.queue`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from game.bots import LEVELS
from tests.support.servers import Server, Worker, prepare, site_env

GOAL_SECONDS = 3.0
POLL_SECONDS = 0.05


@dataclass
class Tally:
    waits: list[float] = field(default_factory=list)
    flood_replies: int = 0
    errors: list[str] = field(default_factory=list)


def headers(address: str, token: str = "") -> dict[str, str]:
    sent = {"X-Forwarded-For": address, "Content-Type": "application/json"}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    return sent


async def start_game(client: httpx.AsyncClient, address: str, level: str) -> tuple[str, str]:
    """A game against ``level`` with the dark stones; its id and the seat's token."""
    answer = await client.post(
        "/api/games",
        json={"mode": "computer", "level": level, "color": "dark"},
        headers=headers(address),
    )
    answer.raise_for_status()
    body = answer.json()
    return body["id"], body["token"]


async def play_random(
    client: httpx.AsyncClient, address: str, game: str, token: str, state: dict
) -> dict:
    """Play a random legal move in ``state``; the new state."""
    answer = await client.post(
        f"/api/games/{game}/moves",
        json={"move": random.choice(state["legal"]), "ply": state["ply"]},
        headers=headers(address, token),
    )
    answer.raise_for_status()
    return answer.json()


async def reply(client: httpx.AsyncClient, address: str, game: str, ply: int) -> dict | None:
    """The game's state once it has moved on from ``ply``; None while it has not."""
    answer = await client.get(f"/api/games/{game}/poll/{ply}", headers=headers(address))
    if answer.status_code == 204:
        return None
    answer.raise_for_status()
    return answer.json()


async def flood(client: httpx.AsyncClient, address: str, games: int, until: float, tally: Tally):
    """Keep ``games`` games against the strongest level waiting for its replies: each
    moves again as soon as the computer has replied (the poll is one indexed read, so
    the flood costs the server little beside the computer's thinking)."""
    strongest = LEVELS[-1].id
    held = {}
    for _ in range(games):
        game, token = await start_game(client, address, strongest)
        state = (await client.get(f"/api/games/{game}", headers=headers(address))).json()
        held[game] = (token, (await play_random(client, address, game, token, state))["ply"])
    while time.monotonic() < until:
        for game, (token, ply) in list(held.items()):
            try:
                state = await reply(client, address, game, ply)
                if state is None:
                    continue
                tally.flood_replies += 1
                if state["over"]:
                    del held[game]
                    game, token = await start_game(client, address, strongest)
                    state = (
                        await client.get(f"/api/games/{game}", headers=headers(address))
                    ).json()
                played = await play_random(client, address, game, token, state)
                held[game] = (token, played["ply"])
            except httpx.HTTPError as exc:
                tally.errors.append(f"flood: {exc!r}")
        await asyncio.sleep(0.2)


async def newcomer(client: httpx.AsyncClient, address: str, tally: Tally) -> None:
    """A new player's first move against the weakest level, and the wait for the reply."""
    game, token = await start_game(client, address, LEVELS[0].id)
    state = (await client.get(f"/api/games/{game}", headers=headers(address))).json()
    started = time.monotonic()
    await play_random(client, address, game, token, state)
    while True:
        if await reply(client, address, game, 1) is not None:
            tally.waits.append(time.monotonic() - started)
            return
        if time.monotonic() - started > 120:
            tally.errors.append(f"no reply within 120 s in {game}")
            return
        await asyncio.sleep(POLL_SECONDS)


async def measure(url: str, args: argparse.Namespace) -> Tally:
    tally = Tally()
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        until = time.monotonic() + args.seconds
        floods = [
            asyncio.create_task(flood(client, f"10.66.0.{n + 1}", args.games, until, tally))
            for n in range(args.attackers)
        ]
        await asyncio.sleep(args.every)  # the flood's replies queue up first
        newcomers = []
        number = 0
        while time.monotonic() < until:
            number += 1
            address = f"10.1.{number // 250}.{number % 250 + 1}"
            newcomers.append(asyncio.create_task(newcomer(client, address, tally)))
            await asyncio.sleep(args.every)
        for task in [*floods, *newcomers]:
            try:
                await task
            except httpx.HTTPError as exc:
                tally.errors.append(repr(exc))
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=1, help="clients flooding the queue")
    parser.add_argument("--games", type=int, default=12, help="games each attacker keeps busy")
    parser.add_argument("--seconds", type=float, default=90.0, help="length of the measurement")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between new players")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        env = site_env(Path(tmp), MAERSTANAS_RATE_LIMITS="1", DJANGO_BEHIND_PROXY="1")
        prepare(env)
        server = Server(env, workers=None)
        worker = Worker(env)
        try:
            server.start()
            worker.start()
            tally = asyncio.run(measure(server.url, args))
        finally:
            server.stop()
            worker.stop()
    waits = sorted(tally.waits)
    print(
        f"{args.attackers} client(s) keeping {args.games} games each against "
        f"{LEVELS[-1].name} busy, {args.seconds:.0f} s: {tally.flood_replies} replies to them"
    )
    if not waits:
        print("no new player was measured")
    else:
        p95 = waits[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))]
        print(
            f"{len(waits)} new players against {LEVELS[0].name}, reply after: "
            f"median {statistics.median(waits):.2f} s, 95th percentile {p95:.2f} s, "
            f"worst {waits[-1]:.2f} s"
        )
        print("each, in turn:", " ".join(f"{wait:.2f}" for wait in tally.waits))
        verdict = "met" if waits[-1] <= GOAL_SECONDS else "not met"
        print(f"goal, every reply within {GOAL_SECONDS:.0f} s: {verdict}")
    for error in tally.errors[:10]:
        print("error:", error)
    if tally.errors:
        raise SystemExit(f"{len(tally.errors)} errors")


if __name__ == "__main__":
    main()
