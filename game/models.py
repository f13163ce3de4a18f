"""Saved games. The move log is the truth; the fields on ``Game`` are a cache of it."""

from __future__ import annotations

import hashlib
import secrets
from functools import cache

from django.db import connections, models, router
from django.db.models.options import Options
from django.utils import timezone

from game.engine import Color, Rules


def new_public_id() -> str:
    """A short, unguessable id for URLs: 12 URL-safe characters, 72 random bits."""
    return secrets.token_urlsafe(9)


def new_seat_token() -> str:
    """A seat's secret: 192 random bits. Only its hash is stored."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


# The fields a move rewrites on its game: the cached position.
POSITION_FIELDS = (
    "ply",
    "turn",
    "position_text",
    "dark_score",
    "light_score",
    "status",
    "result",
    "record_text",
)


@cache
def _statements(alias: str) -> dict[str, str]:
    """SQL for the hot paths, built once per database from the models' metadata.

    Every watching browser polls each second and every move locks, reads and
    rewrites its game: the ORM would spend longer building those queries than the
    database spends running them. Built from ``_meta``, they follow the models.
    """
    connection = connections[alias]
    quote = connection.ops.quote_name
    game, move = Game._meta, Move._meta

    def column(meta: Options[models.Model], name: str) -> str:
        return quote(meta.get_field(name).column)

    game_columns = ", ".join(quote(f.column) for f in game.concrete_fields)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    position = ", ".join(f"{column(game, name)} = %s" for name in POSITION_FIELDS)
    move_fields = ("game", "ply", "notation", "color", "created")
    return {
        "revision": (
            f"SELECT {column(game, 'revision')} FROM {quote(game.db_table)} "
            f"WHERE {column(game, 'public_id')} = %s"
        ),
        "locked": (
            f"SELECT {game_columns} FROM {quote(game.db_table)} "
            f"WHERE {column(game, 'public_id')} = %s{lock}"
        ),
        "save_position": (
            f"UPDATE {quote(game.db_table)} SET {position}, "
            f"{column(game, 'revision')} = {column(game, 'revision')} + 1, "
            f"{column(game, 'updated')} = %s WHERE {column(game, 'id')} = %s"
        ),
        "insert_move": (
            f"INSERT INTO {quote(move.db_table)} "
            f"({', '.join(column(move, name) for name in move_fields)}) "
            f"VALUES ({', '.join(['%s'] * len(move_fields))})"
        ),
    }


class GameManager(models.Manager["Game"]):
    def _fetch_one(self, name: str, params: list[object], alias: str) -> tuple | None:
        with connections[alias].cursor() as cursor:
            cursor.execute(_statements(alias)[name], params)
            return cursor.fetchone()

    def _write(self, name: str, rows: list[list[object]]) -> None:
        alias = router.db_for_write(self.model)
        with connections[alias].cursor() as cursor:
            cursor.executemany(_statements(alias)[name], rows)

    def revision_of(self, public_id: str) -> int | None:
        """The game's revision, or None if there is no such game: one indexed read."""
        row = self._fetch_one("revision", [public_id], router.db_for_read(self.model))
        return None if row is None else row[0]

    def locked(self, public_id: str) -> Game | None:
        """The game, its row locked until the transaction ends (FOR UPDATE where the
        database has it; SQLite's IMMEDIATE transactions already hold the write lock)."""
        row = self._fetch_one("locked", [public_id], router.db_for_write(self.model))
        if row is None:
            return None
        fields = [f.attname for f in self.model._meta.concrete_fields]
        return self.model.from_db(router.db_for_write(self.model), fields, row)

    def save_position(self, game: Game) -> None:
        """Write the cached position fields of a game and advance its revision."""
        connection = connections[router.db_for_write(self.model)]
        game.updated = timezone.now()
        updated = self.model._meta.get_field("updated").get_db_prep_value(game.updated, connection)
        self._write(
            "save_position",
            [[*(getattr(game, name) for name in POSITION_FIELDS), updated, game.pk]],
        )
        game.revision += 1

    def insert_moves(self, game: Game, moves: list[tuple[int, str, str]]) -> None:
        """Append (ply, colour, notation) rows to a game's log; a taken ply raises
        IntegrityError (the unique constraint)."""
        connection = connections[router.db_for_write(Move)]
        created = Move._meta.get_field("created").get_db_prep_value(timezone.now(), connection)
        self._write(
            "insert_move",
            [[game.pk, ply, notation, color, created] for ply, color, notation in moves],
        )


class Game(models.Model):
    """One game: its options, its seats, and a cache of its current position."""

    class Mode(models.TextChoices):
        HOTSEAT = "hotseat", "Hot-seat"
        FRIEND = "friend", "Play a friend"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a player"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    class Result(models.TextChoices):
        DARK = "dark", "Dark wins"
        LIGHT = "light", "Light wins"
        TIE = "tie", "Tie"

    class Scoring(models.TextChoices):
        STANDARD = "standard", "Standard"
        SIMPLE = "simple", "Simple"

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    mode = models.CharField(max_length=8, choices=Mode.choices)
    special_stones = models.BooleanField(default=True)
    scoring = models.CharField(max_length=8, choices=Scoring.choices, default=Scoring.STANDARD)
    wraparound = models.BooleanField(default=False)

    dark_seat = models.CharField(max_length=64, blank=True, help_text="hash of the seat token")
    light_seat = models.CharField(max_length=64, blank=True, help_text="hash of the seat token")
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    result = models.CharField(max_length=5, choices=Result.choices, blank=True)
    resigned = models.CharField(
        max_length=5, choices=[(c.value, c.value) for c in Color], blank=True
    )

    # Cache of the position the move log leads to, rewritten with every move.
    ply = models.PositiveIntegerField(default=0)
    turn = models.CharField(max_length=5, blank=True)
    position_text = models.CharField(max_length=80)
    dark_score = models.PositiveIntegerField(default=0)
    light_score = models.PositiveIntegerField(default=0)
    record_text = models.TextField(blank=True, help_text="the moves' notation, one per line")
    # Bumped by every change a watching page must show (move, join, resign,
    # rematch): the live poll compares it with the page's and answers 204.
    revision = models.PositiveIntegerField(default=0)

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GameManager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Game {self.public_id}"

    @property
    def rules(self) -> Rules:
        """The engine's rules value for this game's options."""
        return Rules(
            special_stones=self.special_stones, scoring=self.scoring, wraparound=self.wraparound
        )

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED

    def move_log(self) -> list[tuple[int, str, str]]:
        """The moves as (ply, colour, notation), in order, from the cached record."""
        notations = self.record_text.split("\n") if self.record_text else []
        return [
            (ply, "dark" if ply % 2 else "light", notation)
            for ply, notation in enumerate(notations, start=1)
        ]

    def records(self) -> list[str]:
        """The move log (the truth, read from the Move rows), in notation, in order."""
        return list(self.moves.order_by("ply").values_list("notation", flat=True))

    def seat_hash(self, color: Color | str) -> str:
        return self.dark_seat if Color(color) is Color.DARK else self.light_seat

    def holds_seat(self, color: Color | str, token: str | None) -> bool:
        """True if ``token`` is the secret of ``color``'s seat."""
        stored = self.seat_hash(color)
        return bool(token and stored) and secrets.compare_digest(stored, hash_token(token))


class Move(models.Model):
    """One move of a game's log, in the rules' notation (thunder moves with removals)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    notation = models.CharField(max_length=32)
    color = models.CharField(max_length=5, choices=[(c.value, c.value) for c in Color])
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="one_move_per_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.notation}"
