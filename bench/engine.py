"""Engine benchmark: random playouts per second through the public API, and the
computer players' search speed.

Run ``python -m bench.engine`` (``--help`` for options). Each playout starts from
``Position.start(rules)`` and plays ``random.choice(pos.legal_moves())`` until
``pos.is_over``, as a program using the engine's public API would. The search's
own figures follow: its guided playouts on the bitboards (``search.playout``) and
whole MCTS iterations (tree walk, expansion, playout, update), both from the
start position, on one core.

Cyngesheall's figures follow Mǽrstánas's, measured the same way: random games
through its public API (``game.cyngesheall.Position``), then its search's guided
playouts (``game.cyngesheall.bots.policy.playout``, cut off and judged after
``PLAYOUT_PLIES`` plies) and MCTS iterations from its start position.

7-4-1776's follow: random games through its public API (``game.seven_four.Position``),
then the strongest level's search (``game.seven_four.bots.search``): its iterations a
second, each with one cut-off playout, as the level runs them (collector paused), from
the start and from the rule book's mid-game position.
Parking Lot's random games follow, through its public API
(``game.parking_lot.Position``: ``rng.choice(pos.legal_moves())``, as its rule book's
random games are played), then the strongest level's search: its playouts (one an
iteration of the tree) a second from the start (``game.parking_lot.bots.search``).

Land Grab's follow, measured as 7-4-1776's: random games through its public API
(``game.land_grab.Position``), then the strongest level's search
(``game.land_grab.bots.search``): its iterations a second, each with one cut-off
playout, from the start and from the rule book's mid-game position.

Moai's follow, for each board: random games through its public API
(``game.moai.Position``), then the strongest level's search (``game.moai.bots.search``):
its iterations a second, each with one cut-off playout, half the time from the first
turn of the rule book's mid-game record (both Moai placed), half from its mid-game
position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from game.cyngesheall import Position as CyngesheallPosition
from game.cyngesheall.bots import policy as cyngesheall_policy
from game.cyngesheall.bots import search as cyngesheall_search
from game.engine import Position, Rules
from game.land_grab import Position as LandGrabPosition
from game.land_grab.bots import search as land_grab_search
from game.land_grab.perft import MID_GAME as LAND_GRAB_MID_GAME
from game.maerstanas.bots import search
from game.moai import Position as MoaiPosition
from game.moai import Rules as MoaiRules
from game.moai.bots import search as moai_search
from game.moai.perft import MID_GAMES as MOAI_MID_GAMES
from game.parking_lot import Position as ParkingLotPosition
from game.parking_lot.bots import search as parking_lot_search
from game.seven_four import Position as SevenFourPosition
from game.seven_four.bots import search as seven_four_search
from game.seven_four.perft import MID_GAME as SEVEN_FOUR_MID_GAME
from game.thinking import without_collector


def playout(rules: Rules, rng: random.Random) -> Position:
    """Play one random game to its end and return the final position."""
    pos = Position.start(rules)
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def measure(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    """Run playouts for about ``seconds``; return (playouts per second, mean plies)."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(100):
            plies += playout(rules, rng).ply
        games += 100
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started), plies / games


def measure_search(rules: Rules, seconds: float, seed: int) -> tuple[float, float]:
    """Guided playouts a second, and MCTS iterations a second, from the start position."""
    rng = random.Random(seed)
    start = Position.start(rules)
    playouts = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            search.playout(start, rng, search.PLAYOUT_SAMPLES)
        playouts += 100
    playout_rate = playouts / (time.perf_counter() - started)
    started = time.perf_counter()
    _, iterations = search.mcts(start, rng, deadline=started + seconds)
    return playout_rate, iterations / (time.perf_counter() - started)


def cyngesheall_playout(rng: random.Random) -> CyngesheallPosition:
    """Play one random game of Cyngesheall to its end and return the final position."""
    pos = CyngesheallPosition.start()
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def measure_cyngesheall(seconds: float, seed: int) -> tuple[float, float]:
    """Cyngesheall's random games a second through the public API, and their mean plies."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(10):
            plies += cyngesheall_playout(rng).ply
        games += 10
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started), plies / games


def measure_cyngesheall_search(seconds: float, seed: int) -> tuple[float, float]:
    """Cyngesheall's guided playouts a second, and MCTS iterations a second, from its
    start position."""
    rng = random.Random(seed)
    start = CyngesheallPosition.start()
    playouts = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            cyngesheall_policy.playout(start, rng)
        playouts += 20
    playout_rate = playouts / (time.perf_counter() - started)
    started = time.perf_counter()
    _, iterations = cyngesheall_search.search_tree(start, rng, deadline=started + seconds)
    return playout_rate, iterations / (time.perf_counter() - started)


def measure_seven_four(seconds: float, seed: int) -> tuple[float, float]:
    """7-4-1776's random games a second through the public API, and their mean plies."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(10):
            pos = SevenFourPosition.start()
            while not pos.is_over:
                pos = pos.play(rng.choice(pos.legal_moves()))
            plies += pos.ply
        games += 10
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started), plies / games


