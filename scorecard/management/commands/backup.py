"""A consistent copy of the SQLite database, taken while the server runs.

SQLite's online backup copies the database page by page and starts again if a writer
changes it meanwhile, so the copy is always one committed state. To restore: stop the
server, put the copy in place of the database file (db.sqlite3 unless DATABASE_URL says
otherwise), and start it again. PostgreSQL has its own tool for this: pg_dump.
"""

import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = "Copy the SQLite database to FILE, consistently, while the server keeps running."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        if connection.vendor != "sqlite":
            raise CommandError("This database is PostgreSQL: back it up with pg_dump.")
        target = Path(file)
        if target.exists():
            raise CommandError(f"{target} exists already; choose a new name.")
        connection.ensure_connection()
        copy = sqlite3.connect(target)
        try:
            with copy:
                connection.connection.backup(copy, pages=256)
        finally:
            copy.close()
        self.stdout.write(f"Backed up to {target} ({target.stat().st_size:,} bytes).")
