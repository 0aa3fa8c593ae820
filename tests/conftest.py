"""Fixtures every test module shares (plain helpers are in tests/helpers.py)."""

import os
import random

import pytest
from hypothesis import settings

from scorecard.engine import rules, strategy, tables
from scorecard.game import services
from tests import strategy_seed
from tests.factories import GameFactory, HouseholdFactory
from tests.helpers import browser_of

# The rules are checked by what an example scores, never by how fast: on a machine shared by
# several test runs, hypothesis's default 200 ms deadline fails a correct rule at random.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """CI runs the browser tests and the other SQLite tests at the same time, in two
    processes: TEST_DB_SUFFIX gives one of them a test database file of its own."""
    from django.conf import settings

    suffix = os.environ.get("TEST_DB_SUFFIX")
    test = settings.DATABASES["default"].get("TEST", {})
    if suffix and test.get("NAME"):
        test["NAME"] = f"{test['NAME']}.{suffix}"


@pytest.fixture
def household(db):
    return HouseholdFactory()


@pytest.fixture
def client_of(household):
    return browser_of(household)


@pytest.fixture
def game(household):
    return GameFactory(owner=household, names=["Ann", "Bob"])


@pytest.fixture
def digital(household):
    """A one-player game whose dice the server rolls."""
    from scorecard.game import services

    return services.game_create(owner=household, names=["Dee"], digital=True)


@pytest.fixture(scope="session")
def strategy_tables(tmp_path_factory):
    """Strategy tables solved at most once per rule per test session, in a folder of its own
    (linked from a seed CI solved once for all its sessions, when there is one)."""

    tables.FOLDER = tmp_path_factory.mktemp("strategy")
    strategy_seed.link_seed(tables.FOLDER)
    strategy._loaded.clear()
    yield strategy
    strategy._loaded.clear()


@pytest.fixture(scope="session")
def policy_tables(strategy_tables):
    """The standard rule's policy tables (win chances, what a good score is), built once per
    session beside the strategy tables, with a smaller simulation than a server's."""
    from scorecard.engine import distribution

    joker = rules.JokerRule.HASBRO
    strategy_seed.standard_policy(joker)
    yield distribution
    distribution.forget(joker)


@pytest.fixture(scope="session")
def yatzy_tables(strategy_tables):
    """The strategy of Yatzy's stated rules with its policy tables (win chances), solved once
    per session in the session's folder of tables."""
    from scorecard.engine import distribution

    solver = strategy_seed.yatzy()
    yield solver
    distribution.forget_family(solver)


@pytest.fixture
def seeded(monkeypatch):
    monkeypatch.setattr(services, "dice_source", random.Random(1))


@pytest.fixture
def advised(client_of, strategy_tables):
    """A browser with advice on, on a server whose table for the standard rule is built."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    client_of.cookies["advice"] = "on"
    return client_of


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with an empty cache (the Win column and charts are kept there) and
    no rows of another test's sheets, nor words of another test's catalogs, kept in this
    process."""
    from django.core.cache import cache

    from scorecard.presenters import per_language
    from scorecard.web import drawn_once

    cache.clear()
    drawn_once.forget()
    per_language.forget()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def english_unless_asked():
    """Each test starts in English: a request in another language leaves its language active
    in the thread (Django's LocaleMiddleware activates it and never puts it back)."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")