def measure_land_grab(seconds: float, seed: int) -> tuple[float, float]:
    """Land Grab's random games a second through the public API, and their mean plies."""
    rng = random.Random(seed)
    games = plies = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(10):
            pos = LandGrabPosition.start()
            while not pos.is_over:
                pos = pos.play(rng.choice(pos.legal_moves()))
            plies += pos.ply
        games += 10
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started), plies / games


def measure_land_grab_search(seconds: float, seed: int) -> float:
    """The playouts a second of Land Grab's strongest level: its search's iterations,
    half the time from the start, half from the mid-game position."""
    rng = random.Random(seed)
    iterations = 0
    spent = 0.0
    for moves in ((), LAND_GRAB_MID_GAME):
        position = LandGrabPosition.replay(moves)
        with without_collector():
            started = time.perf_counter()
            _, done = land_grab_search.search_tree(position, rng, deadline=started + seconds / 2)
            spent += time.perf_counter() - started
        iterations += done
    return iterations / spent


def measure_seven_four_search(seconds: float, seed: int) -> float:
    """The playouts a second of 7-4-1776's strongest level: its search's iterations,
    half the time from the start, half from the mid-game position."""
    rng = random.Random(seed)
    iterations = 0
    spent = 0.0
    for moves in ((), SEVEN_FOUR_MID_GAME):
        position = SevenFourPosition.replay(moves)
        with without_collector():
            started = time.perf_counter()
            _, done = seven_four_search.search_tree(position, rng, deadline=started + seconds / 2)
            spent += time.perf_counter() - started
        iterations += done
    return iterations / spent


def parking_lot_playout(rng: random.Random) -> ParkingLotPosition:
    """Play one random game of Parking Lot to its end and return the final position."""
    pos = ParkingLotPosition.start()
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def measure_parking_lot(seconds: float, seed: int) -> float:
    """Parking Lot's random games a second through the public API (sixteen turns each)."""
    rng = random.Random(seed)
    games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        parking_lot_playout(rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started)


def measure_parking_lot_search(seconds: float, seed: int) -> float:
    """Parking Lot's search playouts a second from the start, as its strongest level
    searches (one playout an iteration of the tree)."""
    rng = random.Random(seed)
    started = time.perf_counter()
    _, iterations = parking_lot_search.search_tree(
        ParkingLotPosition.start(), rng, deadline=started + seconds
    )
    return iterations / (time.perf_counter() - started)


def measure_moai(board: str, seconds: float, seed: int) -> tuple[float, float]:
    """Moai's random games a second on ``board`` through the public API, and their
    mean plies."""
    rng = random.Random(seed)
    rules = MoaiRules(board)
    games = plies = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(10):
            pos = MoaiPosition.start(rules)
            while not pos.is_over:
                pos = pos.play(rng.choice(pos.legal_moves()))
            plies += pos.ply
        games += 10
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - started), plies / games


def measure_moai_search(board: str, seconds: float, seed: int) -> float:
    """The playouts a second of Moai's strongest level on ``board``: its search's
    iterations, half the time from the first turn (both Moai placed), half from the
    rule book's mid-game position."""
    rng = random.Random(seed)
    rules = MoaiRules(board)
    record = MOAI_MID_GAMES[board].split()
    iterations = 0
    spent = 0.0
    for moves in (record[:2], record):
        position = MoaiPosition.replay(rules, moves)
        with without_collector():
            started = time.perf_counter()
            _, done = moai_search.search_tree(position, rng, deadline=started + seconds / 2)
            spent += time.perf_counter() - started
        iterations += done
    return iterations / spent


