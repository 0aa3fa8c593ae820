"""Eight players' Triple Yahtzee on a 360 px phone: 24 columns of three cards each. Found by a
new user: halfway down the sheet its head rows (whose cards the columns are) had scrolled up
out of sight with the page. The sheet now scrolls inside its box both ways, head kept."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import join_household, save_screenshot
from tests.browser.test_narrow_tables import NARROW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
# Where the sheet's head and its last row are drawn on the screen, in the page's pixels.
PLACES = """(table) => {
  const box = (element) => element.getBoundingClientRect();
  const rows = table.tBodies[0].rows;
  return {head: box(table.tHead), last: box(rows[rows.length - 1]), screen: innerHeight};
}"""


def test_an_eight_player_triple_sheets_head_stays_in_sight_at_its_last_row(phones, household):
    from scorecard.game import services
    from scorecard.models import Game
    from tests.factories import play_on

    game = play_on(
        services.game_create(owner=household, names=NAMES, mode=Game.Mode.TRIPLE), turns=12
    )
    phone = phones(viewport=NARROW)
    join_household(phone, household)
    phone.goto(f"{phone.base}/")
    phone.locator(f'main a[href*="{game.public_id}"]').first.tap()
    sheet = phone.locator("#boxes table.sheet")
    expect(sheet).to_be_visible()
    phone.wait_for_load_state()  # triple.css too, as a person sees the page
    # Down the page to the sheet, then a finger on the sheet scrolls it to its last row.
    phone.get_by_role("heading", name="Everyone’s boxes").scroll_into_view_if_needed()
    box = sheet.bounding_box()
    phone.mouse.move(box["x"] + 100, max(box["y"], 0) + 150)
    for _ in range(40):
        places = sheet.evaluate(PLACES)
        if places["last"]["bottom"] <= places["screen"]:
            break
        phone.mouse.wheel(0, 120)
        phone.wait_for_timeout(50)
    save_screenshot(phone, "triple-eight-players-bottom")
    # The head is on the screen, above the last row, both in sight at once.
    assert 0 <= places["head"]["top"] < places["last"]["top"] < places["screen"], places
    assert places["last"]["bottom"] <= places["screen"], places
    assert phone.errors == []
