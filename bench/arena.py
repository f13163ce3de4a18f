"""The arena: computer players against each other, with a cross-table of the results.

    python -m bench.arena          # the ladder, and the goals at 1 s and 0.25 s: 200 games each
    python -m bench.arena wita@0.25:uct@0.25 cild:random --games 100
    python -m bench.arena --json game/maerstanas/arena.json   # also save the results and the Elo
    python -m bench.arena thegn:cniht --json game/maerstanas/arena.json --update  # redo some rows
    python -m bench.arena wita@1:uct@1 --games 80 --json game/maerstanas/arena-goals.json --more

Ctrl-C (or SIGTERM) stops a run: the games under way finish, and the table and
``--json`` file hold the games played, which ``--more`` plays on from.

A player is a level id (``cild`` … ``wita``), a reference player (``random``,
``heuristic``, ``aelfric``, ``uct``), or either with ``@seconds`` for a time a
move (``wita@0.25``, ``uct@4``). Each pairing plays ``--games`` games from the
empty board, colours alternating, each game with its own seed, on one process
per core (``--jobs``). The table gives wins/ties/losses of the first player,
its score (a tie counts half), the Elo difference that score means with its 95%
interval, and each side's mean seconds a move.

Ratings: the ladder's pairings (each level against the one below, the weakest
against ``random``) chain into an Elo for every level, ``random`` being 0.

``--game cyngesheall`` plays another game of the site instead, from its start
position: its levels (``byrele`` … ``cyning``) and the reference players its kind
names for the arena (``GameKind.players.arena``: ``random``, ``greedy``, ``uct``); a
game is won or not by the rules' result (Cyngesheall's: a king taken or home, or the
other side without a move; drawn by repetition or the 60-ply rule)::

    python -m bench.arena --game cyngesheall --seconds 0.1 --games 100
    python -m bench.arena --game cyngesheall cyning@0.1:uct@0.1 gesith:duguth
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from bench.standings import Row, merged, table
from game.kinds import GameKind, Players
from game.options import Options
from game.registry import DEFAULT, KINDS, kind_of
from game.surface import (
    Color,
)


def _players(game: str) -> Players:
    """A game's players, with the reference players its kind names for the arena."""
    players = KINDS[game].players
    if players.arena is None:
        raise argparse.ArgumentTypeError(f"{game} names no reference players for the arena")
    return players


def ladder(game: str = DEFAULT.name) -> list[str]:
    """Each level against the one below; the weakest against random and the kind's
    second reference (Mǽrstánas's heuristic, Cyngesheall's greedy)."""
    players = _players(game)
    ids = players.level_ids
    pairs = [f"{ids[0]}:random", f"{ids[0]}:{players.arena.second}"]
    pairs += [f"{upper}:{lower}" for lower, upper in pairwise(ids)]
    return pairs


def goals(seconds: float, game: str = DEFAULT.name) -> list[str]:
    """The strongest level at ``seconds`` a move against the kind's goal reference
    (Mǽrstánas's Aelfric, Cyngesheall's greedy), against plain UCT given the same time,
    and (the moonshot) against plain UCT given four times as long."""
    players = _players(game)
    strongest = f"{players.strongest.id}@{seconds:g}"
    return [
        f"{strongest}:{players.arena.goal}",
        f"{strongest}:uct@{seconds:g}",
        f"{strongest}:uct@{4 * seconds:g}",
    ]


def move_of(player: str, position: Any, rng: random.Random) -> Any:
    """The move ``player`` (a level or a reference, maybe with ``@seconds``) chooses,
    in a game of the position's kind."""
    players = _players(kind_of(position.rules).name)
    name, _, seconds = player.partition("@")
    if name == "uct":
        return players.arena.uct(position, rng, float(seconds or 1))
    if name in players.arena.references:
        return players.arena.references[name](position, rng)
    return players.choose_move(
        position,
        name,
        seconds=float(seconds) if seconds else None,
        seed=rng.randrange(1 << 32),
    )


def check_player(player: str, game: str = DEFAULT.name) -> str:
    """``player`` if it names a level or a reference player of ``game``; raises
    ``ArgumentTypeError`` (or ``ValueError`` for a time that is not a number) if not."""
    players = _players(game)
    name, _, seconds = player.partition("@")
    known = name in players.arena.references or name in players.level_ids
    if not known and name != "uct":
        raise argparse.ArgumentTypeError(f"{player!r} is not a player")
    if seconds:
        float(seconds)
    return player


@dataclass
class Game:
    """One game's result for the first player of its pairing."""

    pairing: str
    points: float  # 1 a win, 0.5 a tie, 0 a loss
    seconds: dict[str, list[float]] = field(default_factory=dict)  # by player: total, moves


