"""Instructions per unit of work, counted by valgrind's callgrind: the same count for
the same code whatever else the machine is doing, where a timing on a shared
machine varies by a third from one run to the next.

Three workloads: ``playout`` (a random game through the engine's public API, on
three rule sets), ``search`` (one move of the ``ealdor`` level, seeded), ``move``
(an htmx move through Django's whole stack, in one process, on SQLite). Each runs
under callgrind with no work and with ``n`` units; the difference over ``n`` is the
cost of one unit, start-up left out.

Run ``python -m bench.instructions`` (``--ref <git ref>`` counts that version too,
in a temporary worktree, and prints the change). Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = {"playout": 60, "search": 6, "move": 20}


def playout(n: int) -> None:
    from game.engine import Position, Rules

    rng = random.Random(1)
    for rules in (Rules(), Rules(wraparound=True), Rules(special_stones=False)):
        for _ in range(n // 3):
            position = Position.start(rules)
            while moves := position.legal_moves():
                position = position.play(rng.choice(moves))


def search(n: int) -> None:
    from game import bots
    from game.engine import Position, Rules

    rng = random.Random(2)
    position = Position.start(Rules())
    for _ in range(n):
        position = position.play(bots.choose_move(position, "ealdor", seed=rng.randrange(1000)))


def move(n: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maerstanas_site.settings")
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from game.engine import Position
    from game.models import Game

    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    }
    client = Client()
    client.post("/", {"mode": "hotseat", "special_stones": "on", "scoring": "standard"})
    game_id = Game.objects.order_by("-pk").values_list("public_id", flat=True)[0]
    client.get("/healthz")
    rng = random.Random(5)
    for _ in range(n):
        game = Game.objects.get(public_id=game_id)
        position = Position.from_text(game.position_text)
        chosen = str(rng.choice([m for m in position.legal_moves() if not m.is_pass]))
        reply = client.post(
            f"/g/{game_id}/move",
            {"move": chosen, "ply": game.ply},
            headers={"HX-Request": "true"},
        )
        assert reply.status_code == 200, reply.status_code


def run_command(workload: str, n: int) -> list[str]:
    """One run of ``workload`` with ``n`` units. ``-P``: the script's folder, bench/, is
    not put first among where imports are found, or bench/queue.py would stand for the
    standard library's ``queue`` (which Django's imports reach)."""
    return [sys.executable, "-P", str(Path(__file__).resolve()), "--run", workload, str(n)]


def run_env(tree: Path, database: Path) -> dict[str, str]:
    # Django's test client asks for "testserver", not a loopback name: the site wants a
    # key of its own then (a throwaway one, of the length it asks for).
    secret = {"DJANGO_SECRET_KEY": secrets.token_urlsafe(48)}
    return os.environ | {"PYTHONPATH": str(tree), "SQLITE_PATH": str(database)} | secret


def count(tree: Path, workload: str, n: int, database: Path) -> int:
    """Instructions of one run of ``workload`` with ``n`` units in ``tree``."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += run_command(workload, n)
    env = run_env(tree, database)
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr)[1])


def migrate(tree: Path, database: Path) -> None:
    """A database for the ``move`` workload, at ``tree``'s migrations."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=tree,
        env=os.environ | {"SQLITE_PATH": str(database)},
        check=True,
    )


def per_unit(tree: Path, workload: str, n: int) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        database = Path(scratch) / "db.sqlite3"
        if workload == "move":
            migrate(tree, database)
        return (count(tree, workload, n, database) - count(tree, workload, 0, database)) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", help="also count this git version, and print the change")
    parser.add_argument("--run", nargs=2, metavar=("WORKLOAD", "N"), help=argparse.SUPPRESS)
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=", ".join(WORKLOADS))
    args = parser.parse_args()
    if args.run:
        workload, n = args.run
        globals()[workload](int(n))
        return
    unknown = set(args.workloads) - set(WORKLOADS)
    if unknown:
        parser.error(f"no such workload: {', '.join(sorted(unknown))}")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt-get install valgrind")
    trees = {"this tree": ROOT}
    scratch = None
    if args.ref:
        scratch = Path(tempfile.mkdtemp()) / "ref"
        add = ["git", "worktree", "add", "-q", str(scratch), args.ref]
        subprocess.run(add, cwd=ROOT, check=True)
        trees = {args.ref: scratch, "this tree": ROOT}
    try:
        for workload in args.workloads or WORKLOADS:
            n = WORKLOADS[workload]
            counts = {name: per_unit(tree, workload, n) for name, tree in trees.items()}
            line = "  ".join(f"{name}: {value / 1e6:7.2f} M" for name, value in counts.items())
            if args.ref:
                change = counts["this tree"] / counts[args.ref] - 1
                line += f"  ({change:+.1%})"
            print(f"{workload:8} instructions per unit  {line}")
    finally:
        if scratch is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(scratch)], cwd=ROOT)


if __name__ == "__main__":
    main()
