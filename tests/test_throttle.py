"""How fast one client address may create games and households."""

from django.test import Client
from django.urls import reverse

from scorecard.models import Game, Household

NEW_GAME = {"name_1": "Ann", "joker": "hasbro", "mode": "standard"}


def test_creation_beyond_the_limit_gets_a_429_with_a_message_and_makes_nothing(db, settings):
    settings.CREATION_LIMIT = 2
    for _ in range(2):
        assert Client().post(reverse("game-new"), NEW_GAME).status_code == 302
    refused = Client().post(reverse("game-new"), NEW_GAME)
    assert refused.status_code == 429
    assert "Too many new games from this address" in refused.content.decode()
    assert Game.objects.count() == 2 and Household.objects.count() == 2


def test_another_address_is_counted_on_its_own(db, settings):
    settings.CREATION_LIMIT = 1
    assert Client(REMOTE_ADDR="10.0.0.1").post(reverse("game-new"), NEW_GAME).status_code == 302
    assert Client(REMOTE_ADDR="10.0.0.2").post(reverse("game-new"), NEW_GAME).status_code == 302
    assert Client(REMOTE_ADDR="10.0.0.1").post(reverse("game-new"), NEW_GAME).status_code == 429


def test_behind_a_trusted_proxy_the_forwarded_address_counts(db, settings):
    settings.CREATION_LIMIT = 1
    settings.TRUST_FORWARDED_FOR = True
    first = Client(HTTP_X_FORWARDED_FOR="203.0.113.5, 10.0.0.9")
    assert first.post(reverse("game-new"), NEW_GAME).status_code == 302
    other = Client(HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert other.post(reverse("game-new"), NEW_GAME).status_code == 302
    assert first.post(reverse("game-new"), NEW_GAME).status_code == 429
