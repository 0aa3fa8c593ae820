"""The review's and the rules' tables on a 360 px phone, in every language: a finished
4-player game of each family (Yahtzee, Yatzy, Maxi Yatzy, Triple Yahtzee) opened from the
games list, and the rules page from the menu. Each table fits the box it scrolls in (nothing
is cut off with no sign of it, the Points column least of all) and the page never scrolls
sideways. Found by a tester: Swedish turns 415 px wide in a 335 px box, the rules' Points
column cut in Finnish and German."""

import json
import random

import pytest
from playwright.sync_api import expect

from scorecard.engine import rules
from tests.browser.conftest import ARTIFACTS, join_household, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 740}
LANGUAGES = ["en", "sv", "da", "nb", "fi", "de", "fr", "es"]
NAMES = ["Ann", "Bob", "Cy", "Dee"]
FAMILIES = ["yahtzee", "yatzy", "maxi", "triple"]

# Each table on the page, its box (the `.scroll` it sits in), and how wide both are.
MEASURE = """() => [...document.querySelectorAll("main table")].map((table) => {
  const box = table.closest(".scroll");
  const name = table.className || table.closest("section[id]")?.id || "table";
  return {name, table: table.scrollWidth, box: box ? box.clientWidth : null,
          boxScroll: box ? box.scrollWidth : null};
})"""


def play_digital(game, seed: int):
    """A digital game to its end by the services: each turn rolled twice, the second time
    holding the first two dice, then written in the first open box of the first open card
    (a turn the engine refuses there, e.g. five alike under the joker rule, goes on down)."""
    from scorecard.engine.rules import RuleViolation
    from scorecard.game import services
    from scorecard.game.progress import load_progress

    rng = random.Random(seed)
    progress = load_progress(game)
    while progress.current is not None:
        turn = progress.next_turn
        for hold in ([], [0, 1]):
            progress = services.roll_dice(
                game=game, version=game.version, turn=turn, hold=hold, rng=rng
            )
        choices = [(card.number, box) for card in progress.current.open_cards()
                   for box in card.open_boxes()]  # fmt: skip
        for card, box in choices:
            try:
                recorded = services.record_box(
                    game=game, version=game.version, turn=turn, box=box, card=card
                )
            except (RuleViolation, services.Refusal):
                continue
            progress = recorded.progress
            break
    game.refresh_from_db()
    assert game.finished is not None
    return game


def finished_games(household) -> dict:
    """A finished 4-player game of each family: Yahtzee, Yatzy and Maxi Yatzy digital (every
    roll shown), Triple Yahtzee at a table, its last box undone and its points typed again."""
    from scorecard.game import services
    from scorecard.models import Game
    from tests.factories import play_on

    games = {}
    for seed, family in enumerate(FAMILIES[:3]):
        game = services.game_create(
            owner=household,
            names=NAMES,
            house=services.HouseSettings(family),
            digital=True,
        )
        games[family] = play_digital(game, seed)
    triple = services.game_create(owner=household, names=NAMES, mode=Game.Mode.TRIPLE)
    play_on(triple, seed=7)
    last = triple.entries.order_by("turn").last()
    services.undo_last_entry(game=triple, version=triple.version)
    triple.refresh_from_db()
    services.record_box(
        game=triple, version=triple.version, turn=last.turn, box=last.box, card=last.card,
        points=last.points,
    )  # fmt: skip
    triple.refresh_from_db()
    assert triple.finished is not None
    games["triple"] = triple
    return games


