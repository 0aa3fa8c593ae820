"""Write every game of every household as JSON (see scorecard.history.exchange), for backups.

The file is written a batch of games at a time: memory stays the same however many there are.
"""

import sys

from django.core.management.base import BaseCommand

from scorecard.history.exchange import export_json
from scorecard.models import Game


class Command(BaseCommand):
    help = "Export all games as JSON to FILE, or to standard output with '-'."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        games = Game.objects.all()
        if file == "-":
            sys.stdout.writelines(export_json(games))
        else:
            with open(file, "w", encoding="utf-8") as handle:
                handle.writelines(export_json(games))
        self.stderr.write(f"Exported {games.count()} games.")
