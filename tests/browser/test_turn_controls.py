"""The turn's own controls in Chromium, each fault a new user found by playing (issue 18):
fixing a die, a failed request said in place, a tap racing the pad's answer, the advice
switch and the roll choice on a 360 px phone."""

import re

import pytest
from playwright.sync_api import expect

from scorecard.engine import rules
from scorecard.models import Entry
from tests.browser.conftest import join_household, save_screenshot
from tests.factories import GameFactory, HouseholdFactory, play, play_on

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def small_phone(phone):
    phone.set_viewport_size(SMALL_PHONE)
    return phone


def open_game(page, names=("Ann", "Bob")):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=list(names))
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/")
    return game


def watch_failures(page) -> list[int]:
    failures: list[int] = []
    page.on("response", lambda r: failures.append(r.status) if r.status >= 400 else None)
    return failures


def tap(page, faces: str) -> None:
    pad = page.get_by_role("group", name="Add a die")
    for face in faces:
        pad.get_by_role("button", name=face, exact=True).click()


def box(page, label: str):
    return page.locator(f'.box-options button[aria-label^="{label},"]')


def finger_on_boxes_waiting(page, label: str) -> None:
    """The boxes on show wait for an answer: a finger on one (where it is drawn, whatever
    covers it) records nothing."""
    expect(page.locator("#turn .options")).to_have_js_property("inert", True)
    expect(page.locator("#turn .options")).to_have_css("opacity", "0.55")  # and look it
    spot = box(page, label).bounding_box()
    page.mouse.click(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    page.wait_for_timeout(300)
    assert not Entry.objects.exists()


def correct_by_points(page, box_of_ann: str, points: int) -> None:
    """Ann's filled box corrected by its link in the card, to `points` typed, and saved."""
    page.locator("#boxes").get_by_role(
        "link", name=re.compile(f"^Correct Ann’s {box_of_ann}:")
    ).click()
    page.get_by_label("The points").fill(str(points))
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#turn .notice")).to_have_text(
        f"Corrected: Ann’s {box_of_ann}, now {points}."
    )


def total_of(page, name: str):
    return page.locator("#standings tbody tr", has_text=name).locator("td.total")


def test_fixing_a_die_works_with_any_number_of_dice_entered(small_phone):
    page = small_phone
    failures = watch_failures(page)
    open_game(page)
    tap(page, "44425")
    expect(box(page, "Fours")).to_be_visible()
    page.get_by_role("button", name="Remove the last die").click()
    expect(page.get_by_label("Dice, five digits")).to_have_value("4442")
    expect(page.locator(".box-options")).to_have_count(0)
    # The key keeps the focus, the boxes gone from under it (it fell to the page's top).
    expect(page.get_by_role("button", name="Remove the last die")).to_be_focused()
    tap(page, "3")
    expect(box(page, "Threes")).to_contain_text("3")
    page.get_by_role("button", name="Clear").click()
    expect(page.get_by_label("Dice, five digits")).to_have_value("")
    expect(page.locator(".box-options")).to_have_count(0)
    expect(page.get_by_role("button", name="Clear")).to_be_focused()
    tap(page, "44425")
    box(page, "Fours").click()
    expect(page.get_by_role("status")).to_contain_text("Ann: Fours 12")
    expect(total_of(page, "Ann")).to_have_text("12")
    assert Entry.objects.get().points == 12
    assert failures == [] and page.errors == []
    save_screenshot(page, "turn-after-fixing-dice-360")


def test_a_sixth_die_tapped_on_a_full_pad_is_refused_in_words(small_phone):
    page = small_phone
    failures = watch_failures(page)
    open_game(page)
    tap(page, "44425")
    expect(box(page, "Fours")).to_be_visible()
    tap(page, "6")
    expect(page.get_by_role("status")).to_have_text(
        "The five dice are in: ⌫ removes the last one, Clear removes them all."
    )
    expect(page.get_by_label("Dice, five digits")).to_have_value("44425")
    box(page, "Fours").click()
    expect(page.get_by_role("status")).to_contain_text("Ann: Fours 12")
    assert failures == [] and page.errors == []


@pytest.mark.routes_requests
def test_a_sixth_die_tapped_while_the_fifth_s_answer_comes_is_refused_in_words_too(phone):
    """Found by a tester on a slow network: the extra die was dropped without its words."""
    page = phone
    open_game(page)
    held = []  # the fifth die's answer, held back; the next passes
    answers = re.compile(r".*/games/[^/]+/\?.*dice=")
    page.route(answers, lambda route: route.continue_() if held else held.append(route))
    tap(page, "44425")
    while not held:
        page.wait_for_timeout(50)
    tap(page, "6")
    held[0].continue_()
    expect(page.get_by_role("status")).to_have_text(
        "The five dice are in: ⌫ removes the last one, Clear removes them all."
    )
    expect(page.get_by_label("Dice, five digits")).to_have_value("44425")
    expect(box(page, "Fours")).to_be_visible()
    assert page.errors == []


def test_a_refusal_of_dice_typed_goes_once_the_pad_changes_them(phone):
    """Found by a tester: six dice typed were refused ("got 6"), and the refusal stayed over
    the pad cleared, and over four dice tapped after three."""
    page = phone
    open_game(page)
    page.get_by_label("Dice, five digits").fill("123456")
    page.get_by_role("button", name="Show").click()
    refusal = page.get_by_text("A roll is five dice; got 6.")
    expect(refusal).to_be_visible()
    field = page.get_by_label("Dice, five digits")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_be_focused()  # Show pressed is swapped out (a keyboard's tester)
    page.get_by_role("button", name="Clear").click()
    expect(refusal).to_have_count(0)
    expect(field).to_have_value("")
    # Nor does the field still say it is invalid to a screen reader (a tester).
    expect(field).not_to_have_attribute("aria-invalid", "true")
    tap(page, "44425")
    box(page, "Fours").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert page.errors == [] or all("400" in error for error in page.errors)


ERROR_PAGES = {
    400: ("text/html", "<!doctype html><title>Bad Request (400)</title><h1>Bad Request</h1>"),
    403: ("text/html", "<!doctype html><title>403 Forbidden</title><h1>CSRF failed</h1>"),
    404: ("text/html", "<!doctype html><title>Not Found</title><h1>Not Found</h1>"),
    409: ("text/html", "<!doctype html><title>Conflict</title><h1>Conflict</h1>"),
    429: ("text/plain", "Too many games started from here: wait ten minutes."),
    500: ("text/html", "<!doctype html><title>Server Error (500)</title><h1>Server Error</h1>"),
}  # a 503 is kept and sent again by the outbox (tests/browser/test_flaky_connection.py)


