"""Chromium prints the sheets to PDF: each fits on exactly one page of A4 and of Letter,
printed from a phone's window and from a computer's, with every player's name whole."""

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from scorecard.engine.families import Switch, UpperBonus
from scorecard.game import services
from tests.browser.conftest import ARTIFACTS, join_household, save_screenshot
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, card_total, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WINDOWS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def printed(page, url: str, paper: str, window: str = "phone") -> bytes:
    """The PDF Chromium prints of `url` from a window of that size, as a person's print does."""
    page.set_viewport_size(WINDOWS[window])
    page.goto(url)
    page.emulate_media(media="print")
    pdf = page.pdf(format=paper, print_background=True)
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^a-z0-9]+", "-", url.split("/", 3)[-1].lower()).strip("-")
    (ARTIFACTS / f"print-{name}-{paper}-{window}.pdf").write_bytes(pdf)
    return pdf


def print_pages(page, url: str, paper: str, window: str = "phone") -> int:
    return pdf_pages(printed(page, url, paper, window))


# Eight names a new user's table had: "Alexandra" and "Alexander" both printed as "Alexan".
LONG_NAMES = [
    "Maximilian-Alexander",
    "Alexandra",
    "Alexander",
    "Konstantinos",
    "Bartholomew",
    "Christabel",
    "Wilhelmina",
    "Anastasia",
]
# The width Chromium lays a page out at: the paper's less the sheet's 10 mm margins, in CSS px.
PRINTED_WIDTH = {"A4": (210 - 20) / 25.4 * 96, "Letter": (8.5 - 20 / 25.4) * 96}
# The names heading the sheet's columns (its head's first row) that reach out sideways of the
# box that shows them, where `overflow: hidden` cuts them. Sideways only: a cell grows to
# fit its lines, and a line's text box is a pixel taller than its line.
CUT_NAMES = """() => [...document.querySelectorAll(".sheet thead tr:first-child th")].filter(th => {
  const left = th.getBoundingClientRect().left + th.clientLeft, right = left + th.clientWidth;
  const range = document.createRange();
  range.selectNodeContents(th);
  const lines = [...range.getClientRects()];
  return lines.some(line => line.left < left - 0.5 || line.right > right + 0.5);
}).map(th => th.textContent)"""


# How far the sheet reaches past the paper's printable width, in CSS px (0 when it fits).
# Chromium shrinks a sheet that is too wide onto the page, cutting its last column's edge
# and leaving the rows smaller than a hand writes in.
SHEET_OVERFLOW = """() => Math.max(0, document.querySelector(".sheet").getBoundingClientRect().right
  - document.documentElement.clientWidth)"""


def sheet_overflow(page, paper: str) -> float:
    """The sheet's overflow laid out at the paper's width, as Chromium prints it."""
    page.set_viewport_size({"width": int(PRINTED_WIDTH[paper]), "height": 1000})
    page.emulate_media(media="print")
    return page.evaluate(SHEET_OVERFLOW)


