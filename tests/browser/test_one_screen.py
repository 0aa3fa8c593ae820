"""The whole turn on one phone screen: with the dice entered, every open box with its value
and the standings (each total, the current player's upper total and pace) are in view
without scrolling, at 390x844 and 360x740, for one to four players, light and dark."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, join_household
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDER_THAN_SCREEN = """() => [...document.querySelectorAll("body *")]
  .filter(e => !e.closest(".scroll"))  // a wide table scrolls inside its own box
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
SCREENS = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}


def in_view(box, screen) -> bool:
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= screen["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= screen["width"]
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize("size", SCREENS)
def test_a_turn_with_its_dice_fits_one_screen(chromium, live_server, size, players, scheme):
    screen = SCREENS[size]
    context = chromium.new_context(
        viewport=screen, device_scale_factor=2, is_mobile=True, has_touch=True,
        color_scheme=scheme,
    )  # fmt: skip
    page = context.new_page()
    household = HouseholdFactory()
    names = ["Annabelle", "Bartholomew", "Cy", "Dorothea"][:players]
    game = GameFactory(owner=household, names=names)
    page.base = live_server.url
    join_household(page, household)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    pad = page.get_by_role("group", name="Add a die")
    for face in "44425":
        pad.get_by_role("button", name=face, exact=True).click()
    expect(page.locator(".box-options button")).to_have_count(13)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"turn-{size}-{players}p-{scheme}.png"))
    wide = page.evaluate(WIDER_THAN_SCREEN)
    assert wide == [], wide
    assert page.evaluate("window.scrollY") == 0
    for button in page.locator(".box-options button").all():
        assert in_view(button.bounding_box(), screen), button.inner_text()
    for row in page.locator("#standings tbody tr").all():
        assert in_view(row.locator("td.total").bounding_box(), screen)
    current = page.locator("#standings tbody tr.current")
    for cell in ("td:first-of-type", "td.total + td"):  # the upper total, the bonus pace
        assert in_view(current.locator(cell).bounding_box(), screen), cell
    assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]
    # A thumb's target, as the turn's are (a tester measured the legend's line at 35 px).
    assert page.locator(".standings-legend summary").bounding_box()["height"] >= 44
    context.close()


def test_taps_a_turn_a_zero_and_an_undo_and_redo_take(phone):
    from scorecard.models import Entry

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    taps = []

    def tap(locator) -> None:
        locator.click()
        taps.append(locator)

    def enter(dice: str) -> None:
        pad = phone.get_by_role("group", name="Add a die")
        for face in dice:
            tap(pad.get_by_role("button", name=face, exact=True))
        expect(phone.locator(".box-options button")).to_have_count(13 - Entry.objects.count() // 2)

    def box(label: str):
        return phone.locator(f'.box-options button[aria-label^="{label},"]')

    enter("44425")
    tap(box("Fours"))
    expect(phone.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    assert len(taps) == 6 and Entry.objects.get().box == "fours"  # an ordinary turn: 6
    taps.clear()
    enter("12346")
    tap(box("Yahtzee"))
    tap(phone.get_by_role("button", name="Yes, 0 in Yahtzee"))
    expect(phone.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    assert len(taps) == 7 and Entry.objects.get(turn=2).points == 0  # a zero: 7
    enter("66612")
    tap(box("Chance"))  # meant Sixes
    expect(phone.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    taps.clear()
    tap(phone.get_by_role("button", name="Undo last entry"))
    tap(box("Sixes"))  # the dice came back with the undo
    expect(phone.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    assert len(taps) == 2 and Entry.objects.get(turn=3).box == "sixes"  # undo and redo: 2
    assert phone.errors == []


@pytest.mark.parametrize("size", SCREENS)
def test_the_new_game_form_starts_without_a_scroll(chromium, live_server, size):
    screen = SCREENS[size]
    context = chromium.new_context(viewport=screen, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/new/")
    start = page.get_by_role("button", name="Start the game")
    assert in_view(start.bounding_box(), screen)
    page.get_by_label("Player 1", exact=True).fill("Ann")
    start.click()
    expect(page.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    context.close()


def test_a_digital_games_house_rule_wraps_whole_under_its_title(phones):
    """Found by a new user at 360 px: "Standard · digital dice extra" over "Yahtzees:
    Hasbro", the rule's name torn in two across the lines."""
    page = phones(viewport=SCREENS["360x740"])
    page.goto(f"{page.base}/games/new/")
    page.get_by_label("Player 1", exact=True).tap()
    page.keyboard.type("Zoë")
    page.get_by_label("Roll here").tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.get_by_role("heading", name="Zoë’s turn")).to_be_visible()
    rule = page.locator("h1.game-title small")
    expect(rule).to_have_text("extra Yahtzees: Hasbro")
    assert rule.evaluate("note => note.getClientRects().length") == 1  # one piece, not two


def test_enter_in_a_name_field_starts_the_game(phone):
    phone.goto(f"{phone.base}/games/new/")
    phone.get_by_label("Player 1", exact=True).fill("Ann")
    phone.get_by_label("Player 2", exact=True).fill("Bob")
    phone.get_by_label("Player 2", exact=True).press("Enter")
    expect(phone.get_by_role("heading", name="Ann’s turn")).to_be_visible()


@pytest.mark.parametrize("size", SCREENS)
def test_after_the_third_roll_every_box_and_score_are_in_view(chromium, live_server, size):
    screen = SCREENS[size]
    context = chromium.new_context(viewport=screen, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/new/?dice=digital")
    page.get_by_label("Player 1", exact=True).fill("Dee")
    page.get_by_role("button", name="Start the game").click()
    for roll in (1, 2, 3):
        page.locator("#roll-button").click()
        if roll < 3:
            expect(page.locator("#roll-counter")).to_have_text(f"Roll {roll} of 3")
    expect(page.locator(".roll-counter")).to_have_text("Roll 3 of 3: choose a box")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"digital-third-roll-{size}.png"))
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    for choice in page.locator(".box-choice").all():
        assert in_view(choice.bounding_box(), screen), choice.inner_text()
        label = choice.locator("span")
        one_line = label.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert label.bounding_box()["height"] <= one_line * 1.5, label.inner_text()  # no wrap
    assert in_view(page.get_by_role("button", name="Score").bounding_box(), screen)
    context.close()


@pytest.mark.parametrize("players", [5, 8])
@pytest.mark.parametrize("size", SCREENS)
def test_many_players_scroll_the_standings_in_their_own_box(chromium, live_server, size, players):
    screen = SCREENS[size]
    context = chromium.new_context(viewport=screen, is_mobile=True, has_touch=True)
    page = context.new_page()
    household = HouseholdFactory()
    names = ["Annabelle", "Bartholomew", "Cyrus", "Dorothea", "Evangeline", "Fitzgerald",
             "Georgiana", "Hildegard"][:players]  # fmt: skip
    game = GameFactory(owner=household, names=names)
    page.base = live_server.url
    join_household(page, household)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"standings-{size}-{players}p.png"))
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]
    standings = page.locator("#standings .scroll")
    assert in_view(standings.bounding_box(), screen)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(players)
    for row in rows.all():  # every total can be reached inside the box
        row.locator("td.total").scroll_into_view_if_needed()
        assert in_view(row.locator("td.total").bounding_box(), screen)
    assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]
    context.close()