@pytest.mark.routes_requests
@pytest.mark.parametrize("status", sorted(ERROR_PAGES))
def test_a_failed_tap_is_said_in_place_and_the_page_stays_usable(phone, status):
    """No error answer to an htmx request ever replaces the page: the card stays, one line
    says what happened, and the next tap works."""
    page = phone
    open_game(page)
    kind, body = ERROR_PAGES[status]
    page.route(
        re.compile(r".*/record/$"),
        lambda route: route.fulfill(status=status, content_type=kind, body=body),
        times=1,
    )
    tap(page, "44425")
    box(page, "Fours").click()
    problem = page.locator("#request-problem")
    expect(problem).to_be_visible()
    if kind == "text/plain":
        expect(problem).to_have_text(body)
    else:
        said = "Reload the page" if status == 500 else "nothing was changed"
        expect(problem).to_contain_text(re.compile(said, re.IGNORECASE))
    expect(page.locator("h1.game-title")).to_contain_text("Yahtzee")
    expect(page.locator("#standings")).to_be_visible()
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)
    assert Entry.objects.count() == 0
    box(page, "Fours").click()
    expect(page.get_by_role("status")).to_contain_text("Ann: Fours 12")
    expect(problem).to_be_hidden()
    assert Entry.objects.count() == 1


def test_a_refusal_is_drawn_in_the_turn_and_the_next_tap_records(phone):
    """A 400 of our own (dice that are no roll) shows its reason in the turn, the rest of
    the page intact; the forms in that answer carry their token, so nothing is a 403."""
    page = phone
    failures = watch_failures(page)
    open_game(page)
    page.get_by_label("Dice, five digits").fill("7")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#turn .error")).to_contain_text("A die shows 1 to 6; got 7.")
    expect(page.locator("#standings")).to_be_visible()
    page.get_by_role("button", name="Clear").click()
    tap(page, "66612")
    box(page, "Sixes").click()
    expect(total_of(page, "Ann")).to_have_text("18")
    assert failures == [400] and Entry.objects.get().points == 18


@pytest.mark.routes_requests
def test_boxes_for_dice_no_longer_on_the_pad_cannot_be_tapped_while_its_answer_comes(phone):
    """⌫ asks the server again; until its answer comes, the boxes on show (for the dice
    before the ⌫) take no tap. Found by a new user on a slow network: a box tapped then
    recorded the dice already corrected, and the dice tapped after it went on to the next
    player's pad."""
    page = phone
    failures = watch_failures(page)
    open_game(page)
    tap(page, "44425")
    expect(box(page, "Fours")).to_be_visible()
    held = []
    page.route(re.compile(r".*/games/[^/]+/\?.*dice="), lambda route: held.append(route))
    page.get_by_role("button", name="Remove the last die").click()
    options = page.locator("#turn .options")
    finger_on_boxes_waiting(page, "Fours")
    for route in held:
        route.continue_()
    page.unroute(re.compile(r".*/games/[^/]+/\?.*dice="))
    expect(options).to_have_count(0)  # the answer: four dice, no boxes
    expect(page.get_by_label("Dice, five digits")).to_have_value("4442")
    tap(page, "4")
    box(page, "Fours").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert [entry.points for entry in Entry.objects.all()] == [16]
    assert 403 not in failures


@pytest.mark.routes_requests
def test_boxes_on_show_take_no_tap_while_the_dice_typed_are_shown(phone):
    """Dice typed and shown (Show) ask the server; until its answer comes, the boxes on
    show are for the dice before. Found in CI: a box tapped at once was recorded for those,
    its answer went to a turn Show's answer had replaced, and the turn stayed busy: every
    later tap was refused without a word."""
    page = phone
    open_game(page)
    tap(page, "44425")
    expect(box(page, "Fours")).to_have_attribute("aria-label", re.compile("12 points"))
    held = []
    page.route(re.compile(r".*/games/[^/]+/\?.*dice="), lambda route: held.append(route))
    page.get_by_label("Dice, five digits").fill("44444")
    page.get_by_role("button", name="Show").click()
    finger_on_boxes_waiting(page, "Fours")
    for route in held:
        route.continue_()
    page.unroute(re.compile(r".*/games/[^/]+/\?.*dice="))
    expect(box(page, "Fours")).to_have_attribute("aria-label", re.compile("20 points"))
    box(page, "Fours").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    tap(page, "66612")
    box(page, "Sixes").click()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    assert list(Entry.objects.order_by("turn").values_list("points", flat=True)) == [20, 18]
    assert page.errors == []


@pytest.mark.parametrize("finger", ["tap", "click"])
def test_dice_typed_over_the_boxes_on_show_are_shown_before_a_box_records(phone, finger):
    """Found by a tester: five dice tapped, one die fixed in the field, the box tapped: the
    box recorded the dice before the fix (Fives 10 for 5 5 5 2 3), without a word. Then
    (another tester) the boxes waited for Show, looking as they were, and the tap did
    nothing. The field left, its dice are shown as Show shows them: the tap that left it
    records nothing, and the boxes come for the dice in the field."""
    page = phone
    open_game(page)
    tap(page, "55123")
    expect(box(page, "Fives")).to_have_attribute("aria-label", re.compile("10 points"))
    page.get_by_label("Dice, five digits").fill("55523")
    getattr(box(page, "Fives"), finger)(force=True)  # a finger on it: nothing happens
    page.wait_for_timeout(300)
    assert not Entry.objects.exists()
    expect(box(page, "Fives")).to_have_attribute("aria-label", re.compile("15 points"))
    # Read before the box is tapped again: a second tap on one spot within half a second is
    # a double tap's second half, which records nothing (dice-pad.js).
    page.wait_for_timeout(600)
    getattr(box(page, "Fives"), finger)()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert list(Entry.objects.values_list("dice", "points")) == [("23555", 15)]
    assert page.errors == []


@pytest.mark.routes_requests
def test_a_tap_whose_turn_was_drawn_again_on_its_way_leaves_the_next_taps_free(phone):
    """However the turn comes to be drawn again while a tap is on its way, the tap's end
    frees the turn: htmx's own end-of-request event never reached the page from a form taken
    out, and the turn stayed busy, every later tap refused without a word. Show's answer did
    it in CI; no button reaches it now (the boxes wait for Show's answer), so the turn is
    drawn again here by a request of htmx's, as that answer was."""
    page = phone
    open_game(page)
    tap(page, "12345")
    held = []
    page.route(re.compile(r".*/record/$"), lambda route: held.append(route))
    box(page, "Chance").click()
    expect(page.locator("#turn")).to_have_attribute("aria-busy", "true")
    page.evaluate(
        """htmx.ajax("GET", "?dice=12345&show=1",
                     {source: ".dice-entry", target: "#turn", swap: "outerHTML"})"""
    )
    expect(page.locator("#turn")).not_to_have_attribute("aria-busy", "true")
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()
    page.unroute(re.compile(r".*/record/$"))
    # The answer's turn was for a panel no longer there; the live poll draws the card anew.
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn", timeout=10_000)
    expect(page.locator("#turn")).not_to_have_attribute("aria-busy", "true")
    tap(page, "66612")
    box(page, "Sixes").click()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    assert list(Entry.objects.order_by("turn").values_list("points", flat=True)) == [15, 18]
    assert page.evaluate("localStorage.getItem('outbox')") == "{}"
    # The late answer's other regions found no place beside its turn, gone (htmx says so);
    # the live poll drew them.
    assert [error for error in page.errors if "oobErrorNoTarget" not in error] == []


