"""How fast one client address may create games and households."""

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from io import StringIO

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse

from scorecard.access import throttle
from scorecard.models import CreationCount, Game, Household
from tests.helpers import finished_game, good_document, text

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


def test_behind_a_trusted_proxy_the_address_it_appended_counts(db, settings):
    """The proxy appends the address it saw to whatever X-Forwarded-For the client sent."""
    settings.CREATION_LIMIT = 1
    settings.TRUST_FORWARDED_FOR = True
    first = Client(HTTP_X_FORWARDED_FOR="203.0.113.5", REMOTE_ADDR="10.0.0.9")
    assert first.post(reverse("game-new"), NEW_GAME).status_code == 302
    other = Client(HTTP_X_FORWARDED_FOR="203.0.113.6", REMOTE_ADDR="10.0.0.9")
    assert other.post(reverse("game-new"), NEW_GAME).status_code == 302
    assert first.post(reverse("game-new"), NEW_GAME).status_code == 429


def test_an_address_the_client_wrote_itself_does_not_escape_the_limit(db, settings):
    settings.CREATION_LIMIT = 1
    settings.TRUST_FORWARDED_FOR = True
    for spoofed in ["198.51.100.1", "198.51.100.2"]:
        forwarded = f"{spoofed}, 203.0.113.5"  # the client's own header, then the proxy's
        response = Client(HTTP_X_FORWARDED_FOR=forwarded).post(reverse("game-new"), NEW_GAME)
    assert response.status_code == 429
    assert Game.objects.count() == 1


def forwarded_request(forwarded: str, remote: str = "10.0.0.9"):
    return RequestFactory().get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR=remote)


def test_the_client_is_the_address_the_trusted_proxies_appended(settings):
    settings.TRUST_FORWARDED_FOR = True
    settings.FORWARDED_HOPS = 1
    assert throttle.client_address(forwarded_request("1.1.1.1, 2.2.2.2,3.3.3.3 ")) == "3.3.3.3"
    settings.FORWARDED_HOPS = 2  # e.g. a CDN, then the load balancer in front of the server
    assert throttle.client_address(forwarded_request("1.1.1.1, 2.2.2.2, 3.3.3.3")) == "2.2.2.2"


def test_a_forwarded_list_shorter_than_the_proxies_counts_the_proxy_itself(settings):
    settings.TRUST_FORWARDED_FOR = True
    settings.FORWARDED_HOPS = 2
    assert throttle.client_address(forwarded_request("1.1.1.1")) == "10.0.0.9"
    assert throttle.client_address(forwarded_request(" , 1.1.1.1")) == "10.0.0.9"


def test_without_a_trusted_proxy_the_forwarded_header_is_ignored(settings):
    settings.TRUST_FORWARDED_FOR = False
    assert throttle.client_address(forwarded_request("1.1.1.1")) == "10.0.0.9"


def test_a_rematch_is_a_new_game_and_counts_against_the_limit(client_of, household, settings):
    settings.CREATION_LIMIT = 2
    games = [finished_game(household) for _ in range(3)]  # made by the factories: no count
    for game in games[:2]:
        assert client_of.post(reverse("game-rematch", args=[game.public_id])).status_code == 302
    game = games[2]
    refused = client_of.post(reverse("game-rematch", args=[game.public_id]))
    assert refused.status_code == 429
    assert Game.objects.count() == 5
    page = text(refused)  # the finished game's page, the reason above its Rematch button
    said = '<p class="error" role="alert" id="turn-error" tabindex="-1" autofocus>'
    assert f"{said}Too many new games from this" in page  # and focused
    assert "Rematch with the same players" in page


def test_a_finished_game_s_second_rematch_is_its_first_and_counts_nothing(
    client_of, household, settings
):
    """Back to the finished game, then Rematch again (a new tap key): the same new game."""
    settings.CREATION_LIMIT = 1
    game = finished_game(household)
    rematch = reverse("game-rematch", args=[game.public_id])
    first = client_of.post(rematch, {"idempotency_key": "a" * 32})
    second = client_of.post(rematch, {"idempotency_key": "b" * 32})
    assert second.status_code == 302 and second["Location"] == first["Location"]
    assert Game.objects.count() == 2
    assert Game.objects.get(rematch_of=game).public_id in first["Location"]


@pytest.mark.django_db(transaction=True)
def test_workers_counting_at_once_let_exactly_the_limit_through(settings):
    """Twenty threads, each with its own database connection as a worker has, ask 60 times
    at once: exactly the limit is allowed, never one more."""
    settings.CREATION_LIMIT = 30
    start = threading.Barrier(20)

    def ask_three_times() -> list[bool]:
        start.wait()
        try:
            return [throttle.creation_allowed(forwarded_request("", "10.9.9.9")) for _ in range(3)]
        finally:
            connection.close()

    with ThreadPoolExecutor(20) as pool:
        asked = list(pool.map(lambda _: ask_three_times(), range(20)))
    answers = [answer for three in asked for answer in three]
    assert answers.count(True) == 30
    assert CreationCount.objects.get(address="10.9.9.9").count == 60


def test_a_new_window_starts_from_zero_and_forgets_the_old_ones(db, settings, monkeypatch):
    settings.CREATION_LIMIT = 1
    settings.CREATION_WINDOW = 600
    request = forwarded_request("", "10.1.1.1")
    monkeypatch.setattr(throttle.time, "time", lambda: 600 * 1000 + 5)
    assert throttle.creation_allowed(request)
    assert not throttle.creation_allowed(request)
    monkeypatch.setattr(throttle.time, "time", lambda: 600 * 1001 + 5)
    assert throttle.creation_allowed(request)
    assert list(CreationCount.objects.values_list("window", "count")) == [(1001, 1)]


def test_an_import_beyond_the_limit_is_refused_in_the_phone_s_language(household, settings):
    """An import from a new browser makes a household, so it counts; the refusal on the
    import page is said in the phone's language."""
    settings.CREATION_LIMIT, settings.CREATION_WINDOW = 0, 600
    upload = StringIO(json.dumps(good_document(household)))
    upload.name = "games.json"
    swedish = Client(headers={"Accept-Language": "sv"})
    refused = swedish.post(reverse("games-import"), {"file": upload})
    assert refused.status_code == 429
    assert (
        '<p class="error" role="alert" id="import-error" tabindex="-1" autofocus>'
        "För många nya spel från den här adressen: högst 0 på "
        "10 minuter. Vänta en stund och försök igen.</p>"
    ) in text(refused)
    assert not Game.objects.exists()
