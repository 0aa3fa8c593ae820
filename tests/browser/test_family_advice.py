"""Advice in a Yatzy game, in Chromium: turned on with the advice switch, keep and box advice
from Yatzy's own strategy on the dice pad, and the coach before a poor hold in a game the
server rolls for."""

import itertools
import re

import pytest
from playwright.sync_api import expect

from scorecard.game import services
from scorecard.models import Game
from tests.browser.conftest import join_household, save_screenshot
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _yatzy(game):
    Game.objects.filter(pk=game.pk).update(family="yatzy")  # the factory makes Yahtzee games
    return game


def _turn_advice_to(phone, label):
    """Pick an advice setting with the switch on the game page, as a player does: open it,
    then choose."""
    phone.locator(".advice-switch summary").click()
    switch = phone.get_by_label("Advice", exact=True)
    switch.select_option(label=label)
    with phone.expect_navigation():  # Set sends the form: the whole page comes back
        phone.get_by_role("button", name="Set").click()
    expect(phone.locator(".advice-switch summary")).to_have_text(f"Advice: {label}")


def test_keep_and_box_advice_in_a_yatzy_game(phone, yatzy_tables):
    household = HouseholdFactory()
    game = _yatzy(GameFactory(owner=household, names=["Ann", "Bob"]))
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    _turn_advice_to(phone, "Always")
    phone.get_by_label("1st roll").check()
    pad = phone.get_by_role("group", name="Add a die")
    for face in "43446":
        pad.get_by_role("button", name=face, exact=True).click()
    advice = phone.get_by_role("region", name="Dice to keep")
    expect(advice).to_contain_text("2 rolls left")
    best_keep, best_value = yatzy_tables.rate_keeps({}, (4, 3, 4, 4, 6), 2)[0]
    best = advice.locator("li.best")
    expect(best).to_contain_text(f"Keep {' '.join(map(str, best_keep))}")
    expect(best).to_contain_text(f"{best_value:.1f}")
    phone.get_by_label("Final roll").check()
    ratings = yatzy_tables.rate_boxes({}, (4, 3, 4, 4, 6))
    box = max(ratings, key=ratings.get)
    named = rf"^{box.label}, \d+ points, expected final {ratings[box]:.1f}, best$"
    expect(phone.get_by_role("button", name=re.compile(named))).to_have_count(1)
    expect(phone.get_by_role("button", name="Two pairs, 0 points", exact=False)).to_have_count(1)
    save_screenshot(phone, "yatzy-advice")
    assert phone.errors == []


def test_the_coach_speaks_up_before_a_poor_hold_in_a_yatzy_game(phone, yatzy_tables, monkeypatch):
    """And it can be answered with neither keep: back to the dice, to hold others (a helper
    found no way back). The dice are seeded: their best keep is not every die."""
    import random

    monkeypatch.setattr(services, "dice_source", random.Random(1))
    household = HouseholdFactory()
    game = _yatzy(services.game_create(owner=household, names=["Dee"], digital=True))
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    _turn_advice_to(phone, "Coach: a loss of 0.5+ points")
    phone.locator("#roll-button").click()
    expect(phone.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    faces = [int(face) for face in phone.locator(".hold .die").all_inner_texts()]
    values = dict(yatzy_tables.rate_keeps({}, faces, 2))
    # Holding all five is refused before the coach is asked (a roll would change nothing).
    subsets = [p for n in range(5) for p in itertools.combinations(range(5), n)]
    worst = min(subsets, key=lambda held: values[tuple(sorted(faces[i] for i in held))])
    for position in worst:
        phone.locator(".hold").nth(position).click()
    phone.locator("#roll-button").click()
    coach = phone.get_by_role("alert")
    expect(coach).to_contain_text("Coach:")
    expect(coach).to_contain_text("points on average")
    # The dice it speaks of, said as one image named by its faces (once named "Dice on the
    # table" alone, the faces unsaid: a reviewer).
    said = f"Dice {' '.join(map(str, faces))}"
    expect(phone.get_by_role("img", name=said, exact=True)).to_be_visible()
    save_screenshot(phone, "yatzy-coach")
    phone.get_by_role("link", name="No, go back").click()
    expect(coach).to_be_hidden()
    expect(phone.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    assert [int(face) for face in phone.locator(".hold .die").all_inner_texts()] == faces
    # The dice as the player held them, to change (they were all let go: a helper).
    assert worst  # the seeded roll's poorest hold holds dice
    holds = phone.locator(".hold input")
    assert [holds.nth(place).is_checked() for place in range(5)] == [
        place in worst for place in range(5)
    ]
    assert game.rolls.count() == 1
    assert phone.errors == []


def test_the_dice_to_hold_come_with_their_expected_total_in_a_digital_game(
    phone, yatzy_tables, monkeypatch
):
    """The ★ marked the dice to hold but said no number, where each box says its own (found
    by a new user). The dice are seeded: a roll whose best keep is every die says to choose
    the box instead (a run of CI rolled one)."""
    import random

    monkeypatch.setattr(services, "dice_source", random.Random(1))
    household = HouseholdFactory()
    game = _yatzy(services.game_create(owner=household, names=["Dee"], digital=True))
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    _turn_advice_to(phone, "Always")
    phone.locator("#roll-button").click()
    expect(phone.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    faces = [int(face) for face in phone.locator(".hold .die").all_inner_texts()]
    best = max(value for _, value in yatzy_tables.rate_keeps({}, faces, 2))
    expect(phone.locator(".advice-note")).to_have_text(
        f"★ marks the dice to keep for the best expected total: {best:.1f}."
    )
    save_screenshot(phone, "yatzy-hold-advice")
    assert phone.errors == []
