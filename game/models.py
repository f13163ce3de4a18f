"""Saved games. The move log is the truth; the fields on ``Game`` are a cache of it."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from functools import cache

from django.db import connections, models, router, transaction
from django.db.models import Q

from game.engine import Color, Position, Rules

# The PostgreSQL channel on which every change of a game is announced (game.live).
NEWS_CHANNEL = "maerstanas_news"
# Called after each commit that changed a game, in the process that made it: the
# live pages' newsroom (game.live) looks at once instead of at its next round.
after_change: list[Callable[[], None]] = []


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
    """Hand-tuned statements for the two hottest requests; everything else is plain ORM.

    Every watching page polls each second and every move reads its game under a
    lock. Django builds a query in Python each time it runs one, and for these two
    that costs more than the rest of the request: ``values_list(...).get()`` takes
    105 µs of CPU against 12 µs for the statement below, and the 204 poll of
    ``make bench-web`` went from 1.05× to 1.5× the cost of the cheapest request;
    ``select_for_update().get()`` takes 180 µs against 22 µs, and a move's whole
    budget is about 1.7 ms. A move's write of the game row is the third:
    ``save(update_fields=...)`` takes 158 µs against 37 µs, and with it the move of
    ``make bench-web`` cost 4.0-4.1× the floor against 3.2-3.5× before the writes
    moved to the ORM (the limit is 15% worse). The statements are built once from
    the model's metadata, so they follow its fields, and the values go through each
    field's own ``pre_save`` and ``get_db_prep_save`` as ``save()`` sends them.
    """

    def revision_of(self, public_id: str) -> int | None:
        """The game's revision, or None if there is no such game: one indexed read."""
        row = self._fetch_one(_revision_sql(self.db), public_id)
        return None if row is None else row[0]

    def locked(self, public_id: str) -> Game | None:
        """The game, its row locked until the transaction ends: ``FOR UPDATE`` where the
        database has it; on SQLite the site's IMMEDIATE transactions already hold the
        write lock from their start (settings.py)."""
        alias = router.db_for_write(self.model)
        row = self._fetch_one(_locked_sql(alias), public_id, alias)
        if row is None:
            return None
        names = [field.attname for field in self.model._meta.concrete_fields]
        return self.model.from_db(alias, names, row)

    def write(self, game: Game, fields: tuple[str, ...]) -> None:
        """Save ``fields`` of ``game``, as ``game.save(update_fields=fields)`` would,
        minus the signals (the site has no receivers); on PostgreSQL, announce the
        change to the streams that watch the game (game.live)."""
        alias = router.db_for_write(self.model)
        connection = connections[alias]
        values = [
            field.get_db_prep_save(field.pre_save(game, add=False), connection)
            for field in map(self.model._meta.get_field, fields)
        ]
        with connection.cursor() as cursor:
            cursor.execute(_update_sql(alias, fields), [*values, game.pk])
            if connection.vendor == "postgresql":
                # Delivered to every listening server when the transaction commits.
                over = "1" if game.is_over else "0"
                payload = f"{game.public_id} {game.revision} {game.ply} {over}"
                cursor.execute("SELECT pg_notify(%s, %s)", [NEWS_CHANNEL, payload])
        for listener in after_change:
            transaction.on_commit(listener, using=alias)

    def _fetch_one(self, sql: str, public_id: str, alias: str | None = None) -> tuple | None:
        with connections[alias or self.db].cursor() as cursor:
            cursor.execute(sql, [public_id])
            return cursor.fetchone()


@cache
def _revision_sql(alias: str) -> str:
    """``GameManager.revision_of``'s statement, on one database."""
    quote = connections[alias].ops.quote_name
    meta = Game._meta
    return (
        f"SELECT {quote(meta.get_field('revision').column)} FROM {quote(meta.db_table)} "
        f"WHERE {quote(meta.get_field('public_id').column)} = %s"
    )


