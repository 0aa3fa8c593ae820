"""A thumb that taps "Start the game" or "Rematch" twice before the page moves on: the browser
sends the form twice, and one game is made."""

import time

import pytest
from playwright.sync_api import expect

from scorecard.game import services
from scorecard.models import Game
from scorecard.web import idempotency
from tests.browser.conftest import join_household
from tests.factories import GameFactory, HouseholdFactory, play_on

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_games(monkeypatch) -> list[str]:
    """Making a game takes a moment here (as on a busy server), so the second tap lands while
    the first is on its way; what reached the server is listed."""
    sent: list[str] = []
    made_once, create = idempotency.game_made_once, services.game_create

    def counted(request, make):
        sent.append(request.POST[idempotency.FIELD])
        return made_once(request, make)

    def slow_create(**arguments):
        time.sleep(0.5)
        return create(**arguments)

    monkeypatch.setattr(idempotency, "game_made_once", counted)
    monkeypatch.setattr(services, "game_create", slow_create)
    return sent


def double_tap(page, button) -> None:
    """Two taps on the button, the second before the page moves on (a locator's own tap
    would wait for the first one's navigation)."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.touchscreen.tap(*middle)
    page.wait_for_timeout(100)
    page.touchscreen.tap(*middle)


def test_two_quick_taps_on_start_the_game_make_one_game(phone, slow_games):
    """A brand-new phone: its second send leaves before the first answer's cookie is back,
    and still lands in the game, which is its own."""
    phone.goto(phone.base + "/games/new/")
    phone.get_by_label("Player 1", exact=True).fill("Ann")
    phone.get_by_label("Player 2", exact=True).fill("Bob")
    double_tap(phone, phone.get_by_role("button", name="Start the game"))
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn 1 of 26")
    assert len(slow_games) == 2 and len(set(slow_games)) == 1  # one tap's key, sent twice
    assert Game.objects.count() == 1
    phone.get_by_role("link", name="Games").first.click()
    expect(phone.locator(".game-card")).to_have_count(1)
    assert phone.errors == []


def test_two_quick_taps_on_rematch_make_one_game(phone, slow_games):
    household = HouseholdFactory()
    game = play_on(GameFactory(owner=household, names=["Ann", "Bob"]))
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    double_tap(phone, phone.get_by_role("button", name="Rematch with the same players"))
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn 1 of 26")
    assert len(slow_games) == 2 and len(set(slow_games)) == 1
    assert Game.objects.count() == 2
    assert phone.errors == []
