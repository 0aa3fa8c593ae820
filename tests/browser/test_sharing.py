"""Several phones at one table: a watcher follows the game live until its link is revoked,
and two scorers recording the same turn never lose or double an entry."""

import re

import pytest
from playwright.sync_api import expect

from scorecard import sharing
from scorecard.models import Entry, LinkRole
from tests.browser.conftest import PHONE, join_household
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def second_phone(chromium, live_server):
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()


def enter(page, dice: str) -> None:
    pad = page.get_by_role("group", name="Add a die")
    for face in dice:
        pad.get_by_role("button", name=face, exact=True).click()
    expect(page.locator(".box-options button").first).to_be_visible()


def box(page, label: str):
    return page.locator(f'.box-options button[aria-label^="{label},"]')


def total_of(page, name: str):
    return page.locator("#standings tbody tr", has_text=name).locator("td.total")


def test_a_watcher_sees_each_entry_live_until_the_link_is_revoked(phone, second_phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    token = sharing.link_renew(game=game, role=LinkRole.WATCH).token
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    watcher = second_phone
    watcher.goto(f"{watcher.base}/watch/{token}/")
    watcher.evaluate("window.stillTheSamePage = true")
    expect(watcher.get_by_role("heading", name="Ann’s turn")).to_be_visible()

    enter(phone, "44425")
    box(phone, "Fours").click()
    expect(phone.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(total_of(watcher, "Ann")).to_have_text("12", timeout=5_000)  # within 5 s
    expect(watcher.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    enter(phone, "66612")
    box(phone, "Sixes").click()
    expect(total_of(watcher, "Bob")).to_have_text("18", timeout=5_000)
    assert watcher.evaluate("window.stillTheSamePage") is True  # no reload

    with watcher.expect_response(
        lambda response: "live=1" in response.url and response.status == 404, timeout=6_000
    ):
        sharing.link_revoke(game=game, role=LinkRole.WATCH)
    expect(watcher.get_by_text(re.compile("This link no longer works"))).to_be_visible()
    assert watcher.goto(f"{watcher.base}/watch/{token}/").status == 404
    assert phone.errors == []


def test_two_scorers_on_the_same_turn_one_wins_the_other_sees_the_fresh_card(phone, second_phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    token = sharing.link_renew(game=game, role=LinkRole.SCORE).token
    first, second = phone, second_phone
    second.route(re.compile(r".*live=1.*"), lambda route: route.abort())  # a slow phone
    for page in (first, second):
        page.goto(f"{page.base}/score/{token}/")
        expect(page.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    enter(first, "44425")
    enter(second, "12346")
    box(first, "Fours").click()
    expect(first.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    box(second, "Chance").click()
    expect(second.get_by_role("alert")).to_contain_text("The card changed since this screen")
    expect(second.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(total_of(second, "Ann")).to_have_text("12")
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "fours", 12)]

    enter(second, "66612")  # the second phone goes on from the fresh card
    box(second, "Sixes").click()
    expect(second.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    assert list(Entry.objects.values_list("turn", "box")) == [(1, "fours"), (2, "sixes")]
    assert first.errors == []
