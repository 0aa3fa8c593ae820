"""Fixtures and helpers every test module shares."""

import random
import re

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorecard.engine import rules, strategy, tables
from scorecard.game import services
from scorecard.history import exchange
from scorecard.models import Browser, Game
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, play


def household_cookie(household) -> str:
    """The signed cookie value of a browser of `household` (its first), as the site sets it."""
    browser = household.browsers.first() or Browser.objects.create(household=household, name="Test")
    signed = HttpResponse()
    signed.set_signed_cookie(settings.HOUSEHOLD_COOKIE, browser.key)
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
    from scorecard.game import services

    return services.game_create(owner=household, names=["Dee"], digital=True)


@pytest.fixture(scope="session")
def strategy_tables(tmp_path_factory):
    """Strategy tables solved at most once per rule per test session, in a folder of its own."""

    tables.FOLDER = tmp_path_factory.mktemp("strategy")
    strategy._loaded.clear()
    yield strategy
    strategy._loaded.clear()


@pytest.fixture(scope="session")
def policy_tables(strategy_tables):
    """The standard rule's policy tables (win chances, what a good score is), built once per
    session beside the strategy tables, with a smaller simulation than a server's."""
    from scorecard.engine import distribution

    joker = rules.JokerRule.HASBRO
    strategy_tables.load(joker)
    if not distribution.tables_path(joker).exists():
        distribution.build(joker, games=3000)
    yield distribution
    distribution.forget(joker)


HTMX = {"HX-Request": "true"}


def game_url(game, name="game", **kwargs):
    """An owner's address of the game; `kwargs` are the route's further parts, in order."""
    return reverse(name, args=[game.public_id, *kwargs.values()])


def post_box(client, game, box, dice=None, points=None, htmx=False, **extra):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box.key}
    data |= {"card": 1, **extra}
    if dice is not None:
        data["dice"] = "".join(map(str, dice))
    if points is not None:
        data["points"] = points
    return client.post(game_url(game, "game-record"), data, headers=HTMX if htmx else {})


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def seeded(monkeypatch):
    monkeypatch.setattr(services, "dice_source", random.Random(1))


def post_roll(client, game, hold=(), headers=None, **overrides):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "hold": list(hold)}
    url = reverse("game-roll", args=[game.public_id])
    return client.post(url, data | overrides, headers=headers or {})


def post_score(client, game, box, **overrides):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box.key}
    data |= {"confirm": "zero"}
    return client.post(reverse("game-record", args=[game.public_id]), data | overrides)


def finished_game(owner, names=("Ann", "Bob"), **kwargs):
    game = GameFactory(owner=owner, names=list(names), **kwargs)
    return play(game, [turn for turn in SOLO_GAME for _ in names])


@pytest.fixture
def advised(client_of, strategy_tables):
    """A browser with advice on, on a server whose table for the standard rule is built."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    client_of.cookies["advice"] = "on"
    return client_of


def good_document(household):
    finished_game(household)
    document = exchange.export_games(Game.objects.all())
    Game.objects.all().delete()
    return document


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with empty counters (the creation limit lives in the cache)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
