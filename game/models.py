"""Saved games. The move log is the truth; the fields on ``Game`` are a cache of it."""

from __future__ import annotations

import hashlib
import secrets

from django.db import connections, models, router

from game.engine import Color, Position, Rules


def new_public_id() -> str:
    """A short, unguessable id for URLs: 12 URL-safe characters, 72 random bits."""
    return secrets.token_urlsafe(9)


def new_seat_token() -> str:
    """A seat's secret: 192 random bits. Only its hash is stored."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class GameManager(models.Manager["Game"]):
    _revision_sql: dict[str, str] = {}

    def revision_of(self, public_id: str) -> int | None:
        """The game's revision, or None if there is no such game: one indexed read.

        The live poll asks this of every watching browser every second, so it skips
        the ORM's query building, which would cost more than the query itself.
        """
        alias = router.db_for_read(self.model)
        connection = connections[alias]
        sql = self._revision_sql.get(alias)
        if sql is None:
            quote = connection.ops.quote_name
            meta = self.model._meta
            sql = self._revision_sql[alias] = (
                f"SELECT {quote(meta.get_field('revision').column)} FROM {quote(meta.db_table)} "
                f"WHERE {quote(meta.get_field('public_id').column)} = %s"
            )
        with connection.cursor() as cursor:
            cursor.execute(sql, [public_id])
            row = cursor.fetchone()
        return None if row is None else row[0]


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
        """The moves as (ply, colour, notation), in order; read once per instance."""
        log = self.__dict__.get("_move_log")
        if log is None:
            log = list(self.moves.order_by("ply").values_list("ply", "color", "notation"))
            self.__dict__["_move_log"] = log
        return log

    def log_moves(self, moves: list[tuple[int, str, str]]) -> None:
        """Note moves just written, so the page drawn next needs no second read."""
        self.move_log().extend(moves)

    def refresh_from_db(self, *args: object, **kwargs: object) -> None:
        self.__dict__.pop("_move_log", None)
        super().refresh_from_db(*args, **kwargs)

    def records(self) -> list[str]:
        """The move log, in notation, in order."""
        return [notation for _, _, notation in self.move_log()]

    def position(self) -> Position:
        """Replay the move log: the position the game is in."""
        return Position.replay(self.rules, self.records())

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