def tables_that_do_not_fit(page, *, scrolling=()) -> list[dict]:
    """Tables wider than their box; those named in `scrolling` may scroll inside it (a Triple
    card's twelve columns of numbers cannot fit 335 px at a readable size) as long as their
    row labels stay in view and the box is a labelled region a keyboard can scroll."""
    too_wide = []
    for table in page.evaluate(MEASURE):
        fits = table["box"] is not None and max(table["table"], table["boxScroll"]) <= table["box"]
        if not fits and table["name"] not in scrolling:
            too_wide.append(table)
    for name in scrolling:
        box = page.locator(f'.scroll:has(table[class="{name}"])')
        assert box.get_attribute("tabindex") == "0" and box.get_attribute("aria-label")
        label = box.locator("tbody th[scope=row]").first
        assert label.evaluate("th => getComputedStyle(th).position") == "sticky"
    return too_wide


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_review_and_rules_tables_fit_a_360_px_phone(
    phones, household, language, strategy_tables
):
    strategy_tables.load(rules.JokerRule.HASBRO)  # Yahtzee's decisions rated against optimal
    games = finished_games(household)
    phone = phones(viewport=NARROW)
    phone.context.set_extra_http_headers({"Accept-Language": f"{language},en;q=0.5"})
    join_household(phone, household)
    phone.goto(phone.base)
    assert phone.locator("html").get_attribute("lang") == language
    menu = phone.locator(".site-header nav")
    too_wide, measured = {}, {}
    for family, game in games.items():
        menu.locator('a[href="/games/"]').tap()
        phone.locator(f'.game-card > a[href*="{game.public_id}"]').tap()
        expect(phone.locator("table.turns")).to_be_visible()
        rows = game.entries.count() + game.undone_entries.count()
        expect(phone.locator("table.turns tbody tr")).to_have_count(rows)
        if family == "yahtzee":  # each player's decisions, their losses in the last column
            phone.locator('a[href="?advice=1"]').tap()
            expect(phone.locator("table.decisions")).to_have_count(len(NAMES))
        measured[family] = phone.evaluate(MEASURE)
        if family == "triple":  # its last box typed: the words for it never broken inside
            # ("teclead" and "o" doubled every such row's height in Spanish, a helper)
            typed = phone.locator(".turns .typed").last
            assert typed.evaluate(LINES) <= len(typed.inner_text().split())
        scrolling = ["sheet triple"] if family == "triple" else []
        if bad := tables_that_do_not_fit(phone, scrolling=scrolling):
            too_wide[family] = bad
        if page_width(phone) > NARROW["width"]:
            too_wide[f"{family} page"] = page_width(phone)
        if language in ("sv", "fi", "de"):
            save_screenshot(phone, f"narrow-{language}-review-{family}")
    menu.locator('a[href="/rules/"]').tap()
    phone.wait_for_url("**/rules/")
    expect(phone.locator("article.rules table")).to_have_count(3)
    measured["rules"] = phone.evaluate(MEASURE)
    if bad := tables_that_do_not_fit(phone):
        too_wide["rules"] = bad
    if page_width(phone) > NARROW["width"]:
        too_wide["rules page"] = page_width(phone)
    if language in ("sv", "fi", "de"):
        save_screenshot(phone, f"narrow-{language}-rules")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"narrow-tables-{language}.json").write_text(json.dumps(measured, indent=1))
    assert too_wide == {}
    assert phone.errors == []


LONG_NAMES = ["Christopher", "Alexandra", "Maximilian", "Bartholomew"]
# The lines a heading's text takes: the distinct tops of its pieces.
LINES = """(head) => {
  const range = document.createRange();
  range.selectNodeContents(head);
  return new Set([...range.getClientRects()].map((piece) => Math.round(piece.top))).size;
}"""


def test_long_names_head_the_game_page_and_its_sheet_whole_on_a_360_px_phone(phones, household):
    """A sheet's name heads were capped at 6em on the game page and 4em on its sheet page,
    so a new user read "Alexandr a" and "Christ opher". At 7.2rem such names are whole, on
    one line; four of them scroll in the sheet's box under its sticky box names, and the
    page never sideways. (A 40-letter name among four: test_long_names.py.)"""
    from scorecard.game import services
    from tests.factories import play_on

    game = services.game_create(owner=household, names=LONG_NAMES)
    play_on(game, 8)
    phone = phones(viewport=NARROW)
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    for page_name in ("game", "sheet page"):
        sheet = phone.locator("table.sheet").first
        expect(sheet).to_be_visible()
        for name in LONG_NAMES:
            head = sheet.locator("thead th", has_text=name)
            assert head.evaluate(LINES) == 1, f"{name} broken on the {page_name}"
        box = phone.locator(".scroll:has(table.sheet)").first
        assert box.evaluate("box => box.scrollWidth > box.clientWidth")
        label = box.locator("tbody th[scope=row]").first
        assert label.evaluate("th => getComputedStyle(th).position") == "sticky"
        assert page_width(phone) <= NARROW["width"]
        save_screenshot(phone, f"long-names-{page_name.replace(' ', '-')}")
        if page_name == "game":
            phone.get_by_role("link", name="Printable sheet").tap()
    assert phone.errors == []


def test_the_blank_sheets_preview_shows_its_player_columns_a_score_wide(phones):
    """The blank sheet on a phone squeezed its six empty player columns to slivers; each is
    now at least a score's width, as on the page it prints, and the page never scrolls
    sideways."""
    phone = phones(viewport=NARROW)
    phone.goto(phone.base)
    phone.locator(".site-header nav").get_by_role("link", name="Sheet").tap()
    heads = phone.locator("table.sheet thead th[scope=col]:not(.hint)")
    expect(heads).to_have_count(6)
    widths = heads.evaluate_all("heads => heads.map((head) => head.getBoundingClientRect().width)")
    assert min(widths) >= 40, widths
    assert page_width(phone) <= NARROW["width"]
    save_screenshot(phone, "blank-sheet-360")
    assert phone.errors == []
