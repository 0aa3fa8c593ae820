"""Households: a game belongs to the browser whose signed cookie names its household."""

from django.test import Client
from django.urls import reverse

from scorecard.models import Game
from tests.conftest import game_url
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
