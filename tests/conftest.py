import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client

from tests.factories import GameFactory, HouseholdFactory


def household_cookie(household) -> str:
    """The signed cookie value that names `household`, as the site sets it."""
    signed = HttpResponse()
    signed.set_signed_cookie(settings.HOUSEHOLD_COOKIE, household.public_id)
    return signed.cookies[settings.HOUSEHOLD_COOKIE].value


def browser_of(household) -> Client:
    """A test client whose signed cookie says it belongs to `household`."""
    client = Client()
    client.cookies[settings.HOUSEHOLD_COOKIE] = household_cookie(household)
    return client


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
    from scorecard import services

    return services.game_create(owner=household, names=["Dee"], digital=True)


@pytest.fixture(scope="session")
def strategy_tables(tmp_path_factory):
    """Strategy tables solved at most once per rule per test session, in a folder of its own."""
    from scorecard import strategy

    strategy.DATA_DIR = tmp_path_factory.mktemp("strategy")
    strategy._loaded.clear()
    yield strategy
    strategy._loaded.clear()
