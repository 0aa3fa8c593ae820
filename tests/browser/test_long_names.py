"""A player with a 40-character name among four, on a new user's 360 px phone: every
player's numbers stay on the screen (the game's grid, its sheet page, the review's turns and
final card) with no sideways swipe, and the chart's keys are never drawn over each other
("Bartholomew Ma 264" was drawn over "Zoë 281")."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import join_household, save_screenshot
from tests.browser.test_narrow_tables import NARROW, page_width, tables_that_do_not_fit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "Bartholomew Maximilian Featherstonehaugh"
NAMES = ["Zoë", LONG_NAME, "Ann", "Bob"]

# Each key's text under a line chart, as drawn: its box in the page's pixels.
KEYS = """(svg) => [...svg.querySelectorAll("rect + text")].map((text) => {
  const box = text.getBoundingClientRect();
  return {text: text.textContent, left: box.left, right: box.right, top: box.top,
          bottom: box.bottom};
})"""


def crossing(keys: list[dict]) -> list[tuple[str, str]]:
    return [
        (one["text"], other["text"])
        for index, one in enumerate(keys)
        for other in keys[index + 1 :]
        if one["left"] < other["right"] and other["left"] < one["right"]
        and one["top"] < other["bottom"] and other["top"] < one["bottom"]
    ]  # fmt: skip


@pytest.fixture
def long_named_games(household):
    """A game of the four at its fifth turn, and one they finished."""
    from scorecard.game import services
    from tests.factories import play_on

    going = play_on(services.game_create(owner=household, names=NAMES), turns=5)
    finished = play_on(services.game_create(owner=household, names=NAMES), seed=3)
    return going, finished


@pytest.fixture
def phone(phones, household):
    """A new user's 360 px phone in the household that played those games."""
    phone = phones(viewport=NARROW)
    join_household(phone, household)
    return phone


def test_a_forty_letter_name_leaves_every_players_numbers_on_a_360_px_phone(
    phone, long_named_games
):
    going, finished = long_named_games
    phone.goto(f"{phone.base}/games/{going.public_id}/")
    expect(phone.locator("#boxes table.sheet")).to_be_visible()
    found = {"game": (tables_that_do_not_fit(phone), page_width(phone))}
    save_screenshot(phone, "long-name-game")
    phone.get_by_role("link", name="Printable sheet").tap()
    expect(phone.locator("h1")).to_contain_text("Yahtzee score sheet")
    phone.wait_for_load_state()  # its style sheet (pages.css) too, as a person sees it
    found["sheet"] = (tables_that_do_not_fit(phone), page_width(phone))
    save_screenshot(phone, "long-name-sheet")
    phone.goto(f"{phone.base}/games/")
    phone.locator(f'.game-card > a[href*="{finished.public_id}"]').tap()
    expect(phone.locator("table.turns")).to_be_visible()
    phone.wait_for_load_state()
    found["review"] = (tables_that_do_not_fit(phone), page_width(phone))
    save_screenshot(phone, "long-name-review")
    # Each table fits its box (no Points column cut off), and the page fits the screen.
    fitting = ([], NARROW["width"])
    assert found == {"game": fitting, "sheet": fitting, "review": fitting}
    assert phone.errors == []


def test_the_running_totals_keys_of_a_long_name_and_a_short_one_are_apart(phone, long_named_games):
    _going, finished = long_named_games
    phone.goto(f"{phone.base}/games/{finished.public_id}/review/")
    chart = phone.locator("svg.chart").first
    keys = chart.evaluate(KEYS)
    assert [key["text"].split(" ")[0] for key in keys] == ["Zoë", "Bartholomew", "Ann", "Bob"]
    assert crossing(keys) == []
    assert all(key["right"] <= NARROW["width"] for key in keys)
    cut = chart.locator("text", has_text="Bartholomew")
    expect(cut.locator("title")).to_have_text(f"{LONG_NAME} {finished_total(finished)}")
    assert phone.errors == []


def finished_total(game) -> int:
    from scorecard.game.progress import load_progress

    progress = load_progress(game)
    seat = next(seat for seat in progress.seats if seat.player.name == LONG_NAME)
    return seat.totals.total


def test_a_long_browser_name_fits_the_question_before_it_is_removed(phone, household):
    """Found by a new user: a 60-character name without a space ran "Yes, remove …" past
    both edges of its button, and the page scrolled sideways at 360 px."""
    from scorecard.models import Browser

    name = "Granny’s tablet " + "x" * 44
    Browser.objects.create(household=household, name=name)
    phone.goto(f"{phone.base}/household/")
    phone.get_by_role("link", name=f"Remove {name}").tap()
    button = phone.get_by_role("button", name=f"Yes, remove {name}")
    expect(button).to_be_visible()
    save_screenshot(phone, "long-browser-name-remove")
    assert page_width(phone) == NARROW["width"]
    assert button.evaluate("(b) => b.scrollWidth <= b.clientWidth")  # its words inside it
    assert phone.errors == []
