"""The managers of ``Game`` and ``Seat``: the hand-tuned statements of the hottest
requests, and the seats' named queries, which every app asks instead of filtering
``Seat.objects`` itself."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from django.db import connections, models, router
from django.db.models import F, OuterRef
from django.db.models.signals import post_save, pre_save

from game.tokens import hash_token


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
    field's own ``pre_save`` and ``get_db_prep_save`` as ``save()`` sends them, with
    the same signals.
    """

    def revision_of(self, public_id: str) -> int | None:
        """The game's revision, or None if there is no such game: one indexed read."""
        row = self._fetch_one(_revision_sql(self.model, self.db), public_id)
        return None if row is None else row[0]

    def locked(self, public_id: str) -> models.Model | None:
        """The game, its row locked until the transaction ends: ``FOR UPDATE`` where the
        database has it; on SQLite the site's IMMEDIATE transactions already hold the
        write lock from their start (settings.py)."""
        # The site has one database: any alias, or none, routes to it.
        alias = router.db_for_write(self.model)  # pragma: no mutate
        row = self._fetch_one(_locked_sql(self.model, alias), public_id, alias)  # pragma: no mutate
        if row is None:
            return None
        # The values as the ORM hands them over: JSON read, dates and flags converted.
        connection = connections[alias]
        values = list(row)
        for index, column, converters in _converters(self.model, alias):
            for converter in converters:
                values[index] = converter(values[index], column, connection)
        # from_db reads the names only when some columns are missing (all are read),
        # and its alias is checked by test_models.
        names = [field.attname for field in self.model._meta.concrete_fields]  # pragma: no mutate
        return self.model.from_db(alias, names, values)  # pragma: no mutate

    def write(self, game: models.Model, fields: tuple[str, ...]) -> None:
        """Save ``fields`` of ``game`` as ``game.save(update_fields=fields)`` does,
        ``pre_save`` and ``post_save`` included."""
        alias = router.db_for_write(self.model)  # pragma: no mutate (one database, as above)
        connection = connections[alias]
        update_fields = frozenset(fields)
        meta = dict(sender=self.model, instance=game, raw=False, using=alias)
        pre_save.send(**meta, update_fields=update_fields)
        values = [
            # ``add`` matters to auto_now_add fields only, and a change never writes one.
            field.get_db_prep_save(field.pre_save(game, add=False), connection)  # pragma: no mutate
            for field in map(self.model._meta.get_field, fields)
        ]
        with connection.cursor() as cursor:
            cursor.execute(_update_sql(self.model, alias, fields), [*values, game.pk])
        post_save.send(**meta, created=False, update_fields=update_fields)

    def _fetch_one(self, sql: str, public_id: str, alias: str | None = None) -> tuple | None:
        with connections[alias or self.db].cursor() as cursor:
            cursor.execute(sql, [public_id])
            return cursor.fetchone()


@cache
def _revision_sql(model: type[models.Model], alias: str) -> str:
    """``GameManager.revision_of``'s statement, on one database."""
    quote = connections[alias].ops.quote_name
    meta = model._meta
    return (
        f"SELECT {quote(meta.get_field('revision').column)} FROM {quote(meta.db_table)} "
        f"WHERE {quote(meta.get_field('public_id').column)} = %s"
    )


@cache
def _converters(model: type[models.Model], alias: str) -> list[tuple[int, object, list]]:
    """For each column of ``GameManager.locked``'s row that the ORM converts (JSON,
    dates on SQLite…): its index, its column and the converters, as a query applies them."""
    connection = connections[alias]
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if converters:
            found.append((index, column, converters))
    return found


@cache
def _locked_sql(model: type[models.Model], alias: str) -> str:
    """``GameManager.locked``'s statement, on one database."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = model._meta
    columns = ", ".join(quote(field.column) for field in meta.concrete_fields)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {columns} FROM {quote(meta.db_table)} "
        f"WHERE {quote(meta.get_field('public_id').column)} = %s{lock}"
    )


@cache
def _update_sql(model: type[models.Model], alias: str, fields: tuple[str, ...]) -> str:
    """``GameManager.write``'s statement for these fields, on one database."""
    quote = connections[alias].ops.quote_name
    meta = model._meta
    assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


