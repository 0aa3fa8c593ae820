"""Write every game of every household as JSON (see scorecard.exchange), for backups."""

import json
import sys

from django.core.management.base import BaseCommand

from scorecard.exchange import export_games
from scorecard.models import Game


class Command(BaseCommand):
    help = "Export all games as JSON to FILE, or to standard output with '-'."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        document = export_games(Game.objects.all())
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        if file == "-":
            sys.stdout.write(text)
        else:
            with open(file, "w", encoding="utf-8") as handle:
                handle.write(text)
        self.stderr.write(f"Exported {len(document['games'])} games.")
