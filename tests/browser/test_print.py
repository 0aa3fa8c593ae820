"""Chromium prints the sheets to PDF: each fits on exactly one page of A4 and of Letter."""

import re

import pytest

from tests.browser.conftest import join_household
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, card_total, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def print_pages(page, url: str, paper: str) -> int:
    page.goto(url)
    return pdf_pages(page.pdf(format=paper, print_background=True))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("query", ["", "?columns=8", "?triple=1&columns=2"])
def test_the_blank_sheet_prints_on_one_page(phone, paper, query):
    assert print_pages(phone, f"{phone.base}/sheet/{query}", paper) == 1


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_finished_six_player_games_sheet_prints_on_one_page(phone, paper):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=[f"Player {n}" for n in range(1, 7)])
    play(game, [turn for turn in SOLO_GAME for _ in range(6)])
    assert game.finished
    join_household(phone, household)
    url = f"{phone.base}/games/{game.public_id}/sheet/"
    assert print_pages(phone, url, paper) == 1
    assert phone.locator("td", has_text=str(card_total(SOLO_GAME))).count() == 6
