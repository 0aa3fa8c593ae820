"""A whole two-player game on a phone, played by tapping, as people at a table would."""

import re

import pytest
from playwright.sync_api import expect

from scorecard.engine import rules
from scorecard.engine.rules import Box
from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN = [
    ("55555", Box.YAHTZEE),
    ("55555", Box.FIVES),  # an extra Yahtzee: Fives is open, so it must go there (+100)
    ("11123", Box.ONES),
    ("22245", Box.TWOS),
    ("33312", Box.THREES),
    ("44412", Box.FOURS),
    ("66612", Box.SIXES),
    ("66655", Box.THREE_OF_A_KIND),
    ("33336", Box.FOUR_OF_A_KIND),
    ("22333", Box.FULL_HOUSE),
    ("12346", Box.SMALL_STRAIGHT),
    ("23456", Box.LARGE_STRAIGHT),
    ("65432", Box.CHANCE),
]
BOB = [
    ("12346", Box.YAHTZEE),  # a zero, confirmed
    ("11145", Box.ONES),
    ("22213", Box.TWOS),
    ("33345", Box.THREES),
    ("44445", Box.FOURS),
    ("55512", Box.FIVES),
    ("66663", Box.SIXES),
    ("44455", Box.FULL_HOUSE),
    ("12345", Box.LARGE_STRAIGHT),
    ("23456", Box.SMALL_STRAIGHT),
    ("11112", Box.FOUR_OF_A_KIND),
    ("66655", Box.THREE_OF_A_KIND),
    ("66666", Box.CHANCE),  # five 6s after a 0 in Yahtzee: a joker, without the bonus
]


def expected_total(turns) -> int:
    filled, extra = {}, 0
    for dice, box in turns:
        placement = rules.place(filled, box, dice=[int(d) for d in dice])
        filled[box] = placement.points
        extra += bool(placement.bonus)
    return rules.totals(filled, extra).total


def enter_dice(page, dice: str, tap: bool) -> None:
    if tap:
        pad = page.get_by_role("group", name="Add a die")
        for face in dice:
            pad.get_by_role("button", name=face, exact=True).click()
    else:
        page.get_by_label("Dice, five digits").fill(dice)
        page.get_by_role("button", name="Show").click()
    expect(page.locator(".box-options")).to_be_visible()


def fill_box(page, box: Box) -> None:
    page.locator(f'button.box-option[value="{box.key}"]').click()


def standings_total(page, name: str):
    row = page.locator("#standings tbody tr", has=page.locator("th", has_text=name))
    return row.locator("td.total")


def test_a_two_player_game_on_a_phone(phone):
    page = phone
    page.goto(page.base + "/games/new/")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bob")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile("Ann’s turn"))).to_be_visible()
    page.evaluate("window.stillTheSamePage = true")
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))

    played = {"Ann": [], "Bob": []}
    for number, (ann_turn, bob_turn) in enumerate(zip(ANN, BOB, strict=True)):
        for name, (dice, box) in (("Ann", ann_turn), ("Bob", bob_turn)):
            expect(page.locator("#turn-title")).to_contain_text(f"{name}’s turn")
            enter_dice(page, dice, tap=number % 2 == 0)
            option = page.locator(f'button.box-option[value="{box.key}"]')
            expect(option).to_be_enabled()
            fill_box(page, box)
            if box is Box.YAHTZEE and name == "Bob":
                expect(page.get_by_text("Score 0 in Yahtzee?")).to_be_visible()
                page.get_by_role("button", name="Yes, 0 in Yahtzee").click()
            played[name].append((dice, box))
            expect(standings_total(page, name)).to_have_text(str(expected_total(played[name])))
            assert page.evaluate("window.stillTheSamePage") is True
            if number == 1 and name == "Bob":
                # A slip: undo Bob's Ones, then enter them again.
                page.get_by_role("button", name="Undo last entry").click()
                expect(page.get_by_text("Undone: Bob’s Ones")).to_be_visible()
                played["Bob"].pop()
                expect(standings_total(page, "Bob")).to_have_text(
                    str(expected_total(played["Bob"]))
                )
                enter_dice(page, dice, tap=False)
                fill_box(page, box)
                played["Bob"].append((dice, box))
                expect(standings_total(page, "Bob")).to_have_text(
                    str(expected_total(played["Bob"]))
                )
            if number == 6 and name == "Bob":
                save_screenshot(page, "game-phone-light")
                page.emulate_media(color_scheme="dark")
                save_screenshot(page, "game-phone-dark")
                page.emulate_media(color_scheme="light")

    # The address changes in place (the pad's dice are written in it), never to another page;
    # and the page was never loaded again (its mark is still there).
    assert {url.split("?")[0] for url in navigations} <= {page.url.split("?")[0]}
    assert page.evaluate("window.stillTheSamePage") is True
    ann, bob = expected_total(ANN), expected_total(BOB)
    assert (ann, bob) == (419, 267)
    expect(page.locator("#turn-title")).to_have_text("Game over")
    expect(standings_total(page, "Ann")).to_have_text(str(ann))
    expect(standings_total(page, "Bob")).to_have_text(str(bob))
    expect(page.locator(".winner")).to_have_text(f"Ann wins with {ann}.")
    yahtzee_bonus = page.locator("#standings tbody tr", has_text="Ann").locator("td").nth(3)
    expect(yahtzee_bonus).to_have_text("100")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save_screenshot(page, "game-over-phone")
    assert page.errors == []


