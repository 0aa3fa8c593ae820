"""The games list reads a finished game's kept results, and shows what adding up its entries
would: the same page for finished, unfinished, tied, Triple, Yatzy and Maxi Yatzy games."""

import re

import pytest
from django.db import connection
from django.db.models import Case, Value, When
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecard.engine import families
from scorecard.game import results, services
from scorecard.game.progress import load_progress
from scorecard.models import Game, Player, Seat
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
    assert "in progress, round 4 of 20" in from_results  # Maxi Yatzy: 20 boxes each


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


@pytest.mark.parametrize(("finished", "going"), [(45, 3), (5, 19), (5, 20), (25, 21)])
def test_pages_run_from_the_games_going_into_the_finished_ones_newest_first(
    household, finished, going
):
    """Whether the games going fill less than the first page, exactly it, or more."""
    bulk_finished_games(household, ["Ann", "Bob"], finished)
    for number in range(going):
        GameFactory(owner=household, names=[["Ann"], ["Bob", "Cy"], ["Di"]][number % 3])
    client = browser_of(household)
    shown = []
    for number in (1, 2, 3):
        page = text(client.get(reverse("games"), {"page": number}, headers=HTMX))
        shown += re.findall(r'href="/games/([^/"]+)/', page)
        if "Older</a>" not in page:
            break
    going_first = Case(When(finished=None, then=Value(0)), default=Value(1))
    listed = Game.objects.filter(owner=household).order_by(going_first.asc(), "-created")
    assert shown == list(listed.values_list("public_id", flat=True))
    assert len(shown) == finished + going


def entry_reads(client) -> tuple[str, int]:
    """The list's region and how many of its queries read entries."""
    with CaptureQueriesContext(connection) as read:
        table = text(client.get(reverse("games"), headers=HTMX))
    return table, sum("scorecard_entry" in query["sql"] for query in read.captured_queries)


def test_a_game_going_is_added_up_once_for_each_version(household):
    going = play_on(GameFactory(owner=household, names=["Ann", "Bob"]), turns=3)
    client = browser_of(household)
    first, reads = entry_reads(client)
    assert reads == 1 and "in progress, round 2 of 13" in first
    again, reads = entry_reads(client)
    assert reads == 0 and again == first

    play_on(going, turns=1)  # a new version: its totals are added up again
    after, reads = entry_reads(client)
    assert reads == 1 and "in progress, round 3 of 13" in after
    progress = load_progress(going)
    for seat in progress.seats:
        assert f"{seat.player.name}</a> {seat.totals.total}</li>" in after


def test_a_renamed_player_shows_at_once_on_a_game_going(household):
    """A game's totals are kept for its version; the names around them are read each time."""
    play_on(GameFactory(owner=household, names=["Ann", "Bob"]), turns=2)
    client = browser_of(household)
    entry_reads(client)
    Player.objects.filter(owner=household, name="Ann").update(name="Annie")
    table, reads = entry_reads(client)
    assert reads == 0 and ">Annie</a>" in table
