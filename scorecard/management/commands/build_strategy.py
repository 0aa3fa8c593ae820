"""Solve the optimal strategy tables and store them in settings.STRATEGY_DATA_DIR."""

import sys
import time

from django.core.management.base import BaseCommand

from scorecard import strategy
from scorecard.rules import JokerRule


class Command(BaseCommand):
    help = "Build the optimal-strategy tables (all joker rules unless --rule is given)."

    def add_arguments(self, parser):
        parser.add_argument("--rule", choices=[rule.key for rule in JokerRule])
        parser.add_argument(
            "--missing", action="store_true", help="build only the tables not built yet"
        )

    def handle(self, *args, rule=None, missing=False, **options):
        rules = [JokerRule.from_key(rule)] if rule else list(JokerRule)
        if missing:
            rules = [joker for joker in rules if not strategy.table_path(joker).exists()]
        for joker in rules:
            started = time.perf_counter()
            values = strategy.solve(joker, progress=self._progress(joker))
            path = strategy.save(joker, values)
            strategy.forget(joker)
            seconds = time.perf_counter() - started
            self.stderr.write(f"\r{' ' * 60}\r", ending="")
            self.stdout.write(f"{joker.key} {values[0]:.6f}")
            self.stderr.write(f"  ({seconds:.1f} s, {path})")

    def _progress(self, joker: JokerRule):
        def show(done: int, total: int) -> None:
            filled = round(30 * done / total)
            bar = "#" * filled + "." * (30 - filled)
            self.stderr.write(f"\r{joker.key:<10} [{bar}] {done}/{total}", ending="")
            sys.stderr.flush()

        return show