@cache
def _locked_sql(alias: str) -> str:
    """``GameManager.locked``'s statement, on one database."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = Game._meta
    columns = ", ".join(quote(field.column) for field in meta.concrete_fields)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {columns} FROM {quote(meta.db_table)} "
        f"WHERE {quote(meta.get_field('public_id').column)} = %s{lock}"
    )


@cache
def _update_sql(alias: str, fields: tuple[str, ...]) -> str:
    """``GameManager.write``'s statement for these fields, on one database."""
    quote = connections[alias].ops.quote_name
    meta = Game._meta
    assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


class Game(models.Model):
    """One game: its options, its seats, and a cache of its current position."""

    class Mode(models.TextChoices):
        HOTSEAT = "hotseat", "Hot-seat"
        FRIEND = "friend", "Play a friend"
        COMPUTER = "computer", "Play the computer"
        # A record brought in through /import/: nobody holds its seats; it is replayed,
        # and continued as a new game from any of its moves.
        IMPORTED = "imported", "Imported record"

    class Status(models.TextChoices):
        """Where a game is; every value after ``ACTIVE`` is a way it ended."""

        WAITING = "waiting", "Waiting for a player"
        ACTIVE = "active", "In play"
        NO_MOVES = "no-moves", "Neither side can move"
        RESIGNED = "resigned", "Resigned"

    # The statuses of a game that has ended, and so has a result.
    ENDED = (Status.NO_MOVES, Status.RESIGNED)

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
    # A seat the computer holds names its level (game.bots); a person's seat has a token.
    dark_level = models.CharField(max_length=16, blank=True)
    light_level = models.CharField(max_length=16, blank=True)
    # The position text the game started from; "" for the empty board.
    start_text = models.CharField(max_length=80, blank=True)
    # For an imported record, its tags (names, date, event) as read, so that an
    # export gives them back.
    tags = models.JSONField(default=dict, blank=True)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    result = models.CharField(max_length=5, choices=Result.choices, blank=True)

    # Cache of the position the move log leads to, rewritten with every move.
    ply = models.PositiveIntegerField(default=0)
    turn = models.CharField(max_length=5, blank=True, help_text="empty once the game has ended")
    position_text = models.CharField(max_length=80)
    dark_score = models.PositiveIntegerField(default=0)
    light_score = models.PositiveIntegerField(default=0)
    record_text = models.TextField(blank=True, help_text="the moves' notation, one per line")
    # Advanced by every change a watching page must show (move, join, end, rematch):
    # the live poll compares it with the page's and answers 204 while they agree.
    revision = models.PositiveIntegerField(default=0)
    # A hint asked for at ``hint_ply``: the strongest level's move, empty while it is
    # being thought out. It stands only while the game is at that ply.
    hint_ply = models.PositiveIntegerField(null=True, blank=True)
    hint = models.CharField(max_length=32, blank=True)
    # In a friend game, the side that asks to take back its last move, until the
    # other side answers; "" when nobody asks.
    takeback_by = models.CharField(max_length=5, blank=True)

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True, db_index=True)  # newsroom, pruning

    objects = GameManager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            # A game has a result exactly when it has ended.
            models.CheckConstraint(
                condition=Q(
                    status__in=["no-moves", "resigned"], result__in=["dark", "light", "tie"]
                )
                | (~Q(status__in=["no-moves", "resigned"]) & Q(result="")),
                name="result_when_ended",
            ),
            # The computer holds exactly one seat of a game against it, and none of others.
            models.CheckConstraint(
                condition=Q(mode="computer", dark_level="", light_level__gt="")
                | Q(mode="computer", dark_level__gt="", light_level="")
                | (~Q(mode="computer") & Q(dark_level="", light_level="")),
                name="computer_holds_one_seat",
            ),
        ]

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
        return self.status in self.ENDED

    @property
    def end(self) -> str | None:
        """Why the game ended (``"no-moves"``, ``"resigned"``), or None while it goes on."""
        return self.status if self.is_over else None

    @property
    def loser(self) -> str:
        """The side that gave the game up (resigned), or ""."""
        if self.status == self.Status.RESIGNED:
            return Color(self.result).opponent.value
        return ""

    def level_of(self, color: Color | str) -> str:
        """The computer level holding ``color``'s seat, or "" for a person."""
        return self.dark_level if Color(color) is Color.DARK else self.light_level

    @property
    def players(self) -> dict[str, dict[str, str]]:
        """Who holds each seat, by colour: ``{"kind": "human"}`` or the computer's level."""
        return {
            color.value: {"kind": "computer", "level": level}
            if (level := self.level_of(color))
            else {"kind": "human"}
            for color in Color
        }

    @property
    def computer_to_move(self) -> str:
        """The level that must move now, or "" when a person is to move or none is."""
        if self.status != self.Status.ACTIVE or not self.turn:
            return ""
        return self.level_of(self.turn)

    @property
    def hint_asked(self) -> bool:
        """True when a hint was asked for in the current position."""
        return self.hint_ply is not None and self.hint_ply == self.ply and not self.is_over

    def cached_record(self) -> list[str]:
        """The moves' notation from the cache on this row (no query)."""
        return self.record_text.split("\n") if self.record_text else []

    def logged_record(self) -> list[str]:
        """The moves' notation from the move log, the truth (one query); moves taken
        back stay in the log, marked, and are left out."""
        moves = self.moves.filter(taken_back=None).order_by("ply")
        return list(moves.values_list("notation", flat=True))

    def start(self) -> Position:
        """The position the game started from."""
        if self.start_text:
            return Position.from_text(self.start_text, self.rules)
        return Position.start(self.rules)

    def position(self, ply: int | None = None) -> Position:
        """The position after ``ply`` moves (the current one by default), with the moves
        that led to it (replayed from the cache)."""
        record = self.cached_record()
        if ply is not None:
            record = record[:ply]
        return Position.replay(self.rules, record, self.start())

    def cache_position(self, position: Position, added: Sequence[str] = ()) -> list[str]:
        """Copy ``position`` onto the cached fields and return their names; ``added`` is
        the record of the moves that led to it from the cached position. How the game
        ends is ``play.finish``'s business, not this one's."""
        self.ply += len(added)
        self.turn = position.turn.value
        self.position_text = position.to_text()
        self.dark_score, self.light_score = position.score()
        self.record_text = "\n".join([*self.cached_record(), *added])
        return ["ply", "turn", "position_text", "dark_score", "light_score", "record_text"]

    def save_change(self, *fields: str) -> None:
        """Save ``fields`` and advance the revision that watching pages wait on.

        Call it with the row locked (``GameManager.locked``): the revision read with
        the row is then the stored one, so it is counted up here rather than with an
        ``F()`` expression, which would cost a move 100 µs more.
        """
        self.revision += 1
        Game.objects.write(self, tuple(dict.fromkeys([*fields, "revision", "updated"])))

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
    # When the move was taken back: it stays in the log, out of the game's record.
    taken_back = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "ply"],
                condition=Q(taken_back=None),
                name="one_move_per_ply",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.notation}"


