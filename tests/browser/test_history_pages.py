"""Past games on a phone: a finished game's review and a player page."""

import itertools
import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from scorecard.models import Game, Player
from tests.browser.conftest import PHONE, join_household, save_screenshot
from tests.factories import (
    SOLO_GAME,
    GameFactory,
    HouseholdFactory,
    bulk_finished_games,
    card_total,
    play,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_finished_games_review_on_a_phone(phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/review/")
    expect(phone.get_by_role("heading", name="Running totals")).to_be_visible()
    chart = phone.get_by_role("img", name="Each player's running total, round by round")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= PHONE["width"]
    expect(phone.locator("table.turns tbody tr")).to_have_count(26)
    assert no_sideways_scroll(phone)
    turns = phone.locator("table.turns")
    holder = phone.locator(".scroll:has(table.turns)")
    assert turns.evaluate("table => table.scrollWidth") <= holder.evaluate("d => d.clientWidth")
    save_screenshot(phone, "review-phone")
    phone.emulate_media(color_scheme="dark")
    save_screenshot(phone, "review-phone-dark")
    assert phone.errors == []


def test_a_charts_labels_read_as_the_text_beside_them_on_a_desktop(phones):
    """Found by a tester: on a 1280 px screen a chart was drawn 757 px wide, its labels
    27 px high, twice the page's text."""
    page = phones(viewport={"width": 1280, "height": 800}, scale=1)
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/review/")
    chart = page.get_by_role("img", name="Each player's running total, round by round")
    expect(chart).to_be_visible()
    drawn = chart.evaluate("svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
    text = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert 13 * drawn <= text * 1.1
    assert page.errors == []


def test_a_player_page_on_a_phone(phone):
    household = HouseholdFactory()
    bulk_finished_games(household, ["Ann", "Bob"], 40)
    join_household(phone, household)
    ann = Player.objects.get(name="Ann")
    phone.goto(f"{phone.base}/players/{ann.public_id}/")
    expect(phone.get_by_role("heading", name="Ann")).to_be_visible()
    expect(phone.get_by_role("img", name="Final scores of Ann")).to_be_visible()
    expect(phone.locator("dl.figures")).to_contain_text("40")
    assert no_sideways_scroll(phone)
    save_screenshot(phone, "player-phone")
    phone.goto(f"{phone.base}/games/")
    expect(phone.locator(".game-card")).to_have_count(20)
    assert no_sideways_scroll(phone)
    assert phone.errors == []


def test_a_finished_games_review_leads_back_to_the_game_and_its_rematch(phone):
    """The games list opens a finished game at its review; the game's own page (with the
    rematch) is one tap from there, not only through the browser's history."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/")
    phone.locator(".game-card > a").click()
    expect(phone.get_by_role("heading", name="Running totals")).to_be_visible()
    phone.get_by_role("link", name="Back to the game").click()
    expect(phone.locator("#turn-title")).to_have_text("Game over")
    phone.get_by_role("button", name="Rematch with the same players").click()
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    assert phone.errors == []


def test_a_solo_game_over_offers_to_play_again_not_a_rematch(phone):
    """One player has no "same players" to meet again: the button says what it does."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    expect(phone.locator("#turn-title")).to_have_text("Game over")
    expect(phone.get_by_role("button", name="Rematch with the same players")).to_have_count(0)
    phone.get_by_role("button", name="Play again").click()
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    assert Game.objects.filter(owner=household).count() == 2
    assert phone.errors == []


def figure(page, name: str):
    return page.locator("dl.figures div", has=page.locator("dt", has_text=name)).locator("dd")


def test_a_game_finished_undone_and_finished_again_by_taps_shows_on_the_player_page(phone):
    """The player page only reads: what it shows was kept as the last box was tapped, taken
    back by the undo, and kept again when the box was tapped once more."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:-1])
    join_household(phone, household)
    ann = Player.objects.get(name="Ann")
    best = str(card_total(SOLO_GAME))

    def finish_by_taps():
        phone.goto(f"{phone.base}/games/{game.public_id}/")
        pad = phone.get_by_role("group", name="Add a die")
        for face in "66554":
            pad.get_by_role("button", name=face, exact=True).click()
        phone.locator('button.box-option[value="chance"]').click()
        expect(phone.locator("#turn-title")).to_have_text("Game over")

    def player_page_shows(games: str, personal_best: str):
        phone.goto(f"{phone.base}/players/{ann.public_id}/")
        expect(figure(phone, "Games finished")).to_have_text(games)
        expect(figure(phone, "Personal best")).to_have_text(personal_best)

    finish_by_taps()
    player_page_shows("1", best)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    phone.get_by_role("button", name="Undo last entry").click()
    expect(phone.get_by_text("Undone: Ann’s Chance")).to_be_visible()
    player_page_shows("0", "–")
    finish_by_taps()
    player_page_shows("1", best)
    assert no_sideways_scroll(phone)
    assert phone.errors == []


def test_the_games_list_on_a_phone_by_taps(phone):
    """Games going first with how far they are, then finished ones with their winners (two
    for a tie), a Yatzy and a Maxi Yatzy game among them; Older pages on; a finished game
    opens its review, a player their page. 360 pixels wide, light and dark."""
    from scorecard.engine import families
    from scorecard.game import services
    from tests.factories import play_on

    household = HouseholdFactory()
    bulk_finished_games(household, ["Ann", "Bob"], 21, seed=3)
    tie = GameFactory(owner=household, names=["Ann", "Bob"])
    play(tie, [turn for turn in SOLO_GAME for _ in range(2)])
    yatzy = services.HouseSettings(families.YATZY.key)
    play_on(GameFactory(owner=household, names=["Cy", "Ann"], house=yatzy), seed=1)
    maxi = services.HouseSettings(families.MAXI.key)
    play_on(GameFactory(owner=household, names=["Di", "Ann"], house=maxi), turns=5, seed=2)
    join_household(phone, household)
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.goto(f"{phone.base}/")
    main = phone.get_by_role("navigation", name="Main")
    main.get_by_role("link", name="Games", exact=True).tap()
    cards = phone.locator(".game-card")
    expect(cards).to_have_count(20)
    expect(cards.first).to_contain_text("Maxi Yatzy")
    expect(cards.first).to_contain_text("in progress, round 3 of 20")
    expect(cards.first.get_by_label("winner")).to_have_count(0)
    expect(cards.nth(1)).to_contain_text("Yatzy")
    expect(cards.nth(1).get_by_label("winner")).to_have_count(1)
    expect(cards.nth(2).get_by_label("winner")).to_have_count(2)  # the tie
    expect(cards.nth(2)).to_contain_text(f"Ann {card_total(SOLO_GAME)}")
    assert no_sideways_scroll(phone)
    save_screenshot(phone, "games-list-phone")
    phone.emulate_media(color_scheme="dark")
    save_screenshot(phone, "games-list-phone-dark")
    phone.get_by_role("link", name="Older").tap()
    expect(phone.get_by_text("Page 2 of 2")).to_be_visible()
    expect(cards).to_have_count(4)
    cards.first.locator("a").first.tap()
    expect(phone.get_by_role("heading", name="Running totals")).to_be_visible()
    phone.go_back()
    cards.first.get_by_role("link", name="Bob", exact=True).tap()
    expect(phone.get_by_role("heading", name="Bob")).to_be_visible()
    assert phone.errors == []


def two_tables_games_list(phone):
    """The games list of a household's phone with five finished games of two tables (Ann
    and Bob's three, Cy and Di's two): its cards, and Cy, to choose."""
    household = HouseholdFactory()
    bulk_finished_games(household, ["Ann", "Bob"], 3, seed=5)
    bulk_finished_games(household, ["Cy", "Di"], 2, seed=6)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/")
    return phone.locator(".game-card"), Player.objects.get(name="Cy")


def test_a_filtered_games_list_keeps_its_choice_in_the_address_through_a_reload(phone):
    """A choice of player and mode is written into the address bar as it is made, so a
    reload (or the address copied to another phone) shows the same list."""
    cards, cy = two_tables_games_list(phone)
    expect(cards).to_have_count(5)
    phone.get_by_label("Player", exact=True).select_option(label="Cy")
    expect(cards).to_have_count(2)
    expect(phone).to_have_url(re.compile(rf"/games/\?player={cy.public_id}&mode=$"))
    phone.reload()
    expect(phone.get_by_label("Player", exact=True)).to_have_value(cy.public_id)
    expect(cards).to_have_count(2)
    phone.get_by_label("Player", exact=True).select_option(label="Everyone")
    expect(cards).to_have_count(5)
    expect(phone).to_have_url(re.compile(r"/games/\?player=&mode=$"))
    # Found by a new user: a choice, Filter, then Back showed the choice over a list
    # that was not filtered by it.
    phone.goto(f"{phone.base}/games/")
    phone.get_by_label("Player", exact=True).select_option(label="Cy")
    expect(cards).to_have_count(2)
    phone.get_by_role("button", name="Filter").tap()
    phone.wait_for_load_state()
    phone.get_by_role("link", name="Players", exact=True).tap()
    expect(phone.get_by_role("heading", name="Players")).to_be_visible()
    phone.go_back()
    expect(phone.get_by_label("Player", exact=True)).to_have_value(cy.public_id)
    expect(cards).to_have_count(2)
    phone.go_back()
    chosen = phone.get_by_label("Player", exact=True).input_value()
    expect(cards).to_have_count(2 if chosen else 5)
    assert phone.errors == []


@pytest.mark.without_service_worker
def test_back_to_a_games_list_filtered_in_place_shows_the_whole_page(phone):
    """Found by a tester: a choice brought the list in place (htmx) and wrote its address;
    a game opened, then Back showed the bare list the browser had kept from htmx's request,
    with no header, style or filters. Every answer says it varies by `HX-Request`."""
    cards, cy = two_tables_games_list(phone)
    phone.get_by_label("Player", exact=True).select_option(label="Cy")
    expect(cards).to_have_count(2)
    cards.first.locator("a").first.tap()
    expect(phone.get_by_role("heading", name="Running totals")).to_be_visible()
    phone.go_back()
    expect(phone.get_by_role("heading", name="Games", exact=True)).to_be_visible()
    expect(phone.get_by_role("link", name="New game")).to_be_visible()
    expect(phone.get_by_label("Player", exact=True)).to_have_value(cy.public_id)
    expect(cards).to_have_count(2)
    root = "document.documentElement"
    assert phone.evaluate(f"{root}.scrollWidth <= {root}.clientWidth")  # the bare list's did not
    assert phone.errors == []


def test_a_phone_sees_the_times_of_its_games_in_its_own_time_zone(phones):
    """Found by a tester in Helsinki: the games list said a game began at 21.35 when the
    phone's clock had said 23.35 (the server's zone, UTC). The page tells the server the
    phone's zone and is drawn again once; after it, every page shows times in it."""
    phone = phones(zone="Europe/Helsinki")
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    began = datetime(2026, 12, 1, 10, 30, tzinfo=UTC)  # 12:30 in Helsinki, in winter
    Game.objects.filter(pk=game.pk).update(created=began)
    join_household(phone, household)
    pages = []
    phone.on(
        "request", lambda asked: pages.append(asked.url) if asked.is_navigation_request() else None
    )
    phone.goto(f"{phone.base}/games/")
    expect(phone.locator(".game-card strong")).to_have_text("1 Dec 2026, 12:30")
    assert len(pages) == 2  # drawn again once, with the zone
    phone.get_by_role("link", name="Yahtzee", exact=True).tap()  # the start page lists it too
    expect(phone.locator(f"#going-{game.public_id}")).to_contain_text(", 12:30 ·")
    phone.get_by_role("link", name="Games", exact=True).tap()
    expect(phone.locator(".game-card strong")).to_have_text("1 Dec 2026, 12:30")
    assert len(pages) == 4  # not drawn again: the zone is known
    utc = phones()  # a phone in the server's zone is told without a second drawing
    join_household(utc, household)
    utc_pages = []
    utc.on("request", lambda asked: utc_pages.append(1) if asked.is_navigation_request() else None)
    utc.goto(f"{utc.base}/games/")
    expect(utc.locator(".game-card strong")).to_have_text("1 Dec 2026, 10:30")
    utc.wait_for_function("document.cookie.includes('tz=UTC')")
    assert len(utc_pages) == 1 and utc.errors == []
    assert phone.errors == []


def test_the_links_set_in_a_row_are_thumb_sized(phone):
    """The game page's links under the turn and the games list's links under the table are
    tapped, not read: each is at least 44 px high (a new user measured 20-25 px)."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    bulk_finished_games(household, ["Ann", "Bob"], 2)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    phone.get_by_role("link", name="Printable sheet").wait_for()
    in_rows = {"game": phone.locator("#turn .links > a").all()}
    heights = {"game": [link.bounding_box()["height"] for link in in_rows["game"]]}
    phone.get_by_role("link", name="Games", exact=True).first.tap()
    phone.get_by_role("link", name="Export all (JSON)").wait_for()
    heights["games"] = [link.bounding_box()["height"] for link in phone.locator("p.row > a").all()]
    assert len(heights["game"]) >= 2 and len(heights["games"]) == 5
    assert min(heights["game"] + heights["games"]) >= 44, heights
    # A finished game's review: "CSV" beside "Export this game (JSON)" was 34 px wide.
    phone.locator('.game-card > a[href$="/review/"]').first.tap()
    csv = phone.get_by_role("link", name="CSV", exact=True)
    assert csv.bounding_box()["width"] >= 44 and csv.bounding_box()["height"] >= 44


def test_the_names_in_the_games_and_players_lists_are_thumb_sized(phones):
    """A player's name on a game's card and in the players list opens their page: a tap's
    target, at least 44 px high (a new user measured about 20), and the longest name still
    leaves a 360 px phone without a sideways scroll."""
    phone = phones(viewport={"width": 360, "height": 740})
    names = ["Ann", "Maximilian-Alexander", "Bo", "Wolfeschlegelsteinhausenbergerdorff"]
    household = HouseholdFactory()
    bulk_finished_games(household, names, 2)
    GameFactory(owner=household, names=["Ann"])  # in progress: one short line on the start page
    join_household(phone, household)
    phone.goto(f"{phone.base}/")
    in_progress = phone.locator("#in-progress + ul").get_by_role("link")
    heights = {"home": [in_progress.bounding_box()["height"]]}
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.get_by_role("link", name="Games", exact=True).first.tap()
    on_cards = phone.locator(".game-card .scores").get_by_role("link")
    expect(on_cards).to_have_count(9)
    heights["games"] = [link.bounding_box()["height"] for link in on_cards.all()]
    widths = [link.bounding_box()["width"] for link in on_cards.all()]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.get_by_role("link", name="Players", exact=True).tap()
    expect(phone.get_by_role("heading", name="Players")).to_be_visible()
    listed = [phone.get_by_role("link", name=name, exact=True) for name in names]
    heights["players"] = [link.bounding_box()["height"] for link in listed]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert min(heights["home"] + heights["games"] + heights["players"]) >= 44, heights
    # ... and wide: "Bo" was a 20 px target, "Cleo" 37 (a tester).
    widths += [link.bounding_box()["width"] for link in listed]
    assert len(widths) == 13 and min(widths) >= 44, widths
    listed[1].tap()
    expect(phone.get_by_role("heading", name="Maximilian-Alexander")).to_be_visible()
    # Found by a new user: the player's games link, and the high scores' names and dates,
    # were 16-20 px high.
    to_games = phone.get_by_role("link", name="Maximilian-Alexander’s games")
    heights = {"player": [to_games.bounding_box()["height"]]}
    Game.objects.filter(owner=household, finished__isnull=False).update(digital=True)
    phone.get_by_role("link", name="Games", exact=True).first.tap()
    phone.get_by_role("link", name="High scores").tap()
    ranked = phone.locator(".ranking a")
    expect(ranked).to_have_count(8 * 2)  # a name and a date in each of the 8 places
    heights["high scores"] = [link.bounding_box()["height"] for link in ranked.all()]
    assert min(heights["player"] + heights["high scores"]) >= 44, heights
    root = "document.documentElement"
    assert phone.evaluate(f"{root}.scrollWidth <= {root}.clientWidth")  # the bare list's did not
    assert phone.errors == []


def export_then_import(phone, tmp_path, export: str) -> None:
    """From the games list, the export named `export` downloaded, then chosen for the
    import and sent, as a person does it."""
    phone.goto(f"{phone.base}/games/")
    with phone.expect_download() as info:
        phone.get_by_role("link", name=export).click()
    exported = tmp_path / info.value.suggested_filename
    info.value.save_as(str(exported))
    phone.get_by_role("link", name="Import", exact=True).click()
    phone.get_by_label("Export file (JSON)").set_input_files(exported)
    phone.get_by_role("button", name="Import", exact=True).click()


def test_the_csv_export_imported_by_mistake_is_named_and_nothing_is_imported(phone, tmp_path):
    """The games list offers two exports; the CSV one chosen for the import is refused in
    words that say which file to take, not "This is not JSON"."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME[:2] for _ in range(2)])
    join_household(phone, household)
    export_then_import(phone, tmp_path, "Export all (CSV)")
    expect(phone.get_by_role("alert")).to_contain_text("This is a CSV export")
    # Said first, and of the field (a helper without scripts found the focus at the top).
    expect(phone.get_by_role("alert")).to_be_focused()
    expect(phone.get_by_label("Export file (JSON)")).to_have_attribute("aria-invalid", "true")
    assert no_sideways_scroll(phone)
    assert Game.objects.count() == 1
    # The JSON export, imported back, says so first too: nothing new in it.
    export_then_import(phone, tmp_path, "Export all (JSON)")
    expect(phone.get_by_role("status").first).to_be_focused()
    expect(phone.get_by_role("status").first).to_contain_text("already")
    assert Game.objects.count() == 1
    assert [error for error in phone.errors if "status of 400" not in error] == []


# The last thing on each line of a row of links: a link, or the text between two links.
LINE_ENDS = """(row) => {
  const ends = new Map();
  for (const node of row.childNodes) {
    if (node.nodeType === Node.TEXT_NODE && !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) {
      const line = Math.round(box.bottom);
      if (!ends.has(line) || ends.get(line).right <= box.right)
        ends.set(line, {right: box.right, text: node.textContent.trim()});
    }
  }
  return [...ends.values()].map((end) => end.text);
}"""


def test_the_links_under_the_games_and_a_review_end_their_lines_with_a_link(phones):
    """On a 360 px phone they wrap: "High scores ·" and "Export all (CSV) ·" ended lines."""
    phone = phones(viewport={"width": 360, "height": 740})
    household = HouseholdFactory()
    bulk_finished_games(household, ["Ann", "Bob"], 1)
    join_household(phone, household)
    phone.goto(f"{phone.base}/")
    phone.get_by_role("link", name="Games", exact=True).first.tap()
    row = phone.locator("p:has(> a[href$='export.csv'])")
    ends = {"games": row.evaluate(LINE_ENDS)}
    phone.locator(".game-card > a").first.tap()
    expect(phone.get_by_role("heading", name="Running totals")).to_be_visible()
    ends["review"] = phone.locator("p:has(> a[href$='export.csv'])").evaluate(LINE_ENDS)
    assert len(ends["games"]) >= 2 and len(ends["review"]) >= 2  # wrapped
    links = {"Players", "High scores", "Export all (JSON)", "Export all (CSV)", "Import"}
    links |= {"Export this game (JSON)", "CSV", "Printable sheet"}
    assert set(ends["games"] + ends["review"]) <= links, ends
    assert phone.errors == []


def test_a_players_figures_stand_two_to_a_row_on_a_360_px_phone(phones):
    """Found by a new user: on a 360 px phone the nine figures stood one a row, half a
    screen of them before the chart (9.5rem each, two and their gap 5 px wider than the
    page's 335), though the style sheet meant two or more to a row."""
    phone = phones(viewport={"width": 360, "height": 740})
    household = HouseholdFactory()
    bulk_finished_games(household, ["Ann", "Bob"], 3)
    join_household(phone, household)
    phone.goto(f"{phone.base}/players/")
    phone.get_by_role("link", name="Ann", exact=True).tap()
    expect(phone.get_by_role("heading", name="Ann")).to_be_visible()
    figures = phone.locator("dl.figures > div")
    tops = [figure.bounding_box()["y"] for figure in figures.all()]
    assert len(tops) == 9 and tops[0] == tops[1] and len(set(tops)) <= 5, tops
    assert no_sideways_scroll(phone)
    assert phone.errors == []


def test_a_filled_boxs_correction_link_is_thumb_sized_and_fills_its_cell(phones):
    """The grid's correction links were 34 px tall in a 42 px cell: a tap at a cell's edge
    did nothing. Each now fills its cell and is at least 44 px high, and as wide in a game
    of five players with short names on a 360 px phone (they were 34 px wide); the tap
    opens the correction."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bo", "Cy", "Di", "Ed"])
    play(game, SOLO_GAME[:3])
    phone = phones(viewport={"width": 360, "height": 740})
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    links = phone.locator("#boxes table.sheet td a")
    expect(links).to_have_count(3)
    grid = phone.locator("#boxes .scroll")
    assert grid.evaluate("scroll => scroll.scrollWidth <= scroll.clientWidth")  # no swipe
    for link in links.all():
        box = link.bounding_box()
        cell = link.locator("xpath=..").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
        assert box["height"] >= cell["height"] - 2 and box["width"] >= cell["width"] - 2
    save_screenshot(phone, "grid-correction-links")
    links.first.scroll_into_view_if_needed()
    edge = links.first.bounding_box()
    phone.touchscreen.tap(edge["x"] + 3, edge["y"] + 3)  # a thumb at the cell's corner
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Correct")
    assert phone.errors == []


def test_an_older_backup_with_typed_five_alike_comes_back_with_their_bonus(phones, tmp_path):
    """Fives 25 typed after a 50, in a file an older version wrote without the 100 it now
    earns by itself: imported by taps on another phone, the game comes back with the bonus
    and the page says so (the file was refused before)."""
    import json

    from scorecard.engine.rules import Box
    from scorecard.game import services
    from scorecard.models import Entry

    household = HouseholdFactory()
    game = services.game_create(owner=household, names=["Ann"])
    services.record_box(game=game, version=0, turn=1, box=Box.YAHTZEE, dice=(5,) * 5)
    services.record_box(game=game, version=1, turn=2, box=Box.FIVES, points=25)
    phone = phones()
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/")
    with phone.expect_download() as info:
        phone.get_by_role("link", name="Export all (JSON)").tap()
    backup = tmp_path / "older.json"
    document = json.loads(info.value.path().read_text())
    document["games"][0]["entries"][1]["yahtzee_bonus"] = False  # as an older version wrote it
    backup.write_text(json.dumps(document))
    other = phones()
    other.goto(f"{other.base}/games/")
    other.get_by_role("link", name="Import", exact=True).tap()
    other.get_by_label("Export file (JSON)").set_input_files(backup)
    other.get_by_role("button", name="Import", exact=True).tap()
    said = other.get_by_role("status")
    expect(said).to_contain_text("Imported 1 game.")
    expect(said).to_contain_text("the file had left out 1, which is now given.")
    assert no_sideways_scroll(other)
    save_screenshot(other, "import-older-backup")
    copy = Game.objects.exclude(pk=game.pk).get()
    assert Entry.objects.get(game=copy, box="fives").yahtzee_bonus
    assert phone.errors == [] and other.errors == []


def test_files_refused_one_after_another_never_use_up_the_new_games_a_browser_may_make(
    phone, tmp_path, settings
):
    """Found by a new user: a new browser counted each refused import as a new game, and
    after a few wrong files the right one was told "Too many new games". Only an import
    that writes counts."""
    import json

    from tests.helpers import good_document

    settings.CREATION_LIMIT = 2
    wrong = tmp_path / "notes.json"
    wrong.write_text("my notes, not an export")
    right = tmp_path / "games.json"
    right.write_text(json.dumps(good_document(HouseholdFactory())))
    phone.goto(f"{phone.base}/")
    phone.get_by_role("link", name="Games", exact=True).first.tap()
    phone.get_by_role("link", name="Import", exact=True).tap()
    for _ in range(3):
        phone.get_by_label("Export file (JSON)").set_input_files(wrong)
        phone.get_by_role("button", name="Import", exact=True).tap()
        expect(phone.get_by_role("alert")).to_contain_text("This is not JSON")
    phone.get_by_label("Export file (JSON)").set_input_files(right)
    phone.get_by_role("button", name="Import", exact=True).tap()
    expect(phone.get_by_role("status")).to_contain_text("Imported 1 game.")
    assert Game.objects.count() == 1
    assert [error for error in phone.errors if "status of 400" not in error] == []


def test_every_page_counts_rounds_as_the_game_page_does(phone):
    """Found by a new user: the game page said "round 3 of 13" while its correction page,
    the games list and the review counted every player's turns ("turn 5", "turn 5 of 26")."""
    import re

    household = HouseholdFactory()
    going = GameFactory(owner=household, names=["Ann", "Bob"])
    play(going, [turn for turn in SOLO_GAME[:2] for _ in range(2)])
    done = GameFactory(owner=household, names=["Ann", "Bob"])
    play(done, [turn for turn in SOLO_GAME for _ in range(2)])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{going.public_id}/")
    expect(phone.locator("#turn-title")).to_contain_text("round 3 of 13")
    bobs_second = SOLO_GAME[1][0].label
    phone.locator("#boxes").get_by_role(
        "link", name=re.compile(f"^Correct Bob’s {bobs_second}:")
    ).tap()
    expect(phone.get_by_text(re.compile(r"\(round 2\)\."))).to_be_visible()
    phone.get_by_role("navigation", name="Main").get_by_role("link", name="Games", exact=True).tap()
    expect(phone.locator(".game-card").first).to_contain_text("in progress, round 3 of 13")
    phone.locator(".game-card > a").nth(1).tap()
    turns = phone.locator("table.turns")
    expect(turns.locator("thead th").first).to_contain_text("Round")
    expect(turns.locator("tbody td:first-child")).to_have_text(
        [str(n) for n in range(1, 14) for _ in range(2)]
    )
    assert phone.errors == []


def test_a_bad_value_in_an_import_is_said_by_its_game_round_and_player(phone, tmp_path):
    """Found by a new user: "games[0].entries[0].points: expected a whole number…" named a
    place only a program finds. The page says where a person looks, then the path."""
    import json

    from tests.helpers import good_document

    document = good_document(HouseholdFactory())
    document["games"][0]["entries"][3]["points"] = "ten"
    bad = tmp_path / "games.json"
    bad.write_text(json.dumps(document))
    phone.goto(f"{phone.base}/games/import/")
    phone.get_by_label("Export file (JSON)").set_input_files(bad)
    phone.get_by_role("button", name="Import", exact=True).tap()
    expect(phone.get_by_role("alert")).to_have_text(
        "Nothing was imported. Game 1, round 2, Bob’s turn, ‘points’: expected a whole "
        "number. (in the file: games[0].entries[3].points)"
    )
    assert no_sideways_scroll(phone)
    assert not Game.objects.exists()
    assert [error for error in phone.errors if "status of 400" not in error] == []


# The items whose bullet stands beside another line than their first: a probe at the
# item's start sits where the bullet does, on the first line box's baseline.
BULLETS_BESIDE_THE_FIRST_LINE = """() => [...document.querySelectorAll(".also-here li")]
  .filter(item => {
    const probe = document.createElement("span");
    probe.textContent = "\u200b";
    item.prepend(probe);
    const at = probe.getBoundingClientRect(), link = item.querySelector("a").getClientRects()[0];
    probe.remove();
    const lineHeight = parseFloat(getComputedStyle(item).lineHeight);
    return at.bottom > link.top + lineHeight + 8;  // the first line and the link's padding
  }).map(item => item.textContent.trim())"""


def test_the_start_page_s_other_pages_are_links_a_finger_can_hit(phones):
    """Found by a new user: the start page's "Also here" links were 20 px tall, 4 px apart;
    then 30 px (a tester): each is now a thumb high."""
    phone = phones(viewport={"width": 360, "height": 740})
    phone.goto(f"{phone.base}/")
    boxes = [
        box
        for link in phone.locator(".also-here a").all()
        for box in link.evaluate("a => [...a.getClientRects()].map(r => [r.top, r.bottom])")
    ]
    assert len(boxes) >= 6 and min(bottom - top for top, bottom in boxes) >= 44, boxes
    lines = sorted({(round(top), round(bottom)) for top, bottom in boxes})
    assert all(upper[1] <= lower[0] + 1 for upper, lower in itertools.pairwise(lines)), lines
    # Each item's bullet beside its first line: a link alone in its item that wraps (the
    # rules') had it beside its last (a tester), the item's line set by the link's last.
    assert phone.evaluate(BULLETS_BESIDE_THE_FIRST_LINE) == []
    phone.get_by_role("link", name="A blank score sheet to print").tap()
    expect(phone.get_by_role("heading", name="Yahtzee score sheet")).to_be_visible()
    assert no_sideways_scroll(phone)
    assert phone.errors == []


@pytest.mark.parametrize("language", ["en", "de", "fr", "es", "fi", "sv", "da", "nb"])
def test_a_player_page_fits_a_phone_in_every_language(phones, language):
    """Found by a German reader: the box averages' headings ("Durchschnitt", "Höchstens
    möglich") pushed the table 31 px past a 360 px screen (and a tester again, at 385 px:
    the test's phone was 390 px wide)."""
    phone = phones(viewport={"width": 360, "height": 740})
    household = HouseholdFactory()
    play(GameFactory(owner=household, names=["Ann", "Bob"]), [t for t in SOLO_GAME for _ in (1, 2)])
    join_household(phone, household)
    phone.context.set_extra_http_headers({"Accept-Language": language})
    ann = Player.objects.get(name="Ann")
    phone.goto(f"{phone.base}/players/{ann.public_id}/")
    expect(phone.locator("table.box-averages tbody tr")).to_have_count(13)
    assert phone.locator("html").get_attribute("lang") == language
    save_screenshot(phone, f"player-page-{language}-360")
    root = "document.documentElement"
    assert phone.evaluate(f"{root}.scrollWidth <= {root}.clientWidth")  # the bare list's did not
    assert phone.errors == []


def test_a_rated_review_of_a_player_with_one_long_word_for_a_name_fits_a_phone(
    phone, strategy_tables
):
    """Found by a tester: a 40-letter name in "…: 0.0 points lost in 13 decisions" did not
    wrap, and the rated review was 499 px wide. (The rating needs the rule's table: on a
    fresh clone, run before another test had solved it, the link was not there.)"""
    from scorecard.engine.rules import JokerRule

    strategy_tables.load(JokerRule.HASBRO)
    household = HouseholdFactory()
    name = "Wolfeschlegelsteinhausenbergerdorffvoral"
    game = play(GameFactory(owner=household, names=[name]), SOLO_GAME)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/review/")
    phone.get_by_role("link", name="Rate every decision against optimal play").tap()
    expect(phone.get_by_role("heading", name=re.compile(f"^{name}: "))).to_be_visible()
    # Its first column heads the round and the dice (said "Round , Dice", a tester).
    expect(phone.get_by_role("columnheader", name="Round, Dice", exact=True)).to_be_visible()
    assert no_sideways_scroll(phone)
    assert phone.errors == []


def test_a_name_written_again_with_an_accented_capital_is_the_same_player(phone):
    """Found by a helper: a game started with "JOSÉ" gave José a second player in the
    players list, his games and figures split between the two."""
    household = HouseholdFactory()
    join_household(phone, household)
    for names in (["José", "Ana"], ["JOSÉ", "ana"]):
        phone.goto(f"{phone.base}/games/new/")
        for seat, name in enumerate(names, start=1):
            phone.get_by_label(f"Player {seat}", exact=True).fill(name)
        phone.get_by_role("button", name="Start the game").tap()
        # The player met before, as first written.
        expect(phone.locator("#turn-title")).to_contain_text("José’s turn")
    phone.get_by_role("link", name="Games", exact=True).first.tap()
    phone.get_by_role("link", name="Players", exact=True).tap()
    expect(phone.get_by_role("heading", name="Players")).to_be_visible()
    listed = phone.locator("main").get_by_role("link", name=re.compile("^jos", re.I))
    expect(listed).to_have_count(1)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ana", "José"]
    assert phone.errors == []


def test_a_games_sheet_leads_back_to_the_game_by_a_thumbs_target(phones):
    """Found by a tester on a 320 px phone: the sheet's "Back to the game" was a line of text
    20 px high."""
    page = phones(viewport={"width": 320, "height": 568})
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/")
    page.get_by_role("link", name="Printable sheet").click()
    back = page.get_by_role("link", name="Back to the game")
    assert back.bounding_box()["height"] >= 44
    back.click()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    assert page.errors == []