def cut_names(page, paper: str) -> list[str]:
    """The names cut on paper, laid out at the paper's width as Chromium prints them."""
    page.set_viewport_size({"width": int(PRINTED_WIDTH[paper]), "height": 1000})
    page.emulate_media(media="print")
    return page.evaluate(CUT_NAMES)


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize(
    "query",
    [
        "",
        "?columns=1",
        "?columns=8",
        "?triple=1",
        "?triple=1&name=Ann&name=Bob",
        "?triple=1&columns=2",
        "?triple=1&columns=8",
        "?game=yatzy",
        "?game=yatzy&columns=8",
        "?game=maxi",
        "?game=maxi&columns=8&name=Annika&name=Bo",
    ],
)
def test_the_blank_sheet_prints_on_one_page(phone, paper, query, window):
    """One page, and the sheet inside the page's width: the default six columns (and more)
    once asked for 32 mm each, 256 mm of A4's 190, and printed shrunk with their edge cut."""
    assert print_pages(phone, f"{phone.base}/sheet/{query}", paper, window) == 1
    assert sheet_overflow(phone, paper) < 0.5


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game", ["yahtzee", "triple", "maxi"])
def test_eight_long_names_print_whole_on_a_blank_sheet_of_one_page(phone, paper, window, game):
    """Every name prints whole, so two that begin alike are told apart, and the sheet still
    fits one page (a new user's 8-player sheet cut each name to six letters or so)."""
    query = {"triple": "1"} if game == "triple" else {"game": game}
    url = f"{phone.base}/sheet/?{urlencode(query | {'name': LONG_NAMES}, doseq=True)}"
    assert print_pages(phone, url, paper, window) == 1
    assert cut_names(phone, paper) == []
    assert sheet_overflow(phone, paper) < 0.5


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_eight_long_names_print_whole_on_a_games_own_sheet(phone, paper):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=LONG_NAMES)
    play(game, [turn for turn in SOLO_GAME[:3] for _ in LONG_NAMES])
    join_household(phone, household)
    url = f"{phone.base}/games/{game.public_id}/sheet/"
    assert print_pages(phone, url, paper) == 1
    assert cut_names(phone, paper) == []


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_finished_six_player_games_sheet_prints_on_one_page(phone, paper, window):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=[f"Player {n}" for n in range(1, 7)])
    play(game, [turn for turn in SOLO_GAME for _ in range(6)])
    assert game.finished
    join_household(phone, household)
    url = f"{phone.base}/games/{game.public_id}/sheet/"
    assert print_pages(phone, url, paper, window) == 1
    assert phone.locator("td", has_text=str(card_total(SOLO_GAME))).count() == 6
    assert sheet_overflow(phone, paper) < 0.5


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("players", [2, 8])
def test_a_triple_games_sheet_prints_on_one_page(phone, paper, window, players):
    from scorecard.models import Game

    household = HouseholdFactory()
    names = [f"Player {n}" for n in range(1, players + 1)]
    game = GameFactory(owner=household, names=names, mode=Game.Mode.TRIPLE)
    play(game, [turn for turn in SOLO_GAME[:4] for _ in range(players)])
    join_household(phone, household)
    url = f"{phone.base}/games/{game.public_id}/sheet/"
    assert print_pages(phone, url, paper, window) == 1


def test_the_sheet_page_picks_the_game_by_a_tap(phone):
    from playwright.sync_api import expect

    phone.goto(f"{phone.base}/sheet/")
    game = phone.get_by_role("group", name="Game")
    expect(game.get_by_role("radio", name="Yahtzee")).to_be_checked()
    triple = phone.get_by_role("checkbox", name="Triple Yahtzee (×1 ×2 ×3 per player)")
    expect(triple).to_be_visible()
    game.get_by_role("radio", name="Maxi Yatzy").check()
    expect(triple).to_be_hidden()  # at once: Maxi Yatzy has no Triple
    game.get_by_role("radio", name="Yahtzee", exact=True).check()
    expect(triple).to_be_visible()
    game.get_by_role("radio", name="Maxi Yatzy").check()
    phone.get_by_role("button", name="Update the sheet").click()
    expect(phone.get_by_role("heading", name="Maxi Yatzy score sheet")).to_be_visible()
    expect(phone.get_by_role("rowheader", name="Villa")).to_be_visible()
    expect(
        phone.get_by_role("checkbox", name="Triple Yahtzee (×1 ×2 ×3 per player)")
    ).to_have_count(0)
    phone.get_by_role("group", name="Game").get_by_role("radio", name="Yatzy", exact=True).check()
    phone.get_by_label("Columns").select_option("3")
    phone.get_by_role("button", name="Update the sheet").click()
    expect(phone.get_by_role("heading", name="Yatzy score sheet", exact=True)).to_be_visible()
    expect(phone.get_by_role("rowheader", name="One pair")).to_be_visible()
    expect(phone.get_by_role("rowheader", name="Villa")).to_have_count(0)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.errors == []


