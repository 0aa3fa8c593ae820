"""Restore games from a JSON export (scorecard.history.exchange): all of the file, or nothing
(games already here are skipped and counted)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from scorecard.game import services
from scorecard.history.exchange import parse_document, read_games


class Command(BaseCommand):
    help = "Import games from a JSON export in FILE, or from standard input with '-'."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
            document = parse_document(text, max_objects=None)  # a backup of any size
            done = services.games_import(games=read_games(document, max_games=None))
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except services.Refusal as refused:
            raise CommandError(f"Nothing was imported. {refused}") from None
        said = f"Imported {done.written} games"
        if done.already_here:
            said += f"; {done.already_here} already here, left as they are"
        if done.bonuses_given:
            said += (
                f"; {done.bonuses_given} extra-Yahtzee bonuses given to typed points only five "
                "alike make, which the file had left out"
            )
        self.stdout.write(f"{said}.")
