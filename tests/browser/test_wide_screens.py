"""A laptop or a tablet on the table: pages laid out for a wide screen and used with a
mouse (a tester drove a 1366 px laptop and a 768 px tablet)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import join_household, save_screenshot
from tests.browser.test_history_pages import SOLO_GAME, play
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


def laptop_of_a_finished_game(phones):
    """A laptop in a household whose one game, Ann's and Bob's, is over; and that game."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in (1, 2)])
    page = phones(viewport=LAPTOP, scale=1, touch=False)
    join_household(page, household)
    return page, game


def widths(page, selector: str) -> list[float]:
    return [element.bounding_box()["width"] for element in page.locator(selector).all()]


def test_a_laptops_forms_keep_their_fields_to_what_they_hold(phones):
    """The sheet's Columns (one digit), the games list's filters and the new game's names
    were each as wide as the page, 757 px: a field is now as wide as what it holds, and a
    form's button as its words. Each form still does its job by a click."""
    page, _game = laptop_of_a_finished_game(phones)
    page.goto(f"{page.base}/sheet/")
    assert max(widths(page, "main select, main form.stack > button")) < 300
    page.get_by_label("Columns").select_option("3")
    page.get_by_role("button", name="Update the sheet").click()
    page.wait_for_url("**columns=3**")
    page.get_by_role("link", name="Games", exact=True).click()
    assert max(widths(page, "form.filters select")) < 300
    page.locator("form.filters").get_by_label("Player").select_option(label="Ann")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**player=**")
    page.get_by_role("link", name="New game").click()
    assert max(widths(page, "input[name^=name_]")) <= 24 * 17 + 1
    page.get_by_label("Player 1", exact=True).fill("Cleo")
    page.get_by_role("button", name="Start the game").first.click()
    expect(page.get_by_role("heading", name="Cleo’s turn")).to_be_visible()
    save_screenshot(page, "laptop-game-page")
    assert page.errors == []


def test_a_reviews_names_and_boxes_line_up_on_the_left(phones):
    page, game = laptop_of_a_finished_game(phones)
    page.goto(f"{page.base}/games/")
    page.locator(f'.game-card > a[href*="{game.public_id}"]').click()
    page.wait_for_url("**/review/")
    cells = page.locator("table.turns tr > :is(:nth-child(2), :nth-child(3))")
    aligned = {cell.evaluate("e => getComputedStyle(e).textAlign") for cell in cells.all()}
    assert aligned == {"left"}, aligned
    assert page.errors == []


@pytest.mark.parametrize(("players", "language"), [(4, "en"), (8, "de")])
def test_a_watch_link_on_a_laptop_is_a_scoreboard_read_from_across_the_room(
    phones, players, language
):
    """Found by a tester with the laptop by the table as the family's scoreboard: the watch
    page was a phone's column in the middle of the screen, its standings at 13.6 px and the
    card's lower half below the fold. On a wide screen the standings and the turn stand
    beside the whole card, in sight at 1366×768, the standings' figures larger."""
    from tests.views.test_poll_steps import watch_address

    names = ["Grandma Elisabeth", "Dad", "Leo", "Mia", "Ed", "Flo", "Gus", "Hal"][:players]
    game = GameFactory(names=names)
    play(game, [turn for turn in SOLO_GAME[:5] for _ in names])
    page = phones(viewport=LAPTOP, scale=1, touch=False)
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.goto(page.base + watch_address(game))
    standings = page.locator("table.standings").bounding_box()
    card = page.locator("#boxes table.sheet").bounding_box()
    assert card["x"] > standings["x"] + standings["width"]  # side by side
    assert card["y"] + card["height"] <= LAPTOP["height"]  # the whole card in sight
    regions = "[...document.querySelectorAll('.scroll')].map(s => s.scrollWidth - s.clientWidth)"
    assert page.evaluate(regions) == [0, 0]  # nothing behind a sideways swipe
    figure = page.locator("table.standings tbody td").first
    assert float(figure.evaluate("e => getComputedStyle(e).fontSize")[:-2]) >= 20
    save_screenshot(page, f"watch-scoreboard-{players}-{language}")
    assert page.errors == []