def test_eight_players_fit_a_360_pixel_screen(chromium, live_server):
    from tests.browser.conftest import join_household
    from tests.factories import GameFactory, HouseholdFactory, play

    household = HouseholdFactory()
    names = ["Alexandra", "Bartholomew", "Cy", "Dee", "Evangeline", "Flo", "Gus", "Hal"]
    game = GameFactory(owner=household, names=names)
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))] * 8 + [(Box.YAHTZEE, (6,) * 5)] * 3)
    context = chromium.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, timezone_id="UTC"
    )  # the server's zone: the start page, which lists the game, is not drawn again
    page = context.new_page()
    page.base = live_server.url
    join_household(page, household)
    for path in (f"/games/{game.public_id}/?dice=66666", "/", "/games/new/", "/rules/", "/sheet/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    page.goto(f"{live_server.url}/games/{game.public_id}/?dice=66666")
    small = page.evaluate(
        """[...document.querySelectorAll('#turn button, .pad button')]
             .filter(b => b.offsetParent && (b.offsetHeight < 44 || b.offsetWidth < 44)).length"""
    )
    assert small == 0  # thumb-sized targets
    save_screenshot(page, "eight-players-360")
    context.close()


def test_each_entry_updates_its_rows_and_the_turn_s_heading_in_the_grid(phone):
    """An entry's answer swaps the grid's rows it changed by their ids, after the first
    entry's (which brings the whole grid): its box, the sums, and whose column is current."""
    from tests.browser.conftest import join_household
    from tests.factories import GameFactory, HouseholdFactory

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    grid = phone.locator("#boxes")
    entries = [
        ("11123", "Ones, 3 points", "Ones", ["3", ""]),
        ("22213", "Twos, 6 points", "Twos", ["", "6"]),
        ("33312", "Threes, 9 points", "Threes", ["9", ""]),
    ]
    totals = [["3", ""], ["3", "6"], ["12", "6"]]
    for (dice, button, row, cells), total in zip(entries, totals, strict=True):
        pad = phone.get_by_role("group", name="Add a die")
        for face in dice:
            pad.get_by_role("button", name=face, exact=True).tap()
        phone.get_by_role("button", name=button, exact=True).tap()
        filled = grid.locator("tr", has=phone.get_by_role("rowheader", name=row, exact=True))
        expect(filled.locator("td")).to_have_text(cells)
        grand = grid.locator("tr", has=phone.get_by_role("rowheader", name="Grand total"))
        expect(grand.locator("td")).to_have_text(total)
        expect(grid.locator("th.current")).to_have_count(1)
    expect(grid.locator("th.current")).to_have_text("Bob")
    assert phone.errors == []
