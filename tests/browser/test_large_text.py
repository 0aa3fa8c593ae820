"""A phone whose text is set twice as large: the browser zooms the page, so a 360 px screen
lays out 180 px (a new user's helper drove such a phone). Every screen of a turn fits its
width: the menu wraps, the boxes and the pad take fewer columns, the typed dice stay
readable, and a digital game's dice take more rows."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT_AT_200 = {"viewport": {"width": 180, "height": 370}, "scale": 4}

# What reaches past the screen's right edge: the page itself, or a control of the turn.
PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth;
  const parts = [...document.querySelectorAll(
    '.site-header a, #dice-typed, .pad button, .box-option, .hold, .roll-button, .box-choice')];
  const past = parts.filter(e => e.getBoundingClientRect().right > width + 0.5);
  return [document.documentElement.scrollWidth - width, past.map(e => e.textContent.trim())];
}"""


def start(page, names, *, digital=False) -> None:
    page.goto(f"{page.base}/games/new/" + ("?dice=digital" if digital else ""))
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#turn-title")).to_contain_text(f"{names[0]}’s turn")


def test_a_table_turn_fits_a_phone_with_text_at_200_percent(phones):
    """Found by a new user's helper: the menu held the page at 300 px, the third column of
    boxes (Threes 9, Sixes, Full house 25) was cut off, the pad's faces were 17 px wide and
    the dice field showed one die of five."""
    page = phones(**TEXT_AT_200)
    start(page, ["Grandma Elisabeth-Anne", "Tom", "Priya", "Jo"])
    pad = page.get_by_role("group", name="Add a die")
    for face in "33355":
        pad.get_by_role("button", name=face, exact=True).tap()
    full_house = page.get_by_role("button", name="Full house, 25 points")
    expect(full_house).to_be_visible()
    assert page.evaluate(PAST_THE_EDGE) == [0, []]
    for face in "123456":
        assert pad.get_by_role("button", name=face, exact=True).bounding_box()["width"] >= 36
    typed = page.locator("#dice-typed")
    # All five dice show: what scrolls is the spacing after the last one, and a few pixels of
    # its glyph's side into the field's padding (one die more would be a whole 20 px).
    spare = "e => e.clientWidth + parseFloat(getComputedStyle(e).letterSpacing) - e.scrollWidth"
    assert typed.evaluate(spare) >= -4
    save_screenshot(page, "large-text-table-turn")
    full_house.tap()
    expect(page.locator("#turn-title")).to_contain_text("Tom’s turn")
    assert page.evaluate(PAST_THE_EDGE) == [0, []]
    assert page.errors == []


def test_a_digital_turn_fits_a_phone_with_text_at_200_percent(phones):
    """Found by a new user's helper: the fifth die and its Hold were cut off."""
    page = phones(**TEXT_AT_200)
    start(page, ["Ann", "Bob"], digital=True)
    page.get_by_role("button", name="Roll").first.tap()
    expect(page.locator(".hold")).to_have_count(5)
    assert page.evaluate(PAST_THE_EDGE) == [0, []]
    for die in page.locator(".hold .die").all():
        assert die.bounding_box()["width"] >= 40
    save_screenshot(page, "large-text-digital-turn")
    assert page.errors == []


def test_the_new_game_and_share_pages_fit_text_at_200_percent(phones):
    """Found by a new user's helper: the names were 46 px wide ("Pla", "…eth-Anne") and the
    share page's QR code reached past the screen's edge."""
    page = phones(**TEXT_AT_200)
    page.goto(f"{page.base}/games/new/")
    for field in page.locator(".seats input").all():
        assert field.bounding_box()["width"] >= 120
    start(page, ["Grandma Elisabeth-Anne", "Tom"])
    page.get_by_role("link", name="Share").tap()
    page.get_by_role("button", name="Make a watch link").tap()
    qr = page.locator("img.qr").first
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box["x"] + box["width"] <= 180 and box["width"] >= 100
    assert page.evaluate("document.documentElement.scrollWidth") <= 180
    assert page.errors == []


def test_maxi_yatzy_s_choices_and_six_dice_fit_text_at_200_percent(phones):
    """Found by a tester: Maxi Yatzy chosen, its bonus fields were cut off (the page 204 px
    wide), and the dice field showed five of its six dice."""
    page = phones(**TEXT_AT_200)
    page.goto(f"{page.base}/games/new/")
    page.get_by_label("Maxi Yatzy").tap()
    bonus = page.get_by_label("Bonus points")
    expect(bonus).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 180
    edge = bonus.bounding_box()
    assert edge["x"] + edge["width"] <= 180
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    pad = page.get_by_role("group", name="Add a die")
    for face in "665543":
        pad.get_by_role("button", name=face, exact=True).tap()
    expect(page.locator(".box-options")).to_be_visible()
    typed = page.locator("#dice-typed")
    expect(typed).to_have_value("665543")
    spare = "e => e.clientWidth + parseFloat(getComputedStyle(e).letterSpacing) - e.scrollWidth"
    assert typed.evaluate(spare) >= -4
    assert page.evaluate(PAST_THE_EDGE) == [0, []]
    save_screenshot(page, "large-text-maxi-turn")
    assert page.errors == []


@pytest.mark.parametrize(
    ("options", "language"),
    [(TEXT_AT_200, "en"), ({"viewport": {"width": 360, "height": 740}}, "es")],
)
def test_the_advice_switch_opened_keeps_the_page_within_the_screen(phones, options, language):
    """Found by two testers: opened, the advice switch was as wide as its longest choice
    ("Coach: a loss of 0.5+ points"), and a Spanish page (416 px), a Finnish one and an
    English one at 200% text (555 px) scrolled sideways. It takes a line of its own."""
    page = phones(**options)
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"{page.base}/games/new/")
    page.locator("#main input[type=text]").first.fill("Ann")
    page.locator("#main button[type=submit]").last.tap()
    page.locator(".advice-switch summary").tap()
    choice = page.locator("#advice-setting")
    expect(choice).to_be_focused()
    width = page.viewport_size["width"]  # a phone's window widens to what overflows it
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = choice.bounding_box()
    assert box["x"] + box["width"] <= width
    save_screenshot(page, f"advice-switch-open-{language}")