def main(argv: list[str] | None = None) -> None:
    """Print playouts per second for each rule set (best and median of the rounds)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="also the variants, not only defaults")
    args = parser.parse_args(argv)
    rule_sets = {"default rules": Rules()}
    if args.all:
        rule_sets |= {
            "special stones off": Rules(special_stones=False),
            "wraparound": Rules(wraparound=True),
            "simple scoring": Rules(scoring="simple"),
        }
    for name, rules in rule_sets.items():
        rates = []
        for round_number in range(args.rounds):
            rate, mean_plies = measure(rules, args.seconds, args.seed + round_number)
            rates.append(rate)
        print(
            f"{name:20} {max(rates):8,.0f} playouts/s best, "
            f"{statistics.median(rates):8,.0f} median "
            f"({args.rounds}×{args.seconds:g}s, {mean_plies:.1f} plies a game)"
        )
    for name, rules in rule_sets.items():
        rounds = [measure_search(rules, args.seconds, args.seed + n) for n in range(args.rounds)]
        playouts, iterations = zip(*rounds, strict=True)
        print(
            f"{name:20} {statistics.median(playouts):8,.0f} guided playouts/s, "
            f"{statistics.median(iterations):8,.0f} MCTS iterations/s (search, median)"
        )
    rounds = [measure_cyngesheall(args.seconds, args.seed + n) for n in range(args.rounds)]
    rates = [rate for rate, _ in rounds]
    print(
        f"{'cyngesheall':20} {max(rates):8,.0f} playouts/s best, "
        f"{statistics.median(rates):8,.0f} median "
        f"({args.rounds}×{args.seconds:g}s, {rounds[-1][1]:.1f} plies a game)"
    )
    rounds = [measure_cyngesheall_search(args.seconds, args.seed + n) for n in range(args.rounds)]
    playouts, iterations = zip(*rounds, strict=True)
    print(
        f"{'cyngesheall':20} {statistics.median(playouts):8,.0f} guided playouts/s, "
        f"{statistics.median(iterations):8,.0f} MCTS iterations/s (search, median)"
    )
    rounds = [measure_seven_four(args.seconds, args.seed + n) for n in range(args.rounds)]
    rates = [rate for rate, _ in rounds]
    print(
        f"{'7-4-1776':20} {max(rates):8,.0f} playouts/s best, "
        f"{statistics.median(rates):8,.0f} median "
        f"({args.rounds}×{args.seconds:g}s, {rounds[-1][1]:.1f} plies a game)"
    )
    rates = [measure_seven_four_search(args.seconds, args.seed + n) for n in range(args.rounds)]
    print(
        f"7-4-1776 search: {statistics.median(rates):,.0f} playouts a second "
        "(the strongest level's iterations, each a cut-off playout; median)"
    )
    rates = [measure_parking_lot(args.seconds, args.seed + n) for n in range(args.rounds)]
    print(
        f"{'parking-lot':20} {max(rates):8,.1f} random games/s best, "
        f"{statistics.median(rates):8,.1f} median "
        f"({args.rounds}×{args.seconds:g}s, 16 turns a game)"
    )
    rates = [measure_parking_lot_search(args.seconds, args.seed + n) for n in range(args.rounds)]
    print(f"Parking Lot search: {statistics.median(rates):,.0f} playouts a second (median)")
    rounds = [measure_land_grab(args.seconds, args.seed + n) for n in range(args.rounds)]
    rates = [rate for rate, _ in rounds]
    print(
        f"{'Land Grab':20} {max(rates):8,.0f} playouts/s best, "
        f"{statistics.median(rates):8,.0f} median "
        f"({args.rounds}×{args.seconds:g}s, {rounds[-1][1]:.1f} plies a game)"
    )
    rates = [measure_land_grab_search(args.seconds, args.seed + n) for n in range(args.rounds)]
    print(
        f"Land Grab search: {statistics.median(rates):,.0f} playouts a second "
        "(the strongest level's iterations, each a cut-off playout; median)"
    )
    for board in ("square", "hex"):
        rounds = [measure_moai(board, args.seconds, args.seed + n) for n in range(args.rounds)]
        rates = [rate for rate, _ in rounds]
        print(
            f"{'moai ' + board:20} {max(rates):8,.0f} playouts/s best, "
            f"{statistics.median(rates):8,.0f} median "
            f"({args.rounds}×{args.seconds:g}s, {rounds[-1][1]:.1f} plies a game)"
        )
        rates = [
            measure_moai_search(board, args.seconds, args.seed + n) for n in range(args.rounds)
        ]
        print(
            f"moai {board} search: {statistics.median(rates):,.0f} playouts a second "
            "(the strongest level's iterations, each a cut-off playout; median)"
        )


if __name__ == "__main__":
    main()
