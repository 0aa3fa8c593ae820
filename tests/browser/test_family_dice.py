"""Maxi Yatzy's saved rolls and the digital dice of Yatzy and Maxi Yatzy, by taps on a phone:
a turn at the table that stops early says so with the rolls choice, a digital turn rolls its
saved rolls, and the card shows each player's saved rolls at every step."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorecard.engine import families
from scorecard.models import Entry, Game, Roll
from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}
SAVED_ROLLS = families.Switch.SAVED_ROLLS.label


def start_game(page, names: list[str], game: str, *, digital: bool, saved_rolls: bool) -> None:
    page.set_viewport_size(NARROW)
    page.goto(page.base + "/games/new/")
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_role("group", name="Game").get_by_role("radio", name=game, exact=True).check()
    if saved_rolls:
        page.get_by_role("checkbox", name=SAVED_ROLLS).check()
    if digital:
        page.get_by_role("radio", name="Roll here").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(f"{names[0]}’s turn"))).to_be_visible()


def saved_in_standings(page) -> list[str]:
    return [cell.strip() for cell in page.locator("#standings tbody td.saved").all_inner_texts()]


def expect_saved(page, current: int, standings: list[str]) -> None:
    """The turn shows the saved rolls of the player whose turn it is; the standings
    everyone's."""
    expect(page.locator(".saved-rolls")).to_have_text(f"Saved rolls: {current}")
    expect(page.locator("#standings tbody td.saved")).to_have_text(standings)


def enter_dice(page, dice: str) -> None:
    pad = page.get_by_role("group", name="Add a die")
    for face in dice:
        pad.get_by_role("button", name=face, exact=True).click()
    expect(page.locator(".box-options")).to_be_visible()


def say_rolls_used(page, count: int) -> None:
    rolls = page.get_by_role("group", name="Rolls used")
    rolls.get_by_role("radio", name=str(count), exact=True).check()


def offered_rolls(page) -> list[str]:
    radios = page.get_by_role("group", name="Rolls used").get_by_role("radio")
    return [radio.get_attribute("value") or "" for radio in radios.all()]


def tap_box(page, label: str, points: int) -> None:
    page.get_by_role("button", name=f"{label}, {points} points", exact=True).click()


def score_digital(page, box: str) -> None:
    """Choose a box of the digital game and score it (saying yes to a zero)."""
    choice = page.locator(f'label.box-choice[data-box="{box}"]')
    zero = choice.locator("strong").inner_text() == "0"
    choice.click()
    page.get_by_role("button", name="Score").click()
    if zero:
        page.get_by_role("button", name=re.compile("^Yes, 0 in")).click()


def dice_in_one_row(page) -> bool:
    tops = {round(die.bounding_box()["y"]) for die in page.locator(".hold .die").all()}
    return len(tops) == 1


def axe_violations(page) -> list[tuple[str, list]]:
    found = Axe().run(page).response["violations"]
    return [(v["id"], [node["target"] for node in v["nodes"]][:3]) for v in found]


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]


def test_at_the_table_a_maxi_turn_that_stops_early_saves_rolls_for_later(phone):
    page = phone
    start_game(page, ["Ann", "Bob"], "Maxi Yatzy", digital=False, saved_rolls=True)
    expect(page.get_by_role("columnheader", name=re.compile("Saved"))).to_be_visible()
    expect_saved(page, 0, ["0", "0"])

    enter_dice(page, "333555")
    assert offered_rolls(page) == ["1", "2", "3"]
    expect(page.get_by_role("radio", name="3", exact=True)).to_be_checked()
    say_rolls_used(page, 1)  # a villa on the first roll: two rolls saved
    save_screenshot(page, "maxi-saved-rolls-choice-360")
    no_sideways_scroll(page)
    tap_box(page, "Villa", 24)
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    expect_saved(page, 0, ["2", "0"])

    enter_dice(page, "123456")
    tap_box(page, "Full straight", 21)  # Bob says nothing: the whole turn
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    expect_saved(page, 2, ["2", "0"])

    enter_dice(page, "666666")
    assert offered_rolls(page) == ["1", "2", "3", "4", "5"]
    say_rolls_used(page, 4)  # three and one saved
    tap_box(page, "Maxi Yatzy", 100)
    expect_saved(page, 0, ["1", "0"])

    page.get_by_role("button", name="Undo last entry").click()  # the saved roll comes back
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    expect_saved(page, 2, ["2", "0"])
    no_sideways_scroll(page)
    save_screenshot(page, "maxi-saved-rolls-table-360")
    enter_dice(page, "666666")
    assert axe_violations(page) == []  # the rolls choice, the saved count, the Saved column
    page.emulate_media(color_scheme="dark")
    save_screenshot(page, "maxi-saved-rolls-dark-360")
    assert axe_violations(page) == []
    assert [entry.rolls_used for entry in Entry.objects.order_by("turn")] == [1, 3]
    assert page.errors == []


