"""The new-game form in Chromium, as a new user found it on a 360 px phone."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_moved_up_keeps_the_focus_at_their_new_seat(phone):
    """A click on "Move Player 3 up" (the form works without scripts) brings the page back
    with the names in their new order and the focus on the moved player's Move-up button at
    their new seat, so Enter moves them on; at the top, which has no such button, the focus
    is on their name. It used to fall to the top of the page."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{page.base}/games/new/")
    seats = [page.get_by_label(f"Player {seat}", exact=True) for seat in (1, 2, 3)]
    for seat, name in zip(seats, ["Ann", "Bob", "Cy"], strict=True):
        seat.fill(name)
    with page.expect_navigation():
        page.get_by_role("button", name="Move Player 3 up").click()
    for seat, name in zip(seats, ["Ann", "Cy", "Bob"], strict=True):
        expect(seat).to_have_value(name)
    expect(page.get_by_role("button", name="Move Player 2 up")).to_be_focused()
    focused = "[document.activeElement.name, document.activeElement.value]"
    assert page.evaluate(focused) == ["move_up", "2"]
    with page.expect_navigation():
        page.keyboard.press("Enter")
    for seat, name in zip(seats, ["Cy", "Ann", "Bob"], strict=True):
        expect(seat).to_have_value(name)
    expect(seats[0]).to_be_focused()
    assert page.evaluate(focused) == ["name_1", "Cy"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []


def test_back_from_a_game_just_started_offers_the_way_back_to_it(phone):
    """A new user pressed the browser's Back on a game just started and found an empty
    form, as if the game were lost: the form offers the game in progress, a tap away."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(page.base + "/")
    page.get_by_role("link", name="Start a game").tap()
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bob")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    game_address = page.url
    page.go_back()
    back = page.get_by_role("link", name="Back to the game in progress: Ann, Bob")
    expect(back).to_be_visible()
    assert back.bounding_box()["height"] >= 44
    save_screenshot(page, "new-game-back-to-the-game")
    back.tap()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    assert page.url == game_address
    assert page.errors == []


# Whether a cell's last word (what sets "Grandma Helen" apart from "Grandma Ruth") is drawn
# inside the cell, not cut off past its edge.
LAST_WORD_SHOWN = """(cell) => {
  const text = cell.firstChild, range = document.createRange();
  range.setStart(text, text.textContent.trimEnd().lastIndexOf(" ") + 1);
  range.setEnd(text, text.textContent.trimEnd().length);
  const word = range.getBoundingClientRect(), box = cell.getBoundingClientRect();
  return word.left >= box.left && word.right <= box.right + 0.5 && word.width > 0;
}"""


def test_names_that_begin_alike_are_told_apart_in_the_standings(phone):
    """Found by a new user: the standings cut each name after some ten characters, so
    "Grandma Helen" and "Grandma Ruth" were two rows of "Grandma …". A long name wraps now,
    and the new-game page's way back to the game wraps a name without spaces."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{page.base}/games/new/")
    names = ["Grandma Helen", "Grandma Ruth", "Christopher A", "Christopher B"]
    for seat, name in enumerate(names, 1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()
    rows = page.locator("#standings-rows th")
    expect(rows).to_have_count(4)
    for row, name in zip(rows.all(), names, strict=True):
        expect(row).to_have_text(name)
        assert row.evaluate(LAST_WORD_SHOWN), name
    save_screenshot(page, "standings-names-alike")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("link", name="New game").click()
    page.get_by_label("Player 1", exact=True).fill("W" * 40)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_role("link", name="Back to the game in progress")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []


def test_a_game_started_by_mistake_is_discarded_from_the_home_page(phone):
    """Found by a new user: a rematch started before the table chose a fourth player could
    not be removed, and stayed on the games list, in the players' counts and in every
    export. A game in progress no box of which is filled is discarded with a tap on the
    home page; one with a box filled offers no such button."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    for names in (["Mom", "Dad", "Kid"], ["Ann", "Bob"]):
        page.goto(f"{page.base}/games/new/")
        for seat, name in enumerate(names, start=1):
            page.get_by_label(f"Player {seat}", exact=True).fill(name)
        page.get_by_role("button", name="Start the game").tap()
        expect(page.locator("#turn-title")).to_contain_text(f"{names[0]}’s turn")
    pad = page.get_by_role("group", name="Add a die")  # Ann and Bob's game gets a box filled
    for face in "12346":
        pad.get_by_role("button", name=face, exact=True).tap()
    page.get_by_role("button", name=re.compile("^Chance,")).tap()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    page.get_by_role("link", name="Yahtzee", exact=True).tap()
    discard = page.get_by_role("button", name="Discard")
    expect(discard).to_have_count(1)
    assert discard.bounding_box()["height"] >= 44
    assert "Mom, Dad, Kid" in discard.evaluate(
        "b => document.getElementById(b.getAttribute('aria-describedby').split(' ')[0]).textContent"
    )
    save_screenshot(page, "discard-a-blank-game")
    discard.tap()
    expect(page.get_by_role("status")).to_have_text("The game of Mom, Dad and Kid is discarded.")
    expect(page.get_by_role("status")).to_be_focused()  # said first, to keys and ears
    expect(page.get_by_role("button", name="Discard")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile("Ann, Bob"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []


def test_a_hidden_games_choice_left_out_of_range_does_not_stop_the_start(phone):
    """Found by a helper: a Maxi bonus of 0, then Yatzy chosen (the Maxi choices hidden):
    Start did nothing, the browser refusing a field nobody could see. Hidden, a game's
    choices are left out; the server ignores them anyway."""
    from scorecard.models import Game

    page = phone
    page.goto(f"{page.base}/games/new/")
    page.get_by_label("Player 1", exact=True).fill("Farmor")
    page.get_by_role("radio", name="Maxi Yatzy").check()
    page.get_by_label("Upper boxes needed for the bonus").fill("0")
    page.get_by_role("radio", name="Yatzy", exact=True).check()
    expect(page.get_by_label("Upper boxes needed for the bonus")).to_be_hidden()
    with page.expect_navigation():
        page.get_by_role("button", name="Start with these choices").click()
    expect(page.locator("#turn-title")).to_contain_text("Farmor")
    assert Game.objects.get().family == "yatzy"
    assert page.errors == []
