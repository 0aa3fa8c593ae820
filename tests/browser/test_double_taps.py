"""A thumb that taps twice. Before the page moves on ("Start the game", "Rematch"), the browser
sends the form twice, and one game is made. After it moved on, the second tap lands on what
the answer drew under the finger (a box where Undo was, the next link on the share page),
and is not a tap of its own."""

import re
import time

import pytest
from playwright.sync_api import expect

from scorecard.engine.rules import Box
from scorecard.game import services
from scorecard.models import Entry, Game, GameLink, Roll
from scorecard.web import idempotency
from tests.browser.conftest import join_household
from tests.factories import GameFactory, HouseholdFactory, play, play_on

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
        time.sleep(1.0)
        return create(**arguments)

    monkeypatch.setattr(idempotency, "game_made_once", counted)
    monkeypatch.setattr(services, "game_create", slow_create)
    return sent


def double_tap(page, button, gap: int = 100) -> None:
    """Two taps on the button `gap` ms apart, the second wherever the first left the page
    (a locator's own tap would wait for the first one's navigation)."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.touchscreen.tap(*middle)
    page.wait_for_timeout(gap)
    page.touchscreen.tap(*middle)


def test_two_quick_taps_on_start_the_game_make_one_game(phone, slow_games):
    """A brand-new phone: its second send leaves before the first answer's cookie is back,
    and still lands in the game, which is its own."""
    phone.goto(phone.base + "/games/new/")
    phone.get_by_label("Player 1", exact=True).fill("Ann")
    phone.get_by_label("Player 2", exact=True).fill("Bob")
    double_tap(phone, phone.get_by_role("button", name="Start the game"))
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
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
    # Two taps, not a double tap: the page itself ignores a double tap's second half on the
    # turn (dice-pad.js); these are apart enough to be two, while the first is on its way.
    double_tap(phone, phone.get_by_role("button", name="Rematch with the same players"), 450)
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    assert len(slow_games) == 2 and len(set(slow_games)) == 1
    assert Game.objects.count() == 2
    assert phone.errors == []


@pytest.mark.parametrize("gap", [80, 200])
def test_a_double_tap_on_undo_undoes_one_entry_and_fills_no_box(phones, gap):
    """Found by a new user: the second tap filled the box the undone turn's boxes put under
    the finger (Ben's 6 in Sixes became 4 in Fours)."""
    phone = phones(viewport={"width": 360, "height": 740})
    household = HouseholdFactory()
    game = play(
        GameFactory(owner=household, names=["Ada", "Ben"]),
        [(Box.CHANCE, (6, 6, 6, 6, 6)), (Box.SIXES, (1, 2, 3, 4, 6))],
    )
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    double_tap(phone, phone.get_by_role("button", name="Undo last entry"), gap)
    expect(phone.locator("#turn-title")).to_contain_text("Ben’s turn")
    expect(phone.locator(".box-options")).to_be_visible()  # his dice are back, to place
    phone.wait_for_timeout(500)
    assert list(Entry.objects.filter(game=game).values_list("box", flat=True)) == ["chance"]
    assert phone.errors == []


def test_a_double_tap_on_revoke_stays_on_the_share_page(phone):
    """Found by a new user: the second tap opened the score link that moved up under it."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ada", "Ben"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/share/")
    for make in ("Make a watch link", "Make a score link"):
        phone.get_by_role("button", name=make).tap()
        expect(phone.get_by_role("button", name=make)).to_have_count(0)
    revoke = phone.get_by_role("region", name="Watch link").get_by_role("button", name="Revoke")
    revoke.scroll_into_view_if_needed()
    phone.wait_for_timeout(600)  # the page takes taps again, and the last is not this one
    box = revoke.bounding_box()
    finger = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.touchscreen.tap(*finger)
    first = time.monotonic()
    expect(phone.get_by_role("button", name="Make a watch link")).to_be_visible()
    # The second half, on the page the first brought, just shown; late enough that the
    # browser counts it as a tap of its own (its double-tap window is 0.3 s).
    phone.wait_for_timeout(max(0, 340 - (time.monotonic() - first) * 1000))
    phone.touchscreen.tap(*finger)
    phone.wait_for_timeout(500)
    assert phone.url.endswith(f"/games/{game.public_id}/share/")
    assert list(GameLink.objects.values_list("role", flat=True)) == ["score"]
    assert phone.errors == []


@pytest.mark.parametrize("gap", [80, 250])
def test_two_quick_taps_on_roll_roll_once(phone, monkeypatch, gap):
    """A thumb that taps Roll twice while the first roll is on its way (a busy server) rolls
    the dice once, and the page says nothing went wrong."""
    from tests.browser.test_digital_game import start_digital_game

    roll_dice = services.roll_dice

    def slow_roll(**arguments):
        time.sleep(0.6)
        return roll_dice(**arguments)

    start_digital_game(phone)
    expect(phone.locator("#turn-title")).to_contain_text("Dee’s turn · round 1 of 13")
    monkeypatch.setattr(services, "roll_dice", slow_roll)
    double_tap(phone, phone.get_by_role("button", name=re.compile("^Roll")), gap)
    expect(phone.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    phone.wait_for_timeout(1500)
    expect(phone.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    assert Roll.objects.count() == 1
    expect(phone.locator(".error:visible, #turn .notice")).to_have_count(0)
    assert phone.errors == []
