"""``manage.py backup FILE``: a consistent copy of the SQLite database, taken while
the site runs; ``manage.py backup --restore FILE`` puts one back.

SQLite's online backup API copies the database page by page under its own locks,
so the copy is a database as it stood at one moment, whatever was being written
meanwhile (a copy of the file, with its write-ahead log beside it, may not be). On
PostgreSQL use ``pg_dump`` and ``pg_restore`` (the README says how).
"""

from __future__ import annotations

import contextlib
import sqlite3
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = "Copy the SQLite database to FILE while the site runs (or, with --restore, back)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", type=Path, help="where the copy goes (or comes from)")
        parser.add_argument(
            "--restore",
            action="store_true",
            help="put FILE back as the site's database (stop the site and its worker first)",
        )

    def handle(self, *args: Any, file: Path, restore: bool, **options: Any) -> None:
        if connection.vendor != "sqlite":
            raise CommandError(
                f"the database is {connection.vendor}, not SQLite: back it up with "
                "pg_dump --format=custom and restore it with pg_restore (see the README)"
            )
        database = Path(connection.settings_dict["NAME"])
        if restore:
            self._restore(file, database)
        else:
            self._back_up(database, file)

    def _back_up(self, database: Path, file: Path) -> None:
        if file.resolve() == database.resolve():
            raise CommandError("the copy would overwrite the database itself")
        if file.exists():
            raise CommandError(f"{file} exists already: choose a new file")
        with _open(database) as source, _open(file) as copy:
            source.backup(copy)
        self.stdout.write(f"Copied {database} to {file} ({_games(file)} games).")

    def _restore(self, file: Path, database: Path) -> None:
        if not file.is_file():
            raise CommandError(f"{file} is not a file")
        try:
            with _open(file) as copy:
                sound = copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        except sqlite3.DatabaseError:
            sound = False
        if not sound:
            raise CommandError(f"{file} is not a sound SQLite database")
        connection.close()
        with _open(file) as copy, _open(database) as target:
            copy.backup(target)
        self.stdout.write(f"Restored {database} from {file} ({_games(database)} games).")


def _open(path: Path) -> contextlib.closing[sqlite3.Connection]:
    """A connection to the database at ``path``, closed at the end of its block."""
    return contextlib.closing(sqlite3.connect(path, timeout=20))


def _games(path: Path) -> int:
    with _open(path) as copy:
        return copy.execute("SELECT count(*) FROM game_game").fetchone()[0]
