import pytest
from django.test import Client

from tests.factories import GameFactory, HouseholdFactory


@pytest.fixture
def household(db):
    return HouseholdFactory()


@pytest.fixture
def client_of(household):
    """A browser that belongs to `household`, through the signed cookie."""
    from django.conf import settings
    from django.core.signing import get_cookie_signer

    client = Client()
    signed = get_cookie_signer(salt=settings.HOUSEHOLD_COOKIE).sign(household.public_id)
    client.cookies[settings.HOUSEHOLD_COOKIE] = signed
    return client


@pytest.fixture
def game(household):
    return GameFactory(owner=household, names=["Ann", "Bob"])
