"""Advice at a real table, in Chromium: keep advice for dice rolled at the table."""

import re

import pytest
from playwright.sync_api import expect

from scorecard.engine import rules
from tests.browser.conftest import join_household
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def advised_game_page(phone, strategy_tables) -> None:
    """Ann and Bob's new game, open with advice on, on a server with Hasbro's tables."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.context.add_cookies([{"name": "advice", "value": "on", "url": phone.base}])
    phone.goto(f"{phone.base}/games/{game.public_id}/")


def tap_dice(phone, faces: str) -> None:
    """The dice tapped on the pad's keys, one by one."""
    pad = phone.get_by_role("group", name="Add a die")
    for face in faces:
        pad.get_by_role("button", name=face, exact=True).click()


def test_keep_advice_for_a_first_roll_entered_on_the_pad(phone, strategy_tables):
    advised_game_page(phone, strategy_tables)
    phone.get_by_label("1st roll").check()
    tap_dice(phone, "43446")
    advice = phone.get_by_role("region", name="Dice to keep")
    expect(advice).to_contain_text("2 rolls left")
    ranked = strategy_tables.rate_keeps({}, (4, 3, 4, 4, 6), 2, rules.JokerRule.HASBRO)
    best_keep, best_value = ranked[0]
    best = advice.locator("li.best")
    expect(best).to_contain_text(f"Keep {' '.join(map(str, best_keep))}")
    expect(best).to_contain_text(f"{best_value:.1f}")
    phone.get_by_label("2nd roll").check()  # the same dice, one roll later
    expect(advice).to_contain_text("1 roll left")
    one_left = strategy_tables.rate_keeps({}, (4, 3, 4, 4, 6), 1, rules.JokerRule.HASBRO)
    expect(advice.locator("li.best")).to_contain_text(f"{one_left[0][1]:.1f}")
    assert phone.errors == []


def test_setting_the_advice_keeps_the_dice_entered_on_the_pad(phone, strategy_tables):
    """Dice entered, then advice switched on: the page comes back with the same dice, their
    boxes and now their keep advice; nothing to enter again."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    tap_dice(phone, "66634")
    expect(phone.locator(".box-options button").first).to_be_visible()
    phone.locator(".advice-switch summary").click()
    phone.get_by_label("Advice", exact=True).select_option(label="Always")
    with phone.expect_navigation():  # Set sends the form: the whole page comes back
        phone.get_by_role("button", name="Set").click()
    expect(phone.locator(".advice-switch summary")).to_have_text("Advice: Always")
    expect(phone.get_by_label("Dice, five digits")).to_have_value("66634")
    expect(phone.locator(".box-options button").first).to_be_visible()
    expect(phone.get_by_role("region", name="Dice to keep")).to_be_visible()
    assert phone.errors == []


RING = """(choice) => { const style = getComputedStyle(choice);
  return [style.outlineStyle, style.outlineColor, style.backgroundColor]; }"""


def test_the_roll_choices_keyboard_focus_is_seen_on_its_checked_segment(phone, strategy_tables):
    """Found by a helper: the focus ring was drawn in the accent colour on a segment
    filled with the accent when checked, so a keyboard user saw no focus at all."""
    advised_game_page(phone, strategy_tables)
    phone.get_by_label("1st roll").check()
    phone.get_by_label("Dice, five digits").focus()
    checked = phone.get_by_label("1st roll")
    for _ in range(12):  # on through the pad by the keyboard, to the checked segment
        phone.keyboard.press("Tab")
        if checked.evaluate("(radio) => radio === document.activeElement"):
            break
    expect(checked).to_be_focused()
    focused = phone.locator(".roll-choice .choice:has(input:focus-visible)")
    style, ring, fill = focused.evaluate(RING)
    assert style == "solid" and ring != fill, (ring, fill)
    assert phone.errors == []


@pytest.mark.routes_requests
def test_a_roll_chosen_while_the_dice_s_answer_is_on_its_way_is_kept(phone, strategy_tables):
    """Found by a tester on a slow network: the five dice tapped, then "Final roll" at once;
    the answer drew the pad with the roll it was asked with, and its keep advice said two
    rolls were left. The roll chosen meanwhile is asked about once the answer is in."""
    advised_game_page(phone, strategy_tables)
    phone.get_by_label("1st roll").check()
    answers = re.compile(r".*/games/[^/]+/\?.*dice=")
    held = []
    phone.route(answers, lambda route: held.append(route))
    tap_dice(phone, "55526")
    phone.get_by_label("Final roll").check()
    while not held:  # the fifth die's question, held on its way
        phone.wait_for_timeout(20)
    asked_again = re.compile(r".*\?.*dice=55526.*&roll=3")
    with phone.expect_response(asked_again, timeout=5_000):
        for route in held:
            route.continue_()
        phone.unroute(answers)
    expect(phone.get_by_label("Final roll")).to_be_checked()
    expect(phone.locator("#turn .options")).to_have_count(1)
    expect(phone.get_by_role("region", name="Dice to keep")).to_have_count(0)
    expect(phone.get_by_label("Dice, five digits")).to_have_value("55526")
    assert phone.errors == []


def test_the_arrow_keys_move_through_the_roll_choices_with_the_dice_on_show(phone, strategy_tables):
    """Found by a tester with a keyboard: an arrow key on "1st roll" chose "2nd roll", and
    its answer moved the focus to the boxes' hint, so the next arrow key did nothing."""
    advised_game_page(phone, strategy_tables)
    tap_dice(phone, "43446")
    advice = phone.get_by_role("region", name="Dice to keep")
    expect(advice).to_contain_text("2 rolls left")
    phone.get_by_label("1st roll").focus()
    phone.keyboard.press("ArrowRight")
    expect(advice).to_contain_text("1 roll left")
    expect(phone.get_by_label("2nd roll")).to_be_focused()
    phone.keyboard.press("ArrowRight")
    expect(advice).to_have_count(0)  # no roll left: no dice to keep
    expect(phone.get_by_label("Final roll")).to_be_checked()
    expect(phone.get_by_label("Final roll")).to_be_focused()
    assert phone.errors == []


@pytest.mark.routes_requests
def test_the_keep_advice_goes_stale_with_the_boxes_while_another_roll_is_asked_about(
    phone, strategy_tables
):
    """Found by a tester on a slow network: "Final roll" tapped, the 1st roll's "Keep 5 5"
    stood at full strength until the answer came; only the boxes were dimmed."""
    advised_game_page(phone, strategy_tables)
    tap_dice(phone, "34455")
    advice = phone.get_by_role("region", name="Dice to keep")
    expect(advice).to_contain_text("2 rolls left")
    opacity = "element => getComputedStyle(element).opacity"
    assert advice.evaluate(opacity) == "1"
    answers = re.compile(r".*/games/[^/]+/\?.*dice=")
    held = []
    phone.route(answers, lambda route: held.append(route))
    phone.get_by_label("2nd roll").check()
    expect(phone.locator("#turn .options")).to_have_attribute("inert", "")
    assert advice.evaluate(opacity) == "0.55"
    while not held:
        phone.wait_for_timeout(20)
    for route in held:
        route.continue_()
    phone.unroute(answers)
    expect(advice).to_contain_text("1 roll left")
    assert advice.evaluate(opacity) == "1"
    assert phone.errors == []
