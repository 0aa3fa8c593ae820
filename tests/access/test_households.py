"""Households: a game belongs to the browser whose signed cookie names its household."""

import time
from datetime import timedelta

import pytest
from django.db import connection
from django.http import Http404
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from scorecard.access.households import SEEN_EVERY, browser_name, household_seated_game
from scorecard.models import Browser, Game
from tests.factories import HouseholdFactory
from tests.helpers import game_url, household_cookie


def test_a_game_is_not_found_by_another_household(game):
    assert Client().get(game_url(game)).status_code == 404
    stranger = Client()
    stranger.post(reverse("game-new"), {"name_1": "Eve", "joker": "hasbro", "mode": "standard"})
    assert stranger.get(game_url(game)).status_code == 404
    assert stranger.post(game_url(game, "game-undo"), {"version": 0}).status_code == 404


def test_a_forged_household_cookie_is_ignored(game):
    client = Client()
    client.cookies["household"] = game.owner.public_id  # unsigned
    assert client.get(game_url(game)).status_code == 404


def test_every_household_gets_its_own_cookie_once(db):
    client = Client()
    client.post(reverse("game-new"), {"name_1": "Ann", "joker": "hasbro", "mode": "standard"})
    cookie = client.cookies["household"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    client.post(reverse("game-new"), {"name_1": "Bob", "joker": "hasbro", "mode": "standard"})
    assert {g.owner_id for g in Game.objects.all()} == {
        HouseholdFactory._meta.model.objects.get().pk
    }


def test_a_game_with_its_seats_is_found_in_one_query(game, django_assert_num_queries):
    request = RequestFactory().get("/")
    request.COOKIES["household"] = household_cookie(game.owner)
    with django_assert_num_queries(1):
        found = household_seated_game(request, game.public_id)
        names = [seat.player.name for seat in found.seats]
    assert found.game.pk == game.pk and found.game.owner == game.owner and names == ["Ann", "Bob"]
    assert all(seat.game is found.game for seat in found.seats)
    stranger = RequestFactory().get("/")
    stranger.COOKIES["household"] = household_cookie(HouseholdFactory())
    with pytest.raises(Http404):
        household_seated_game(stranger, game.public_id)


def test_a_game_read_with_its_seats_is_known_to_be_stored(game):
    """Built as the ORM builds what it reads, not by hand: a check of unique fields sees
    the rows themselves, not copies about to be added."""
    request = RequestFactory().get("/")
    request.COOKIES["household"] = household_cookie(game.owner)
    found = household_seated_game(request, game.public_id)
    found.game.validate_unique()
    found.game.owner.validate_unique()
    for seat in found.seats:
        seat.validate_unique()
        seat.player.validate_unique()


def test_every_page_of_a_household_is_private_to_shared_caches(client_of, game):
    for url in (game_url(game), reverse("games"), reverse("home"), reverse("players")):
        assert client_of.get(url)["Cache-Control"] == "private"


def test_our_cookies_are_secure_and_hidden_from_scripts_in_production(db, settings):
    settings.COOKIES_SECURE = True
    client = Client()
    client.post(reverse("game-new"), {"name_1": "Ann", "joker": "hasbro", "mode": "standard"})
    household = client.cookies["household"]
    assert household["secure"] and household["httponly"]
    client.post(reverse("advice"), {"advice": "on", "next": "/"})
    advice = client.cookies["advice"]
    assert advice["secure"] and advice["httponly"] and advice["samesite"] == "Lax"


def test_a_cookie_signed_with_the_old_written_key_opens_nothing(game, settings):
    real_key = settings.SECRET_KEY
    settings.SECRET_KEY = "dev-only-insecure-key-do-not-deploy"
    forged = household_cookie(game.owner)
    settings.SECRET_KEY = real_key
    client = Client()
    client.cookies["household"] = forged
    assert client.get(game_url(game)).status_code == 404


def _seen_writes(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code in {200, 404}
    return [q["sql"] for q in captured if q["sql"].startswith('UPDATE "scorecard_browser"')]


def _cookie_signed(client: Client, household, *, ago: timedelta, monkeypatch) -> None:
    """Give the client the household's cookie as the site signed it `ago`."""
    with monkeypatch.context() as then:
        signed_at = time.time() - ago.total_seconds()
        then.setattr(time, "time", lambda: signed_at)
        client.cookies["household"] = household_cookie(household)


def test_a_browser_is_seen_by_its_first_request_of_the_hour(household, game, monkeypatch):
    client = Client()
    _cookie_signed(
        client, household, ago=SEEN_EVERY + timedelta(minutes=1), monkeypatch=monkeypatch
    )
    Browser.objects.update(last_seen=timezone.now() - timedelta(days=3))
    response = client.get(game_url(game))
    assert response.status_code == 200 and "household" in response.cookies  # signed afresh
    assert timezone.now() - Browser.objects.get().last_seen < timedelta(seconds=5)
    assert _seen_writes(client, game_url(game)) == []  # the fresh cookie says: seen this hour


def test_a_browser_costs_no_write_or_query_for_the_rest_of_the_hour(household, game, monkeypatch):
    client = Client()
    _cookie_signed(
        client, household, ago=SEEN_EVERY - timedelta(minutes=1), monkeypatch=monkeypatch
    )
    long_ago = timezone.now() - timedelta(days=3)
    Browser.objects.update(last_seen=long_ago)
    for url in (game_url(game), reverse("home"), reverse("household")):
        assert _seen_writes(client, url) == []
        assert "household" not in client.get(url).cookies  # nothing to sign again
    assert Browser.objects.get().last_seen == long_ago


def test_a_removed_or_forged_browser_is_never_noted_or_signed_again(household, game, monkeypatch):
    removed = Client()
    _cookie_signed(removed, household, ago=timedelta(days=2), monkeypatch=monkeypatch)
    Browser.objects.all().delete()
    response = removed.get(game_url(game))
    assert response.status_code == 404 and "household" not in response.cookies
    forged = Client()
    forged.cookies["household"] = "not-signed"
    assert _seen_writes(forged, reverse("home")) == []
    assert not Browser.objects.exists()


def test_browsers_that_joined_before_last_seen_existed_were_seen_when_they_joined(household):
    from importlib import import_module

    from django.apps import apps

    joined = timezone.now() - timedelta(days=40)
    Browser.objects.create(household=household, name="Old", joined=joined)
    migration = import_module("scorecard.migrations.0006_browser_last_seen")
    migration.seen_when_joined(apps, None)
    assert Browser.objects.get().last_seen == joined


def test_a_browser_is_named_in_the_language_of_the_phone_that_joins(rf):
    """The name a household's page lists: "Chrome on Linux", "Chrome på Linux" in Swedish."""
    linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"
    with translation.override("sv"):
        assert browser_name(rf.get("/", headers={"User-Agent": linux})) == "Chrome på Linux"
        assert browser_name(rf.get("/", headers={"User-Agent": "curl/8"})) == "En webbläsare"
    assert browser_name(rf.get("/", headers={"User-Agent": linux})) == "Chrome on Linux"
