"""Several phones at one table, every link made by its button: a watcher follows the game
live until its link is renewed or revoked, two scorers recording the same turn never lose
or double an entry, a second browser joins the household by its join link, and no link
token leaves in a Referer for another site."""

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from scorecard.models import Browser, Entry
from tests.browser.conftest import join_household, save_screenshot
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
REFUSED_PAGE = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


@pytest.fixture
def second_phone(phones):
    """Another phone at the table: a browser of its own, with no cookie of ours."""
    return phones(scale=1)


class Elsewhere(ThreadingHTTPServer):
    """Another site on this machine (another origin: its own port on 127.0.0.1, while the
    live server answers at localhost); it keeps the headers of every request it gets."""

    def __init__(self) -> None:
        self.seen: list[dict[str, str]] = []
        super().__init__(("127.0.0.1", 0), ElsewhereHandler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}/"


class ElsewhereHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/":  # not the icon a browser asks for on its own
            self.server.seen.append({name.lower(): value for name, value in self.headers.items()})
        body = b"<!doctype html><title>Elsewhere</title><p>Another site</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:  # quiet in the test output
        pass


@pytest.fixture
def elsewhere():
    server = Elsewhere()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def no_error_page(page) -> None:
    """Neither Django's 403 (a refused CSRF check) nor any other error page is showing."""
    expect(page.get_by_text(re.compile("Forbidden|CSRF|Server Error|Not Found"))).to_have_count(0)


def enter(page, dice: str) -> None:
    pad = page.get_by_role("group", name="Add a die")
    for face in dice:
        pad.get_by_role("button", name=face, exact=True).click()
    expect(page.locator(".box-options button").first).to_be_visible()


def box(page, label: str):
    return page.locator(f'.box-options button[aria-label^="{label},"]')


def total_of(page, name: str):
    return page.locator("#standings tbody tr", has_text=name).locator("td.total")


def share_section(page, role: str):
    return page.get_by_role("region", name=f"{role} link")


def shown_address(section) -> str:
    return section.locator(".share-url").inner_text()


def open_share_page(page, game) -> None:
    page.goto(f"{page.base}/games/{game.public_id}/")
    page.get_by_role("link", name="Share", exact=True).click()
    expect(page.get_by_role("heading", name="Share this game")).to_be_visible()


def make_link(page, role: str) -> str:
    """Press "Make a … link" on the share page; the address it shows afterwards."""
    section = share_section(page, role)
    section.get_by_role("button", name=f"Make a {role.lower()} link").click()
    expect(section.locator(".share-url")).to_be_visible()
    no_error_page(page)
    return shown_address(section)


def wait_for_a_dead_link(page):
    """The watcher's next poll answers 404: its link stopped working."""
    return page.expect_response(
        lambda response: "live=1" in response.url and response.status == 404, timeout=6_000
    )


