"""``manage.py worker``: the django-tasks database worker, after enqueuing again the
computer's thinking that a stopped worker left undone (``game.computer.recover``)
and scheduling the daily pruning of abandoned games (``game.housekeeping``)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django_tasks_db.management.commands import db_worker

from game import computer, housekeeping


class Command(db_worker.Command):
    help = "Think of the computer's moves and hints: db_worker, after recovering lost work"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        # A player waits on each task: look for new ones five times a second, not once.
        parser.set_defaults(interval=0.2)

    def handle(self, *args: Any, **options: Any) -> None:
        count = computer.recover()
        if count:
            self.stdout.write(f"Enqueued again {count} computer moves and hints left undone.")
        if housekeeping.schedule_daily():
            self.stdout.write("Scheduled the daily pruning of abandoned games.")
        super().handle(**options)