def test_the_household_and_language_pages_fit_text_at_200_percent(phones):
    """Found by a keyboard's tester at 180 px: the household page's name field reached past
    the screen (254 px) and the language page was 186 px wide."""
    page = phones(**TEXT_AT_200)
    start(page, ["Ann"])  # a household of its own
    for path in ("/household/", "/language/"):
        page.goto(f"{page.base}{path}")
        wide = page.evaluate(
            """() => [document.documentElement.scrollWidth,
                [...document.querySelectorAll('main *')]
                  .filter(e => e.getBoundingClientRect().right > 180.5)
                  .map(e => e.tagName + '.' + e.className + '#' + e.id)]"""
        )
        save_screenshot(page, f"text-200{path.replace('/', '-')}")
        assert wide == [180, []], path
    assert page.errors == []


# Each player's name and total cell, and whether it lies inside the standings' scrolled box.
NAMES_AND_TOTALS_IN_SIGHT = """() => {
  const box = document.querySelector('#standings .scroll').getBoundingClientRect();
  const inside = (e) => {
    const cell = e.getBoundingClientRect();
    return cell.left >= box.left - 0.5 && cell.right <= box.right + 0.5;
  };
  return [...document.querySelectorAll('#standings tbody tr')].map(
    (row) => [row.querySelector('th').textContent, inside(row.querySelector('th')),
              row.querySelector('.total').textContent, inside(row.querySelector('.total'))]);
}"""


def test_the_standings_keep_names_and_totals_in_sight_with_text_at_200_percent(phones):
    """Found by two new users' helpers: at 200% the standings showed Player, Up, Bon and Low,
    the totals behind a swipe; swiped, the names went. Both stay where they are now."""
    page = phones(**TEXT_AT_200)
    start(page, ["Ann", "Bob", "Cleo"])
    pad = page.get_by_role("group", name="Add a die")
    for face in "44425":
        pad.get_by_role("button", name=face, exact=True).tap()
    page.get_by_role("button", name="Fours, 12 points").tap()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    table = page.get_by_role("region", name="Standings table")
    assert table.evaluate("e => e.scrollWidth > e.clientWidth")  # it is swiped to see it all
    in_sight = [["Ann", True, "12", True], ["Bob", True, "0", True], ["Cleo", True, "0", True]]
    for swiped in (0, 40, 10_000):
        table.evaluate(f"e => e.scrollLeft = {swiped}")
        assert page.evaluate(NAMES_AND_TOTALS_IN_SIGHT) == in_sight, swiped
        save_screenshot(page, f"large-text-standings-{swiped}")
    header = table.locator("thead th")
    assert header.first.evaluate("e => getComputedStyle(e).position") == "sticky"
    assert table.locator("thead .total").evaluate("e => getComputedStyle(e).position") == "sticky"
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_player_page_fits_a_phone_with_text_at_200_percent(phones, language):
    """Found by a tester: at 150% text and more a player's "Average per box" table ran past
    the screen (481 px of 360 at 200%): it now swipes inside its own region, as the game's
    tables do, and the page itself does not."""
    from tests.browser.conftest import join_household
    from tests.browser.test_history_pages import SOLO_GAME, play
    from tests.factories import GameFactory, HouseholdFactory

    household = HouseholdFactory()
    play(GameFactory(owner=household, names=["Ann", "Bob"]), [t for t in SOLO_GAME for _ in (1, 2)])
    page = phones(**TEXT_AT_200)
    page.context.set_extra_http_headers({"Accept-Language": language})
    join_household(page, household)
    page.goto(f"{page.base}/games/")
    page.locator(".game-card .scores").get_by_role("link", name="Ann").first.tap()
    expect(page.locator("table.box-averages tbody tr")).to_have_count(13)
    root = "document.documentElement"
    assert page.evaluate(f"{root}.scrollWidth <= {root}.clientWidth")
    region = page.locator("table.box-averages").locator("xpath=..")
    assert region.evaluate("scroll => scroll.scrollWidth > scroll.clientWidth")  # it swipes
    save_screenshot(page, f"player-page-{language}-200")
    assert page.errors == []


def test_the_new_game_form_fits_text_at_200_percent_in_finnish(phones):
    """Found by a helper: the players' legend, "Pelaajat istumajärjestyksessä", was cut off
    at its long word and the page scrolled sideways (203 px of 180)."""
    page = phones(**TEXT_AT_200)
    page.context.set_extra_http_headers({"Accept-Language": "fi"})
    page.goto(f"{page.base}/games/new/")
    expect(page.locator("legend").first).to_contain_text("istumajärjestyksessä")
    save_screenshot(page, "large-text-new-game-fi")
    assert page.evaluate("document.documentElement.scrollWidth") <= 180
    assert page.errors == []


def test_the_page_s_text_grows_with_the_browser_s_own_text_size(phones):
    """Found by a helper: a browser set to larger text (its default font size) showed every
    page at 17 px all the same: the root's size was fixed in pixels."""
    page = phones()
    start(page, ["Ann", "Bob"])
    root_size = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    assert page.evaluate(root_size) == 17
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    page.reload()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    assert page.evaluate(root_size) == 25.5
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    save_screenshot(page, "large-text-browser-setting")
    assert page.errors == []