def test_taps_made_while_the_fifth_die_s_answer_is_slow_are_kept(phone):
    """Found by a new user on an 800 ms network: ⌫ and a die tapped while the fifth die's
    answer was on its way were lost, and the boxes came for the dice already corrected."""
    page = phone
    game = open_game(page)
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    slow = {"offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1}
    network.send("Network.emulateNetworkConditions", slow)
    tap(page, "11112")  # the fifth die asks for the boxes: 800 ms each way
    page.get_by_role("button", name="Remove the last die").click()
    tap(page, "1")
    expect(page.get_by_label("Dice, five digits")).to_have_value("11111")
    expect(box(page, "Ones")).to_have_attribute("aria-label", "Ones, 5 points", timeout=10_000)
    expect(page.get_by_label("Dice, five digits")).to_have_value("11111")
    network.send("Network.emulateNetworkConditions", slow | {"latency": 0})
    box(page, "Ones").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert list(game.entries.values_list("box", "points")) == [("ones", 5)]
    assert page.errors == []


def test_the_pad_s_dice_come_back_after_a_reload_and_back_but_not_on_the_next_turn(small_phone):
    """Found by a new user: dice entered on the pad were lost when the page was loaded again
    (a phone drops a page left in the background) or left and come back to by Back."""
    page = small_phone
    game = open_game(page)
    dice = page.get_by_label("Dice, five digits")
    tap(page, "44425")
    expect(box(page, "Fours")).to_have_attribute("aria-label", "Fours, 12 points")
    page.reload()
    expect(dice).to_have_value("44425")
    expect(box(page, "Fours")).to_have_attribute("aria-label", "Fours, 12 points")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sheet").click()
    page.go_back()
    expect(dice).to_have_value("44425")
    # Fewer dice than a roll too (found by a new user: three dice tapped, then a reload).
    page.get_by_role("button", name="Clear").click()
    tap(page, "555")
    expect(page).to_have_url(re.compile(r"\?dice=555&turn=1$"))
    page.reload()
    expect(dice).to_have_value("555")
    page.get_by_role("button", name="Clear").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    tap(page, "44425")
    box(page, "Fours").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    page.reload()  # the address still has Ann's dice: written for the version before
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    expect(dice).to_have_value("")
    expect(page.locator("#turn .options")).to_have_count(0)
    assert list(game.entries.values_list("box", "points")) == [("fours", 12)]
    # No copy of the page in the browser's storage: the service worker's is forgotten with
    # the household, htmx's would not be.
    assert page.evaluate("sessionStorage.getItem('htmx-history-cache')") is None
    assert page.errors == []


def test_the_dice_an_undo_brings_back_come_back_after_a_reload_too(small_phone):
    """Found by a tester: Undo brought Ann's dice back to the pad, and a reload lost them."""
    page = small_phone
    open_game(page)
    tap(page, "44425")
    box(page, "Fours").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    page.get_by_role("button", name="Undo last entry").click()
    expect(page.get_by_role("status")).to_contain_text("Undone: Ann’s Fours")
    dice = page.get_by_label("Dice, five digits")
    expect(dice).to_have_value("24445")
    expect(page).to_have_url(re.compile(r"\?dice=24445&roll=3&turn=1$"))
    page.reload()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    expect(dice).to_have_value("24445")
    expect(box(page, "Fours")).to_have_attribute("aria-label", "Fours, 12 points")
    assert page.errors == []


def test_advice_switched_on_and_off_adds_and_removes_the_win_column_at_once(
    small_phone, policy_tables
):
    page = small_phone
    open_game(page)
    expect(page.locator("#standings th", has_text="Win")).to_have_count(0)
    # Closed, the switch says the choice; opened, its form comes.
    closed = page.locator(".advice-switch summary")
    expect(closed).to_have_text("Advice: Off")
    closed.click()
    switch = page.get_by_label("Advice", exact=True)
    label_box = page.locator(".advice-switch label").bounding_box()
    select_box = switch.bounding_box()
    assert (
        abs(label_box["y"] + label_box["height"] / 2 - select_box["y"] - select_box["height"] / 2)
        < 4
    )
    switch.select_option("Always")
    expect(closed).to_have_text("Advice: Off")  # chosen, not sent: Set sends it
    page.get_by_role("button", name="Set").click()
    expect(page.locator("#standings th", has_text="Win")).to_be_visible()
    expect(closed).to_have_text("Advice: Always")
    # The switch comes back open, its choice focused, for the next step of a keyboard.
    expect(page.get_by_label("Advice", exact=True)).to_have_value("on")
    expect(page.get_by_label("Advice", exact=True)).to_be_focused()
    page.get_by_label("Advice", exact=True).select_option("Off")
    page.get_by_role("button", name="Set").click()
    expect(page.locator("#standings th", has_text="Win")).to_have_count(0)
    expect(closed).to_have_text("Advice: Off")
    assert page.errors == []


def test_the_advice_switch_steps_through_its_choices_by_keys(small_phone, policy_tables):
    """Found by a new user with a keyboard: opening the switch left the focus nowhere (the
    summary pressed was gone). Then by a tester with a screen reader: each arrow key sent
    the form, the whole page read again at every step (four reloads to the coach). Arrows
    only choose now; Set sends the choice, and the switch comes back focused."""
    page = small_phone
    open_game(page)
    page.locator(".advice-switch summary").focus()
    page.keyboard.press("Enter")
    switch = page.get_by_label("Advice", exact=True)
    expect(switch).to_be_focused()
    expect(switch).to_have_value("off")
    # What each choice does is said before it is made (once said only after, a tester).
    expect(switch).to_have_accessible_description(re.compile(r"^Always: .* Coach: quiet until"))
    page.evaluate("window.stillTheSamePage = true")
    for _ in range(3):
        before = switch.input_value()
        page.keyboard.press("ArrowDown")
        expect(switch).not_to_have_value(before)
        expect(switch).to_be_focused()
    assert page.evaluate("window.stillTheSamePage") is True  # no page came back
    chosen = switch.input_value()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Set")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".advice-switch summary")).not_to_have_text("Advice: Off")
    expect(switch).to_have_value(chosen)
    expect(switch).to_be_focused()
    assert page.errors == []


def test_the_advice_switch_set_comes_back_to_the_dice_half_entered(small_phone):
    """Found by a tester: two dice tapped, then Advice set to the coach: the page came back
    with the pad empty (only five dice shown came back)."""
    page = small_phone
    open_game(page)
    page.wait_for_load_state()
    tap(page, "12")
    page.locator(".advice-switch summary").click()
    page.get_by_label("Advice", exact=True).select_option(label="Always")
    with page.expect_navigation():
        page.get_by_role("button", name="Set").click()
    expect(page.locator(".advice-switch summary")).to_have_text("Advice: Always")
    expect(page.get_by_label("Advice", exact=True)).to_be_focused()
    expect(page.get_by_label("Dice, five digits")).to_have_value("12")
    tap(page, "346")
    expect(box(page, "Chance")).to_be_visible()
    assert page.errors == []


def test_a_zero_s_question_takes_the_focus_from_the_box_pressed(small_phone):
    """Found by a new user with a keyboard: the box pressed gave way to the question, and the
    focus fell to the top of the page, eleven Tabs from its answers."""
    page = small_phone
    open_game(page)
    pad = page.get_by_role("group", name="Add a die")
    for face in "12345":
        pad.get_by_role("button", name=face, exact=True).press("Enter")
    expect(page.get_by_text("Tap the box to fill:")).to_be_focused()
    box(page, "Sixes").press("Enter")
    question = page.get_by_role("alert").filter(has_text="Score 0 in Sixes?")
    expect(question).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Yes, 0 in Sixes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert list(Entry.objects.values_list("box", "points")) == [("sixes", 0)]
    assert page.errors == []


def test_the_roll_choice_fits_one_row_and_each_turn_starts_at_the_first_roll(
    small_phone, strategy_tables
):
    strategy_tables.load(rules.JokerRule.HASBRO)
    page = small_phone
    page.context.add_cookies([{"name": "advice", "value": "on", "url": page.base}])
    open_game(page)
    choices = [page.get_by_label(label) for label in ("1st roll", "2nd roll", "Final roll")]
    expect(choices[0]).to_be_checked()
    tops = {round(page.locator("label.choice", has=c).bounding_box()["y"]) for c in choices}
    assert len(tops) == 1, "the three roll choices stand in one row"
    page.locator("label.choice", has=choices[2]).click()
    expect(choices[2]).to_be_checked()
    tap(page, "66612")
    box(page, "Sixes").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    expect(page.get_by_label("1st roll")).to_be_checked()
    save_screenshot(page, "turn-roll-choice-360")
    assert page.errors == []


def test_a_revoked_watch_link_reloads_to_say_so_and_stops_polling(phone, chromium, settings):
    """With debug on, as `make run` serves: the watcher's next poll reloads the page, which
    says the link no longer works (never Django's list of addresses) and shows no card whose
    controls would no longer work; polling ends."""
    settings.DEBUG = True
    owner = phone
    game = open_game(owner)
    owner.get_by_role("link", name="Share").click()
    owner.get_by_role("button", name="Make a watch link").click()
    address = owner.locator("section", has_text="Watch link").locator("a.share-url")
    watch_url = address.get_attribute("href")
    context = chromium.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    watcher = context.new_page()
    watcher.goto(watch_url)
    owner.goto(f"{owner.base}/games/{game.public_id}/")
    tap(owner, "44425")
    box(owner, "Fours").click()
    expect(total_of(watcher, "Ann")).to_have_text("12", timeout=5_000)

    owner.goto(f"{owner.base}/games/{game.public_id}/share/")
    polls: list[int] = []
    watcher.on("response", lambda r: polls.append(r.status) if "live=1" in r.url else None)
    with watcher.expect_response(lambda r: "live=1" in r.url and r.status == 404, timeout=6_000):
        owner.get_by_role("button", name="Revoke").click()
    expect(watcher.get_by_text("This link no longer works")).to_be_visible()
    expect(watcher.get_by_role("heading", name="Link no longer works")).to_be_visible()
    expect(watcher).to_have_title("Link no longer works · Yahtzee score card")
    expect(watcher.locator("#standings, #turn, [data-live]")).to_have_count(0)
    assert "URLconf" not in watcher.content() and "Page not found" not in watcher.content()
    seen = len(polls)
    watcher.wait_for_timeout(4_500)  # two poll periods
    assert len(polls) == seen, "polling stops once the link is gone"
    save_screenshot(watcher, "watch-link-revoked-360")
    context.close()


def scriptless_game_page(chromium, live_server, household, game):
    """The game's page on a touch phone of its household with scripts off (its own context:
    `page.context.close()` after)."""
    context = chromium.new_context(viewport=SMALL_PHONE, has_touch=True, java_script_enabled=False)
    table = context.new_page()
    table.base = live_server.url
    join_household(table, household)
    table.goto(f"{table.base}/games/{game.public_id}/")
    return table


def test_without_scripts_no_to_the_undo_question_goes_back_to_undo(chromium, live_server):
    """Found by a tester without scripts: No to "Undo …?" brought the game back with the
    focus at the top of the page, the turn a long way down. It goes back to Undo."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    table = scriptless_game_page(chromium, live_server, household, game)
    tap(table, "44412")
    box(table, "Fours").click()
    tap(table, "66612")
    box(table, "Sixes").click()
    correct_by_points(table, "Fours", 16)
    table.get_by_role("button", name="Undo last entry").click()
    expect(table.get_by_role("alert")).to_contain_text("Undo Bob’s Sixes (18)?")
    table.get_by_role("link", name="No, go back").click()
    expect(table.get_by_role("button", name="Undo last entry")).to_be_focused()
    expect(table.get_by_role("alert")).to_have_count(0)
    assert Entry.objects.count() == 2
    table.context.close()


def test_without_scripts_back_after_a_box_says_that_turn_is_on_the_card(chromium, live_server):
    """Found by a tester without scripts: Back after recording a box brought the page of its
    dice, which said "The card changed since these dice were entered (another phone?) …"
    though this phone had recorded them, and nothing said the turn was on the card."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    table = scriptless_game_page(chromium, live_server, household, game)
    tap(table, "12346")
    box(table, "Chance").click()
    expect(table.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    table.go_back()  # the page of its dice, kept by the browser or (as the tester's) asked again
    table.reload()
    expect(table.get_by_role("status")).to_have_text(
        "That turn is on the card already (Ann: Chance 16), so the dice entered for it were "
        "cleared: nothing more was recorded."
    )
    expect(table.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    expect(table.get_by_label("Dice, five digits")).to_have_value("")
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "chance", 16)]
    table.context.close()


def test_without_scripts_dice_entered_for_a_turn_another_phone_recorded_are_cleared(
    phone, chromium, live_server
):
    """Found by a tester without scripts: Bob's dice half entered on one phone while another
    recorded Bob's turn became Ann's at the next tap of the pad (Fives 25 and a Yahtzee
    bonus, from Bob's dice), without a word. They are cleared, and the page says why."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [(rules.Box.FOURS, (4, 4, 4, 2, 5))])
    table = scriptless_game_page(chromium, live_server, household, game)
    tap(table, "55")
    expect(table.get_by_label("Dice, five digits")).to_have_value("55")
    # Meanwhile the other phone records Bob's turn.
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    tap(phone, "44436")
    box(phone, "Fours").click()
    expect(phone.get_by_role("heading", name=re.compile("^Ann’s turn"))).to_be_visible()
    tap(table, "5")
    notice = table.get_by_role("status")
    expect(notice).to_have_text(re.compile("^That turn is on the card already \\(Bob: Fours 12\\)"))
    expect(notice).to_be_focused()
    expect(table.get_by_role("heading", name=re.compile("^Ann’s turn"))).to_be_visible()
    expect(table.get_by_label("Dice, five digits")).to_have_value("")
    tap(table, "55555")
    box(table, "Fives").click()  # Ann's own dice, entered on her turn
    expect(table.get_by_role("status")).to_have_text("Ann: Fives 25")
    # Dice typed whole and shown on a page another phone has moved past, likewise.
    table.reload()
    expect(phone.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()  # live
    tap(phone, "22213")
    box(phone, "Twos").click()  # Bob's round 2, on the other phone
    expect(phone.get_by_role("heading", name=re.compile("^Ann’s turn"))).to_be_visible()
    table.get_by_label("Dice, five digits").fill("33315")
    table.get_by_role("button", name="Show").click()
    said = re.compile("^That turn is on the card already \\(Bob: Twos 6\\)")
    expect(table.get_by_role("status")).to_have_text(said)
    expect(table.locator(".box-options")).to_have_count(0)
    assert list(Entry.objects.order_by("turn").values_list("box", "points")) == [
        ("fours", 12),
        ("fours", 12),
        ("fives", 25),
        ("twos", 6),
    ]
    assert phone.errors == []
    table.context.close()


def test_without_scripts_a_keyboard_enters_dice_on_the_pad_without_leaving_it(
    chromium, live_server
):
    """Found by a tester with scripts off: each key of the pad answered with a page whose
    focus was at its top, 13 Tabs from the pad, at every die. The page now puts the focus
    back on the key pressed, and on the boxes' hint once the dice are in, as the pad's
    script does."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    table = scriptless_game_page(chromium, live_server, household, game)
    pad = table.get_by_role("group", name="Add a die")
    pad.get_by_role("button", name="4", exact=True).focus()
    for entered in ("4", "44", "444"):
        table.keyboard.press("Enter")
        expect(table.get_by_label("Dice, five digits")).to_have_value(entered)
        expect(pad.get_by_role("button", name="4", exact=True)).to_be_focused()
    for key in ("Shift+Tab", "Shift+Tab", "Enter"):  # to 2
        table.keyboard.press(key)
    expect(table.get_by_label("Dice, five digits")).to_have_value("4442")
    expect(pad.get_by_role("button", name="2", exact=True)).to_be_focused()
    for _ in range(5):  # past 3, 4, 5 and 6 to ⌫
        table.keyboard.press("Tab")
    table.keyboard.press("Enter")
    expect(table.get_by_label("Dice, five digits")).to_have_value("444")
    expect(pad.get_by_role("button", name="Remove the last die")).to_be_focused()
    for _ in range(2):
        table.keyboard.press("Shift+Tab")
    table.keyboard.press("Enter")  # the 5, on 6's left
    expect(pad.get_by_role("button", name="5", exact=True)).to_be_focused()
    table.keyboard.press("Enter")
    expect(table.get_by_label("Dice, five digits")).to_have_value("44455")
    expect(table.locator("p.hint").filter(has_text="Tap the box to fill:")).to_be_focused()
    for _ in range(4):  # Ones, Twos, Threes, Fours
        table.keyboard.press("Tab")
    expect(box(table, "Fours")).to_be_focused()
    table.keyboard.press("Enter")
    expect(table.get_by_role("status")).to_have_text("Ann: Fours 12")
    assert list(Entry.objects.values_list("box", "points")) == [("fours", 12)]
    table.context.close()


def test_without_scripts_the_legend_and_the_typed_points_come_by_their_links(chromium, live_server):
    """The standings' legend and the typed points' form are fetched when opened; a phone
    without scripts opens each box and follows its link to the page with it open, then
    records by the plain form."""
    context = chromium.new_context(viewport=SMALL_PHONE, has_touch=True, java_script_enabled=False)
    page = context.new_page()
    page.base = live_server.url
    game = open_game(page)
    page.get_by_text("What the columns mean").click()
    page.get_by_role("link", name="Explain the columns").click()
    expect(page.locator(".standings-legend dl")).to_contain_text("Pace (Bonus pace):")
    page.get_by_text("No dice to enter? Type the points").click()
    page.get_by_role("link", name="Type the points").click()
    form = page.locator("#typed form")
    form.get_by_label("Box").select_option(label="Chance")
    form.get_by_label("Points").fill("23")
    form.get_by_role("button", name="Record").click()
    expect(page.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    save_screenshot(page, "typed-points-without-scripts-360")
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "chance", 23)]
    assert game.entries.count() == 1
    # The advice switch likewise: its link opens the page with its form, whose Set button
    # fits the narrow card too and brings the page back.
    page.get_by_text("Advice: Off").click()
    page.get_by_role("link", name="Choose the advice").click()
    # Focused on the choice, by its autofocus (an address with a #fragment had it skipped,
    # and the focus stayed at the page's top; a tester).
    expect(page.get_by_label("Advice", exact=True)).to_be_focused()
    page.get_by_label("Advice", exact=True).select_option(label="Always")
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    save_screenshot(page, "advice-switch-without-scripts-360")
    page.get_by_role("button", name="Set").click()
    expect(page.locator(".advice-switch summary")).to_have_text("Advice: Always")
    expect(page.get_by_label("Advice", exact=True)).to_be_focused()
    # And the language switch: its link opens its page, whose form brings the game back.
    page.get_by_text("Language: English").click()
    page.get_by_role("link", name="Choose a language").click()
    page.get_by_label("Language").select_option(label="Deutsch")
    save_screenshot(page, "language-page-without-scripts-360")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator("footer summary")).to_have_text("Sprache: Deutsch · Language")
    # Back to the game as it was left: its advice switch open (the address says so).
    assert page.url.endswith(f"/games/{game.public_id}/?advice=1")
    context.close()