def test_a_count_of_rolls_said_wrong_is_corrected_by_tapping_the_box(phone):
    """Found by a tester: Ann's first turn was written as 1 roll used (it used 3), and the
    correction page had no way to say so."""
    page = phone
    start_game(page, ["Ann", "Bob"], "Maxi Yatzy", digital=False, saved_rolls=True)
    enter_dice(page, "333555")
    say_rolls_used(page, 1)
    tap_box(page, "Villa", 24)
    expect_saved(page, 0, ["2", "0"])
    page.get_by_role("link", name="Correct Ann’s Villa: 24").click()
    expect(page.get_by_role("radio", name="1", exact=True)).to_be_checked()
    say_rolls_used(page, 3)
    no_sideways_scroll(page)
    save_screenshot(page, "maxi-correct-rolls-used-360")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("status")).to_contain_text("Rolls used: 3.")
    expect_saved(page, 0, ["0", "0"])
    assert [entry.rolls_used for entry in Entry.objects.order_by("turn")] == [3]
    assert page.errors == []


def test_a_digital_maxi_turn_rolls_the_rolls_saved_on_an_earlier_turn(phone):
    page = phone
    start_game(page, ["Ann", "Bob"], "Maxi Yatzy", digital=True, saved_rolls=True)
    counter, roll = page.locator("#roll-counter"), page.locator("#roll-button")
    expect_saved(page, 0, ["0", "0"])

    roll.click()  # Ann scores her first roll: two rolls saved
    expect(counter).to_have_text("Roll 1 of 3")
    expect(page.locator(".hold")).to_have_count(6)
    assert dice_in_one_row(page)
    no_sideways_scroll(page)
    save_screenshot(page, "maxi-digital-six-dice-360")
    score_digital(page, "chance")
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    expect_saved(page, 0, ["2", "0"])

    for number in (1, 2):  # Bob rolls his three
        roll.click()
        expect(counter).to_have_text(f"Roll {number} of 3")
    roll.click()
    expect(page.locator(".roll-counter")).to_have_text("Roll 3 of 3: choose a box")
    score_digital(page, "chance")
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    expect_saved(page, 2, ["2", "0"])

    roll.click()
    expect(counter).to_have_text("Roll 1 of 5")
    expect(roll).to_contain_text("(4 left)")
    page.locator("body").press("6")  # the sixth die is held from the keyboard too
    expect(page.locator(".hold input").nth(5)).to_be_checked()
    kept = page.locator(".hold .die").nth(5).inner_text()
    for number in (2, 3, 4):
        roll.click()
        expect(counter).to_have_text(f"Roll {number} of 5")
        expect(page.locator(".hold .die").nth(5)).to_have_text(kept)
        expect(page.locator(".hold input").nth(5)).to_be_checked()
    expect(roll).to_contain_text("(1 left)")
    roll.click()  # the last of her five
    expect(page.locator(".roll-counter")).to_have_text("Roll 5 of 5: choose a box")
    expect(page.locator("#turn .dice .die").nth(5)).to_have_text(kept)
    expect(page.locator("#roll-button")).to_have_count(0)
    save_screenshot(page, "maxi-digital-saved-rolls-360")
    score_digital(page, "sixes")
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    expect_saved(page, 0, ["0", "0"])

    game = Game.objects.get()
    assert [entry.rolls_used for entry in Entry.objects.order_by("turn")] == [1, 3, 5]
    assert Roll.objects.filter(game=game, turn=3).count() == 5
    no_sideways_scroll(page)
    assert page.errors == []


def test_a_short_digital_yatzy_game_rolls_holds_and_scores_five_dice(phone):
    page = phone
    start_game(page, ["Sol"], "Yatzy", digital=True, saved_rolls=False)
    expect(page.locator("h1")).to_contain_text("Yatzy · digital dice")
    counter, roll = page.locator("#roll-counter"), page.locator("#roll-button")
    expect(page.locator(".saved-rolls")).to_have_count(0)
    total = 0
    for turn, box in enumerate(("chance", "sixes", "one_pair"), start=1):
        expect(page.locator("#turn-title")).to_contain_text(f"Sol’s turn · round {turn} of 15")
        roll.click()
        expect(counter).to_have_text("Roll 1 of 3")
        expect(page.locator(".hold")).to_have_count(5)
        assert dice_in_one_row(page)
        page.locator(".hold").nth(0).click()  # hold a die by tapping it
        page.locator("body").press("5")  # and the fifth from the keyboard
        expect(page.locator(".hold input:checked")).to_have_count(2)
        faces = page.locator(".hold .die").all_inner_texts()
        roll.click()
        expect(counter).to_have_text("Roll 2 of 3")
        after = page.locator(".hold .die").all_inner_texts()
        assert (after[0], after[4]) == (faces[0], faces[4])
        roll.click()
        expect(page.locator(".roll-counter")).to_have_text("Roll 3 of 3: choose a box")
        if turn == 1:
            no_sideways_scroll(page)
            save_screenshot(page, "yatzy-digital-360")
        total += int(page.locator(f'label.box-choice[data-box="{box}"] strong').inner_text())
        score_digital(page, box)
        # The next turn, not the total alone: a zero leaves the total as it was.
        expect(page.locator("#turn-title")).to_contain_text(f"Sol’s turn · round {turn + 1} of 15")
        expect(page.locator("#standings tbody td.total")).to_have_text(str(total))
    entries = list(Entry.objects.order_by("turn"))
    dice = [roll.dice for roll in Roll.objects.filter(number=3).order_by("turn")]
    assert [sorted(entry.dice) for entry in entries] == [sorted(faces) for faces in dice]
    assert [entry.rolls_used for entry in entries] == [3, 3, 3]
    body = page.locator("body").inner_text()
    for word in ("Joker", "joker", "Triple", "Challenge", "extra Yahtzee", "Saved rolls"):
        assert word not in body
    no_sideways_scroll(page)
    assert page.errors == []
