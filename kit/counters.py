"""Counters kept in the database: one statement adds one to a row's count, or makes
the row at one, and says the count (``INSERT … ON CONFLICT … DO UPDATE … RETURNING``,
in SQLite 3.35 and later and PostgreSQL alike). Django's ``get_or_create``, then an
``F()`` update and a read, take three statements and, on PostgreSQL, a savepoint;
the live channels (``kit.live.bump``) and the limits (``kit.limits.count``) count
often, some while an event's lock is held."""

from __future__ import annotations

import functools
from datetime import datetime

from django.db import connections, models, router


def count_up(
    model: type[models.Model],
    key: str,
    counter: str,
    stamp: str,
    values: tuple[str, datetime],
    *,
    restamp: bool,
) -> int:
    """Add one to ``model``'s ``counter`` in the row whose unique field ``key`` is
    ``values[0]``, or make that row with the count at one and its ``stamp`` field at
    ``values[1]`` (``restamp``: an existing row's stamp becomes it too); the count now."""
    alias = router.db_for_write(model)
    connection = connections[alias]
    name, when = values
    stamped = model._meta.get_field(stamp).get_db_prep_value(when, connection)
    with connection.cursor() as cursor:
        cursor.execute(_sql(model, alias, key, counter, stamp, restamp), [name, stamped])
        (counted,) = cursor.fetchone()
    return counted


@functools.cache
def _sql(
    model: type[models.Model], alias: str, key: str, counter: str, stamp: str, restamp: bool
) -> str:
    quote = connections[alias].ops.quote_name
    table = quote(model._meta.db_table)
    key, counter, stamp = (quote(model._meta.get_field(f).column) for f in (key, counter, stamp))
    also = f", {stamp} = excluded.{stamp}" if restamp else ""
    return (
        f"INSERT INTO {table} ({key}, {counter}, {stamp}) VALUES (%s, 1, %s) "
        f"ON CONFLICT ({key}) DO UPDATE SET {counter} = {table}.{counter} + 1{also} "
        f"RETURNING {counter}"
    )
