"""Solve the optimal strategy tables, then the policy tables (win chances, what a good score
is), and store them in the strategy data folder."""

import sys
import time

from django.core.management.base import BaseCommand

from scorecard.engine import distribution, strategy
from scorecard.engine.rules import JokerRule


class Command(BaseCommand):
    help = "Build the optimal-strategy tables (all joker rules unless --rule is given)."

    def add_arguments(self, parser):
        parser.add_argument("--rule", choices=[rule.key for rule in JokerRule])
        parser.add_argument(
            "--missing", action="store_true", help="build only the tables not built yet"
        )

    def handle(self, *args, rule=None, missing=False, **options):
        rules = [JokerRule.from_key(rule)] if rule else list(JokerRule)
        for joker in rules:
            if not (missing and strategy.table_path(joker).exists()):
                started = time.perf_counter()
                values = strategy.solve(joker, progress=self._progress(joker, "values"))
                path = strategy.save(joker, values)
                strategy.forget(joker)
                self._done(f"{joker.key} {values[0]:.6f}", started, path)
            if not (missing and distribution.tables_path(joker).exists()):
                started = time.perf_counter()
                figures = distribution.build(joker, self._progress(joker, "policy"))
                line = f"{joker.key} sd {figures.sd:.4f}, bonus {figures.bonus_chance:.4f}"
                self._done(line, started, distribution.tables_path(joker))

    def _done(self, line: str, started: float, path) -> None:
        self.stderr.write(f"\r{' ' * 70}\r", ending="")
        self.stdout.write(line)
        self.stderr.write(f"  ({time.perf_counter() - started:.1f} s, {path})")

    def _progress(self, joker: JokerRule, part: str):
        def show(done: int, total: int) -> None:
            filled = round(30 * done / total)
            bar = "#" * filled + "." * (30 - filled)
            self.stderr.write(f"\r{joker.key:<10} {part:<7}[{bar}] {done}/{total}", ending="")
            sys.stderr.flush()

        return show