class BrowserGame(models.Model):
    """A game this browser played or made, for its "My games" list (``/games/``).

    A browser is known by a long-lived signed cookie holding a random id
    (``game.seats``); the list is kept here, so it is not capped by a cookie's size.
    """

    browser = models.CharField(max_length=32, help_text="the browser's random id")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="browsers")
    colors = models.CharField(max_length=10, blank=True, help_text="the seats it holds")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["browser", "game"], name="one_entry_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.browser}: {self.game.public_id}"


class Analysis(models.Model):
    """The strongest level's view of one position, worked out by a worker: its move,
    the line it expects and dark's chances. Keyed by the rules and the position
    text, so every game and board that reaches the position shares it."""

    key = models.CharField(max_length=100, unique=True, help_text="rules and position text")
    move = models.CharField(max_length=32, blank=True)
    line = models.CharField(max_length=400, blank=True, help_text="moves, comma-separated")
    dark_win = models.FloatField(null=True, blank=True)
    proven = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "analyses"

    def __str__(self) -> str:
        return self.key

    @property
    def done(self) -> bool:
        return self.dark_win is not None


class RateCount(models.Model):
    """How many requests of one kind one client made in one window of time (game.limits)."""

    key = models.CharField(max_length=100, unique=True, help_text="kind:client:window")
    count = models.PositiveIntegerField(default=1)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
