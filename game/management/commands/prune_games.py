"""``manage.py prune_games``: run the retention policy (game/housekeeping.py) by hand."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from game import housekeeping


class Command(BaseCommand):
    help = (
        "Delete unfinished games unchanged for DAYS days (finished games are kept), games "
        "without a move, old analyses and old task results, as the worker does daily."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=settings.ABANDONED_GAME_DAYS,
            help="days without a change (default: MAERSTANAS_ABANDONED_DAYS, %(default)s)",
        )

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        if days < 1:
            self.stderr.write("--days must be at least 1.")
            raise SystemExit(2)
        count = housekeeping.prune_games(days)
        self.stdout.write(f"Deleted {count} games unchanged for {days} days.")
        empty = housekeeping.prune_empty_games()
        analyses = housekeeping.prune_analyses()
        results = housekeeping.prune_task_results()
        self.stdout.write(
            f"Deleted {empty} games without a move, {analyses} old analyses "
            f"and {results} old task results."
        )