def test_the_sheet_pages_triple_checkbox_sits_at_the_left_edge_as_its_row_begins(phones):
    """On a 360 px phone it sat 40 px in, its box stretched as the row's text fields are."""
    phone = phones(viewport={"width": 360, "height": 740})
    phone.goto(f"{phone.base}/sheet/")
    triple = phone.get_by_role("checkbox", name="Triple Yahtzee (×1 ×2 ×3 per player)")
    box, columns = triple.bounding_box(), phone.get_by_text("Columns").bounding_box()
    assert box["width"] == box["height"]  # its own size, not the row's share
    assert 0 <= box["x"] - columns["x"] <= 4  # the browser's margin around a checkbox
    triple.tap()
    phone.get_by_role("button", name="Update the sheet").click()
    expect(phone.locator(".sheet thead th[scope=row]")).to_have_text(["Player", "Card"])
    assert phone.errors == []


def test_a_game_page_prints_its_card_without_the_controls_to_score(phone):
    """Printed from the game page itself: the standings and the boxes, no dice field, pad or
    typed-points box (a new user found them on paper)."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    phone.emulate_media(media="print")
    assert phone.locator("#standings").is_visible() and phone.locator("#turn-title").is_visible()
    # The standings' legend too, a control of the screen ("▸ What the columns mean").
    for control in ("#turn form", "#turn details", "#turn button", ".standings-legend"):
        assert not [shown for shown in phone.locator(control).all() if shown.is_visible()], control


def test_a_phone_in_dark_mode_prints_light_and_without_its_screen_controls(phones):
    """Found by a helper printing every page: from a phone in dark mode the current player's
    row printed dark olive under black text and the links pale blue on white; the games
    list printed its filters, a Triple game its card tabs."""
    from scorecard.models import Game

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.TRIPLE)
    page = phones()
    page.emulate_media(color_scheme="dark")
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/")
    dark_row = page.locator("#standings tr.current").evaluate(
        "r => getComputedStyle(r).backgroundColor"
    )
    page.emulate_media(media="print", color_scheme="dark")
    row = page.locator("#standings tr.current").evaluate("r => getComputedStyle(r).backgroundColor")
    assert dark_row == "rgb(58, 52, 21)" and row == "rgb(255, 243, 196)"  # the light one
    link = page.locator(".sheet a, main a").first.evaluate("a => getComputedStyle(a).color")
    assert link == "rgb(11, 95, 206)"
    assert not page.locator(".tabs").is_visible()
    page.goto(f"{page.base}/games/")
    assert not page.locator("form.filters").is_visible()
    assert page.errors == []


# The head cells of a sheet's card row (×1, ×2, ×3) taller than one line of their type, and
# how-to-score cells whose words run out of their column sideways.
TWO_LINE_CARDS = """() => [...document.querySelectorAll(".sheet thead tr + tr th:not(.hint)")]
  .filter(th => { const range = document.createRange(); range.selectNodeContents(th.lastChild);
                  return range.getClientRects().length > 1; }).map(th => th.textContent.trim())"""
OVERFLOWING_HINTS = """() => [...document.querySelectorAll(".sheet .hint")]
  .filter(cell => cell.scrollWidth > cell.clientWidth + 1).map(cell => cell.textContent.trim())"""


def test_a_triple_sheet_prints_its_cards_on_one_line_and_no_current_player_s_colour(phone):
    """Found by a new user: an eight-player Triple sheet printed "×" over "1", and the screen's
    yellow of the current player's columns."""
    from scorecard.models import Game

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=LONG_NAMES, mode=Game.Mode.TRIPLE)
    play(game, [SOLO_GAME[0]] * 3)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/sheet/")
    current = phone.locator(".sheet thead .current").first
    expect(current).to_have_css("background-color", re.compile(r"^rgb\(255, 243, 196"))
    phone.set_viewport_size({"width": int(PRINTED_WIDTH["A4"]), "height": 1000})
    phone.emulate_media(media="print")
    expect(current).to_have_css("background-color", "rgba(0, 0, 0, 0)")
    assert phone.evaluate(TWO_LINE_CARDS) == []
    assert print_pages(phone, f"{phone.base}/games/{game.public_id}/sheet/", "A4") == 1


