"""Django's SQLite backend, with each statement's placeholders rewritten once per process, and
writers that wait their turn in the kernel instead of in SQLite's sleeps.

Django writes SQL with `%s` placeholders and its SQLite cursor rewrites them to SQLite's `?`
with a regular expression on every execution. A turn's reads are long statements (a game
with its seats and players is 36 columns) run over and over with new values, so the same
rewrite of the same text was a measurable part of each request; it is kept here, keyed by
the statement's text.

A write transaction (`BEGIN IMMEDIATE`) that finds another one running is left to SQLite's
busy handler, which sleeps 1, 2, 5, 10, 15, 20, 25 … ms between tries: it does not wake
when the lock is freed. With five gunicorn workers recording boxes, the workers slept
while the lock stood free, and two cores were not kept busy (1.55 of 2). So each write
transaction first takes an exclusive `flock` on a file beside the database (`<name>-writers`)
and gives it back when the transaction ends (commit, rollback or a closed connection): a
waiting writer sleeps in the kernel and is woken the moment the lock is free, and then
finds SQLite's lock free too. `bench/throughput.py` measured records/s up by 10-20% (the
README's "Session 30"). The kernel frees the lock of a process that dies, and a request
stuck holding it is ended by gunicorn's timeout; readers never queue (WAL lets them read
beside the writer).

Everything else is Django's backend as it is.
"""

import fcntl
import os
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


class WriterQueue:
    """The turn of one connection's write transactions, through a lock file every process
    writing to the same database shares."""

    def __init__(self, database: str) -> None:
        self.path = f"{database}-writers"
        self.descriptor: int | None = None
        self.held = False

    def wait_for_turn(self) -> None:
        if self.descriptor is None:
            self.descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.descriptor, fcntl.LOCK_EX)
        self.held = True

    def end_turn(self) -> None:
        if self.held:
            self.held = False
            fcntl.flock(self.descriptor, fcntl.LOCK_UN)  # type: ignore[arg-type]

    def close(self) -> None:
        self.end_turn()
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None


# Transactions that take SQLite's write lock as they begin; a DEFERRED one may only read.
WRITING_MODES = {"IMMEDIATE", "EXCLUSIVE"}


class DatabaseWrapper(base.DatabaseWrapper):
    transaction_mode: str | None  # set by Django's wrapper from OPTIONS (not in its stubs)
    writers: WriterQueue | None = None

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=SQLiteCursorWrapper)

    def _writer_queue(self) -> WriterQueue | None:
        writes = self.transaction_mode in WRITING_MODES and not self.is_in_memory_db()
        if self.writers is None and writes:
            self.writers = WriterQueue(str(self.settings_dict["NAME"]))
        return self.writers

    def _start_transaction_under_autocommit(self):
        queue = self._writer_queue()
        if queue is not None:
            queue.wait_for_turn()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_writers_turn()
            raise

    def _end_writers_turn(self) -> None:
        if self.writers is not None:
            self.writers.end_turn()

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._end_writers_turn()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._end_writers_turn()

    def _close(self):
        try:
            return super()._close()
        finally:
            if self.writers is not None:
                self.writers.close()
                self.writers = None  # the next connection may be to another file (tests')
