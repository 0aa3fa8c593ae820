"""Querysets whose SQL is built once per process and then run with new values.

Building a query's SQL costs the ORM 0.5 to 1 ms on a small server, several times what
SQLite or PostgreSQL take to run it. The few reads every turn makes (a game with its seats,
its entries, a turn's rolls) are written here as ordinary querysets, compiled on first use
with stand-in values, and afterwards run with the request's own values: the same SQL, the
same converters, none of the building.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

_stand_ins = itertools.count(1_987_654_321, -1)  # in range of every integer column


class CompiledQuery:
    """A values_list queryset made by `build(**stand_ins)`, run as `query.rows(**values)`.

    Each name is a stand-in value of the parameter's type (an int or a str) that appears
    exactly once among the compiled query's parameters; it marks where the real one goes.
    """

    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        self._build = build
        self._stand_ins = {
            name: (next(_stand_ins) if kind is int else f"\x01{next(_stand_ins)}")
            for name, kind in kinds.items()
        }
        self._compiled: dict[str, tuple] = {}

    def _compile(self, alias: str) -> tuple:
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
        self._compiled[alias] = compiled = (sql, list(params), places, list(converters.items()))
        return compiled

    def rows(self, alias: str = DEFAULT_DB_ALIAS, **values) -> list[tuple]:
        sql, params, places, converters = self._compiled.get(alias) or self._compile(alias)
        params = params.copy()
        for name, place in places.items():
            params[place] = values[name]
        connection = connections[alias]  # this thread's, not the one that compiled
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not converters:
            return rows
        converted = []
        for row in rows:
            row = list(row)
            for position, (functions, expression) in converters:
                for convert in functions:
                    row[position] = convert(row[position], expression, connection)
            converted.append(tuple(row))
        return converted


class CompiledWrite:
    """One INSERT or conditional UPDATE of a model, its SQL written once per database from
    the model's own table and column names; values pass through each field's own
    preparation for the database, as the ORM's would."""

    def __init__(self, model, kind: str, columns: Sequence[str], where: Sequence[str] = ()):
        self._fields = [model._meta.get_field(name) for name in (*columns, *where)]
        self._model, self._kind, self._columns, self._where = model, kind, columns, where
        self._sql: dict[str, str] = {}

    def _compile(self, alias: str) -> str:
        quote = connections[alias].ops.quote_name
        meta = self._model._meta
        table = quote(meta.db_table)
        names = [quote(meta.get_field(name).column) for name in self._columns]
        if self._kind == "insert":
            marks = ", ".join(["%s"] * len(names))
            sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})"
            sql += f" RETURNING {quote(meta.pk.column)}"
        else:
            where = [f"{quote(meta.get_field(name).column)} = %s" for name in self._where]
            assignments = ", ".join(f"{name} = %s" for name in names)
            sql = f"UPDATE {table} SET {assignments} WHERE {' AND '.join(where)}"
        self._sql[alias] = sql
        return sql

    def run(self, *values, alias: str = DEFAULT_DB_ALIAS) -> int:
        """The new row's primary key for an insert; the number of rows for an update."""
        connection = connections[alias]
        sql = self._sql.get(alias) or self._compile(alias)
        params = [
            field.get_db_prep_save(value, connection)
            for field, value in zip(self._fields, values, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()[0] if self._kind == "insert" else cursor.rowcount


def insert(model, *columns: str) -> CompiledWrite:
    return CompiledWrite(model, "insert", columns)


def update(model, *columns: str, where: Sequence[str]) -> CompiledWrite:
    return CompiledWrite(model, "update", columns, where)