class SeatQuerySet(models.QuerySet):
    """The questions asked of seats, each by its name: whose they are, in which games,
    held by which tokens; the computer's; and, in a query over games, each game's."""

    def of(self, game: models.Model) -> SeatQuerySet:
        """The seats of ``game``."""
        return self.filter(game=game)

    def in_game(self, public_id: str) -> SeatQuerySet:
        """The seats of the game whose public id is ``public_id``."""
        return self.filter(game__public_id=public_id)

    def side(self, color: str) -> SeatQuerySet:
        """The seats of ``color``'s side."""
        return self.filter(color=color)

    def held_by(self, user: Any) -> SeatQuerySet:
        """The seats the account ``user`` (an account or its id) holds."""
        return self.filter(user=user)

    def unclaimed(self, tokens: Iterable[str]) -> SeatQuerySet:
        """The seats these tokens hold that no account holds yet."""
        return self.filter(token_hash__in=[hash_token(token) for token in tokens], user=None)

    def going_on(self) -> SeatQuerySet:
        """The seats of games that have not ended."""
        return self.filter(game__status__in=self._game().GOING_ON)

    def computers(self) -> SeatQuerySet:
        """The seats the computer holds."""
        # A person's seat has no level, and every level's id is lowercase: above ""
        # as it is above any word in capitals.
        return self.filter(level__gt="")  # pragma: no mutate

    def at_level(self, level: str) -> SeatQuerySet:
        """The seats the computer holds at ``level``."""
        return self.filter(level=level)

    def computers_to_move(self) -> SeatQuerySet:
        """The computer's seats of the games it is to move in: the side to move is its."""
        # A game that ended has no turn (play.finish), and a game against the computer
        # never waits for a player: the colour alone leaves only these.
        active = self._game().Status.ACTIVE
        return self.computers().filter(
            game__status=active,  # pragma: no mutate
            color=F("game__turn"),
        )

    def of_each_game(self) -> SeatQuerySet:
        """In a subquery over games: the seats of each game."""
        return self.filter(game=OuterRef("pk"))

    def not_to_move(self) -> SeatQuerySet:
        """In a subquery over games: the seat of the side not to move in each game, the
        opponent of whoever is."""
        return self.of_each_game().exclude(color=OuterRef("turn"))

    def _game(self) -> Any:
        """The model of games (``Game``), which models.py defines and imports this from."""
        return self.model._meta.get_field("game").related_model


class SeatManager(models.Manager.from_queryset(SeatQuerySet)):
    def of_game(self, game: models.Model) -> list[models.Model]:
        """The seats of ``game``: one indexed read, built once as ``GameManager``'s
        statements are. Every move and every page of a game reads its seats; the
        ORM's ``game.seats.all()`` spent some 150 µs of a move building the query."""
        alias = router.db_for_read(self.model, instance=game)  # pragma: no mutate (one database)
        with connections[alias].cursor() as cursor:
            cursor.execute(_seats_sql(self.model, alias), [game.pk])
            rows = cursor.fetchall()
        # from_db reads the names only when some columns are missing (all are read),
        # and its alias is checked by test_models.
        names = [field.attname for field in self.model._meta.concrete_fields]  # pragma: no mutate
        return [self.model.from_db(alias, names, row) for row in rows]  # pragma: no mutate


@cache
def _seats_sql(model: type[models.Model], alias: str) -> str:
    """``SeatManager.of_game``'s statement, on one database."""
    quote = connections[alias].ops.quote_name
    meta = model._meta
    columns = ", ".join(quote(field.column) for field in meta.concrete_fields)
    game = quote(meta.get_field("game").column)
    return f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {game} = %s"