def test_the_keyboard_s_focus_follows_the_turn(small_phone):
    """Keys alone: the fifth die's key moves the focus to the boxes' hint, one Tab before
    the first box the dice may fill (not back to the top of the page, past every box), and
    recording it moves the focus to the next player's turn, whose dice field is the next Tab
    away. Found by a new user: the focus once landed on the first box itself, so a sixth
    press of the pad's key recorded it."""
    page = small_phone
    open_game(page)
    pad = page.get_by_role("group", name="Add a die")
    for face in "4442":
        pad.get_by_role("button", name=face, exact=True).press("Enter")
    expect(page.get_by_label("Dice, five digits")).to_have_value("4442")
    pad.get_by_role("button", name="5", exact=True).press("Enter")
    expect(page.get_by_text("Tap the box to fill:")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    expect(box(page, "Ones")).to_be_focused()
    assert not Entry.objects.exists()
    page.keyboard.press("Tab")
    expect(box(page, "Twos")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Dice, five digits")).to_be_focused()
    assert list(Entry.objects.values_list("box", "points")) == [("twos", 2)]
    assert page.errors == []


def test_an_undo_by_keyboard_is_said_where_the_focus_lands(small_phone):
    """Found by a tester with a screen reader: after Undo the focus landed on the boxes'
    hint, below "Undone: …", a status drawn already written, which a screen reader may never
    say. The hint focused is described by it, as a recorded box's heading is by its note."""
    page = small_phone
    open_game(page)
    tap(page, "44425")
    box(page, "Twos").press("Enter")
    heading = page.get_by_role("heading", name=re.compile("^Bob’s turn"))
    expect(heading).to_be_focused()
    expect(heading).to_have_accessible_description("Ann: Twos 2")
    page.get_by_role("button", name="Undo last entry").press("Enter")
    hint = page.get_by_text("Tap the box to fill:")
    expect(hint).to_be_focused()
    expect(hint).to_have_accessible_description("Undone: Ann’s Twos (2).")
    assert not Entry.objects.exists()
    assert page.errors == []


def test_the_keyboard_s_focus_lands_on_game_over_and_on_the_legend_opened(small_phone):
    """Found by an accessibility tester: the last box recorded by a key left the focus on
    the page itself (the next Tab skipped Rematch and Undo), and so did opening "What the
    columns mean", whose explanation replaced the summary pressed."""
    from tests.factories import SOLO_GAME

    page = small_phone
    game = open_game(page, names=("Ann",))
    play(game, SOLO_GAME[:-1])
    page.reload()
    legend = page.locator(".standings-legend summary")
    legend.press("Enter")
    expect(page.locator(".standings-legend dl")).to_be_visible()
    expect(page.locator(".standings-legend summary")).to_be_focused()
    tap(page, "66554")
    box(page, "Chance").press("Enter")
    expect(page.get_by_role("heading", name="Game over")).to_be_focused()
    assert page.errors == []


def test_the_keyboard_s_focus_stays_in_the_typed_points_and_the_correction(small_phone):
    """Found by a new user on keys alone: the typed points opened with the focus lost to the
    top of the page (the next Tabs reached Undo), a refusal there lost it again, and the
    correction page's refusal and its saved answer left it at the top too."""
    page = small_phone
    game = open_game(page, names=("Ann", "Bob"))
    play(game, [(rules.Box.THREES, (3, 3, 3, 1, 2))])
    page.reload()
    summary = page.get_by_text("No dice to enter? Type the points")
    summary.focus()
    page.keyboard.press("Enter")
    # The box first (an auditor found the focus on the points, the box skipped at Ones).
    expect(page.get_by_label("Box", exact=True)).to_be_focused()
    page.keyboard.press("Tab")
    points = page.get_by_placeholder("Points")
    expect(points).to_be_focused()
    page.keyboard.type("7")
    page.keyboard.press("Enter")  # Ones, the first box: 7 is refused
    expect(page.locator("#turn .error")).to_contain_text("Ones cannot score 7")
    expect(page.get_by_placeholder("Points")).to_be_focused()
    assert Entry.objects.count() == 1
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Threes:")).press(
        "Enter"
    )
    page.get_by_label("The points").fill("7")
    page.get_by_label("The points").press("Enter")
    error = page.get_by_role("alert")
    expect(error).to_contain_text("Threes cannot score 7")
    expect(error).to_be_focused()
    # Cancel comes back to the box, not to the page's top some 20 Tabs away (a tester).
    page.get_by_role("link", name="Cancel").press("Enter")
    expect(page).to_have_url(re.compile(r"#t1$"))
    threes = page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Threes"))
    page.keyboard.press("Tab")  # to the control after the box: the keys go on from it
    page.keyboard.press("Shift+Tab")
    expect(threes).to_be_focused()
    threes.press("Enter")
    # The page's heading has the focus, not its top (a tester), one Tab before the fields.
    expect(page.get_by_role("heading", name="Correct Ann’s Threes")).to_be_focused()
    page.get_by_label("The points").fill("12")
    page.get_by_role("button", name="Save the correction").press("Enter")
    notice = page.locator("#turn .notice")
    expect(notice).to_have_text("Corrected: Ann’s Threes, now 12.")
    expect(notice).to_be_focused()
    assert page.errors == [] or all("400" in error for error in page.errors)


def test_typed_points_refused_are_said_under_the_field_in_view(small_phone):
    """Found by an auditor: after a second refused try the refusal sat at the top of the
    turn, 81 px above a phone's screen scrolled down to Record; the field showed nothing."""
    page = small_phone
    open_game(page, names=("Ann", "Bob"))
    page.get_by_text("No dice to enter? Type the points").click()
    points = page.get_by_placeholder("Points")
    page.get_by_label("Box", exact=True).select_option(label="Full house")
    points.fill("24")
    page.get_by_role("button", name="Record", exact=True).click()
    error = page.locator("#turn-error")
    expect(error).to_contain_text("Full house")
    page.get_by_label("Box", exact=True).select_option(label="Ones")
    page.get_by_placeholder("Points").fill("7")
    page.get_by_role("button", name="Record", exact=True).click()
    expect(error).to_contain_text("Ones cannot score 7")
    box = error.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    field = page.get_by_placeholder("Points").bounding_box()
    assert field["y"] < box["y"]  # under the field it is about
    assert Entry.objects.count() == 0
    save_screenshot(page, "typed-points-refused-in-view")


def test_a_correction_page_brought_back_by_back_and_sent_again_says_nothing_changed(
    small_phone,
):
    """Found by a tester: Fours refused at 13, saved at 16, then Back to the refused page,
    20 and Save: a bare text page ("This tap's key came with another tap before"), the 20
    silently not saved."""
    page = small_phone
    game = open_game(page)
    play(game, [(rules.Box.FOURS, (4, 4, 4, 2, 5))])
    page.reload()
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Fours:")).click()
    points = page.get_by_label("The points")
    points.fill("13")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("alert")).to_contain_text("Fours cannot score 13")
    page.get_by_label("The points").fill("16")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("status")).to_contain_text("Corrected: Ann’s Fours, now 16.")
    page.go_back()
    page.get_by_label("The points").fill("20")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#turn .notice")).to_contain_text(
        "Nothing was changed: this form had been sent already, with other values"
    )
    expect(page.locator("#boxes")).to_contain_text("16")
    assert list(game.entries.values_list("points", flat=True)) == [16]


