"""Households: a game belongs to the browser whose signed cookie names its household."""

import pytest
from django.http import Http404
from django.test import Client, RequestFactory
from django.urls import reverse

from scorecard.households import household_game
from scorecard.models import Game
from tests.conftest import game_url, household_cookie
from tests.factories import HouseholdFactory


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
        found = household_game(request, game.public_id, with_seats=True)
        names = [seat.player.name for seat in found.seats.all()]
    assert found.pk == game.pk and found.owner == game.owner and names == ["Ann", "Bob"]
    stranger = RequestFactory().get("/")
    stranger.COOKIES["household"] = household_cookie(HouseholdFactory())
    with pytest.raises(Http404):
        household_game(stranger, game.public_id, with_seats=True)


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
