"""Saved games. The move log is the truth; the fields on ``Game`` are a cache of it.

A game is of a kind (``Game.kind``, a name of ``game.registry``), whose options it
keeps as the kind's codec writes them (``Game.options``); its two sides are held
by ``Seat`` rows. Nothing here knows the rules of any game: it asks the kind.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q

from game import people
from game.kinds import GameKind
from game.managers import GameManager, SeatManager
from game.options import Options
from game.position_cache import PositionCache
from game.registry import KINDS, find_kind, stored_rules
from game.results import SidesAndResult
from game.sides import NO_WINNER
from game.surface import (
    Color,
)
from game.tokens import account_token, hash_token, new_public_id


def status_choices() -> list[tuple[str, str]]:
    """Where a game may be: waiting, in play, or one of the ways it ended, those of
    every kind's rules included."""
    # An end two kinds share keeps the first kind's words.
    ends = {end: words for kind in reversed(KINDS.values()) for end, words in kind.ends.items()}
    return [*Game.Status.choices, *ends.items()]


class Game(PositionCache, SidesAndResult, models.Model):
    """One game: its kind and options, its status, and a cache of its current position."""

    class Mode(models.TextChoices):
        HOTSEAT = "hotseat", "Hot-seat"
        FRIEND = "friend", "Play a friend"
        COMPUTER = "computer", "Play the computer"
        # A record brought in through /import/: nobody holds its seats; it is replayed,
        # and continued as a new game from any of its moves.
        IMPORTED = "imported", "Imported record"

    class Status(models.TextChoices):
        """Where a game is, whatever its kind: before and in play, and the ways any
        game ends outside its rules. The ends its rules give are the kind's own
        (``GameKind.ends``: Mǽrstánas's ``no-moves``); ``status_choices`` lists all."""

        WAITING = "waiting", "Waiting for a player"
        ACTIVE = "active", "In play"
        RESIGNED = "resigned", "Resigned"
        # The side to move ran out of time (``game.clocks``): the other side wins.
        TIMEOUT = "timeout", "Out of time"
        # A side of a game with a clock made no first move in time: nobody wins,
        # and it is not rated.
        ABORTED = "aborted", "Aborted"

    # The statuses of a game that has not ended; every other status is an end.
    GOING_ON = (Status.WAITING, Status.ACTIVE)

    # The ends outside any kind's rules (the kind's own are ``GameKind.ends``).
    OTHER_ENDS = (Status.RESIGNED, Status.TIMEOUT, Status.ABORTED)

    class Speed(models.TextChoices):
        """How long a side may think (``game.clocks``)."""

        UNLIMITED = "unlimited", "Unlimited"
        # Fischer clocks: ``clock_initial`` each, ``clock_increment`` added per move.
        LIVE = "live", "Live"
        # ``days`` for each move.
        CORRESPONDENCE = "correspondence", "Correspondence"

    class Result(models.TextChoices):
        """Who won, stored alike for every kind: a seat, or nobody. Each kind names a
        game nobody won in its own word (``GameKind.sides.no_winner``: Mǽrstánas's tie,
        Cyngesheall's draw), which its pages, records and API answers say
        (``Game.result_word``), so a new game's word needs no migration."""

        DARK = "dark", "Dark wins"
        LIGHT = "light", "Light wins"
        NO_WINNER = NO_WINNER, "Nobody wins"

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=16, default="maerstanas", help_text="game.registry's name")
    mode = models.CharField(max_length=8, choices=Mode.choices)
    # A friend game between two accounts that changes their ratings when it ends.
    rated = models.BooleanField(default=False)
    # The kind's options, as its codec writes them for JSON (``Options.to_mapping``).
    options = models.JSONField(default=dict, blank=True)

    # The position text the game started from; "" for the empty board. Texts, not
    # bounded strings: a game's board may be of any size its rules allow.
    start_text = models.TextField(blank=True)
    # For an imported record, its tags (names, date, event) as read, so that an
    # export gives them back; for a tournament's game, its event and round.
    tags = models.JSONField(default=dict, blank=True)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    status = models.CharField(max_length=16, choices=status_choices, default=Status.ACTIVE)
    result = models.CharField(max_length=5, choices=Result.choices, blank=True)

    # Cache of the position the move log leads to, rewritten with every move.
    ply = models.PositiveIntegerField(default=0)
    turn = models.CharField(max_length=5, blank=True, help_text="empty once the game has ended")
    position_text = models.TextField()
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
    # The ply of the move whose takeback the friend declined last: that move may not
    # be asked for again (its player's next move may be); None when none was declined.
    takeback_declined_ply = models.PositiveIntegerField(null=True, blank=True)
    # How many times the invite link was renewed: each gives another code.
    invite_version = models.PositiveSmallIntegerField(default=0)

    # Time (``game.clocks``, the only authority on it): the speed and its terms,
    # each side's time left when the side to move got the turn (``turn_started``),
    # and when the side to move runs out, which a task is set for.
    speed = models.CharField(max_length=14, choices=Speed.choices, default=Speed.UNLIMITED)
    clock_initial = models.PositiveIntegerField(default=0, help_text="seconds each, live")
    clock_increment = models.PositiveSmallIntegerField(default=0, help_text="seconds per move")
    days = models.PositiveSmallIntegerField(default=0, help_text="days per move, correspondence")
    dark_ms = models.BigIntegerField(null=True, blank=True)
    light_ms = models.BigIntegerField(null=True, blank=True)
    turn_started = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True, db_index=True)  # newsroom, pruning

    objects = GameManager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            # A game has a result exactly when it has ended, unless it was aborted.
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "active", "aborted"], result="")
                | (
                    ~Q(status__in=["waiting", "active", "aborted"])
                    & Q(result__in=["dark", "light", "even"])
                ),
                name="result_when_ended",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.public_id}"

    def refresh_from_db(self, *args: object, **kwargs: object) -> None:
        """Reload the row, and forget the seats and position read with the old one."""
        self.__dict__.pop("_seats", None)
        # The position is cached with everything it is made of (``position``), so a
        # stale one is never handed out: dropping it only lets it go sooner.
        self.__dict__.pop("_position", None)  # pragma: no mutate
        super().refresh_from_db(*args, **kwargs)

    # The kind and its rules --------------------------------------------------------

    @property
    def game_kind(self) -> GameKind:
        """The kind of game this is (``game.registry``)."""
        return find_kind(self.kind)

    @property
    def rules(self) -> Options:
        """The options value of this game's kind (Mǽrstánas's ``Rules``)."""
        return stored_rules(self.kind, tuple(sorted(self.options.items())))

    @rules.setter
    def rules(self, rules: Options) -> None:
        self.options = rules.to_mapping()

    @property
    def is_over(self) -> bool:
        return self.status not in self.GOING_ON

    @property
    def end(self) -> str | None:
        """Why the game ended (``"no-moves"``, ``"resigned"``), or None while it goes on."""
        return self.status if self.is_over else None

    @property
    def abortable(self) -> bool:
        """A game between people that counts for something (rated, or timed) and in
        which a side has yet to move: giving it up aborts it, as on lichess, rather than
        losing it (nobody wins, it is not rated). A tournament's game (its record
        names its ``Event``) is not: giving it up loses it, as in lichess's events."""
        return (
            self.mode == self.Mode.FRIEND
            and (self.rated or self.speed != self.Speed.UNLIMITED)
            and self.status == self.Status.ACTIVE
            and self.ply < 2
            and "Event" not in self.tags
        )

    @property
    def loser(self) -> str:
        """The side that gave the game up (resigned), or ""."""
        if self.status == self.Status.RESIGNED:
            return Color(self.result).opponent.value
        return ""

    # Seats -------------------------------------------------------------------------

    def seats_by_color(self) -> dict[str, Seat]:
        """Who holds each side, by colour: one query (none once read, or prefetched
        with ``prefetch_related("seats")``). A free side has no row."""
        cached = getattr(self, "_seats", None)
        if cached is None:
            prefetched = getattr(self, "_prefetched_objects_cache", {}).get("seats")
            seats = Seat.objects.of_game(self) if prefetched is None else prefetched
            cached = self._seats = {seat.color: seat for seat in seats}
        return cached

    def seat(self, color: Color | str) -> Seat | None:
        """The seat of ``color``, or None while nobody holds it."""
        return self.seats_by_color().get(Color(color).value)

    def took_seats(self, seats: Iterable[Seat], new: bool = False) -> None:
        """Note seats saved for this game since its seats were read; ``new``: the game
        has just been made, and these are all it has."""
        held = {} if new else self.seats_by_color()
        held.update((seat.color, seat) for seat in seats)
        self._seats = held

    def free_seat(self) -> str | None:
        """The colour nobody holds yet, if any."""
        held = self.seats_by_color()
        return next((color.value for color in Color if color.value not in held), None)

    def seat_hash(self, color: Color | str) -> str:
        """The stored hash of ``color``'s seat token; "" for the computer or nobody."""
        seat = self.seat(color)
        return seat.token_hash if seat else ""

    def holds_seat(self, color: Color | str, token: str | None) -> bool:
        """True if ``token`` is the secret of ``color``'s seat, or the token of the
        account that holds it (``account_token``)."""
        seat = self.seat(color)
        if not token or seat is None or not seat.token_hash:
            return False
        if seat.user_id is not None and token.startswith("a-"):
            own = account_token(seat.user_id, self.public_id, seat.color)
            if secrets.compare_digest(own, token):
                return True
        return secrets.compare_digest(seat.token_hash, hash_token(token))

    def level_of(self, color: Color | str) -> str:
        """The computer level holding ``color``'s seat, or "" for a person or nobody."""
        seat = self.seat(color)
        return seat.level if seat else ""

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
    def rating_family(self) -> str:
        """The ratings this game counts in, should it be rated: its kind's name and the
        kind's family of its options (``maerstanas-standard``, ``maerstanas-wraparound``)."""
        return f"{self.kind}-{self.game_kind.rating_family(self.rules)}"

    def people(self) -> dict[str, dict[str, Any]]:
        """The people holding the seats, by colour, as ``people.Shown.fields`` gives
        them ("deleted player" for a rated game's account deleted since), and once a
        rated game is over, its ``change``. A side the computer holds, or nobody yet,
        is not among them. Two queries at most past the seats: the ratings, the changes."""
        return {color: person.fields() | extra for color, (person, extra) in self._people().items()}

    def _people(self) -> dict[str, tuple[people.Shown, dict[str, float]]]:
        changes = {}
        if self.rated and self.is_over:
            changes = {change.color: change for change in self.rating_changes.all()}
        seats = {color: seat for color, seat in self.seats_by_color().items() if not seat.level}
        family = self.rating_family
        _read_users(seats.values())
        ratings = people.ratings_of((s.user_id for s in seats.values() if s.user_id), [family])
        shown = {}
        for color, seat in seats.items():
            change = changes.get(color)
            if seat.user is not None:
                person = people.of_account(seat.user, ratings.get((seat.user_id, family)))
            elif change is not None:  # a rated game's guest seat: an account deleted since
                person = people.Shown(people.DELETED)
            else:
                person = people.of_guest(seat.guest_name)
            extra = {} if change is None else {"change": change.after - change.before}
            shown[color] = (person, extra)
        return shown

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


