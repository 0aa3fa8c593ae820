"""Solve the optimal strategy tables, then the policy tables (win chances, what a good score
is), and store them in the strategy data folder.

Yahtzee's tables are per joker rule; Yatzy's per house rules (its switches, and the boxes in
order or not). With no family given, the tables a table is most likely to play come first:
Yahtzee's standard rule, then Yatzy's stated rules, then forced Yatzy, then the rest. Maxi
Yatzy is never built: its exact table is far too large for this machine, so it has no advice.
"""

import itertools
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from scorecard.engine import distribution, families, strategy
from scorecard.engine.rules import HouseRules, JokerRule

NO_MAXI = (
    "Maxi Yatzy is not built: its exact table is far too large for this machine, "
    "so Maxi Yatzy games have no advice."
)


def yatzy_house_rules() -> list[HouseRules]:
    """Every Yatzy house rule advice answers for: the stated rules first, then forced order,
    then each combination of switches (free, then forced)."""
    switches = families.YATZY.switches
    combinations = [
        frozenset(chosen)
        for size in range(len(switches) + 1)
        for chosen in itertools.combinations(switches, size)
    ]
    return [
        HouseRules(families.YATZY, chosen, forced=forced)
        for chosen in combinations
        for forced in (False, True)
    ]


class Command(BaseCommand):
    help = (
        "Build the optimal-strategy tables: Yahtzee's standard rule, then Yatzy's, then the rest "
        "(one family with --family, one Yahtzee rule with --rule). Maxi Yatzy is never built."
    )

    def add_arguments(self, parser):
        parser.add_argument("--family", choices=list(families.FAMILIES))
        parser.add_argument("--rule", choices=[rule.key for rule in JokerRule])
        parser.add_argument(
            "--missing", action="store_true", help="build only the tables not built yet"
        )

    def handle(self, *args, family=None, rule=None, missing=False, **options):
        if family == families.MAXI.key:
            raise CommandError(NO_MAXI)
        if rule and family not in (None, families.YAHTZEE.key):
            raise CommandError("--rule is a Yahtzee joker rule: use it without --family yatzy.")
        jokers = [JokerRule.from_key(rule)] if rule else list(JokerRule)
        yatzy = yatzy_house_rules()
        if family == families.YAHTZEE.key or rule:
            yatzy = []
        elif family == families.YATZY.key:
            jokers = []
        if jokers and yatzy:  # the likeliest tables first
            self._build_yahtzee(jokers[0], missing)
            self._build_yatzy(yatzy[0], missing)
            jokers, yatzy = jokers[1:], yatzy[1:]
        for joker in jokers:
            self._build_yahtzee(joker, missing)
        for house in yatzy:
            self._build_yatzy(house, missing)

    def _build_yahtzee(self, joker: JokerRule, missing: bool) -> None:
        if missing:
            self._converted(strategy.convert_old_table(joker))
        if not (missing and strategy.table_path(joker).exists()):
            started = time.perf_counter()
            values = strategy.solve(joker, progress=self._progress(joker.key, "values"))
            path = strategy.save(joker, values)
            strategy.forget(joker)
            self._done(f"{joker.key} {values[0]:.6f}", started, path)
        if not (missing and distribution.tables_path(joker).exists()):
            started = time.perf_counter()
            figures = distribution.build(joker, self._progress(joker.key, "policy"))
            line = f"{joker.key} sd {figures.sd:.4f}, bonus {figures.bonus_chance:.4f}"
            self._done(line, started, distribution.tables_path(joker))

    def _build_yatzy(self, house: HouseRules, missing: bool) -> None:
        solver = strategy.family_strategy(house)
        if missing:
            self._converted(solver.convert_old_table())
        if not (missing and solver.table_path().exists()):
            started = time.perf_counter()
            solver.forget()
            solver.table_path().unlink(missing_ok=True)  # `load` solves what is not on disk
            mean = float(solver.load(self._progress(house.key, "values"))[0])
            self._done(f"{house.key} {mean:.6f}", started, solver.table_path())
        if not (missing and distribution.family_tables_path(solver).exists()):
            started = time.perf_counter()
            path = distribution.build_family(solver, self._progress(house.key, "policy"))
            mean, variance = distribution.family_moments(solver, 0)
            self._done(f"{house.key} sd {variance**0.5:.4f}", started, path)

    def _converted(self, path) -> None:
        """A table an older version wrote, in the format it had: now in this one."""
        if path:
            self.stdout.write(f"Converted to the current format: {path.name}")

    def _done(self, line: str, started: float, path) -> None:
        self.stderr.write(f"\r{' ' * 70}\r", ending="")
        self.stdout.write(line)
        self.stderr.write(f"  ({time.perf_counter() - started:.1f} s, {path})")

    def _progress(self, name: str, part: str):
        def show(done: int, total: int) -> None:
            filled = round(30 * done / total)
            bar = "#" * filled + "." * (30 - filled)
            self.stderr.write(f"\r{name:<10} {part:<7}[{bar}] {done}/{total}", ending="")
            sys.stderr.flush()

        return show
