"""A pytest plugin for `make mutants`: each test process starts as a fresh one would.

mutmut tests each mutant in a process forked from its own, after it ran the tests once.
Such a process inherits two things a fresh one would not have:
- the caches the first run filled (`rules._scores` holds every roll's values): a mutant
  inside a cached function would never run, so every cache of the app starts empty;
- the name of the test database: two mutants are tested at once (`--max-children 2`), and
  both would use the same SQLite file. Each process takes a free slot (a file it locks for
  as long as it lives) and the database of that slot, kept between mutants (`--reuse-db`):
  creating and migrating one for every mutant would take most of the run.
"""

import fcntl
import itertools
import os
import sys

import pytest

_first_name: str | None = None
_held: list[int] = []


def _empty_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("scorecard.") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _free_slot(base: str) -> int:
    """The first slot no living process holds; held by this one until it ends."""
    for slot in itertools.count():
        lock = os.open(f"{base}.slot{slot}.lock", os.O_WRONLY | os.O_CREAT)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            continue
        _held.append(lock)  # closing it would free the slot
        return slot
    raise AssertionError("unreachable")


def _own_test_database() -> None:
    global _first_name
    from django.conf import settings

    test = settings.DATABASES["default"]["TEST"]
    # A forked process inherits the name its parent already changed: start from the first.
    _first_name = _first_name or test["NAME"]
    test["NAME"] = f"{_first_name}.slot{_free_slot(_first_name)}"


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    _empty_caches()
    _own_test_database()