# The cells of the sheet whose figures reach past their own cell's edge (into the next).
OVERFLOWING_FIGURES = """() => [...document.querySelectorAll(".sheet tbody td")]
  .filter(cell => cell.scrollWidth > cell.clientWidth + 1).map(cell => cell.textContent.trim())"""


@pytest.mark.parametrize("players", [6, 8])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_triple_sheets_three_figure_totals_print_inside_their_cells(phone, players, paper):
    """Found by a helper: on a six- or eight-player Triple sheet a total of 190 printed its
    0 over the next card's column, read as 19 and 0."""
    from scorecard.models import Game
    from tests.factories import play_on

    household = HouseholdFactory()
    names = [f"P{number}" for number in range(1, players + 1)]
    game = play_on(GameFactory(owner=household, names=names, mode=Game.Mode.TRIPLE), players * 13)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/sheet/")
    phone.set_viewport_size({"width": int(PRINTED_WIDTH[paper]), "height": 1000})
    phone.emulate_media(media="print")
    figures = phone.locator(".sheet tbody td").all_inner_texts()
    assert any(len(figure) >= 3 for figure in figures)  # totals of three figures, printed
    assert phone.evaluate(OVERFLOWING_FIGURES) == []
    assert print_pages(phone, f"{phone.base}/games/{game.public_id}/sheet/", paper) == 1


# The words of how-to-score cells broken across lines with no hyphen shown ("Zwischensum"
# over "me"): a word may only break where a soft hyphen lets it.
BROKEN_WORDS = r"""() => [...document.querySelectorAll(".sheet .hint")].flatMap(cell => {
  const broken = [], walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    for (const word of node.data.matchAll(/[^\s\-]+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map(box => Math.round(box.top)));
      if (lines.size > 1 && !word[0].includes("\u00ad")) broken.push(word[0]);
    }
  }
  return broken;
})"""


@pytest.mark.parametrize("query", ["game=maxi&columns=8", "triple=1&columns=8"])
def test_a_german_sheet_prints_its_how_to_score_words_inside_their_column(phone, query):
    """Found by new users: "Zwischensumme + Bonus" ran over into the first player's column,
    then broke as "Zwischensum" over "me" (Chromium has no German hyphenation here)."""
    phone.context.set_extra_http_headers({"Accept-Language": "de"})
    phone.goto(f"{phone.base}/sheet/?{query}")
    phone.set_viewport_size({"width": int(PRINTED_WIDTH["A4"]), "height": 1000})
    phone.emulate_media(media="print")
    assert phone.evaluate(OVERFLOWING_HINTS) == []
    assert phone.evaluate(BROKEN_WORDS) == []
    assert print_pages(phone, f"{phone.base}/sheet/?{query}", "A4") == 1


# The most lines any how-to-score cell's words take.
HINT_LINES = r"""() => Math.max(...[...document.querySelectorAll(".sheet .hint")].map(cell => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  return new Set([...range.getClientRects()].map(box => Math.round(box.top))).size;
}))"""


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_one_player_sheet_gives_its_room_to_spare_to_how_to_score(phone, paper):
    """Found by a tester: a Finnish one-player sheet left half the page blank while its
    hints took three and four lines against their cells' borders ("100 jokaisesta
    lisä-Yahtzeesta")."""
    phone.context.set_extra_http_headers({"Accept-Language": "fi"})
    address = f"{phone.base}/sheet/?game=yahtzee&columns=1"
    phone.goto(address)
    phone.set_viewport_size({"width": int(PRINTED_WIDTH[paper]), "height": 1000})
    phone.emulate_media(media="print")
    assert phone.evaluate(HINT_LINES) <= 2
    assert phone.evaluate(OVERFLOWING_HINTS) == []
    assert print_pages(phone, address, paper) == 1


