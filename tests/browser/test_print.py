"""Chromium prints the sheets to PDF: each fits on exactly one page of A4 and of Letter,
printed from a phone's window and from a computer's."""

import re

import pytest

from tests.browser.conftest import ARTIFACTS, join_household
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
    assert print_pages(phone, f"{phone.base}/sheet/{query}", paper, window) == 1


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


def test_a_game_page_prints_its_card_without_the_controls_to_score(phone):
    """Printed from the game page itself: the standings and the boxes, no dice field, pad or
    typed-points box (a new user found them on paper)."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    phone.emulate_media(media="print")
    assert phone.locator("#standings").is_visible() and phone.locator("#turn-title").is_visible()
    for control in ("#turn form", "#turn details", "#turn button"):
        assert not [shown for shown in phone.locator(control).all() if shown.is_visible()], control