def test_a_correction_that_makes_a_box_0_is_asked_about_and_keeps_what_was_typed(small_phone):
    """Found by a tester: Two pairs' 6 corrected with dice mistyped as 44445 was saved as 0
    at once. The page now asks, the dice typed still in their field and nothing changed;
    Enter saves as before (and asks again), and only "Yes, 0 in Fours" writes the 0."""
    page = small_phone
    game = open_game(page)
    play(game, [(rules.Box.FOURS, (4, 4, 4, 2, 5))])
    page.reload()
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Fours:")).tap()
    page.get_by_label("The dice that were rolled").fill("11236")
    page.get_by_role("button", name="Save the correction").tap()
    question = page.get_by_role("alert")
    expect(question).to_contain_text("Score 0 in Fours? A zero stays on the card")
    expect(question).to_be_focused()
    expect(page.get_by_label("The dice that were rolled")).to_have_value("11236")
    save_screenshot(page, "correction-zero-question")
    assert list(game.entries.values_list("points", "corrected")) == [(12, None)]
    page.get_by_label("The dice that were rolled").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Score 0 in Fours?")
    assert list(game.entries.values_list("points", flat=True)) == [12]
    page.get_by_role("button", name="Yes, 0 in Fours").tap()
    expect(page.get_by_role("status")).to_contain_text("Corrected: Ann’s Fours, now 0.")
    expect(page.locator("#boxes")).to_contain_text("0")
    assert list(game.entries.values_list("points", "dice")) == [(0, "11236")]
    assert page.errors == []


