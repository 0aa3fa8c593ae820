"""A player renamed on a phone, and one person kept under two names made one, by taps."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorecard.models import Player
from tests.browser.conftest import PHONE, join_household, save_screenshot
from tests.browser.test_accessibility import AXE_OPTIONS
from tests.factories import HouseholdFactory
from tests.helpers import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# What the browser logs of a refusal's answer (400), and nothing else may be logged.
REFUSED = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


def _open_player(phone, name: str) -> None:
    phone.goto(f"{phone.base}/players/")
    phone.get_by_role("link", name=name, exact=True).click()
    expect(phone.get_by_role("heading", level=1, name=name)).to_be_visible()


def _rename_to(phone, current: str, new: str) -> None:
    if not phone.locator("#rename").evaluate("details => details.open"):  # open after a refusal
        phone.get_by_text(f"Rename {current}").click()
    phone.get_by_label("New name").fill(new)
    phone.get_by_role("button", name="Rename", exact=True).click()


def test_a_typo_is_put_right_and_two_names_of_one_person_made_one(phone):
    household = HouseholdFactory()
    finished_game(household, names=("Jon", "Bob"))
    finished_game(household, names=("John",))
    join_household(phone, household)
    _open_player(phone, "Jon")

    _rename_to(phone, "Jon", "   ")  # spaces pass the field's `required`, not the card
    field = phone.get_by_label("New name")
    expect(phone.get_by_role("alert")).to_have_text("Write the player’s new name.")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")

    # The field takes the form's width: a 40-letter name shows whole (it showed 15 at 320 px).
    form_width = phone.locator("form.rename").bounding_box()["width"]
    assert field.bounding_box()["width"] >= 0.9 * form_width
    _rename_to(phone, "Jon", "Jonny")
    expect(phone.get_by_role("heading", level=1, name="Jonny")).to_be_visible()
    expect(phone.get_by_role("status")).to_have_text("Now called Jonny.")
    expect(phone.get_by_role("status")).to_be_focused()

    _rename_to(phone, "Jonny", "john")
    question = phone.get_by_role("alert")
    expect(question).to_contain_text("John is another player already.")
    expect(question).to_be_focused()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert Axe().run(phone, options=AXE_OPTIONS).violations_count == 0
    save_screenshot(phone, "player-merge-question")
    phone.get_by_role("button", name="Merge into John").click()

    expect(phone.get_by_role("heading", level=1, name="John")).to_be_visible()
    expect(phone.get_by_role("status")).to_have_text("Jonny’s games are John’s now.")
    expect(phone.locator("dt:text-is('Games finished') + dd")).to_have_text("2")
    assert list(Player.objects.order_by("name").values_list("name", flat=True)) == ["Bob", "John"]
    assert phone.errors == [REFUSED]


def test_no_keeps_both_and_two_players_of_one_game_stay_two(phone):
    household = HouseholdFactory()
    finished_game(household, names=("Ann", "Bob"))
    finished_game(household, names=("Anna",))
    finished_game(household, names=("Bob", "Bo"))
    join_household(phone, household)
    _open_player(phone, "Anna")
    _rename_to(phone, "Anna", "ANN")
    phone.get_by_role("link", name="No, keep both").click()
    expect(phone.get_by_role("heading", level=1, name="Anna")).to_be_visible()
    field = phone.get_by_label("New name")  # back at the name, as it was (not the page's top)
    expect(field).to_be_focused()
    expect(field).to_have_value("Anna")

    _open_player(phone, "Bo")
    _rename_to(phone, "Bo", "BOB")  # they sat at one game: not asked, refused
    expect(phone.get_by_role("alert")).to_have_text(
        "Bo and Bob played in the same game, so they are two people."
    )
    expect(phone.get_by_label("New name")).to_have_value("BOB")
    assert Player.objects.count() == 4
    assert phone.errors == [REFUSED]


def test_a_forty_letter_name_without_a_space_keeps_the_page_on_the_screen(phone):
    household = HouseholdFactory()
    finished_game(household, names=("Jon",))
    join_household(phone, household)
    _open_player(phone, "Jon")
    long_name = "X" * 40
    _rename_to(phone, "Jon", long_name)
    expect(phone.get_by_role("status")).to_have_text(f"Now called {long_name}.")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.get_by_text(f"Rename {long_name}").click()  # in reach of a tap, not covered
    expect(phone.get_by_label("New name")).to_be_visible()
    save_screenshot(phone, "player-forty-letters")
    assert phone.errors == []