def test_a_watcher_sees_each_entry_live_until_the_link_is_renewed_or_revoked(phone, second_phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    open_share_page(phone, game)
    watch_address = make_link(phone, "Watch")
    assert re.fullmatch(rf"{phone.base}/watch/[\w-]{{32}}/", watch_address)
    phone.set_viewport_size(SMALL_PHONE)
    save_screenshot(phone, "share-360")
    assert phone.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    phone.get_by_role("link", name="Back to the game").click()

    watcher = second_phone
    watcher.goto(watch_address)
    watcher.evaluate("window.stillTheSamePage = true")
    expect(watcher.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    enter(phone, "44425")
    box(phone, "Fours").click()
    expect(phone.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(total_of(watcher, "Ann")).to_have_text("12", timeout=5_000)  # within 5 s
    expect(watcher.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(watcher.locator("#turn-notice")).to_have_text("Ann: Fours 12")
    expect(watcher.get_by_role("status")).to_have_text("Ann: Fours 12")  # said once
    enter(phone, "66612")
    box(phone, "Sixes").click()
    expect(total_of(watcher, "Bob")).to_have_text("18", timeout=5_000)
    assert watcher.evaluate("window.stillTheSamePage") is True  # no reload

    open_share_page(phone, game)
    with wait_for_a_dead_link(watcher):
        share_section(phone, "Watch").get_by_role("button", name="New watch link").click()
    renewed = shown_address(share_section(phone, "Watch"))
    assert renewed != watch_address
    expect(phone.get_by_role("status")).to_have_text(
        "A new watch link is made: the one before it no longer opens this game."
    )
    expect(phone.get_by_role("status")).to_be_focused()  # not the top of the page (a new user)
    expect(watcher.get_by_text(re.compile("This link no longer works"))).to_be_visible()
    assert watcher.goto(watch_address).status == 404
    watcher.goto(renewed)
    expect(total_of(watcher, "Bob")).to_have_text("18")

    with wait_for_a_dead_link(watcher):
        share_section(phone, "Watch").get_by_role("button", name="Revoke").click()
    expect(share_section(phone, "Watch").get_by_role("button", name="Make a watch link"))
    expect(share_section(phone, "Watch").locator(".share-url")).to_have_count(0)
    expect(phone.get_by_role("status")).to_have_text(
        "The watch link is revoked: it no longer opens this game, on any phone."
    )
    expect(phone.get_by_role("status")).to_be_focused()
    expect(watcher.get_by_text(re.compile("This link no longer works"))).to_be_visible()
    assert watcher.goto(renewed).status == 404
    no_error_page(phone)
    assert phone.errors == []


@pytest.fixture
def third_phone(phones):
    """One more phone at the table, with a browser of its own."""
    return phones(scale=1)


def a_poll_after_an_entry(page):
    """The next poll that answers with the changed game."""
    return page.expect_response(
        lambda response: "live=1" in response.url and response.status == 200, timeout=6_000
    )


def watched_game(phone) -> str:
    """A new game of Ann and Bob in `phone`'s household, shared by a watch link made by its
    button; `phone` back on the game. The link's address."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    open_share_page(phone, game)
    watch_address = make_link(phone, "Watch")
    phone.get_by_role("link", name="Back to the game").click()
    return watch_address


def test_two_phones_watching_are_sent_one_drawing_of_each_entry(phone, second_phone, third_phone):
    watch_address = watched_game(phone)
    for watcher in (second_phone, third_phone):
        watcher.goto(watch_address)
        expect(watcher.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    with a_poll_after_an_entry(second_phone) as first, a_poll_after_an_entry(third_phone) as other:
        enter(phone, "44425")
        box(phone, "Fours").click()
    for watcher in (second_phone, third_phone):
        expect(total_of(watcher, "Ann")).to_have_text("12", timeout=5_000)
        expect(watcher.get_by_role("heading", name="Bob’s turn")).to_be_visible()
        assert watcher.errors == []
    assert first.value.body() == other.value.body()
    assert first.value.headers["etag"] == other.value.headers["etag"]
    save_screenshot(third_phone, "second-watcher-after-an-entry")


def test_a_watcher_kept_up_entry_by_entry_shows_what_a_fresh_load_shows(
    phone, second_phone, third_phone
):
    """Each poll one entry behind brings only what the entry changed (no grid, no standings
    table): swapped in by htmx, the watcher's grid, standings and turn read as a fresh load's."""
    watch_address = watched_game(phone)
    watcher = second_phone
    watcher.goto(watch_address)
    regions = ("#boxes table", "#standings table", "#turn h2")
    entries = [("44425", "Fours", "Bob"), ("66612", "Sixes", "Ann"), ("11123", "Ones", "Bob"),
               ("55555", "Yahtzee", "Ann")]  # fmt: skip
    for dice, label, whose_next in entries:
        with a_poll_after_an_entry(watcher) as poll:
            enter(phone, dice)
            box(phone, label).click()
        assert '<section id="boxes"' not in poll.value.text()  # the entry's rows alone
        expect(watcher.get_by_role("heading", name=f"{whose_next}’s turn")).to_be_visible()
        third_phone.goto(watch_address)
        for region in regions:
            assert watcher.locator(region).inner_text() == third_phone.locator(region).inner_text()
    assert watcher.errors == [] and phone.errors == []
    save_screenshot(watcher, "watcher-kept-up-by-entries")


def test_a_watcher_hears_each_change_from_a_live_region_that_stays_on_the_page(phone, second_phone):
    """Found by a tester with a screen reader's view: a watcher's page showed "Bob: Fives
    15" in a status that came new with the turn panel each poll, and such a status may go
    unsaid. The words now change inside one live region that stays on the page (the turn's
    notice shows them without being a second status): an entry, an undo, another entry."""
    watch_address = watched_game(phone)
    watcher = second_phone
    watcher.goto(watch_address)
    told = watcher.locator("#watch-told")
    expect(told).to_have_attribute("role", "status")
    told.evaluate("region => { region.dataset.first = 'yes'; }")  # the same element after
    enter(phone, "44425")
    box(phone, "Fours").click()
    expect(told).to_have_text("Ann: Fours 12", timeout=5_000)
    phone.get_by_role("button", name="Undo last entry").click()
    expect(told).to_have_text("Undone: Ann’s Fours (12).", timeout=5_000)
    box(phone, "Chance").click()  # the undone turn's dice, back on the pad
    expect(told).to_have_text("Ann: Chance 19", timeout=5_000)
    expect(watcher.get_by_role("status")).to_have_count(1)  # not said twice
    assert told.get_attribute("data-first") == "yes"
    assert watcher.errors == [] and phone.errors == []


@pytest.mark.routes_requests
def test_two_scorers_on_the_same_turn_one_wins_the_other_sees_the_fresh_card(phone, second_phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    open_share_page(phone, game)
    score_address = make_link(phone, "Score")
    first, second = phone, second_phone
    second.route(re.compile(r".*live=1.*"), lambda route: route.abort())  # a slow phone
    for page in (first, second):
        page.goto(score_address)
        expect(page.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    enter(first, "44425")
    enter(second, "12346")
    box(first, "Fours").click()
    expect(first.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    box(second, "Chance").click()
    expect(second.get_by_role("alert")).to_contain_text(
        "Not recorded: the card changed since this screen"
    )
    expect(second.get_by_role("alert")).to_contain_text("Last on the card: Ann, Fours 12.")
    expect(second.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(total_of(second, "Ann")).to_have_text("12")
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "fours", 12)]

    enter(second, "66612")  # the second phone goes on from the fresh card
    box(second, "Sixes").click()
    expect(second.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    assert list(Entry.objects.values_list("turn", "box")) == [(1, "fours"), (2, "sixes")]
    assert first.errors == []


@pytest.mark.routes_requests
def test_dice_half_entered_when_another_phone_records_are_cleared_with_the_card_brought_up(
    phone, second_phone
):
    """Dice half entered for Bob on a phone while another recorded Bob's turn: at the fifth
    they are cleared with a word, not shown for Ann (session 38), and the whole card comes
    as it is now. A tester found the standings and boxes left as they were, for good: the
    turn alone came, with the new version, so the page's polls saw nothing to fetch."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    first, second = phone, second_phone
    second.route(re.compile(r".*live=1.*"), lambda route: route.abort())  # its polls late
    for page in (first, second):
        join_household(page, household)
        page.goto(f"{page.base}/games/{game.public_id}/")
    enter(first, "44425")
    box(first, "Fours").click()
    expect(first.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    second.reload()
    expect(second.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    pad = second.get_by_role("group", name="Add a die")
    for face in "55":
        pad.get_by_role("button", name=face, exact=True).click()
    enter(first, "12346")
    box(first, "Chance").click()  # Bob's turn, on the first phone
    expect(first.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    for face in "555":
        pad.get_by_role("button", name=face, exact=True).click()
    notice = second.get_by_role("status")
    expect(notice).to_have_text(
        re.compile("^That turn is on the card already \\(Bob: Chance 16\\)")
    )
    expect(second.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    expect(second.get_by_label("Dice, five digits")).to_have_value("")
    expect(total_of(second, "Bob")).to_have_text("16")  # the standings as they are now
    chance = second.locator("#boxes").get_by_role("link", name=re.compile("^Correct Bob’s Chance"))
    expect(chance).to_have_text("16")
    assert list(Entry.objects.values_list("turn", "box")) == [(1, "fours"), (2, "chance")]
    assert first.errors == [] and second.errors == []


def correct_by_taps(page, cell: str, dice: str) -> None:
    """Tap a filled box of the grid, type the dice it should have had, and save."""
    page.locator("#boxes").get_by_role("link", name=re.compile(f"^Correct {cell}:")).click()
    page.get_by_label("The dice that were rolled").fill(dice)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("heading", name=re.compile("’s turn"))).to_be_visible()


def scoring_on_bobs_turn(phone, second_phone):
    """Ann's Fours (12) recorded by taps on the household's phone, then the second phone on
    the game's score link, at Bob's turn: the scorer."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    enter(phone, "44425")
    box(phone, "Fours").click()
    expect(phone.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    open_share_page(phone, game)
    score_address = make_link(phone, "Score")
    phone.get_by_role("link", name="Back to the game").click()
    second_phone.goto(score_address)
    return second_phone


def test_a_correction_of_a_box_another_phone_undid_says_so_on_the_game(phone, second_phone):
    """Found by a family on four phones: the score link's correction of a box the owner had
    just undone answered "Link no longer works … ask the table for a new one"."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    scorer.locator("#boxes").get_by_role("link", name=re.compile("^Correct Ann’s Fours:")).click()
    scorer.get_by_label("The points").fill("8")
    phone.get_by_role("button", name="Undo last entry").click()  # the owner, meanwhile
    expect(phone.get_by_role("status")).to_contain_text("Undone: Ann’s Fours")
    scorer.get_by_role("button", name="Save the correction").click()
    expect(scorer.get_by_role("status")).to_have_text(
        "That box is not filled on the card now (another phone may have undone it), so "
        "nothing was changed."
    )
    expect(scorer.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    no_error_page(scorer)
    assert not Entry.objects.exists()
    assert scorer.errors == []


def test_a_scorer_keeps_the_dice_it_is_entering_when_another_phone_corrects_a_box(
    phone, second_phone
):
    """Another phone's change redraws the turn panel of every phone following the game: the
    dice half-entered on the score link stay, and all five stay shown with their boxes."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    pad = scorer.get_by_role("group", name="Add a die")
    for face in "663":
        pad.get_by_role("button", name=face, exact=True).click()

    correct_by_taps(phone, "Ann’s Fours", "44445")
    expect(phone.get_by_role("status")).to_have_text("Corrected: Ann’s Fours, now 16.")
    expect(total_of(scorer, "Ann")).to_have_text("16", timeout=5_000)  # the poll came
    # ... and says what changed: the grid changed under the scorer with nothing said.
    expect(scorer.locator("#turn .notice")).to_have_text("Corrected: Ann’s Fours, now 16.")
    expect(scorer.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("663")
    for face in "61":
        pad.get_by_role("button", name=face, exact=True).click()
    expect(box(scorer, "Sixes")).to_be_visible()

    correct_by_taps(phone, "Ann’s Fours", "44425")
    expect(total_of(scorer, "Ann")).to_have_text("12", timeout=5_000)
    expect(box(scorer, "Sixes")).to_be_visible()  # all five: shown with their boxes again
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("66361")
    box(scorer, "Sixes").click()
    expect(scorer.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    assert list(Entry.objects.values_list("turn", "box", "points", "dice")) == [
        (1, "fours", 12, "24445"),
        (2, "sixes", 18, "13666"),
    ]
    no_error_page(scorer)
    assert phone.errors == [] and scorer.errors == []


def test_dice_half_entered_for_a_turn_another_phone_recorded_are_said_to_be_cleared(
    phone, second_phone
):
    """The poll bringing another phone's entry of the turn a scorer was entering dice for
    draws the next turn, without those dice: it says so (a tester saw them go unsaid)."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    pad = scorer.get_by_role("group", name="Add a die")
    for face in "55":
        pad.get_by_role("button", name=face, exact=True).click()
    expect(scorer).to_have_url(re.compile(r"\?dice=55&turn=2$"))
    enter(phone, "12346")
    box(phone, "Chance").click()  # Bob's turn, on the owner's phone
    expect(phone.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    expect(scorer.get_by_role("heading", name="Ann’s turn")).to_be_visible(timeout=5_000)
    expect(scorer.locator("#turn-notice")).to_have_text(
        "Bob: Chance 16. The dice entered for that turn were cleared."
    )
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("")
    # Out of the address too: a helper's reload brought back the dice it had been told went.
    expect(scorer).not_to_have_url(re.compile("dice="))
    scorer.reload()
    expect(scorer.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("")
    assert list(Entry.objects.values_list("turn", "box", "points")) == [
        (1, "fours", 12),
        (2, "chance", 16),
    ]
    no_error_page(scorer)
    assert phone.errors == [] and scorer.errors == []


POLLS = re.compile(r".*live=1.*")  # a live page's polls, which a test may hold on their way


def wait_for_a_held_poll(page, held: list, seconds: float = 5) -> None:
    """Until the page's next poll (or other held request) is held: `held` gets its route.
    Fails after `seconds`."""
    for _ in range(int(seconds * 10)):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page did not send the request")


@pytest.mark.routes_requests
def test_a_die_tapped_while_the_poll_bringing_a_change_is_on_its_way_is_kept(phone, second_phone):
    """On a slow network the poll that brings another phone's correction is a while on its
    way; a die tapped meanwhile is in the panel its answer replaces, and stays with the
    others (they are read from that panel, not from the one the poll asked about)."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    pad = scorer.get_by_role("group", name="Add a die")
    for face in "66":
        pad.get_by_role("button", name=face, exact=True).click()
    held, holding = [], threading.Event()
    scorer.route(POLLS, lambda route: held.append(route) if holding.is_set() else route.fallback())

    correct_by_taps(phone, "Ann’s Fours", "44445")
    holding.set()  # the scorer's next poll finds the correction: it is held on its way
    wait_for_a_held_poll(scorer, held)
    pad.get_by_role("button", name="3", exact=True).click()
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("663")
    scorer.unroute(POLLS)
    for route in held:
        route.fallback()
    expect(total_of(scorer, "Ann")).to_have_text("16", timeout=5_000)
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("663")
    for face in "61":
        pad.get_by_role("button", name=face, exact=True).click()
    box(scorer, "Sixes").click()
    expect(scorer.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    assert list(Entry.objects.values_list("turn", "box", "dice")) == [
        (1, "fours", "44445"),
        (2, "sixes", "13666"),
    ]
    no_error_page(scorer)
    assert phone.errors == [] and scorer.errors == []


@pytest.mark.routes_requests
def test_a_box_tapped_after_another_phone_corrected_one_is_refused_naming_the_correction(
    phone, second_phone
):
    """A tester's box, tapped before the poll bringing another phone's correction came, was
    refused naming Ann's Fours as last on the card (recorded long before), not what won."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    held: list = []
    scorer.route(POLLS, lambda route: held.append(route))  # its polls late
    enter(scorer, "66612")
    correct_by_taps(phone, "Ann’s Fours", "44445")
    box(scorer, "Sixes").click()
    alert = scorer.get_by_role("alert")
    expect(alert).to_contain_text("Not recorded: the card changed since this screen")
    expect(alert).to_contain_text("Corrected: Ann’s Fours, now 16.")
    expect(alert).not_to_contain_text("Last on the card")
    expect(total_of(scorer, "Ann")).to_have_text("16")
    expect(scorer.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "fours", 16)]
    # Still Bob's turn: his dice stay (as sent, in order), their boxes shown again (a
    # helper's were wiped).
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("12666")
    scorer.unroute(POLLS)
    for route in held:
        route.fallback()
    box(scorer, "Sixes").click()
    expect(scorer.get_by_role("heading", name="Ann’s turn")).to_be_visible()
    assert list(Entry.objects.values_list("turn", "box", "points")) == [
        (1, "fours", 16),
        (2, "sixes", 18),
    ]
    no_error_page(scorer)
    conflict = "Failed to load resource: the server responded with a status of 409 (Conflict)"
    assert phone.errors == [] and scorer.errors == [conflict]  # the refusal's answer


@pytest.mark.routes_requests
def test_a_poll_answered_after_the_pad_redrew_the_turn_waits_for_the_next_poll(phone, second_phone):
    """A poll on its way while the scorer's fifth die redraws the turn panel (the pad asks
    for the boxes), and another phone corrects a box before the poll is read: its answer
    is newer than the panel on show but was asked for by the panel now gone. It is left for
    the next poll, which brings the correction (it used to be swapped against the gone
    panel: htmx's "oobErrorNoTarget", and nothing changed until then)."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    pad = scorer.get_by_role("group", name="Add a die")
    for face in "6636":
        pad.get_by_role("button", name=face, exact=True).click()
    held, holding = [], threading.Event()
    scorer.route(POLLS, lambda route: held.append(route) if holding.is_set() else route.fallback())
    holding.set()
    wait_for_a_held_poll(scorer, held)
    pad.get_by_role("button", name="1", exact=True).click()  # the panel is drawn again
    expect(box(scorer, "Sixes")).to_be_visible()
    correct_by_taps(phone, "Ann’s Fours", "44445")
    expect(phone.get_by_role("status")).to_have_text("Corrected: Ann’s Fours, now 16.")
    holding.clear()
    for route in held:
        route.fallback()  # read now: the correction's version
    expect(total_of(scorer, "Ann")).to_have_text("16", timeout=6_000)  # the next poll's
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("66361")
    expect(box(scorer, "Sixes")).to_be_visible()
    scorer.unroute(POLLS)
    no_error_page(scorer)
    assert phone.errors == [] and scorer.errors == []


@pytest.mark.routes_requests
def test_the_boxes_asked_for_before_a_poll_redrew_the_turn_come_into_the_new_turn(
    phone, second_phone
):
    """The other way round: the fifth die asks for the boxes while a poll bringing another
    phone's correction is on its way, and the poll's answer comes first and draws the turn
    again. The boxes' answer then has the gone panel as its place, and the new one asks
    for them itself."""
    scorer = scoring_on_bobs_turn(phone, second_phone)
    pad = scorer.get_by_role("group", name="Add a die")
    for face in "6636":
        pad.get_by_role("button", name=face, exact=True).click()
    polls, boxes = [], []
    holding = threading.Event()
    holding.set()
    scorer.route(POLLS, lambda route: polls.append(route) if holding.is_set() else route.fallback())
    scorer.route(
        re.compile(r".*dice=.*"),
        lambda route: boxes.append(route) if holding.is_set() else route.fallback(),
    )
    wait_for_a_held_poll(scorer, polls)
    pad.get_by_role("button", name="1", exact=True).click()
    wait_for_a_held_poll(scorer, boxes)  # the pad's request for the boxes, held the same way
    correct_by_taps(phone, "Ann’s Fours", "44445")
    holding.clear()
    polls.pop(0).fallback()
    expect(total_of(scorer, "Ann")).to_have_text("16", timeout=6_000)
    for route in boxes + polls:
        route.fallback()
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("66361")
    expect(box(scorer, "Sixes")).to_be_visible()
    scorer.wait_for_timeout(500)
    no_error_page(scorer)
    assert phone.errors == [] and scorer.errors == []


def scriptless_link_page(phone, chromium, role: str):
    """Ann and Bob's game, its `role` link made on its owner's phone and opened in a browser
    without scripts: the game, that browser's context (its one page) and the address."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    open_share_page(phone, game)
    address = make_link(phone, role)
    context = chromium.new_context(viewport=SMALL_PHONE, java_script_enabled=False)
    context.new_page().goto(address)
    return game, context, address


def test_a_scorer_without_scripts_records_by_the_plain_forms_of_the_score_link(
    phone, chromium, live_server
):
    """The score link's own forms post without htmx too: a post from a link page carries
    our origin, which the CSRF check needs (under "no-referrer" it was `null`: a 403)."""
    _game, context, score_address = scriptless_link_page(phone, chromium, "Score")
    scorer = context.pages[0]
    scorer.get_by_label("Dice, five digits").fill("44425")
    scorer.get_by_role("button", name="Show").click()
    box(scorer, "Fours").click()
    expect(scorer).to_have_url(score_address)  # posted, then redirected back to the card
    expect(scorer.get_by_role("heading", name="Bob’s turn")).to_be_visible()
    expect(scorer.get_by_role("status")).to_have_text("Ann: Fours 12")  # said, as with htmx
    scorer.get_by_role("button", name="Undo last entry").click()
    expect(scorer.get_by_role("status")).to_have_text("Undone: Ann’s Fours (12).")
    expect(scorer.get_by_label("Dice, five digits")).to_have_value("24445")
    scorer.reload()  # said once
    expect(scorer.get_by_role("status")).to_have_count(0)
    box(scorer, "Fours").click()
    no_error_page(scorer)
    assert list(Entry.objects.values_list("turn", "box", "points")) == [(1, "fours", 12)]
    context.close()


def test_a_watcher_without_scripts_is_shown_the_latest_scores_by_a_link(
    phone, chromium, live_server
):
    """Found by a tester without scripts: a watch page said the standings follow the game,
    and never changed (they follow by a script). Without it, a link shows the latest."""
    game, context, watch_address = scriptless_link_page(phone, chromium, "Watch")
    watcher = context.pages[0]
    expect(watcher.get_by_role("heading", name=re.compile("^Ann’s turn"))).to_be_visible()
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    phone.get_by_label("Dice, five digits").fill("44425")
    phone.get_by_role("button", name="Show").click()
    box(phone, "Fours").click()
    expect(phone.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    watcher.get_by_role("link", name="Show the latest scores").click()
    expect(watcher).to_have_url(watch_address)
    expect(watcher.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    expect(watcher.locator("#boxes")).to_contain_text("12")
    no_error_page(watcher)
    assert phone.errors == []
    # With scripts the page follows by itself: no such link shows.
    phone.goto(watch_address)
    expect(phone.get_by_role("heading", name=re.compile("^Bob’s turn"))).to_be_visible()
    expect(phone.get_by_role("link", name="Show the latest scores")).to_have_count(0)
    context.close()


def member(page, *, this: bool):
    """This browser's row in the household page's list, or the other browser's."""
    rows = page.locator(".browsers > li")
    return (
        rows.filter(has_text="This browser") if this else rows.filter(has_not_text="This browser")
    )


def test_a_second_browser_joins_by_the_link_is_told_apart_renamed_and_removed(phone, second_phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    Browser.objects.create(household=household, name="Chrome on Linux")  # made its games
    join_household(phone, household)
    phone.goto(f"{phone.base}/household/")
    phone.get_by_role("button", name="Make a join link").click()
    no_error_page(phone)
    join_address = phone.get_by_role("region", name="Join link").locator(".share-url").inner_text()
    assert re.fullmatch(rf"{phone.base}/join/[\w-]{{32}}/", join_address)

    newcomer = second_phone
    newcomer.set_viewport_size(SMALL_PHONE)
    newcomer.goto(join_address)
    save_screenshot(newcomer, "join-360")
    newcomer.get_by_role("button", name="Join the household").click()
    expect(newcomer).to_have_url(f"{newcomer.base}/")  # redirected: not the join address
    no_error_page(newcomer)
    # Told that it worked (a new user landed here without a word and wondered).
    expect(newcomer.get_by_role("status")).to_have_text(re.compile("has joined the household"))
    expect(newcomer.get_by_role("link", name=re.compile("Ann, Bob"))).to_be_visible()
    newcomer.reload()  # a reload asks for the home page again, never joins twice
    assert Browser.objects.filter(household=household).count() == 2

    phone.set_viewport_size(SMALL_PHONE)
    phone.reload()
    expect(phone.locator(".browsers > li")).to_have_count(2)
    expect(member(phone, this=True)).to_contain_text("Chrome on Linux")
    expect(member(phone, this=False)).to_contain_text("Chrome on Linux (2)")  # told apart
    expect(member(phone, this=False)).to_contain_text("seen within the hour")
    # Its name field shows the whole name ("(2)" was past the field's edge, read as a name
    # that differed from the heading's, found by a new user).
    field = member(phone, this=False).get_by_role("textbox", name="Name")
    expect(field).to_have_value("Chrome on Linux (2)")
    assert field.evaluate("input => input.scrollWidth <= input.clientWidth")

    other = member(phone, this=False)
    other.get_by_role("textbox", name="Name").fill("   ")
    other.get_by_role("button", name="Rename").click()
    refusal = member(phone, this=False).get_by_role("alert")
    expect(refusal).to_have_text("Give the browser a name.")
    expect(refusal).to_be_in_viewport()  # the answer opens at that browser, not at the top
    names = sorted(Browser.objects.values_list("name", flat=True))
    assert names == ["Chrome on Linux", "Chrome on Linux (2)"]
    save_screenshot(phone, "household-360-refused")
    # Chromium notes every 4xx page it loads on the console: that one line, nothing else.
    assert phone.errors == [REFUSED_PAGE]
    phone.errors.clear()
    member(phone, this=False).get_by_role("textbox", name="Name").fill("Kitchen tablet")
    member(phone, this=False).get_by_role("button", name="Rename").click()
    expect(member(phone, this=False)).to_contain_text("Kitchen tablet")
    expect(phone.get_by_role("alert")).to_have_count(0)
    # What was done is in sight and focused (the page came back at the browser's row, the
    # words out of sight at its top: a tester).
    said = phone.get_by_role("status").filter(has_text="The browser is now called Kitchen tablet.")
    expect(said).to_be_in_viewport()
    expect(said).to_be_focused()
    assert phone.url.endswith("/household/#told")  # not at the row the form asked for
    save_screenshot(phone, "household-360")
    assert phone.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    phone.emulate_media(color_scheme="dark")
    save_screenshot(phone, "household-360-dark")
    phone.emulate_media(color_scheme="light")

    member(phone, this=False).get_by_role("link", name=re.compile("Remove Kitchen tablet")).click()
    question = phone.get_by_role("alert")
    expect(question).to_contain_text("Remove Kitchen tablet from the household?")
    expect(question).to_be_focused()
    expect(question).to_have_css("outline-offset", "3px")  # its focus ring off its words
    save_screenshot(phone, "household-remove-asks")
    phone.get_by_role("link", name="No, keep it").click()
    remove = member(phone, this=False).get_by_role("link", name=re.compile("Remove Kitchen tablet"))
    expect(remove).to_be_focused()  # where it was tapped, not the page's top (a tester)
    expect(phone.get_by_role("alert")).to_have_count(0)
    remove.click()
    phone.get_by_role("button", name="Yes, remove Kitchen tablet").click()
    expect(phone.locator(".browsers > li")).to_have_count(1)
    expect(phone.get_by_role("status")).to_contain_text(
        "Kitchen tablet is removed, and the join link is a new one"
    )
    new_address = phone.get_by_role("region", name="Join link").locator(".share-url").inner_text()
    assert new_address != join_address
    newcomer.reload()  # its next request: shut out, and told so
    expect(newcomer.get_by_role("link", name=re.compile("Ann, Bob"))).to_have_count(0)
    expect(newcomer.get_by_role("status")).to_contain_text(
        "This browser was removed from its household"
    )
    assert newcomer.errors == []
    not_found = REFUSED_PAGE.replace("400 (Bad Request)", "404 (Not Found)")
    assert newcomer.goto(f"{newcomer.base}/games/{game.public_id}/").status == 404
    expect(newcomer.get_by_text("it was removed from the household")).to_be_visible()
    # The join link it kept no longer lets it back in.
    assert newcomer.goto(join_address).status == 404
    expect(newcomer.get_by_text("replaced or revoked")).to_be_visible()
    expect(newcomer.get_by_role("button", name="Join the household")).to_have_count(0)
    assert newcomer.errors == [not_found, not_found]
    no_error_page(phone)
    assert phone.errors == []


def test_a_new_or_revoked_join_link_lets_nobody_in_by_the_old_one(phone, second_phone):
    household = HouseholdFactory()
    join_household(phone, household)
    phone.goto(f"{phone.base}/household/")
    join_region = phone.get_by_role("region", name="Join link")
    phone.get_by_role("button", name="Make a join link").click()
    first = join_region.locator(".share-url").inner_text()
    phone.get_by_role("button", name="New join link").click()
    second = join_region.locator(".share-url").inner_text()
    assert second != first
    assert second_phone.goto(first).status == 404
    phone.get_by_role("button", name="Revoke").click()
    expect(join_region.locator(".share-url")).to_have_count(0)
    expect(phone.get_by_role("button", name="Make a join link")).to_be_visible()
    assert second_phone.goto(second).status == 404
    # The page says why this link opens nothing and what to do, not just "not found".
    expect(second_phone.get_by_role("heading", name="Link no longer works")).to_be_visible()
    expect(second_phone.get_by_text("This join link no longer works")).to_be_visible()
    expect(second_phone.get_by_text("Ask someone in the household")).to_be_visible()
    no_error_page(phone)
    assert phone.errors == []


def test_a_phone_with_games_of_its_own_can_keep_its_household_from_a_join_link(phone, second_phone):
    """Found by a new user: the join page warned, but offered only "Join the household"."""
    household, own = HouseholdFactory(), HouseholdFactory()
    join_household(phone, household)
    GameFactory(owner=own, names=["Zed"])
    join_household(second_phone, own)
    phone.goto(f"{phone.base}/household/")
    phone.get_by_role("button", name="Make a join link").click()
    link = phone.get_by_role("region", name="Join link").locator(".share-url").inner_text()
    second_phone.goto(link)
    expect(
        second_phone.get_by_text("already belongs to another household, with 1 game")
    ).to_be_visible()
    stay = second_phone.get_by_role("link", name="Stay in this browser’s household")
    join = second_phone.get_by_role("button", name="Join the household")
    assert stay.bounding_box()["height"] >= 44 and join.bounding_box()["height"] >= 44
    assert second_phone.evaluate("document.documentElement.scrollWidth") <= 390
    stay.tap()
    expect(second_phone.locator(".game-card, a", has_text="Zed").first).to_be_visible()
    assert Browser.objects.filter(household=own).count() == 1
    assert second_phone.errors == []


def follow_a_link_elsewhere(page, address: str) -> None:
    """Put a plain link to another site on the page, as any page might have one, and tap it."""
    page.evaluate(
        """address => {
            const link = document.createElement("a");
            link.href = address;
            link.textContent = "Another site";
            document.querySelector("main").append(link);
        }""",
        address,
    )
    page.get_by_role("link", name="Another site").click()
    expect(page.get_by_text("Another site")).to_be_visible()


def test_a_link_to_another_site_carries_no_token_from_a_link_page(phone, elsewhere):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    open_share_page(phone, game)
    links = [make_link(phone, "Watch"), make_link(phone, "Score")]
    phone.goto(f"{phone.base}/household/")
    phone.get_by_role("button", name="Make a join link").click()
    links.append(phone.locator(".share-url").inner_text())
    tokens = [link.rstrip("/").rsplit("/", 1)[1] for link in links]
    pages = [*links, f"{phone.base}/household/", f"{phone.base}/games/{game.public_id}/share/"]
    for page in pages:
        phone.goto(page)
        follow_a_link_elsewhere(phone, elsewhere.url)
    assert len(elsewhere.seen) == len(pages)
    for page, headers in zip(pages, elsewhere.seen, strict=True):
        # No Referer at all (same-origin): not even our origin, let alone a path or a token.
        assert "referer" not in headers, (page, headers["referer"])
        assert not any(token in value for token in tokens for value in headers.values()), page
    assert phone.errors == []


def test_a_link_is_sent_by_the_phone_s_share_sheet_or_else_copied(phone):
    """Found by a new user: copying a long link meant a long press on it."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_share_page(phone, game)
    address = make_link(phone, "Watch")
    section = share_section(phone, "Watch")
    phone.evaluate("delete Navigator.prototype.share")  # a browser without a share sheet
    section.get_by_role("button", name="Share the link").click()
    expect(section.get_by_text("The link is copied.")).to_be_visible()
    assert phone.evaluate("navigator.clipboard.readText()") == address
    # A phone's share sheet gets the link instead.
    phone.evaluate("() => { navigator.share = async (data) => { window.shared = data.url; }; }")
    section.get_by_role("button", name="Share the link").click()
    phone.wait_for_function("window.shared")
    assert phone.evaluate("window.shared") == address
    assert phone.errors == []


def test_the_households_join_link_is_shared_by_a_button_too(phone):
    """Found by a helper: the join link could only be long-pressed out of the page."""
    household = HouseholdFactory()
    join_household(phone, household)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.goto(f"{phone.base}/household/")
    phone.get_by_role("button", name="Make a join link").click()
    section = phone.locator("section", has=phone.get_by_role("heading", name="Join link"))
    address = section.locator("a.share-url").get_attribute("href")
    phone.evaluate("delete Navigator.prototype.share")  # a browser without a share sheet
    section.get_by_role("button", name="Share the link").click()
    expect(section.get_by_text("The link is copied.")).to_be_visible()
    assert phone.evaluate("navigator.clipboard.readText()") == address
    assert phone.errors == []


def test_phones_following_a_finished_game_are_shown_the_way_to_its_one_rematch(
    phone, second_phone, third_phone
):
    """Found by a new user: after "Rematch with the same players" the watch and score
    links' phones kept showing the old "Game over" with no word of the new game; and Back,
    then Rematch again, made a second new game."""
    from scorecard.models import Game
    from tests.factories import SOLO_GAME, play

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME for _ in range(2)])
    join_household(phone, household)
    open_share_page(phone, game)
    watch_address, score_address = make_link(phone, "Watch"), make_link(phone, "Score")
    phone.get_by_role("link", name="Back to the game").click()
    watcher, scorer = second_phone, third_phone
    for other, address in ((watcher, watch_address), (scorer, score_address)):
        other.goto(address)
        expect(other.locator("#turn-title")).to_have_text("Game over")

    phone.get_by_role("button", name="Rematch with the same players").click()
    expect(phone.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    rematch_page = phone.url
    started = "The table has started a new game with the same players."
    for other in (watcher, scorer):
        notice = other.locator("#turn .notice")
        expect(notice).to_contain_text(started, timeout=5_000)
        if other is watcher:  # said by the live region that stays on the page
            expect(other.locator("#watch-told")).to_have_text(started)
            expect(notice).not_to_have_attribute("role", "status")
        else:
            expect(notice).to_have_attribute("role", "status")
        notice.get_by_role("link", name="Go to the new game").click()
        expect(other.locator("#turn-title")).to_contain_text("Ann’s turn · round 1 of 13")
    expect(scorer.get_by_role("group", name="Add a die")).to_be_visible()
    expect(watcher.get_by_role("group", name="Add a die")).to_have_count(0)
    assert re.fullmatch(rf"{phone.base}/watch/[\w-]{{32}}/", watcher.url)
    assert watcher.url != watch_address and scorer.url != score_address

    phone.go_back()  # the finished game again: the way to its rematch, not a second one
    expect(phone.locator("#turn-title")).to_have_text("Game over")
    expect(phone.get_by_role("button", name="Rematch with the same players")).to_have_count(0)
    phone.get_by_role("link", name="Go to the new game").click()
    assert phone.url == rematch_page
    assert Game.objects.count() == 2
    for page in (phone, watcher, scorer):
        no_error_page(page)
        assert page.errors == []