def test_keep_the_screen_on_says_with_a_tick_that_it_is_on(small_phone):
    """Found by a new user: the screen is kept on from the start, but the button said only
    "Keep the screen on" (a green border the one sign), so a tap meant to turn it on turned
    it off. A tick says it is on; the tap takes it away."""
    open_game(small_phone)
    toggle = small_phone.get_by_role("button", name="Keep the screen on")
    tick = "el => getComputedStyle(el, '::before').content"
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert toggle.evaluate(tick) == '"✓ "'
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert toggle.evaluate(tick) == "none"
    toggle.tap()
    assert toggle.evaluate(tick) == '"✓ "'
    assert small_phone.errors == []


def test_an_extra_yahtzee_corrected_by_points_says_by_its_tick_whether_it_was_one(small_phone):
    """Found by new users: an extra Yahtzee's Fours 20 could not be corrected to 16 (refused
    as "no five alike may score 16"), nor with the tick the page had left on."""
    page = small_phone
    game = open_game(page, names=("Ann",))
    play(game, [(rules.Box.YAHTZEE, (3,) * 5), (rules.Box.CHANCE, (1, 2, 3, 4, 6))])
    play(game, [(rules.Box.FOURS, (4,) * 5)])
    page.reload()
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Fours:")).click()
    expect(page.get_by_label("It was an extra Yahtzee (+100)")).to_be_checked()  # as it is
    page.get_by_label("The points").fill("16")
    page.get_by_role("button", name="Save the correction").click()  # the tick left as it was
    said = "Corrected: Ann’s Fours, now 16. It no longer has its 100 extra-Yahtzee bonus."
    expect(page.locator("#turn .notice")).to_have_text(said)
    expect(total_of(page, "Ann")).to_have_text(str(50 + 16 + 16))
    fours = Entry.objects.get(box="fours")
    assert (fours.points, fours.yahtzee_bonus) == (16, False)
    assert page.errors == []


