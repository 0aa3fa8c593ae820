"""Django's SQLite backend, with each statement's placeholders rewritten once per process.

Django writes SQL with `%s` placeholders and its SQLite cursor rewrites them to SQLite's `?`
with a regular expression on every execution. A turn's reads are long statements (a game
with its seats and players is 36 columns) run over and over with new values, so the same
rewrite of the same text was a measurable part of each request; it is kept here, keyed by
the statement's text. Everything else is Django's backend as it is.
"""

from functools import lru_cache

from django.db.backends.sqlite3 import base


@lru_cache(maxsize=1024)
def _qmark(query: str) -> str:
    """`query` in SQLite's placeholder style, as Django's cursor writes it."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query, *, param_names=None):
        if param_names is None:
            return _qmark(query)
        return super().convert_query(query, param_names=param_names)


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name=None):
        return self.connection.cursor(factory=SQLiteCursorWrapper)