def play_game(pairing: str, index: int, rules: Options, seed: int) -> Game:
    """Game ``index`` of a pairing: the first player has dark in even games. The rules'
    kind says the game (Mǽrstánas's ``Rules``, Cyngesheall's…), and its result who won."""
    first, second = pairing.split(":")
    rng = random.Random(f"{seed}:{pairing}:{index}")
    players = {Color.DARK: first, Color.LIGHT: second}
    if index % 2:
        players = {Color.DARK: second, Color.LIGHT: first}
    spent = {first: [0.0, 0], second: [0.0, 0]}
    kind = kind_of(rules)
    position = kind.start(rules)
    while not position.is_over:
        player = players[position.turn]
        started = time.perf_counter()
        move = move_of(player, position, rng)
        spent[player][0] += time.perf_counter() - started
        spent[player][1] += 1
        position = position.play(move)
    first_color = Color.DARK if players[Color.DARK] == first else Color.LIGHT
    winner = position.outcome().winner
    points = 0.5 if winner is None else float(winner is first_color)
    return Game(pairing, points, spent)


class Stopped(Exception):
    """Ctrl-C or SIGTERM: the run stops, and the games played so far stand."""


def _stop(signum: int, frame: object) -> None:
    raise Stopped


def _leave_interrupts_to_the_arena() -> None:
    """A worker ignores Ctrl-C and SIGTERM, which reach the whole process group (a
    terminal's Ctrl-C, ``timeout``, ``kill -- -group``): the arena stops the run, the
    games under way finish, and what was played is kept."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def run(
    pairings: list[str],
    games: int,
    rules: Options,
    seed: int,
    jobs: int,
    first: dict[str, int] | None = None,
) -> list[Row]:
    """Play ``games`` games of each pairing on ``jobs`` processes, reporting progress on
    stderr; the pairings' games are interleaved so that each row fills up evenly. A
    pairing's games are numbered from its ``first`` (0), so more games of a saved row
    are new games, not its own again.

    Ctrl-C (or SIGTERM) stops the run, a long one being hours of both cores: the games
    under way finish, the others are not played, and the rows hold the games played
    in order, so that each pairing's are its first ones and ``--more`` numbers the
    next ones on. A second Ctrl-C abandons them all.
    """
    first = first or {}
    rows = {pairing: Row(pairing) for pairing in pairings}
    work = [
        (pairing, first.get(pairing, 0) + index) for index in range(games) for pairing in pairings
    ]
    done = 0

    def count(game: Game) -> None:
        nonlocal done
        row = rows[game.pairing]
        if game.points == 1:
            row.wins += 1
        elif game.points == 0.5:
            row.ties += 1
        else:
            row.losses += 1
        for player, (total, moves) in game.seconds.items():
            spent = row.time.setdefault(player, [0.0, 0])
            spent[0] += total
            spent[1] += moves
        done += 1
        print(f"\r{done}/{len(work)} games", end="", file=sys.stderr, flush=True)

    signals = (signal.SIGINT, signal.SIGTERM)
    stoppable = threading.current_thread() is threading.main_thread()
    handlers = {number: signal.signal(number, _stop) for number in signals} if stoppable else {}
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_leave_interrupts_to_the_arena)
    stopped = False
    futures: list[Future[Game]] = []
    try:
        futures += [pool.submit(play_game, p, i, rules, seed) for p, i in work]
        for future in futures:
            count(future.result())
    except Stopped:
        stopped = True
        print("\nstopping: the games under way finish, no other starts", file=sys.stderr)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        pool.shutdown(wait=True, cancel_futures=True)
    if stopped:
        for future in futures[done:]:
            if future.cancelled():
                break
            count(future.result())
    print(file=sys.stderr)
    return list(rows.values())


def ratings(rows: list[Row], game: str = DEFAULT.name) -> dict[str, int]:
    """The levels' Elo, chained along the ladder from ``random`` at 0."""
    by_pairing = {row.pairing: row for row in rows}
    levels = _players(game).levels
    found: dict[str, int] = {}
    rating = 0.0
    for below, level in pairwise((None, *levels)):
        lower = "random" if below is None else below.id
        row = by_pairing.get(f"{level.id}:{lower}")
        if row is None and level.playouts is None:
            # A timed level at its own time a move is the level: "ariki@1:elder" is
            # "ariki:elder" (a level counted in playouts is not its time).
            row = by_pairing.get(f"{level.id}@{level.seconds:g}:{lower}")
        if row is None:
            break
        rating += row.elo()[0]
        found[level.id] = round(rating)
    return found


def _rules_dict(rules: Options) -> dict[str, object]:
    """The rules a saved file's games were played by: the game and its options."""
    return {"game": kind_of(rules).name, **rules.to_mapping()}