def test_a_roll_written_in_the_wrong_box_rounds_ago_moves_to_the_right_one(small_phone):
    """Found by a new user: the commonest slip at a table is a box filled by mistake a few
    turns back, and a correction could only change its dice or points."""
    page = small_phone
    open_game(page)
    tap(page, "33312")
    box(page, "Ones").click()  # meant for Threes
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    tap(page, "66612")
    box(page, "Sixes").click()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Ones:")).click()
    expect(page.get_by_role("heading", name="Correct Ann’s Ones")).to_be_visible()
    # The hint follows the box chosen once the page's script has started (on a loaded CI
    # machine a choice made the moment the page showed asked nothing).
    page.wait_for_load_state()
    choice = page.get_by_label("The box")
    expect(choice).to_have_value("ones")
    hint = page.locator("#correct-points + small")
    expect(hint).to_have_text("Ones scores 0 to 5.")
    choice.select_option(label="Threes (9)")  # what the dice score there
    expect(hint).to_have_text("Threes scores 0, 3, 6, ... 15.")  # the chosen box's
    save_screenshot(page, "correct-move-360")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#turn .notice")).to_have_text("Moved: Ann’s Ones to Threes, now 9.")
    expect(total_of(page, "Ann")).to_have_text("9")
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    tap(page, "11456")
    expect(box(page, "Ones")).to_be_enabled()  # open again, for this turn's dice
    box(page, "Ones").click()
    expect(total_of(page, "Ann")).to_have_text("11")
    assert list(Entry.objects.order_by("turn").values_list("box", "points")) == [
        ("threes", 9),
        ("sixes", 18),
        ("ones", 2),
    ]
    assert page.errors == []


def test_a_triple_box_on_the_wrong_card_moves_to_another_card(small_phone):
    """Found by a new user: Triple Yahtzee's likeliest slip is the right box on the wrong
    card, and the box choice offered only the same card's boxes."""
    from scorecard.models import Game

    page = small_phone
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann"], mode=Game.Mode.TRIPLE)
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/")
    tap(page, "44425")
    box(page, "Fours").click()  # on card ×1, meant for card ×3
    expect(page.locator("#turn-title")).to_contain_text("round 2")
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Fours")).click()
    page.get_by_label("The box").select_option(label="Fours on card ×3 (12)")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#turn .notice")).to_have_text(
        "Moved: Ann’s Fours on card ×1 to Fours on card ×3, now 12."
    )
    expect(total_of(page, "Ann")).to_have_text("36")
    assert Entry.objects.values_list("card", "box").get() == (3, "fours")
    assert page.errors == []


def test_a_triple_card_tab_keeps_the_focus_and_the_dice_typed(small_phone):
    """Found by a keyboard's tester: Enter on "Card ×3" threw away the dice typed but not yet
    shown and left the focus on the page itself, the next Tab at the advice switch. And
    Cancel on a correction came back to the box under the sheet's head rows."""
    from scorecard.models import Game

    page = small_phone
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"], mode=Game.Mode.TRIPLE)
    join_household(page, household)
    page.goto(f"{page.base}/games/{game.public_id}/")
    page.wait_for_load_state()
    page.get_by_role("link", name="Card ×2").press("Enter")
    expect(page.get_by_role("link", name="Card ×2")).to_have_attribute("aria-current", "true")
    expect(page.get_by_role("link", name="Card ×2")).to_be_focused()
    field = page.get_by_label("Dice, five digits")
    field.fill("12346")
    page.get_by_role("link", name="Card ×3").press("Enter")
    expect(page.get_by_role("link", name="Card ×3")).to_have_attribute("aria-current", "true")
    expect(field).to_have_value("12346")  # shown, all five in: the boxes' hint focused
    expect(page.get_by_text("Tap the box to fill on card ×3:")).to_be_focused()
    box(page, "Twos").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert Entry.objects.values_list("card", "box", "points").get() == (3, "twos", 2)
    page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Twos")).click()
    page.get_by_role("link", name="Cancel").click()
    cell = page.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Twos"))
    expect(cell).to_be_in_viewport()
    spot = cell.bounding_box()
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('a')?.id",
        [spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2],
    )
    assert on_top == "t1"  # not under the sheet's head rows
    assert page.errors == []


def test_undoing_an_extra_yahtzee_says_its_100_goes_too(small_phone):
    """Found by a new user: undoing Fives 25 that had earned an extra Yahtzee's 100 said
    only "(25)", while the total fell by 125."""
    page = small_phone
    game = open_game(page, names=("Ann",))
    play(game, [(rules.Box.YAHTZEE, (3,) * 5)])
    page.reload()
    tap(page, "55555")
    box(page, "Fives").click()
    expect(page.get_by_role("status")).to_contain_text("Fives 25 and +100 for an extra Yahtzee!")
    expect(total_of(page, "Ann")).to_have_text(str(50 + 25 + 100))
    page.get_by_role("button", name="Undo last entry").click()
    expect(page.get_by_role("status")).to_have_text(
        "Undone: Ann’s Fives (25 and the +100 for an extra Yahtzee)."
    )
    expect(total_of(page, "Ann")).to_have_text("50")
    assert list(Entry.objects.filter(game=game).values_list("box", flat=True)) == ["yahtzee"]
    assert page.errors == []


