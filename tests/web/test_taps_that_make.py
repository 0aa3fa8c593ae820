"""Two quick taps on "Start the game", "Rematch" or "Join the household" send the form twice:
one game is made, or one browser joins."""

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse

from scorecard.access import sharing
from scorecard.access.households import browser_made, household_for_writing
from scorecard.game import services
from scorecard.models import Browser, Game, Household, IdempotentRequest
from scorecard.web import idempotency
from tests.factories import GameFactory, play_on
from tests.helpers import game_url, text

FORM = {"name_1": "Ann", "name_2": "Bob", "joker": "hasbro", "mode": "standard"}


def browser_named(response) -> str:
    """The browser key in the answer's household cookie (its signature holds the second it
    was signed, so two answers naming one browser may differ in it)."""
    cookie = settings.HOUSEHOLD_COOKIE
    request = RequestFactory().get("/")
    request.COOKIES[cookie] = response.cookies[cookie].value
    return request.get_signed_cookie(cookie)


def start(client: Client, tap: str, **changes: str):
    return client.post(reverse("game-new"), FORM | changes | {idempotency.FIELD: tap})


def test_the_same_start_sent_twice_makes_one_game(client_of):
    tap = str(uuid.uuid4())
    first, again = start(client_of, tap), start(client_of, tap)
    game = Game.objects.get()
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == game_url(game)


def test_a_new_phone_s_second_start_before_its_cookie_came_back_joins_the_first(db):
    """Both sends leave before the first answer sets the household's cookie: the second is
    sent to the first one's game and given the first one's browser, so that game is its own."""
    tap = str(uuid.uuid4())
    first, again = start(Client(), tap), start(Client(), tap)
    game = Game.objects.get()
    assert first["Location"] == again["Location"] == game_url(game)
    assert Household.objects.count() == Browser.objects.count() == 1
    assert browser_named(first) == browser_named(again)
    later = Client()
    later.cookies[settings.HOUSEHOLD_COOKIE] = again.cookies[settings.HOUSEHOLD_COOKIE].value
    assert later.get(game_url(game)).status_code == 200


def test_a_form_brought_back_and_changed_makes_another_game(client_of):
    """The Back button brings the form back with its key: changed names ask for a new game."""
    tap = str(uuid.uuid4())
    first, changed = start(client_of, tap), start(client_of, tap, name_2="Bea")
    assert first["Location"] != changed["Location"]
    names = {tuple(game.players.values_list("name", flat=True)) for game in Game.objects.all()}
    assert len(names) == 2


def test_a_start_whose_twin_stored_its_key_first_is_undone(client_of, household):
    """Two sends raced: the other stored the key while this one made its game. This one's
    game (and any household it made) is undone, and it goes to the other's game."""
    tap = str(uuid.uuid4())
    start(client_of, tap)
    winner = Game.objects.get()
    won = IdempotentRequest.objects.get()
    won.delete()  # as if not stored yet when this send looked

    request = RequestFactory().post(reverse("game-new"), FORM | {idempotency.FIELD: tap})

    def make_after_the_twin():
        made = services.game_create(owner=household_for_writing(request), names=["Ann"])
        won.pk = None
        won.save()  # the twin's transaction ends first
        return made

    assert idempotency.game_made_once(request, make_after_the_twin) == winner
    assert list(Game.objects.all()) == [winner]
    assert list(Household.objects.all()) == [household]
    assert browser_made(request) is None and not hasattr(request, "_new_browser_key")


def test_a_start_with_a_key_of_the_wrong_shape_is_refused_in_place(client_of):
    response = start(client_of, "no good")
    assert response.status_code == 400
    assert "carried a key the score card cannot use" in text(response)
    assert 'name="name_1"' in response.content.decode()  # the form, to send again
    assert not Game.objects.exists()


def test_a_second_send_of_a_start_is_not_counted_against_the_creation_limit(client_of, settings):
    settings.CREATION_LIMIT = 1
    tap = str(uuid.uuid4())
    assert start(client_of, tap).status_code == start(client_of, tap).status_code == 302
    refused = start(client_of, str(uuid.uuid4()))
    assert refused.status_code == 429 and "Too many new games" in text(refused)
    assert Game.objects.count() == 1


def test_the_same_rematch_sent_twice_makes_one_game(client_of, household):
    game = play_on(GameFactory(owner=household, names=["Ann", "Bob"]))
    tap, url = str(uuid.uuid4()), game_url(game, "game-rematch")
    first = client_of.post(url, {idempotency.FIELD: tap})
    again = client_of.post(url, {idempotency.FIELD: tap})
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert first["Location"] == again["Location"] == game_url(rematch)


def test_a_rematch_with_a_key_of_the_wrong_shape_is_refused_on_the_game_page(client_of, household):
    game = GameFactory(owner=household, names=["Ann"])
    response = client_of.post(game_url(game, "game-rematch"), {idempotency.FIELD: "?"})
    assert response.status_code == 400
    assert "carried a key the score card cannot use" in text(response)
    assert Game.objects.count() == 1


def test_each_drawing_of_the_start_and_rematch_forms_has_a_key_of_its_own(client_of, household):
    game = play_on(GameFactory(owner=household, names=["Ann"]))
    pages = [client_of.get(url).content.decode() for url in [reverse("game-new")] * 2]
    pages += [client_of.get(game_url(game)).content.decode() for _ in range(2)]
    keys = [page.split(f'name="{idempotency.FIELD}" value="')[1][:36] for page in pages]
    assert len(set(keys)) == 4


@pytest.mark.django_db(transaction=True)
def test_a_new_phone_sending_one_start_from_eight_workers_makes_one_game():
    """Eight threads, each with its own database connection as a worker has, send the same
    start of a brand-new phone at once: one game, one household, one browser, and every
    answer names that game and that browser."""
    tap, ready = str(uuid.uuid4()), threading.Barrier(8)

    def send() -> tuple[str, str]:
        client = Client()
        ready.wait()
        try:
            response = start(client, tap)
            return response["Location"], browser_named(response)
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        answers = set(pool.map(lambda _: send(), range(8)))
    game = Game.objects.get()
    assert Household.objects.count() == Browser.objects.count() == 1
    assert len(answers) == 1 and next(iter(answers))[0] == game_url(game)


def join(client: Client, household: Household, tap: str):
    token = sharing.join_link_renew(household=household) if not household.join_token else None
    address = reverse("household-join", args=[token or household.join_token])
    return client.post(address, {idempotency.FIELD: tap})


def test_a_new_phone_s_two_sends_of_join_make_it_one_browser_of_the_household(household):
    tap = str(uuid.uuid4())
    first, again = join(Client(), household, tap), join(Client(), household, tap)
    assert first.status_code == again.status_code == 302
    joined = Browser.objects.filter(household=household)
    assert joined.count() == 1
    assert browser_named(first) == browser_named(again)
    assert IdempotentRequest.objects.get().game is None


def test_a_join_with_a_key_of_the_wrong_shape_is_refused_in_place(household):
    response = join(Client(), household, "no good")
    assert response.status_code == 400
    assert "carried a key the score card cannot use" in text(response)
    assert "Join the household" in text(response)  # its button, to send it again
    assert not Browser.objects.filter(household=household).exists()