def _rules(kind: GameKind, args: argparse.Namespace) -> Options:
    """The rules the command line asks for: Mǽrstánas's options are its flags
    (``--no-special-stones``, ``--scoring``, ``--wraparound``), a kind without them
    refuses them; any game's option is ``--rule name=value`` too, as a form sends it
    (``--rule board=hex``). Raises ``ValueError`` saying which the game has not, or
    what a value it does not take."""
    written = dict(item.partition("=")[::2] for item in args.rule)
    asked: dict[str, object] = {}
    if args.no_special_stones:
        asked["special_stones"] = False
    if args.scoring != "standard":
        asked["scoring"] = args.scoring
    if args.wraparound:
        asked["wraparound"] = True
    known = {option.name for option in kind.rules.OPTIONS}
    unknown = sorted((set(asked) | set(written)) - known)
    if unknown:
        raise ValueError(f"{kind.title} has no rule option {', '.join(unknown)}")
    read = kind.rules.from_mapping(written).to_mapping() if written else {}
    return kind.rules(**{**read, **asked})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairings", nargs="*", help="first:second, e.g. wita@1:uct@1")
    parser.add_argument("--game", choices=list(KINDS), default=DEFAULT.name, help="the game played")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--seconds",
        type=float,
        nargs="+",
        default=[1.0, 0.25],
        help="the strongest level's times a move in the default goals (1 and 0.25)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-special-stones", action="store_true")
    parser.add_argument("--scoring", default="standard")
    parser.add_argument("--wraparound", action="store_true")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option of the game, as a form sends it (board=hex); again for another",
    )
    parser.add_argument(
        "--json",
        "--ratings",
        dest="json",
        metavar="PATH",
        help="also write the results and the ladder's Elo here (game/maerstanas/arena.json)",
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="keep the --json file's other rows: replace only those of these pairings",
    )
    parser.add_argument(
        "--more",
        action="store_true",
        help="like --update, but add the games to these pairings' saved rows",
    )
    args = parser.parse_args(argv)
    for option in ("update", "more"):
        if getattr(args, option) and not args.json:
            parser.error(f"--{option} needs --json PATH, the file to update")
    kind = KINDS[args.game]
    try:
        rules = _rules(kind, args)
    except ValueError as exc:
        parser.error(str(exc))
    pairings = args.pairings or [
        *ladder(args.game),
        *(p for s in args.seconds for p in goals(s, args.game)),
    ]
    for pairing in pairings:
        if pairing.count(":") != 1:
            parser.error(f"{pairing!r} is not a pairing: write first:second")
        for player in pairing.split(":"):
            try:
                check_player(player, args.game)
            except (argparse.ArgumentTypeError, ValueError) as exc:
                parser.error(str(exc))
    saved = None
    if (args.update or args.more) and os.path.exists(args.json):
        with open(args.json, encoding="utf-8") as file:
            saved = json.load(file)
        if saved["rules"] != _rules_dict(rules):
            parser.error(f"{args.json} holds games played with other rules: {saved['rules']}")
    earlier = {row["pairing"]: Row.from_dict(row) for row in saved["rows"]} if saved else {}
    first = {pairing: row.games for pairing, row in earlier.items()} if args.more else {}
    started = time.monotonic()
    rows = run(pairings, args.games, rules, args.seed, args.jobs, first)
    name = str(rules) if kind.rules.OPTIONS else kind.title
    print(f"{name}, {args.jobs} processes, {time.monotonic() - started:.0f} s")
    played, meant = sum(row.games for row in rows), args.games * len(pairings)
    if played < meant:
        print(f"stopped after {played} of {meant} games: --more plays on from the rows saved")
    rows = [row for row in rows if row.games]
    print(table(rows))
    commands = ["python -m bench.arena " + " ".join(sys.argv[1:] if argv is None else argv)]
    if saved is not None:
        if args.more:
            rows = [
                earlier[row.pairing].plus(row) if row.pairing in earlier else row for row in rows
            ]
        rows = merged(saved["rows"], rows)
        commands = [*saved["commands"], *commands]
        print(f"with the other rows of {args.json}:")
        print(table(rows))
    found = ratings(rows, args.game)
    if found:
        print("Elo, random = 0: " + ", ".join(f"{k} {v:+d}" for k, v in found.items()))
    if args.json:
        record = {
            "commands": commands,
            "rules": _rules_dict(rules),
            "jobs": args.jobs,
            "seed": args.seed,
            "ratings": found,
            "rows": [row.as_dict() for row in rows],
            "table": table(rows).splitlines(),
        }
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(record, file, indent=2, ensure_ascii=False)
            file.write("\n")


if __name__ == "__main__":
    main()