def test_a_tap_the_moment_an_answer_lands_goes_through_htmx(small_phone):
    """A second tap as quick as a thumb can make lands on a form htmx has just swapped in.
    htmx readied such a form only as its swap settled, 20 ms later, and a tap before that
    posted it without htmx and its CSRF header: a 403 page, the card gone. Here Undo is
    pressed at the first moment after Fours is recorded, before any settling time."""
    page = small_phone
    failures = watch_failures(page)
    game = open_game(page)
    tap(page, "44425")
    expect(box(page, "Fours")).to_be_visible()  # the pad's own answer has been swapped in
    page.evaluate(
        """() => document.addEventListener("htmx:afterSwap", () => setTimeout(() =>
               document.querySelector("form.undo button").click()), {once: true})"""
    )
    box(page, "Fours").click()
    expect(page.get_by_role("status")).to_contain_text("Undone: Ann’s Fours (12).")
    expect(page.get_by_role("heading", name=re.compile("^Ann’s turn"))).to_be_visible()
    assert failures == [] and page.errors == []
    assert not Entry.objects.filter(game=game).exists()


def test_undo_right_after_a_correction_asks_first_and_says_the_correction_stays(small_phone):
    """Found by a tester: Fours corrected to 16, then Undo tapped to take that back, undid
    Ann's Threes without a word (and the correction stayed). Undo asks first, says what it
    takes back and that the correction stays; No keeps everything, Yes undoes the turn."""
    page = small_phone
    open_game(page)
    tap(page, "44412")
    box(page, "Fours").click()
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    tap(page, "66612")
    box(page, "Sixes").click()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    correct_by_points(page, "Fours", 16)

    page.get_by_role("button", name="Undo last entry").click()
    question = page.locator("#turn .confirm [role=alert]")
    expect(question).to_contain_text("Undo Bob’s Sixes (18)?")
    expect(question).to_contain_text(
        "Undo takes back the last box filled, not a correction: Ann’s Fours stays 16"
    )
    expect(question).to_be_focused()
    save_screenshot(page, "undo-after-correction-360")
    page.get_by_role("link", name="No, go back").click()
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    expect(page.get_by_role("button", name="Undo last entry")).to_be_focused()
    assert Entry.objects.count() == 2

    page.get_by_role("button", name="Undo last entry").click()
    page.get_by_role("button", name="Yes, undo").click()
    expect(page.locator("#turn .notice")).to_have_text("Undone: Bob’s Sixes (18).")
    expect(page.locator("#turn-title")).to_contain_text("Bob’s turn")
    assert list(Entry.objects.values_list("box", "points")) == [("fours", 16)]
    assert page.errors == []


def test_undo_on_a_finished_game_after_a_correction_asks_first_then_undoes(small_phone):
    """Found by a helper: once a finished game had a box corrected, Undo last entry did
    nothing and went away (its question was asked, but the finished game's panel drew no
    question). It asks, as in a game going, and Yes opens the last turn again."""
    page = small_phone
    game = open_game(page, names=("Ann",))
    play_on(game, turns=12)  # the boxes from Ones in order: Chance is left
    page.reload()
    tap(page, "44412")
    box(page, "Chance").click()
    expect(page.locator("#turn-title")).to_have_text("Game over")
    correct_by_points(page, "Ones", 4)

    page.get_by_role("button", name="Undo last entry").click()
    question = page.locator("#turn .confirm [role=alert]")
    expect(question).to_contain_text("Undo Ann’s Chance (15)?")
    expect(question).to_contain_text("not a correction: Ann’s Ones stays 4")
    save_screenshot(page, "undo-finished-after-correction-360")
    page.get_by_role("button", name="Yes, undo").click()
    expect(page.locator("#turn .notice")).to_have_text("Undone: Ann’s Chance (15).")
    expect(page.locator("#turn-title")).to_contain_text("Ann’s turn")
    assert Entry.objects.filter(game=game).count() == 12
    assert Entry.objects.get(game=game, box="ones").points == 4
    assert page.errors == []


@pytest.mark.parametrize("scripts", [True, False])
def test_no_to_a_typed_zero_brings_back_the_points_with_their_box_focused(
    chromium, live_server, scripts
):
    """Found by a helper without scripts: No to "Score 0 in Yahtzee?" after typed points
    closed the typed form and dropped its box and points, and left the focus at the top.
    No is mostly a box chosen by mistake: the form comes back as sent, its box focused."""
    context = chromium.new_context(
        viewport=SMALL_PHONE, has_touch=True, java_script_enabled=scripts
    )
    page = context.new_page()
    page.base = live_server.url
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    game = open_game(page)
    page.get_by_text("No dice to enter? Type the points").click()
    if not scripts:
        page.get_by_role("link", name="Type the points").click()
    form = page.locator("#typed form")
    form.get_by_label("Box").select_option(label="Yahtzee")
    form.get_by_label("Points").fill("0")
    form.get_by_role("button", name="Record").click()
    expect(page.get_by_role("button", name="Yes, 0 in Yahtzee")).to_be_visible()
    page.get_by_role("link", name="No, go back").click()
    expect(page.locator("#typed[open]")).to_be_visible()
    expect(form.get_by_label("Box")).to_be_focused()
    expect(form.get_by_label("Box").locator("option:checked")).to_have_text("Yahtzee")
    expect(form.get_by_label("Points")).to_have_value("0")
    save_screenshot(page, f"typed-zero-no-{'scripts' if scripts else 'no-scripts'}")
    form.get_by_label("Box").select_option(label="Chance")
    form.get_by_label("Points").fill("23")
    form.get_by_role("button", name="Record").click()
    expect(page.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    assert list(game.entries.values_list("turn", "box", "points")) == [(1, "chance", 23)]
    assert page.errors == []
    context.close()


def test_without_scripts_a_box_refused_for_another_phone_s_entry_focuses_the_reason(
    phone, chromium, live_server
):
    """Found by a helper without scripts: a box tapped after another phone recorded the turn
    answered with its reason in place, but the focus stayed at the top of the page, where a
    screen reader would not hear it."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    table = scriptless_game_page(chromium, live_server, household, game)
    tap(table, "12345")
    expect(box(table, "Large straight")).to_be_visible()
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    tap(phone, "44436")
    box(phone, "Fours").click()
    expect(phone.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    box(table, "Large straight").click()
    reason = table.get_by_role("alert")
    expect(reason).to_contain_text("Not recorded: the card changed")
    expect(reason).to_be_focused()
    save_screenshot(table, "refused-without-scripts-focused")
    assert list(Entry.objects.values_list("box", "points")) == [("fours", 12)]
    table.context.close()
