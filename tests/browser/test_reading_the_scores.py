"""Reading the standings and the sheet on a phone: the short headings are explained by a tap,
the standings' lower boxes and the sheet's lower total cannot be taken for one figure, and
the sheet's corner says what its heading row holds."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorecard.engine.rules import Box
from tests.browser.conftest import ARTIFACTS, join_household, save_screenshot
from tests.browser.test_one_screen import WIDER_THAN_SCREEN
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}

# Ann: a Yahtzee, then two extra ones (into Sixes and Fours, as the joker rule makes her).
ANN = [
    (Box.YAHTZEE, (5,) * 5),
    (Box.SIXES, (6,) * 5),
    (Box.FOURS, (4,) * 5),
    (Box.THREE_OF_A_KIND, (6, 6, 6, 5, 5)),
    (Box.FULL_HOUSE, (2, 2, 3, 3, 3)),
    (Box.ONES, (1, 2, 3, 4, 6)),
]
DEE = [(Box.SIXES, (6, 6, 1, 2, 3))] + SOLO_GAME[6:11]  # two 6s: six behind the bonus
NAMES = ["Annabelle", "Bartholomew", "Cy", "Dorothea"]


@pytest.fixture
def small_phone(chromium, live_server):
    context = chromium.new_context(
        viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
        timezone_id="UTC",  # the server's: a game's sheet is not drawn again for it
    )  # fmt: skip
    page = context.new_page()
    page.base = live_server.url
    yield page
    context.close()


def a_game_with_extra_yahtzees(page):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=NAMES)
    others = zip(SOLO_GAME, SOLO_GAME[::-1], DEE, strict=False)
    play(game, [turn for ann, rest in zip(ANN, others, strict=True) for turn in (ann, *rest)])
    join_household(page, household)
    return game


def annabelles_totals(game):
    from scorecard.game.progress import load_progress

    return load_progress(game).seats[0].totals


def standings_cell(page, name: str, column: str):
    """The cell of `name`'s row under the column named `column` (its name, not its short form)."""
    names = page.locator("#standings thead th").evaluate_all(
        "headings => headings.map(h => (h.querySelector('.long') || h).textContent.trim())"
    )
    row = page.locator("#standings tbody tr", has=page.locator("th", has_text=name))
    return row.locator("th, td").nth(names.index(column))


def fits_the_width(page) -> None:
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_tap_explains_every_standings_column_and_it_all_fits_360_pixels(small_phone, scheme):
    page = small_phone
    game = a_game_with_extra_yahtzees(page)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{page.base}/games/{game.public_id}/")
    for short in ("Up", "Bon", "Low", "Yz+", "Pace"):
        expect(page.locator("#standings thead .short", has_text=short).first).to_be_visible()
    expect(page.locator("#standings thead th.total")).to_have_text("Total")  # one form
    legend = page.locator(".standings-legend dl")
    expect(legend).to_be_hidden()
    fits_the_width(page)
    save_screenshot(page, f"standings-360-{scheme}")

    page.get_by_text("What the columns mean").click()
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("Low (Lower boxes):")
    expect(legend).to_contain_text("without the Yahtzee bonus")
    expect(legend).to_contain_text("Pace (Bonus pace):")
    expect(legend).to_contain_text("3 of each face")
    for term in ("Up (Upper boxes)", "Bon (Upper bonus)", "Yz+ (Yahtzee bonus)", "Total:"):
        expect(legend).to_contain_text(term)
    fits_the_width(page)
    save_screenshot(page, f"standings-legend-360-{scheme}")
    page.locator("#standings").screenshot(path=ARTIFACTS / f"standings-alone-360-{scheme}.png")
    violations = Axe().run(page).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations] == []


def test_pace_reads_ahead_behind_or_right_on(small_phone):
    page = small_phone
    game = a_game_with_extra_yahtzees(page)
    page.goto(f"{page.base}/games/{game.public_id}/")
    ann = annabelles_totals(game)
    assert ann.pace > 0
    expect(standings_cell(page, "Annabelle", "Bonus pace")).to_have_text(f"+{ann.pace}")
    expect(standings_cell(page, "Cy", "Bonus pace")).to_have_text("0")
    expect(standings_cell(page, "Dorothea", "Bonus pace")).to_have_text("−6")


def test_the_standings_lower_boxes_and_the_sheets_lower_total_are_named_apart(small_phone):
    page = small_phone
    game = a_game_with_extra_yahtzees(page)
    ann = annabelles_totals(game)
    assert ann.yahtzee_bonus > 0  # so the two figures differ
    page.goto(f"{page.base}/games/{game.public_id}/")
    expect(page.get_by_role("columnheader", name="Lower boxes")).to_have_count(1)
    expect(standings_cell(page, "Annabelle", "Lower boxes")).to_have_text(str(ann.lower))
    expect(standings_cell(page, "Annabelle", "Yahtzee bonus")).to_have_text(str(ann.yahtzee_bonus))
    boxes = page.locator("#boxes")
    lower_total = boxes.locator("tr", has=page.get_by_role("rowheader", name="Lower total"))
    expect(lower_total.locator("td").first).to_have_text(str(ann.lower_total))  # no hint here
    expect(boxes.get_by_role("rowheader", name="Yahtzee bonus")).to_be_visible()

    page.get_by_role("link", name="Printable sheet").click()
    lower_total = page.locator("tr", has=page.get_by_role("rowheader", name="Lower total"))
    expect(lower_total.locator("td.hint")).to_have_text("Lower boxes + Yahtzee bonus")
    expect(lower_total.locator("td").nth(1)).to_have_text(str(ann.lower_total))


def test_the_sheets_corner_says_what_its_heading_row_holds(small_phone):
    page = small_phone
    game = a_game_with_extra_yahtzees(page)
    page.goto(f"{page.base}/games/{game.public_id}/")
    expect(page.locator("#boxes thead th").first).to_have_text("Player")
    page.goto(f"{page.base}/sheet/")
    page.get_by_label("Triple Yahtzee").check()
    page.get_by_role("button", name="Update the sheet").click()
    expect(page.locator(".sheet thead th[scope=row]")).to_have_text(["Player", "Card"])
    expect(page.get_by_text("Name or game")).to_have_count(0)


def test_a_triple_games_legend_says_each_card_earns_its_own_bonus(phones):
    """Found by a new user: Up read 64 (16 on card ×1, 24 on card ×2) with the Bon column
    blank beside a legend that said "35 once the upper boxes reach 63"."""
    from scorecard.models import Game

    page = phones(viewport=SMALL_PHONE)
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/")
    page.get_by_text("What the columns mean").click()
    expect(page.locator(".standings-legend")).to_contain_text(
        "Each card earns its own bonus once its own upper boxes reach 63, so Up may pass 63 "
        "with no bonus yet."
    )
    fits_the_width(page)
    assert page.errors == []