class Seat(models.Model):
    """Who holds one side of a game: a person, by the hash of the secret token their
    browser or program holds, or the computer, by its level. A side nobody holds
    yet (a friend game's before the friend joins) has no row."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    color = models.CharField(max_length=5, choices=[(c.value, c.value) for c in Color])
    token_hash = models.CharField(max_length=64, blank=True, help_text="hash of the seat token")
    level = models.CharField(max_length=16, blank=True, help_text="the computer's level")
    # The account of the person holding the seat, if they have one: a deleted account
    # leaves its games, their seats held by nobody's account.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    # The name a guest gave themselves (players: kept in their session), which the
    # opponent and watchers see, marked as a guest's.
    guest_name = models.CharField(max_length=20, blank=True)

    objects = SeatManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "color"], name="one_seat_per_side"),
            # A person or the computer, never both, never neither.
            models.CheckConstraint(
                condition=(Q(token_hash__gt="") & Q(level=""))
                | (Q(token_hash="") & Q(level__gt="")),
                name="seat_held_by_one",
            ),
        ]
        indexes = [
            # The computer's seats, for the worker's recovery (computer.recover).
            models.Index(fields=["level"], condition=Q(level__gt=""), name="computer_seats"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.color}: {self.level or 'a person'}"

    @classmethod
    def person(cls, game: Game, color: Color | str, token: str, user: Any = None) -> Seat:
        """An unsaved seat for whoever holds ``token`` (and ``user``'s, an account)."""
        return cls(game=game, color=Color(color).value, token_hash=hash_token(token), user=user)

    @classmethod
    def computer(cls, game: Game, color: Color | str, level: str) -> Seat:
        """An unsaved seat for the computer at ``level``."""
        return cls(game=game, color=Color(color).value, level=level)


class Move(models.Model):
    """One move of a game's log, in the rules' notation (thunder moves with removals)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    notation = models.TextField()
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

    browser = models.CharField(
        max_length=32, help_text="the browser's random id, or account:<id> for an account's"
    )
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
    the line it expects and dark's chances. Keyed by the kind of game, its options
    and the position text, so every game and board that reaches it shares it."""

    kind = models.CharField(max_length=16, default="maerstanas", help_text="game.registry's name")
    key = models.TextField(help_text="the rules' flags and the position text")
    move = models.CharField(max_length=32, blank=True)
    line = models.TextField(blank=True, help_text="moves, comma-separated")
    dark_win = models.FloatField(null=True, blank=True)
    proven = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "analyses"
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="one_analysis_per_position"),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def done(self) -> bool:
        return self.dark_win is not None


def _read_users(seats: Iterable[Seat]) -> None:
    """Read the accounts of ``seats`` (with whether a program plays them) in one query,
    unless they were read with the seats already."""
    unread = [seat for seat in seats if seat.user_id and not Seat.user.is_cached(seat)]
    if unread:
        users = get_user_model().objects.select_related("account")
        found = users.in_bulk({seat.user_id for seat in unread})
        for seat in unread:
            seat.user = found.get(seat.user_id)
