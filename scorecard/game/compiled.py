"""Querysets whose SQL is built once per process and then run with new values.

Building a query's SQL costs the ORM 0.5 to 1 ms on a small server, several times what
SQLite or PostgreSQL take to run it. The few reads every turn makes (a game with its seats,
its entries, a turn's rolls) are written here as ordinary querysets, compiled on first use
with stand-in values, and afterwards run with the request's own values: the same SQL, the
same converters, none of the building.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, NamedTuple
from uuid import UUID

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model, QuerySet

_stand_ins = itertools.count(1_987_654_321, -1)  # in range of every integer column
# What converters give that no row's reader can change: shared by the rows that repeat it.
_IMMUTABLE = frozenset({bool, int, float, str, bytes, Decimal, datetime, date, time, UUID,
                        type(None)})  # fmt: skip

Row = tuple[Any, ...]
# A column's converters as the compiler gives them: (its position, (functions, expression)).
Converters = list[tuple[int, tuple[list[Callable[..., Any]], Any]]]


class Compiled(NamedTuple):
    """A query's SQL with its parameters, where each named value goes, and converters."""

    sql: str
    params: list[Any]
    places: dict[str, int]
    converters: Converters


class CompiledQuery:
    """A values_list queryset made by `build(**stand_ins)`, run as `query.rows(**values)`.

    Each name is a stand-in value of the parameter's type (an int or a str) that appears
    exactly once among the compiled query's parameters; it marks where the real one goes.
    """

    def __init__(self, build: Callable[..., QuerySet[Any, Row]], **kinds: type) -> None:
        self._build = build
        self._stand_ins = {
            name: (next(_stand_ins) if kind is int else f"\x01{next(_stand_ins)}")
            for name, kind in kinds.items()
        }
        self._compiled: dict[str, Compiled] = {}

    def _compile(self, alias: str) -> Compiled:
        queryset = self._build(**self._stand_ins).using(alias)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        places = {}
        for name, stand_in in self._stand_ins.items():
            found = [index for index, param in enumerate(params) if param == stand_in]
            if len(found) != 1:
                raise AssertionError(f"{name} must appear once in the query's parameters")
            places[name] = found[0]
        converters = compiler.get_converters([column[0] for column in compiler.select])
        compiled = Compiled(sql, list(params), places, list(converters.items()))
        self._compiled[alias] = compiled
        return compiled

    def rows(self, alias: str = DEFAULT_DB_ALIAS, **values: int | str) -> list[Row]:
        sql, params, places, converters = self._compiled.get(alias) or self._compile(alias)
        params = params.copy()
        for name, place in places.items():
            params[place] = values[name]
        connection = connections[alias]  # this thread's, not the one that compiled
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[Row] = cursor.fetchall()
        if not converters:
            return rows
        converted: list[Row] = []
        before, was = (), ()  # the previous row as read and as converted
        for row in rows:
            cells = list(row)
            for position, (functions, expression) in converters:
                # A column that repeats (a game's own columns on each of its seat rows) is
                # converted once, when what it converts to cannot be changed.
                repeats = before and row[position] == before[position]
                if repeats and type(was[position]) in _IMMUTABLE:
                    cells[position] = was[position]
                    continue
                for convert in functions:
                    cells[position] = convert(cells[position], expression, connection)
            before, was = row, tuple(cells)
            converted.append(was)
        return converted


class CompiledWrite:
    """One INSERT or conditional UPDATE of a model, its SQL written once per database from
    the model's own table and column names; values pass through each field's own
    preparation for the database, as the ORM's would."""

    def __init__(
        self,
        model: type[Model],
        kind: str,
        columns: Sequence[str],
        where: Sequence[str] = (),
        unique: str = "",
    ) -> None:
        self._fields = [_column_field(model, name) for name in (*columns, *where)]
        self._model, self._kind, self._columns, self._where = model, kind, columns, where
        self._unique = unique
        self._sql: dict[str, str] = {}

    def _compile(self, alias: str) -> str:
        quote = connections[alias].ops.quote_name
        model = self._model
        table = quote(model._meta.db_table)
        names = [quote(_column(model, name)) for name in self._columns]
        if self._kind == "insert":
            marks = ", ".join(["%s"] * len(names))
            sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})"
            if self._unique:  # SQLite (3.35 on) and PostgreSQL both say it so
                sql += f" ON CONFLICT ({quote(_column(model, self._unique))}) DO NOTHING"
            sql += f" RETURNING {quote(_column(model, 'pk'))}"
        else:
            where = [f"{quote(_column(model, name))} = %s" for name in self._where]
            assignments = ", ".join(f"{name} = %s" for name in names)
            sql = f"UPDATE {table} SET {assignments} WHERE {' AND '.join(where)}"
        self._sql[alias] = sql
        return sql

    def _params(self, values: Sequence[object], connection: Any) -> list[Any]:
        return [
            field.get_db_prep_save(value, connection)
            for field, value in zip(self._fields, values, strict=True)
        ]

    def run_many(self, rows: Iterable[Sequence[object]], alias: str = DEFAULT_DB_ALIAS) -> None:
        """The update once for each row of values, sent as one statement with many sets of
        parameters: Django's `bulk_update` builds a CASE expression per row and field, which
        costs more than the database's whole work."""
        if self._kind == "insert":
            raise ValueError("An insert returns its new key, so it runs one at a time.")
        connection = connections[alias]
        sql = self._sql.get(alias) or self._compile(alias)
        params = [self._params(values, connection) for values in rows]
        if params:
            with connection.cursor() as cursor:
                cursor.executemany(sql, params)

    def run(self, *values: object, alias: str = DEFAULT_DB_ALIAS) -> int:
        """The new row's primary key for an insert; the number of rows for an update."""
        found = self._run(values, alias)
        if found is None:
            raise AssertionError("an INSERT ... RETURNING returns its row")
        return found

    def run_if_new(self, *values: object, alias: str = DEFAULT_DB_ALIAS) -> int | None:
        """An `insert_new`'s row's primary key, or None when its unique value was there."""
        return self._run(values, alias)

    def _run(self, values: Sequence[object], alias: str) -> int | None:
        connection = connections[alias]
        sql = self._sql.get(alias) or self._compile(alias)
        params = self._params(values, connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if self._kind != "insert":
                count: int = cursor.rowcount
                return count
            inserted = cursor.fetchone()
            return None if inserted is None else int(inserted[0])


def _column_field(model: type[Model], name: str) -> Field[Any, Any]:
    """The field of one of the model's own columns (a reverse relation has none)."""
    found = model._meta.pk if name == "pk" else model._meta.get_field(name)
    if not isinstance(found, Field) or not found.column:
        raise ValueError(f"{model.__name__}.{name} is not a column of its table.")
    return found


def _column(model: type[Model], name: str) -> str:
    column = _column_field(model, name).column
    if not column:  # never: _column_field refuses a field without one
        raise ValueError(f"{model.__name__}.{name} is not a column of its table.")
    return column


def insert(model: type[Model], *columns: str) -> CompiledWrite:
    return CompiledWrite(model, "insert", columns)


def insert_new(model: type[Model], *columns: str, unique: str) -> CompiledWrite:
    """An insert that writes nothing when a row with the same `unique` value exists: no
    error, so no savepoint is needed to go on in the same transaction. On PostgreSQL it
    waits for a transaction writing that value to end, as a unique index makes it."""
    return CompiledWrite(model, "insert", columns, unique=unique)


def update(model: type[Model], *columns: str, where: Sequence[str]) -> CompiledWrite:
    return CompiledWrite(model, "update", columns, where)