def test_a_sheet_prints_by_its_own_button(phone, household):
    """Found by a new user: a phone's browser keeps its print command deep in a menu."""
    phone.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; }")
    phone.goto(f"{phone.base}/sheet/")
    phone.get_by_role("button", name="Print").click()
    assert phone.evaluate("window.printed") == 1
    game = GameFactory(owner=household, names=["Ann"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/sheet/")
    phone.get_by_role("button", name="Print").click()
    assert phone.evaluate("window.printed") == 1  # a new page, counting afresh
    phone.emulate_media(media="print")
    expect(phone.get_by_role("button", name="Print")).to_be_hidden()  # not on the paper
    assert phone.errors == []


def test_a_games_own_sheet_says_which_game_and_when_and_a_solo_column_keeps_its_width(phone):
    """Printed, a game's sheet is often all that is left of it: its heading says the game and
    its day, and one player's column is as wide as any column, not the whole page."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:2])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/sheet/")
    heading = phone.get_by_role("heading", level=1)
    expect(heading).to_contain_text("Yahtzee score sheet")
    expect(heading).to_contain_text(str(game.created.year))
    # The heading names the family once: not "Yahtzee score sheet … · Yahtzee".
    expect(heading.locator("small")).to_have_text(re.compile(rf"^[^·]*{game.created.year}$"))
    assert print_pages(phone, phone.url, "A4") == 1
    # Laid out as on paper: the page's printed width, print styles.
    phone.set_viewport_size({"width": round(PRINTED_WIDTH["A4"]), "height": 1000})
    save_screenshot(phone, "print-solo-sheet")
    ann = phone.locator(".sheet thead th", has_text="Ann").bounding_box()
    assert ann is not None
    assert ann["width"] < 35 / 25.4 * 96, ann  # a column's 32 mm, not the page's rest


# A tester's table: names that wrap onto three and four lines in the sheet's head.
WRAPPING_NAMES = [
    "Alexandra-Marie",
    "Maximilian",
    "Kristiina Virtanen",
    "Bo",
    "Johanna Schmidt-Müller",
    "Eeva-Liisa",
    "Ørjan",
    "Zoë",
]
EVERY_SWITCH = {
    "yahtzee": frozenset(),
    "yatzy": frozenset({Switch.FIVE_ALIKE_FULL_HOUSE, Switch.FOUR_ALIKE_TWO_PAIRS}),
    "maxi": frozenset({Switch.SAVED_ROLLS}),
}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("language", ["en", "de", "fi"])
@pytest.mark.parametrize("family", ["yahtzee", "yatzy", "maxi"])
def test_a_games_sheet_with_every_house_rule_and_wrapping_names_prints_on_one_page(
    phone, paper, language, family
):
    """Found by a tester: a game's house rules are said under its sheet, and with all of
    them (or eight names wrapping in the head) a Letter page printed the last line on a
    second page."""
    household = HouseholdFactory()
    bonus = UpperBonus(threshold=80, points=50)
    house = services.HouseSettings(family, EVERY_SWITCH[family], bonus, forced=True)
    game = GameFactory(owner=household, names=WRAPPING_NAMES, house=house)
    join_household(phone, household)
    phone.context.set_extra_http_headers({"Accept-Language": language})
    url = f"{phone.base}/games/{game.public_id}/sheet/"
    assert print_pages(phone, url, paper) == 1
    assert cut_names(phone, paper) == []
