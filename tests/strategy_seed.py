"""The strategy tables the test fixtures solve, solved once for several test runs.

CI runs four pytest sessions (the browser tests, the engine's, PostgreSQL, the rest on
SQLite) and each solved the same tables again, about 50 s apiece. `python -m
tests.strategy_seed FOLDER` solves them once, beside lint; a session started with
`TEST_STRATEGY_TABLES=FOLDER` links them into its own folder (tests/conftest.py) and solves
only what they lack. A session whose first table is asked for while the seed is still being
solved waits for it: solving the same tables twice at once slowed both, and a browser test
then ran out of time. Links are safe to share: every table is written beside its old self
and renamed over it (`tables.replace_file`), never written into.

The engine alone: no Django here, so the fixtures and this command build the same tables.
"""

import os
import shutil
import sys
import time
from pathlib import Path

from scorecard.engine import distribution, rules, strategy, tables
from scorecard.engine.families import YATZY

SEED_VARIABLE = "TEST_STRATEGY_TABLES"
POLICY_GAMES = 3000  # a smaller simulation than a server's: the tests check its shape
SOLVED = "solved"  # the file the seed writes last
LONGEST_WAIT = 300  # seconds; after that a session solves what it needs itself


def standard_policy(joker: rules.JokerRule) -> None:
    """A Yahtzee rule's values and its policy tables (win chances, what a score is worth)."""
    strategy.load(joker)
    if not distribution.tables_path(joker).exists():
        distribution.build(joker, games=POLICY_GAMES)


def yatzy() -> strategy.FamilyStrategy:
    """Yatzy's stated rules: values and policy tables."""
    solver = strategy.family_strategy(rules.HouseRules(YATZY))
    solver.load()
    if not distribution.family_tables_path(solver).exists():
        distribution.build_family(solver)
    return solver


def link_seed(folder: Path) -> None:
    """Give `folder` the seed's tables, when a seed was built for this run."""
    seed = os.environ.get(SEED_VARIABLE)
    if not seed:
        return
    waited_until = time.monotonic() + LONGEST_WAIT
    while not (Path(seed) / SOLVED).exists() and time.monotonic() < waited_until:
        time.sleep(1)
    for table in Path(seed).glob("*.np[yz]"):
        try:
            os.link(table, folder / table.name)
        except OSError:  # another file system: a copy does as well
            shutil.copy2(table, folder / table.name)
    for figures in Path(seed).glob("*.json"):
        shutil.copy2(figures, folder / figures.name)


def main(folder: str) -> None:
    tables.FOLDER = Path(folder)
    tables.FOLDER.mkdir(parents=True, exist_ok=True)
    standard_policy(rules.JokerRule.HASBRO)
    yatzy()
    (tables.FOLDER / SOLVED).touch()


if __name__ == "__main__":
    main(sys.argv[1])
