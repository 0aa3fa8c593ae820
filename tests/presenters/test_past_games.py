"""The games list reads a finished game's kept results, and shows what adding up its entries
would: the same page for finished, unfinished, tied, Triple, Yatzy and Maxi Yatzy games."""

import re

from django.db import connection
from django.db.models import Case, Value, When
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecard.engine import families
from scorecard.game import results, services
from scorecard.models import Game, Seat
from tests.factories import SOLO_GAME, GameFactory, bulk_finished_games, card_total, play_on
from tests.helpers import browser_of, finished_game, text

HTMX = {"HX-Request": "true"}  # the list's own region, with no form token that differs


def every_kind_of_game(household) -> list[Game]:
    yatzy = services.HouseSettings(families.YATZY.key)
    maxi = services.HouseSettings(families.MAXI.key)
    return [
        finished_game(household),  # Ann and Bob tie
        play_on(GameFactory(owner=household, names=["Ann", "Bob", "Cy"]), seed=1),
        play_on(GameFactory(owner=household, names=["Bob", "Ann"], mode=Game.Mode.TRIPLE), seed=2),
        play_on(GameFactory(owner=household, names=["Cy", "Ann"], house=yatzy), seed=3),
        play_on(GameFactory(owner=household, names=["Ann", "Di"], house=maxi), seed=4),
        play_on(GameFactory(owner=household, names=["Ann", "Bob"], house=maxi), turns=7, seed=5),
        play_on(GameFactory(owner=household, names=["Di", "Cy"]), turns=5, seed=6),
        GameFactory(owner=household, names=["Ann"], house=yatzy),
    ]


def test_the_list_from_kept_results_is_the_list_from_every_entry(household):
    every_kind_of_game(household)
    client = browser_of(household)
    table = lambda: text(client.get(reverse("games"), headers=HTMX))  # noqa: E731
    from_results = table()
    # As an upgrade leaves finished games before `settle_results`: added up from entries.
    Seat.objects.update(**dict.fromkeys(results.SETTLED_FIELDS))
    with CaptureQueriesContext(connection) as read:
        from_entries = table()
    assert any("scorecard_entry" in query["sql"] for query in read.captured_queries)
    assert from_results == from_entries
    assert from_results.count('class="game-card"') == 8
    assert from_results.count('aria-label="winner"') == 6  # the tie's two, four won outright
    assert "in progress, turn 8 of 40" in from_results  # Maxi Yatzy: 20 boxes each


def test_a_page_of_finished_games_reads_no_entries(household):
    bulk_finished_games(household, ["Ann", "Bob"], 25)
    with CaptureQueriesContext(connection) as read:
        page = text(browser_of(household).get(reverse("games")))
    assert page.count('class="game-card"') == 20
    assert not [query for query in read.captured_queries if "scorecard_entry" in query["sql"]]


def test_only_the_unfinished_games_of_a_page_have_their_entries_read(household):
    bulk_finished_games(household, ["Ann", "Bob"], 5)
    going = play_on(GameFactory(owner=household, names=["Ann", "Bob"]), turns=3)
    with CaptureQueriesContext(connection) as read:
        browser_of(household).get(reverse("games"))
    [entries] = [
        query["sql"] for query in read.captured_queries if "scorecard_entry" in query["sql"]
    ]
    assert f"IN ({going.pk})" in entries


def test_a_finished_game_waiting_to_be_settled_is_added_up_from_its_entries(household):
    game = finished_game(household, names=("Ann",))
    Seat.objects.filter(game=game).update(**dict.fromkeys(results.SETTLED_FIELDS))
    page = text(browser_of(household).get(reverse("games")))
    assert f"Ann</a> {card_total(SOLO_GAME)}</li>" in page


def test_pages_run_from_the_games_going_into_the_finished_ones_newest_first(household):
    bulk_finished_games(household, ["Ann", "Bob"], 45)
    for names in (["Ann"], ["Bob", "Cy"], ["Di"]):
        GameFactory(owner=household, names=names)
    client = browser_of(household)
    shown = []
    for number in (1, 2, 3):
        page = text(client.get(reverse("games"), {"page": number}, headers=HTMX))
        shown += re.findall(r'href="/games/([^/"]+)/', page)
    going_first = Case(When(finished=None, then=Value(0)), default=Value(1))
    listed = Game.objects.filter(owner=household).order_by(going_first.asc(), "-created")
    assert shown == list(listed.values_list("public_id", flat=True))
    assert len(shown) == 48
