"""A whole single-player digital game in Chromium: rolling, holding, double-clicking."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from scorecard.engine import rules
from scorecard.game.progress import load_progress
from scorecard.models import Game, Roll
from tests.browser.conftest import save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_digital_game(page):
    """Dee's one-player game with the server's dice, started by taps."""
    page.goto(page.base + "/games/new/?dice=digital")
    page.get_by_label("Player 1", exact=True).fill("Dee")
    page.get_by_role("button", name="Start the game").click()
    # Its scripts started, as a person's first tap finds them: a switch opened the moment the
    # page showed (a loaded CI machine) opened as a page without scripts does, on its link.
    page.wait_for_load_state()
    return page


def test_a_single_player_digital_game_by_clicking_holding_and_double_clicking(phone):
    page = phone
    page.goto(page.base + "/games/new/?dice=digital")
    page.get_by_label("Player 1", exact=True).fill("Dee")
    expect(page.get_by_label("Roll here")).to_be_checked()
    page.get_by_role("button", name="Start the game").click()
    # Marked once the game's page is in: marked sooner, the mark went with the form's page
    # (CI, on a busy machine).
    expect(page.locator("#turn-title")).to_contain_text("Dee’s turn · round 1 of 13")
    page.evaluate("window.stillTheSamePage = true")
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append((turn, frame.url)))
    turn = 0
    for turn in range(1, 14):
        expect(page.locator("#turn-title")).to_contain_text(f"Dee’s turn · round {turn} of 13")
        if turn % 2:
            page.locator("#roll-button").click()
        else:
            page.locator("body").press(" ")  # the keyboard rolls too
        expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
        if turn % 2:
            page.locator(".hold").nth(0).click()  # hold the first die by tapping it
            page.locator(".hold").nth(2).click()
        else:
            page.locator("body").press("1")
            page.locator("body").press("3")
        held = page.locator(".hold input:checked")
        expect(held).to_have_count(2)
        faces = page.locator(".hold .die").all_inner_texts()
        page.locator("#roll-button").click()
        expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
        after = page.locator(".hold .die").all_inner_texts()
        assert (after[0], after[2]) == (faces[0], faces[2])
        if turn == 3:
            page.locator("#roll-button").click()
            expect(page.locator(".roll-counter")).to_have_text("Roll 3 of 3: choose a box")
            # A box is named as on the table's buttons, and the dice as one image, in words.
            chance = page.get_by_role("radio", name=re.compile(r"^Chance, \d+ points$"))
            expect(chance).to_have_count(1)
            faces = page.locator(".dice .die").all_inner_texts()
            expect(page.get_by_role("img", name=f"Dice {' '.join(faces)}")).to_be_visible()
            # Chosen, the box is filled in: a ring alone looked like the focus's (a tester).
            chance.check()
            chosen = page.locator(".box-choice", has=chance)
            accent = page.evaluate(
                """() => { const e = document.createElement("i");
                  e.style.color = "var(--accent)"; document.body.append(e);
                  const shade = getComputedStyle(e).color; e.remove(); return shade; }"""
            )
            expect(chosen).to_have_css("background-color", accent)
            save_screenshot(page, "digital-phone")
        choice = page.locator(".box-choice:not(.disabled)").first
        zero = choice.locator("strong").inner_text() == "0"
        choice.locator("span").dblclick()
        if zero:
            page.get_by_role("button", name=re.compile("^Yes, 0 in")).click()
    expect(page.locator("#turn-title")).to_have_text("Game over")
    # No form fell back to a page load (the holds written into the address are the page's).
    game_path = urlsplit(page.url).path
    assert [url for _, url in navigations if urlsplit(url).path != game_path] == []
    assert page.evaluate("window.stillTheSamePage") is True

    game = Game.objects.get()
    progress = load_progress(game)
    card = [entry.as_rules_entry() for entry in progress.entries]
    filled = rules.check_card(card, game.joker_rule)
    total = rules.totals(filled, sum(1 for e in card if e.bonus)).total
    expect(page.locator(".winner")).to_have_text(f"Dee finishes with {total}.")
    assert Roll.objects.filter(game=game).count() == 13 * 2 + 1
    assert page.errors == []


# A poll the page sent just before its own roll, answered after it: what a slow network does.
LATE_POLL = """() => {
  const live = document.querySelector("[data-live]");
  const asked = { source: live, target: document.body, swap: "none" }; // as live.js asks
  return htmx.ajax("GET", `${live.dataset.live}?live=1`, asked);
}"""


def test_a_poll_answered_after_a_roll_keeps_the_dice_held_since(phone):
    page = start_digital_game(phone)
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    page.locator(".hold").nth(1).click()
    faces = page.locator(".hold .die").all_inner_texts()
    polls = []
    page.on("response", lambda answer: "live=1" in answer.url and polls.append(answer.status))

    page.evaluate(LATE_POLL)

    assert 200 in polls, "the late poll carried the card as it is now"
    expect(page.locator(".hold input").nth(1)).to_be_checked()
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    assert page.locator(".hold .die").nth(1).inner_text() == faces[1]
    assert page.errors == []


def test_a_roll_with_every_die_held_is_refused_and_the_dice_stay_held(phone):
    """Found by a new user: the refusal let go of all five dice."""
    page = start_digital_game(phone)
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    for die in range(5):
        page.locator(".hold").nth(die).click()
    page.locator("#roll-button").click()
    expect(page.get_by_role("alert")).to_contain_text("Every die is held")
    for die in range(5):
        expect(page.locator(".hold input").nth(die)).to_be_checked()
    page.locator(".hold").nth(0).click()  # let one go, and roll it
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    assert Roll.objects.count() == 2
    assert len(page.errors) == 1 and "status of 400" in page.errors[0]  # the refusal


def test_dice_held_stay_held_through_a_reload_until_the_next_roll(phone):
    """Found by a new user: a reload (as a phone does with a page it dropped) let go of the
    dice held for the next roll."""
    page = start_digital_game(phone)
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    page.locator(".hold").nth(0).click()
    page.locator(".hold").nth(2).click()
    page.keyboard.press("4")  # by key too
    expect(page).to_have_url(re.compile(r"\?held_at=1&hold=0&hold=2&hold=3$"))
    page.reload()
    holds = page.locator(".hold input")
    expect(holds).to_have_count(5)
    assert [holds.nth(die).is_checked() for die in range(5)] == [True, False, True, True, False]
    faces = page.locator(".hold .die").all_inner_texts()
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    kept = page.locator(".hold .die").all_inner_texts()
    assert [kept[die] for die in (0, 2, 3)] == [faces[die] for die in (0, 2, 3)]
    expect(page).not_to_have_url(re.compile("hold="))  # the roll's answer let them go
    assert page.errors == []


# The boxes the Score button lies over, as the screen shows them now.
BOXES_UNDER = """(score) => {
  const button = score.getBoundingClientRect();
  return [...document.querySelectorAll(".box-choice")].filter((box) => {
    const r = box.getBoundingClientRect();
    return r.bottom > button.top && r.top < button.bottom;
  }).map((box) => box.querySelector("span").textContent.trim());
}"""


def test_the_score_button_covers_no_box_until_one_is_chosen(phones):
    """On a 360 x 740 phone the list of boxes ends at the screen's foot: Score, kept under
    the thumb, hid the last boxes before anything was chosen."""
    page = phones(viewport={"width": 360, "height": 740})
    page.goto(page.base + "/games/new/?dice=digital")
    page.get_by_label("Player 1", exact=True).fill("Dee")
    page.get_by_role("button", name="Start the game").click()
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    score = page.get_by_role("button", name="Score", exact=True)
    for box in ["Ones", "Full house", "Chance"]:  # each at the screen's foot in turn
        page.locator(".box-choice", has_text=box).evaluate(
            "(box) => window.scrollBy(0, box.getBoundingClientRect().bottom - innerHeight + 8)"
        )
        assert score.evaluate(BOXES_UNDER) == [], f"Score covers boxes with {box} at the foot"
    page.locator(".box-choice", has_text="Ones").locator("span").click()
    page.evaluate("window.scrollTo(0, 0)")
    assert score.bounding_box()["y"] + score.bounding_box()["height"] <= 740  # now in reach
    save_screenshot(page, "digital-360-chosen")
    assert page.errors == []


def test_switching_the_advice_keeps_the_dice_held_and_a_later_roll_forgets_them(
    phone, strategy_tables
):
    """The advice switch sends its own form and the whole page comes back: the dice held on
    the page stay held (found by a new user: all five came back loose, and "Roll again"
    threw away the dice meant to be kept). After the next roll, a reload holds the dice as
    the page held them for the roll to come."""
    strategy_tables.load(rules.JokerRule.HASBRO)
    page = start_digital_game(phone)
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    page.locator(".hold").nth(0).click()
    page.locator(".hold").nth(3).click()
    faces = page.locator(".hold .die").all_inner_texts()

    page.locator(".advice-switch summary").click()
    page.get_by_label("Advice", exact=True).select_option(label="Always")
    with page.expect_navigation():  # Set sends the form: the whole page comes back
        page.get_by_role("button", name="Set").click()
    expect(page.locator(".advice-switch summary")).to_have_text("Advice: Always")
    holds = page.locator(".hold input")
    assert [holds.nth(i).is_checked() for i in range(5)] == [True, False, False, True, False]
    assert page.locator(".hold .die").all_inner_texts() == faces

    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    after = page.locator(".hold .die").all_inner_texts()
    assert (after[0], after[3]) == (faces[0], faces[3])
    page.locator(".hold").nth(1).click()
    expect(page).to_have_url(re.compile(r"\?held_at=2&hold=0&hold=1&hold=3$"))
    page.reload()
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    held = [holds.nth(i).is_checked() for i in range(5)]
    assert held == [True, True, False, True, False]  # as the page held them
    assert page.errors == []


def test_a_button_s_address_opened_as_a_page_leads_back_to_its_game(phone):
    """Opened from the history or an address passed on, the roll's address is a page of
    ours (not Chromium's bare "HTTP ERROR 405") that changes nothing and leads to the game."""
    page = start_digital_game(phone)
    game_address = page.url
    answer = page.goto(game_address + "roll/")
    assert answer.status == 405
    expect(page.get_by_role("heading", name="Nothing to open here")).to_be_visible()
    page.get_by_role("link", name="Go to the page").click()
    expect(page).to_have_url(game_address)
    expect(page.locator("#roll-counter")).to_have_text("Roll the dice to start the turn")
    assert Roll.objects.count() == 0
    assert page.errors == [
        "Failed to load resource: the server responded with a status of 405 (Method Not Allowed)"
    ]


def test_a_turn_by_keyboard_alone_holds_the_focused_die_with_space_and_rolls_with_enter(phone):
    """Space on a focused die rolled every die (a roll gone, nothing held), and each roll
    left the focus at the top of the page, eight Tabs from the dice (found by a new user)."""
    page = start_digital_game(phone)
    expect(page.locator("#roll-counter")).to_be_visible()
    page.wait_for_load_state()  # the keys' script (deferred) too, as a person's page has it
    page.locator("body").press(" ")
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    expect(page.locator("#roll-counter")).to_be_focused()  # one Tab before the dice
    faces = page.locator(".hold .die").all_inner_texts()
    # Said with the dice rolled: only the dice to hold said them (a screen reader's tester).
    expect(page.locator("#roll-counter")).to_have_accessible_description(f"Dice {' '.join(faces)}")
    # A die held by its key is said, its box not being focused.
    page.keyboard.press("2")
    expect(page.locator("#holds-said")).to_have_text(f"Dice held: {faces[1]}")
    page.keyboard.press("2")
    expect(page.locator("#holds-said")).to_have_text("No die held")
    expect(page.locator("#roll-counter")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator(".hold input").nth(0)).to_be_focused()
    page.keyboard.press(" ")
    expect(page.locator(".hold input").nth(0)).to_be_checked()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")  # held, not rolled
    # Said in words, not by its colour alone.
    words = [text.split("\n")[-1] for text in page.locator(".hold").all_inner_texts()]
    assert words[:2] == ["Held", "Hold"]
    save_screenshot(page, "digital-keyboard-held")
    page.keyboard.press("Enter")
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    expect(page.locator("#roll-counter")).to_be_focused()
    assert page.locator(".hold .die").all_inner_texts()[0] == faces[0]
    page.keyboard.press(" ")
    expect(page.locator(".roll-counter")).to_have_text("Roll 3 of 3: choose a box")
    expect(page.locator(".roll-counter")).to_be_focused()  # one Tab before the boxes
    last = page.locator(".dice .die").all_inner_texts()
    expect(page.locator(".roll-counter")).to_have_accessible_description(f"Dice {' '.join(last)}")
    assert page.errors == []


def test_undo_by_keyboard_leaves_the_focus_on_the_roll_it_brought_back(phone):
    """After "Undo last entry" the focus was at the top of the page, the button pressed gone
    (found by a new user): it lands on the undone turn's roll count, one Tab before its dice."""
    page = start_digital_game(phone)
    page.wait_for_load_state()
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    choice = page.locator(".box-choice:not(.disabled)").first
    zero = choice.locator("strong").inner_text() == "0"
    choice.locator("span").dblclick()
    if zero:
        page.get_by_role("button", name=re.compile("^Yes, 0 in")).click()
    expect(page.locator("#turn-title")).to_contain_text("round 2 of 13")
    undo = page.get_by_role("button", name="Undo last entry")
    expect(undo).to_be_visible()
    undo.press("Enter")  # focused, then pressed: a keyboard's Tab to it and Enter
    expect(page.locator("#turn-title")).to_contain_text("round 1 of 13")
    expect(page.locator("#roll-counter")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator(".hold input").nth(0)).to_be_focused()
    assert page.errors == []


def test_an_undo_after_the_next_player_rolled_starts_their_turn_afresh(phone):
    """Found by a new user: Fay rolled, Eve's box was undone and chosen again, and Fay's
    turn showed "Roll (3 left)" while her first roll was kept: her next roll was her
    second, her first dice never shown. The undo takes her roll back with Eve's box. And
    a roll with every die held, which changed nothing but used a roll, is refused."""
    page = phone
    page.goto(page.base + "/games/new/?dice=digital")
    page.get_by_label("Player 1", exact=True).fill("Eve")
    page.get_by_label("Player 2", exact=True).fill("Fay")
    page.get_by_role("button", name="Start the game").click()
    chance = page.locator(".box-choice", has_text="Chance").locator("span")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    chance.dblclick()
    expect(page.locator("#turn-title")).to_contain_text("Fay’s turn")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    # Fay's dice go with the undo: asked first (a new user lost a player's rolls unasked).
    page.get_by_role("button", name="Undo last entry").click()
    question = page.get_by_role("alert")
    expect(question).to_contain_text("Undo Eve’s Chance (")
    expect(question).to_contain_text("Fay has rolled this turn: those dice go with the undo.")
    page.get_by_role("link", name="No, go back").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    expect(page.locator("#turn-title")).to_contain_text("Fay’s turn")
    assert Roll.objects.filter(turn=2).count() == 1
    page.get_by_role("button", name="Undo last entry").click()
    page.get_by_role("button", name="Yes, undo").click()
    expect(page.locator("#turn-title")).to_contain_text("Eve’s turn")
    expect(page.locator("#turn .notice")).to_contain_text("Undone: Eve’s Chance")
    chance.dblclick()
    expect(page.locator("#turn-title")).to_contain_text("Fay’s turn")
    expect(page.locator("#roll-button")).to_contain_text("(3 left)")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    for die in range(5):
        page.locator(".hold").nth(die).click()
    expect(page.locator(".hold input:checked")).to_have_count(5)
    page.locator("#roll-button").click()
    expect(page.locator("#turn .error")).to_contain_text("Every die is held")
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    game = Game.objects.get()
    assert list(Roll.objects.filter(game=game).values_list("turn", "number")) == [(1, 1), (2, 1)]
    page.reload()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")


def test_a_box_chosen_at_the_screens_foot_is_brought_above_score(phones):
    """Found by a new user's helper on a phone held sideways (740×360): once a box is
    chosen, Score sticks to the screen's foot, and it covered the box just chosen there."""
    page = start_digital_game(phones(viewport={"width": 740, "height": 360}))
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    box = page.locator(".box-choice:not(.disabled)").nth(3)
    box.evaluate("label => label.scrollIntoView({block: 'end'})")  # its foot at the screen's
    box.tap()
    score = page.get_by_role("button", name=re.compile("^Score"))
    expect(score).to_be_visible()
    page.wait_for_timeout(300)  # a smooth scroll, if the browser makes one
    assert box.bounding_box()["y"] + box.bounding_box()["height"] <= score.bounding_box()["y"]
    assert page.errors == []


@pytest.mark.parametrize("screen", [{}, {"viewport": {"width": 180, "height": 370}, "scale": 4}])
def test_the_coach_offers_to_roll_again_when_a_box_gives_up_more_than_rolling(
    phones, screen, strategy_tables, monkeypatch
):
    """Found by a tester: a first roll's worst box was weighed against the other boxes
    only, and the coach offered a box "instead" (itself a loss) with no way on to roll. Now
    it says what rolling again is worth and rolls, holding the dice it would keep. With
    text at 200% (a 180 px page) its dice wrap inside its box (the last was cut off)."""
    import random

    from scorecard.game import services
    from scorecard.presenters import advisor

    monkeypatch.setattr(services, "dice_source", random.Random(1))
    strategy_tables.load(rules.JokerRule.HASBRO)
    page = start_digital_game(phones(**screen))
    page.locator(".advice-switch summary").click()
    page.get_by_label("Advice", exact=True).select_option(label="Coach: a loss of 2+ points")
    with page.expect_navigation():
        page.get_by_role("button", name="Set").click()
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    game = Game.objects.get()
    progress = load_progress(game)
    card, table = progress.current.cards[0], progress.table_dice
    boxes = advisor.rate_boxes(card, table, game)
    worst = max(boxes, key=lambda box: boxes[box].loss)
    keep = advisor.ranked_keeps(card, table, 2, game)[0][0]
    held = advisor.best_hold(card, table, 2, game, keep)

    page.locator(".box-choice", has_text=worst.label).locator("span").click()
    page.get_by_role("button", name=re.compile("^Score")).click()
    coach = page.locator("#turn .coach [role=alert]")
    expect(coach).to_contain_text("points on average against rolling again")
    expect(coach).to_be_focused()
    inside = page.locator("#turn .coach").bounding_box()
    for die in page.locator("#turn .coach .die").all():
        edge = die.bounding_box()
        assert edge["x"] + edge["width"] <= inside["x"] + inside["width"] and edge["width"] >= 30
    # Neither the coach's way nor the box: back to the boxes, nothing recorded (a tester).
    page.get_by_role("link", name="No, go back").click()
    expect(page.locator(".box-choice", has_text=worst.label)).to_be_visible()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    assert not game.entries.exists()
    page.locator(".box-choice", has_text=worst.label).locator("span").click()
    page.get_by_role("button", name=re.compile("^Score")).click()
    expect(coach).to_be_focused()
    page.get_by_role("button", name=re.compile(r"^Keep .* and roll instead$")).click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 2 of 3")
    after = page.locator(".hold .die").all_inner_texts()
    assert [after[i] for i, kept in enumerate(held) if kept] == [
        str(table[i]) for i, kept in enumerate(held) if kept
    ]
    assert Roll.objects.get(number=2).held == "".join("1" if kept else "0" for kept in held)
    assert page.errors == []


# The lines each of the roll button's parts (its words, the rolls left) is drawn on.
ROLL_BUTTON_LINES = """(button) => [...button.childNodes].filter((node) => node.textContent.trim())
  .map((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
  })"""


@pytest.mark.parametrize("language", ["fi", "de"])
def test_the_roll_buttons_words_and_rolls_left_each_keep_one_line(phones, language):
    """Found by a helper: "Heitä uudelleen (1 jäljellä)" was squeezed into two columns of
    two lines each on a 360 px phone."""
    page = phones(viewport={"width": 360, "height": 740})
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.goto(page.base + "/games/new/?dice=digital")
    page.locator(".seats input").first.fill("Dee")
    page.locator("form button.primary").first.click()  # Start the game, in the language
    page.wait_for_load_state()
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_contain_text("1")
    button = page.locator("#roll-button")
    assert button.evaluate(ROLL_BUTTON_LINES) == [1, 1]
    save_screenshot(page, f"roll-button-{language}")
    assert page.errors == []


def test_a_die_double_tapped_stays_held(phone):
    """Found by a tester: a double tap scores a box in this game, and a die double-tapped
    was held and let go again, without a word."""
    page = phone
    page.goto(page.base + "/games/new/?dice=digital")
    page.get_by_label("Player 1", exact=True).fill("Dee")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#turn-title")).to_contain_text("Dee’s turn · round 1 of 13")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-counter")).to_have_text("Roll 1 of 3")
    page.locator(".hold").nth(0).dblclick()
    expect(page.locator(".hold input").nth(0)).to_be_checked()
    page.wait_for_timeout(600)  # a tap apart from the double tap
    page.locator(".hold").nth(0).click()  # a single tap still lets it go
    expect(page.locator(".hold input").nth(0)).not_to_be_checked()
    assert page.errors == []
