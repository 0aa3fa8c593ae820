"""Every control on every page, used by a real tap on a phone, for each way in.

The owner, a scorer link, a watch link and a browser joined to the household each go
through the pages a person reaches (home, a new game, a game with and without dice, a zero
to confirm, the coach, sharing, the household, joining, the sheets, the review, the lists
and statistics, the rules, export and import, a correction). A `Phone` records every form,
button and field it sees on each page and every one the test taps, fills or picks; each
test ends by asserting that nothing seen was left unused, that no response was an error
the step did not ask for, and that no console error or content-security-policy violation
happened.
"""

from __future__ import annotations

import random
import re
import shutil
import time
from collections.abc import Callable
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from scorecard.engine import rules
from scorecard.game import services
from scorecard.models import Browser, Game
from tests.browser.conftest import ARTIFACTS, join_household
from tests.factories import SOLO_GAME, GameFactory, HouseholdFactory, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
SHOTS = ARTIFACTS / "every-control"
DOUBLE_TAP_WINDOW = 0.35  # s: Chromium's is 0.3 s; a tap on the same spot sooner is a second half

# Runs in every page before its own scripts. It names forms and controls the same way
# for the survey and for a tap, and turns CSP violations into console errors.
RECORDER = r"""
(() => {
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  // Numbers in a label are the state of the moment ("Roll again (2 left)"), not the control.
  const numbers = (s) => s.replace(/\d+(?: \d+)*/g, "#");
  const text = (el) => squash(el.getAttribute("aria-label") || el.textContent || el.value);

  function formOf(form) {
    const hx = form.getAttribute("hx-post") || form.getAttribute("hx-get");
    const method = form.getAttribute("hx-post") ? "POST"
      : hx ? "GET" : (form.getAttribute("method") || "GET").toUpperCase();
    const action = new URL(hx || form.getAttribute("action") || location.pathname, location.href);
    const role = form.querySelector("input[type=hidden][name=role]");
    const classes = [...form.classList].filter((name) => !name.startsWith("htmx-"));
    const flavour = [form.id, ...classes].filter(Boolean).join(".");
    return { method, path: action.pathname, flavour: flavour + (role ? `[${role.value}]` : "") };
  }

  function controlOf(el) {
    const hidden = el.getAttribute("aria-hidden") === "true" ? " (aria-hidden: Enter)" : "";
    if (el.tagName === "A") return `link ${numbers(text(el))}`;
    // The coach names the boxes of the moment; its two answers are "instead" and "anyway".
    if (el.closest(".coach")) {
      return `button ${text(el).replace(/^.* (instead|anyway)$/, "<box> $1")}`;
    }
    if (el.name) return `${el.name}=${el.value}${hidden}`;
    return `button ${numbers(text(el))}${hidden}`;
  }

  function fieldOf(el) {
    if (el.type === "radio" || el.type === "checkbox") return `${el.name}=${el.value}`;
    return el.name.replace(/\d+/g, "#");
  }

  const FIELDS = "input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea";
  const CONTROLS = "button, input[type=submit], a[href]";
  const usable = (el) => !el.matches(":disabled");

  function describe(target) {
    const label = target.closest("label");
    let el = label && label.control ? label.control : target.closest(`${CONTROLS}, ${FIELDS}`);
    const form = el && el.closest("form");
    if (!form) return null;
    const isField = el.matches(FIELDS);
    return { form: formOf(form), kind: isField ? "field" : "control",
             label: isField ? fieldOf(el) : controlOf(el) };
  }

  // Elements that stick out of the screen (a wide table scrolls inside its own box). The
  // screen is the root's width: a phone's innerWidth widens to whatever overflows it.
  function tooWide() {
    return [...document.querySelectorAll("body *")]
      .filter((el) => !el.closest(".scroll, .visually-hidden, [hidden]"))
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`
                   + ` ${Math.round(el.getBoundingClientRect().right)}px`);
  }

  function survey() {
    if (!document.body) return null;  // a page on its way in
    const forms = [...document.forms].map((form) => ({
      form: formOf(form),
      controls: [...form.querySelectorAll(CONTROLS)].filter(usable).map(controlOf),
      fields: [...form.querySelectorAll(FIELDS)].filter(usable).map(fieldOf),
    }));
    const sideways = document.documentElement.scrollWidth > document.documentElement.clientWidth;
    return { path: location.pathname, forms, wide: tooWide(), sideways };
  }

  window.everyControl = { describe, survey };
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`
                  + ` at ${event.sourceFile}:${event.lineNumber}`);
  });
})();
"""


# Controls that cannot be used in the state a page shows them in. Disabled controls (a box
# the extra-Yahtzee rule forbids) are left out by the survey itself.
UNUSABLE: dict[str, str] = {
    # The footer's language switch is one include on every page; switching here would turn
    # the rest of a walk into another language. test_languages.py taps it (and reloads).
    r"▸ POST /language/ ": "the language switch, used by a real tap in test_languages.py",
}


def kind(path: str) -> str:
    """A page's or form's address with its ids, tokens and turn numbers as placeholders."""
    parts = []
    for part in path.split("/"):
        if re.fullmatch(r"[A-Za-z0-9_-]{16,}", part):
            part = "<id>"
        elif part.isdecimal():
            part = "<n>"
        parts.append(part)
    return "/".join(parts)


def form_key(page_kind: str, form: dict) -> str:
    return f"{page_kind} ▸ {form['method']} {kind(form['path'])} .{form['flavour']}"


@dataclass
class Phone:
    """One person's phone: a page in a browser context of its own. Every tap, fill and pick
    goes through it, so it knows what was used; every page it looks at is surveyed, so it
    knows what there was to use."""

    role: str
    page: Page
    shots: Path  # a screenshot of each kind of page, the first time it is seen
    downloads: Path
    seen: dict[str, str] = field(default_factory=dict)  # key: the address it was seen at
    used: set[str] = field(default_factory=set)
    faults: list[str] = field(default_factory=list)
    allowed: set[int] = field(default_factory=set)
    shot: set[str] = field(default_factory=set)
    last_tap: tuple[float, float, float] = (0.0, -1e9, -1e9)  # when, and where on the screen

    @property
    def base(self) -> str:
        return self.page.base

    def listen(self) -> None:
        page = self.page
        page.on("pageerror", lambda error: self.fault(f"script error: {error}"))
        page.on("console", self._console)
        page.on("response", self._response)

    def _console(self, message) -> None:
        said = message.text
        # The browser and htmx each log a response's error status; the response itself is
        # checked, against the statuses the step allows.
        if re.match(r"Failed to load resource: the server responded|Response Status Error", said):
            return
        if message.type == "error" or re.search(r"Refused to|violates", said):
            self.fault(f"console {message.type}: {said} ({self.page.url})")

    def _response(self, response) -> None:
        if response.status >= 400 and response.status not in self.allowed:
            request = response.request
            self.fault(f"{response.status} for {request.method} {urlparse(response.url).path}")

    def fault(self, what: str) -> None:
        if what not in self.faults:
            self.faults.append(what)

    def check(self, what: str, expectation: Callable[[], None]) -> None:
        """What the person should see at the end of a flow, noted as a fault when it is
        not there, so that every such check is reported, not just the first."""
        try:
            expectation()
        except AssertionError as error:
            self.fault(f"{what} ({self.page.url}): {str(error).splitlines()[0]}")

    @contextmanager
    def allowing(self, *statuses: int):
        """A step that should be refused (bad input gets a 4xx with its message)."""
        self.allowed = set(statuses)
        try:
            yield
        finally:
            self.allowed = set()

    # What there is to use.

    def look(self) -> None:
        """Note every form, control and field on the page as it is now."""
        found = self._survey()
        page_kind = kind(found["path"])
        where = self.page.url
        for form in found["forms"]:
            key = form_key(page_kind, form["form"])
            self.seen.setdefault(key, where)
            for control in form["controls"]:
                self.seen.setdefault(f"{key} ▸ {control}", where)
            for name in form["fields"]:
                self.seen.setdefault(f"{key} ▸ field {name}", where)
        if found["wide"] or found["sideways"]:
            self.fault(f"wider than the screen at {page_kind}: {found['wide'][:4]}")
        if page_kind not in self.shot:
            self.shot.add(page_kind)
            name = re.sub(r"[^a-z0-9-]+", "_", page_kind.replace("<", "").replace(">", ""))
            self.screenshot(f"{len(self.shot):02d}{name}")

    def _survey(self) -> dict:
        for _ in range(5):  # a tap that navigates may still be on its way
            self.page.wait_for_load_state()
            try:
                found = self.page.evaluate("window.everyControl.survey()")
                if found is not None:
                    return found
                self.page.wait_for_function("() => document.body !== null")
            except PlaywrightError as error:
                if "Execution context was destroyed" not in error.message:
                    raise
        raise AssertionError(f"the page never settled: {self.page.url}")

    def screenshot(self, name: str) -> Path:
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / f"{self.role}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True, animations="allow")
        return path

    def keys_of(self, target: Locator) -> tuple[str, str] | None:
        """The keys of the form that `target` belongs to and of `target` itself, as the
        survey names them, or None for anything outside a form."""
        described = target.evaluate("el => window.everyControl.describe(el)")
        if described is None:
            return None
        form = form_key(kind(urlparse(self.page.url).path), described["form"])
        prefix = "field " if described["kind"] == "field" else ""
        return form, f"{form} ▸ {prefix}{described['label']}"

    def _record(self, target: Locator, *, submits: bool = False) -> None:
        keys = self.keys_of(target)
        if keys is None:
            return
        form, control = keys
        self.used.add(control)
        if submits or re.search(r" ▸ (?!field |link )[^▸]+$", control):
            self.used.add(form)  # a submit button (or a double tap) sends its form

    # Using it, as a person does.

    def open(self, path: str) -> None:
        """Type an address (or open a link from a message or a QR code)."""
        response = self.page.goto(self.base + path)
        assert response is not None
        self.look()

    def tap(self, target: Locator) -> None:
        """A finger on a button, a link, a box, a radio or a check box."""
        self.look()
        self._record(target)
        where = self._apart_from_the_last_tap(target)
        target.tap()
        self.last_tap = (time.monotonic(), *where)

    def _apart_from_the_last_tap(self, target: Locator) -> tuple[float, float]:
        """Where `target` will be tapped, once the browser's double-tap window (0.3 s) since
        the last tap on that spot has passed: a person's next tap there comes later, and a
        quicker one is the second half of a double tap, which the page ignores on a control
        the answer drew there (requests.js)."""
        target.scroll_into_view_if_needed()
        box = target.bounding_box() or {"x": -1e9, "y": -1e9, "width": 0, "height": 0}
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        when, last_x, last_y = self.last_tap
        since = time.monotonic() - when
        if abs(x - last_x) < 40 and abs(y - last_y) < 40 and since < DOUBLE_TAP_WINDOW:
            self.page.wait_for_timeout((DOUBLE_TAP_WINDOW - since) * 1000)
        return x, y

    def double_tap(self, target: Locator) -> None:
        """A double tap that sends the form (a box's name in the digital game)."""
        self.look()
        self._record(target, submits=True)
        where = self._apart_from_the_last_tap(target)
        target.dblclick()
        self.last_tap = (time.monotonic(), *where)

    def fill(self, target: Locator, value: str) -> None:
        self.look()
        self._record(target)
        target.fill(value)

    def press_enter(self, target: Locator) -> None:
        """Enter in a field sends its form with the form's first submit button."""
        self.look()
        self._record(target)
        default = target.locator("xpath=ancestor::form[1]").locator("button, [type=submit]").first
        self._record(default)
        target.press("Enter")

    def pick(self, target: Locator, label: str) -> None:
        """Choose an option."""
        self.look()
        self._record(target)
        target.select_option(label=label)

    def choose_file(self, target: Locator, path: Path) -> None:
        self.look()
        self._record(target)
        target.set_input_files(str(path))

    def download(self, link: Locator) -> Path:
        with self.page.expect_download() as info:
            self.tap(link)
        download = info.value
        path = self.downloads / f"{self.role}-{download.suggested_filename}"
        download.save_as(str(path))
        return path

    # At the end.

    def unused(self, unusable: dict[str, str]) -> list[str]:
        return [
            f"{key}  (seen at {where})"
            for key, where in self.seen.items()
            if key not in self.used and not any(re.search(pattern, key) for pattern in unusable)
        ]


@pytest.fixture
def phones(chromium, live_server, tmp_path, request):
    """A phone for each person at the table: `phones(role, screen, scheme)`."""
    shots = SHOTS / request.node.name.removeprefix("test_")
    shutil.rmtree(shots, ignore_errors=True)
    contexts = []
    made: list[Phone] = []

    def make(role: str, screen=PHONE, scheme: str = "light") -> Phone:
        context = chromium.new_context(
            viewport=screen,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            color_scheme=scheme,
            accept_downloads=True,
            timezone_id="UTC",  # the server's: no page with times is drawn again for it
        )
        context.add_init_script(RECORDER)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8_000)
        page.base = live_server.url
        phone = Phone(role, page, shots, tmp_path)
        phone.listen()
        made.append(phone)
        return phone

    yield make
    for phone in made:
        phone.screenshot("last")
        if phone.faults:
            print(f"{phone.role}: {len(phone.faults)} faults", *phone.faults, sep="\n  ")
    for context in contexts:
        context.close()


def assert_all_used(*phones: Phone, faults_only: tuple[Phone, ...] = ()) -> None:
    """No fault on any phone, and nothing seen on `phones` that was not used (a phone in
    `faults_only` only helped: another test uses what it saw)."""
    report = []
    for phone in phones + faults_only:
        report += [f"{phone.role}: fault: {fault}" for fault in phone.faults]
    for phone in phones:
        report += [f"{phone.role}: never used: {key}" for key in phone.unused(UNUSABLE)]
    assert report == [], "\n".join(report)


@pytest.fixture
def seeded_dice(monkeypatch):
    """The digital game's dice come from a seeded generator, so each run rolls the same."""
    monkeypatch.setattr(services, "dice_source", random.Random(7))


@pytest.fixture
def advice_ready(strategy_tables):
    strategy_tables.load(rules.JokerRule.HASBRO)
    return strategy_tables


# Steps a person takes, each on the page the one before left the phone at.


def turn_title(phone: Phone) -> Locator:
    return phone.page.locator("#turn-title")


def game_over(phone: Phone) -> bool:
    return turn_title(phone).inner_text() == "Game over"


def pad(phone: Phone) -> Locator:
    return phone.page.get_by_role("group", name="Add a die")


def enter_dice(phone: Phone, dice: str) -> None:
    for face in dice:
        phone.tap(pad(phone).get_by_role("button", name=face, exact=True))
    expect(phone.page.locator("#turn .options")).to_be_visible()


def box_button(phone: Phone, label: str) -> Locator:
    return phone.page.locator(f'.box-options button[aria-label^="{label},"]')


@contextmanager
def panel_replaced(phone: Phone):
    """Wait for the turn panel to be swapped for a new one (or the page to reload). htmx
    replaces the whole element, so a mark on the old one tells the two apart."""
    phone.page.locator("#turn").evaluate("panel => { panel.dataset.old = 'yes'; }")
    yield
    expect(phone.page.locator("#turn:not([data-old])")).to_be_visible()


def record(phone: Phone, button: Locator) -> None:
    """Tap a box (or Score, or Record, or an answer) and wait for the panel that follows:
    the next turn, or the question a zero or the coach asks first."""
    with panel_replaced(phone):
        phone.tap(button)


def say_yes_to_a_zero(phone: Phone) -> None:
    yes = phone.page.get_by_role("button", name=re.compile(r"^Yes, 0 in"))
    if yes.is_visible():
        record(phone, yes)


def first_unused(phone: Phone, options: Locator) -> Locator:
    """The first of these boxes that this phone has not used yet (else the first)."""
    found = options.all()
    assert found, "no box to choose"
    for option in found:
        keys = phone.keys_of(option)
        if keys and keys[1] not in phone.used:
            return option
    return found[0]


def set_advice(phone: Phone, label: str) -> None:
    page = phone.page
    if page.locator(".advice-switch[open]").count() == 0:  # open after the last choice
        phone.tap(page.locator(".advice-switch summary"))  # closed, it says the choice made
    phone.pick(page.get_by_label("Advice", exact=True), label=label)
    with page.expect_navigation():  # Set sends the form: the whole page comes back
        phone.tap(page.get_by_role("button", name="Set"))
    expect(page.locator(".advice-switch summary")).to_have_text(f"Advice: {label}")


def start_a_game_with_every_option(phone: Phone) -> None:
    """No names at all (refused in place), then eight, the last moved to the top a seat at
    a time, every option tried, then one player left and Enter pressed in the name."""
    page = phone.page
    with phone.allowing(400):  # each Start: under the names, and after the choices
        for start in ("Start the game", "Start with these choices"):
            phone.tap(page.get_by_role("button", name=start))
            expect(page.get_by_role("alert")).to_contain_text("Write at least one player’s name")
    names = ["Hal", "Gus", "Fay", "Eve", "Dee", "Cy", "Bob", "Ann"]
    for seat, name in enumerate(names, start=1):
        phone.fill(page.get_by_label(f"Player {seat}", exact=True), name)
    for seat in range(8, 1, -1):  # Ann moves up to the top, one seat at a time
        phone.tap(page.get_by_role("button", name=f"Move Player {seat} up"))
        expect(page.get_by_label(f"Player {seat - 1}", exact=True)).to_have_value("Ann")
    for seat in range(2, 9):
        phone.fill(page.get_by_label(f"Player {seat}", exact=True), "")
    choose_every_game_and_its_house_rules(phone)
    # The Yahtzee choices, shown again now that Yahtzee is the game chosen.
    others = "form input:is([type=radio], [type=checkbox]):not([name=family]):visible"
    for choice in page.locator(others).all():
        phone.tap(choice)
    phone.tap(page.get_by_label("Fill the boxes in order"))  # off again
    phone.tap(page.get_by_role("radio", name="Standard", exact=True))
    phone.tap(page.get_by_role("radio", name=re.compile("^Real dice at the table")))
    phone.tap(page.get_by_role("radio", name=re.compile(r"\(the standard rule\)")))
    phone.tap(page.get_by_label("Pick a random starting player"))  # off again
    phone.press_enter(page.get_by_label("Player 1", exact=True))
    expect(turn_title(phone)).to_contain_text("Ann’s turn · round 1 of 13")


def choose_every_game_and_its_house_rules(phone: Phone) -> None:
    """Yatzy and its switches, Maxi Yatzy and its bonus and saved rolls, then Yahtzee again:
    each game's own choices show only while it is chosen."""
    page = phone.page
    games = page.get_by_role("group", name="Game")
    phone.tap(games.get_by_role("radio", name="Yatzy", exact=True))
    expect(page.get_by_role("group", name="Extra-Yahtzee rule")).to_be_hidden()
    for switch in page.locator("[data-family=yatzy] input").all():
        phone.tap(switch)
    phone.tap(games.get_by_role("radio", name="Maxi Yatzy", exact=True))
    phone.fill(page.get_by_label("Upper boxes needed for the bonus"), "84")
    phone.fill(page.get_by_label("Bonus points"), "100")
    phone.tap(page.get_by_label(rules.Switch.SAVED_ROLLS.label))
    phone.tap(games.get_by_role("radio", name="Yahtzee", exact=True))
    expect(page.get_by_role("group", name="Extra-Yahtzee rule")).to_be_visible()


def use_the_pad_every_way(phone: Phone) -> None:
    """Every key of the pad, a die taken back and a clear after five, too few dice typed
    (refused in place), then five typed and shown."""
    page = phone.page
    typed = page.get_by_label("Dice, five digits")
    enter_dice(phone, "12346")
    phone.tap(pad(phone).get_by_role("button", name="Remove the last die"))
    expect(typed).to_have_value("1234")
    expect(page.locator("#turn .options")).to_be_hidden()
    enter_dice(phone, "5")
    phone.tap(pad(phone).get_by_role("button", name="Clear"))
    expect(typed).to_have_value("")
    expect(page.locator("#turn .options")).to_be_hidden()
    phone.fill(typed, "1234")
    with phone.allowing(400):
        phone.tap(page.get_by_role("button", name="Show", exact=True))
        expect(page.locator("#turn .dice-entry .error")).to_be_visible()
    phone.fill(page.get_by_label("Dice, five digits"), "23456")
    phone.tap(page.get_by_role("button", name="Show", exact=True))
    expect(page.locator("#turn .options")).to_be_visible()


def type_the_points(phone: Phone, box: str, points: str, wrong: str, *, extra: bool) -> None:
    """No dice at hand: points the box cannot score are refused in place (claimed as an
    extra Yahtzee when `extra`, so its box is used too), then the right points are written.
    The claim is offered only while an extra Yahtzee would pay (50 in the Yahtzee box)."""
    page = phone.page
    opener = page.get_by_text("No dice to enter? Type the points")
    phone.tap(opener)
    form = page.locator("#typed form")
    claim = form.get_by_label("It was an extra Yahtzee (+100)")
    phone.pick(form.get_by_label("Box"), label=box)
    phone.fill(form.get_by_label("Points"), wrong)
    if extra:
        phone.tap(claim)
    else:
        expect(claim).to_have_count(0)
    with phone.allowing(400):
        phone.tap(form.get_by_role("button", name="Record"))
        expect(page.locator("#turn .error")).to_be_visible()
    # What was typed comes back with the refusal, so it can be put right, not typed again.
    expect(page.locator("#typed[open]")).to_be_visible()
    expect(form.get_by_label("Points")).to_have_value(wrong)
    expect(form.get_by_label("Box").locator("option:checked")).to_have_text(box)
    if extra:
        expect(claim).to_be_checked()
    phone.fill(form.get_by_label("Points"), points)
    record(phone, form.get_by_role("button", name="Record"))
    expect(page.locator("#turn .notice")).to_contain_text(f"{box} {points}")


def a_zero_asked_about_and_undone(phone: Phone, box: str, after_undo: str) -> None:
    """A zero is asked about: "No" goes back to the boxes, "Yes" writes it. Undo brings the
    dice back, so the box meant is one tap."""
    page = phone.page
    enter_dice(phone, "11223")
    phone.tap(box_button(phone, box))
    phone.tap(page.get_by_role("link", name="No, go back"))
    expect(box_button(phone, box)).to_be_visible()
    record(phone, box_button(phone, box))
    say_yes_to_a_zero(phone)
    record(phone, page.get_by_role("button", name="Undo last entry"))
    expect(page.locator("#turn .notice")).to_contain_text("Undone")
    record(phone, box_button(phone, after_undo))
    say_yes_to_a_zero(phone)


def advice_for_each_roll(phone: Phone, box: str) -> None:
    """Advice always: say which roll the dice are, see the dice to keep, then rate boxes."""
    page = phone.page
    set_advice(phone, "Always")
    phone.tap(page.get_by_label("1st roll"))
    enter_dice(phone, "43446")
    keep = page.get_by_role("region", name="Dice to keep")
    expect(keep).to_contain_text("2 rolls left")
    phone.tap(page.get_by_label("2nd roll"))
    expect(keep).to_contain_text("1 roll left")
    phone.tap(page.get_by_label("Final roll"))
    expect(keep).to_be_hidden()
    record(phone, box_button(phone, box))
    say_yes_to_a_zero(phone)
    set_advice(phone, "Off")


def the_coach_answered_both_ways(phone: Phone, box: str) -> None:
    """The coach asks about a box that gives up too much: once "instead", once "anyway"."""
    page = phone.page
    set_advice(phone, "Coach: a loss of 0.5+ points")
    for answer in ("instead", "anyway"):
        enter_dice(phone, "66612")
        record(phone, box_button(phone, box))
        question = page.locator("#turn .coach")
        expect(question).to_be_visible()
        expect(question.get_by_role("alert")).to_be_focused()  # not left on the box tapped
        record(phone, question.get_by_role("button", name=re.compile(f"{answer}$")))
        say_yes_to_a_zero(phone)
    set_advice(phone, "Off")


def correct_a_box(phone: Phone, box: str, dice: str) -> None:
    """Tap a filled box: cancel once, be refused once (points it cannot score), then put
    the right dice in."""
    page = phone.page
    cell = page.locator("#boxes").get_by_role("link", name=re.compile(f"^Correct .*’s {box}:"))
    phone.tap(cell.first)
    phone.tap(page.get_by_role("link", name="Cancel"))
    expect(turn_title(phone)).to_be_visible()
    phone.tap(cell.first)
    phone.fill(page.get_by_label("The points"), "7")
    with phone.allowing(400):
        phone.tap(page.get_by_role("button", name="Save the correction"))
        expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_label("The points")).to_have_value("7")  # kept, to be fixed
    phone.fill(page.get_by_label("The points"), "")
    kept = page.get_by_label("The box").locator("option[selected]").inner_text()
    phone.pick(page.get_by_label("The box"), kept)  # kept where it is (it may move: a slip)
    phone.fill(page.get_by_label("The dice that were rolled"), dice)
    phone.tap(page.get_by_role("button", name="Save the correction"))
    expect(turn_title(phone)).to_be_visible()


def finish_the_table_game(phone: Phone) -> None:
    """Every turn left: dice on the pad, then the first box not tapped yet."""
    while not game_over(phone):
        enter_dice(phone, "13456")
        record(phone, first_unused(phone, phone.page.locator(".box-options button:enabled")))
        say_yes_to_a_zero(phone)


def tap_the_boxes_not_tapped_yet(phone: Phone) -> None:
    """Boxes that the last game filled another way (typed, or the coach's choice)."""
    page = phone.page
    while True:
        enter_dice(phone, "13456")
        box = first_unused(phone, page.locator(".box-options button:enabled"))
        if phone.keys_of(box)[1] in phone.used:
            break
        record(phone, box)
        say_yes_to_a_zero(phone)
    phone.tap(pad(phone).get_by_role("button", name="Clear"))
    expect(page.locator("#turn .options")).to_be_hidden()


def make_links(phone: Phone, *roles: str) -> dict[str, str]:
    """On a game's page: Share, then a link made for each role; their paths."""
    page = phone.page
    phone.tap(page.get_by_role("link", name="Share", exact=True))
    expect(page.get_by_role("heading", name="Share this game")).to_be_visible()
    paths = {}
    for role in roles:
        section = page.locator(f"section.share:has(#share-{role})")
        phone.tap(section.get_by_role("button", name=f"Make a {role} link"))
        expect(section.locator(".share-url")).to_be_visible()
        paths[role] = urlparse(section.locator(".share-url").inner_text()).path
    return paths


def renew_and_revoke(phone: Phone, section: Locator, role: str) -> None:
    address = section.locator(".share-url")
    old = address.inner_text()
    phone.tap(section.get_by_role("button", name=f"New {role} link"))
    expect(address).not_to_have_text(old)
    phone.tap(section.get_by_role("button", name="Revoke"))
    expect(address).to_be_hidden()


def share_every_way(phone: Phone) -> None:
    """Watch and score links made, replaced and revoked; then back to the game."""
    page = phone.page
    make_links(phone, "watch", "score")
    for role in ("watch", "score"):
        renew_and_revoke(phone, page.locator(f"section.share:has(#share-{role})"), role)
    phone.tap(page.get_by_role("link", name="Back to the game"))
    expect(turn_title(phone)).to_be_visible()


def review_the_finished_game(phone: Phone) -> Path:
    """From the games list: the review rated against optimal play, its exports and its
    sheet. Returns the game's JSON export."""
    page = phone.page
    phone.tap(page.get_by_role("navigation", name="Main").get_by_role("link", name="Games"))
    phone.tap(page.locator(".game-card:not(:has(.badge)) > a").first)
    expect(page.get_by_role("heading", name="Running totals")).to_be_visible()
    phone.tap(page.get_by_role("link", name="Rate every decision against optimal play"))
    expect(page.locator("table.decisions").first).to_be_visible()
    export = phone.download(page.get_by_role("link", name="Export this game (JSON)"))
    phone.download(page.get_by_role("link", name="CSV", exact=True))
    phone.tap(page.get_by_role("link", name="Printable sheet"))
    expect(page.get_by_role("heading", name="Score sheet")).to_be_visible()
    phone.look()
    return export


def turn_number(phone: Phone) -> int:
    title = turn_title(phone).inner_text()
    return 14 if title == "Game over" else int(re.search(r"round (\d+) of", title).group(1))


def roll_and_wait(phone: Phone) -> None:
    """Roll, or be asked by the coach first."""
    record(phone, phone.page.locator("#roll-button"))


def score_a_box(phone: Phone, *, double_tap: bool) -> None:
    page = phone.page
    choice = first_unused(phone, page.locator(".box-choice:not(.disabled)"))
    if double_tap:
        with panel_replaced(phone):
            phone.double_tap(choice.locator("span"))
    else:
        phone.tap(choice)
        record(phone, page.get_by_role("button", name="Score", exact=True))
    say_yes_to_a_zero(phone)


def home_link(page):
    """The site's name in the header, which leads home (the rules page has a "Yahtzee" link
    of its own, to its Yahtzee section)."""
    return page.locator(".site-header").get_by_role("link", name="Yahtzee", exact=True)


def play_digital_turns(phone: Phone, turns: int) -> None:
    """Digital dice from the home page: roll, hold, roll again, look at every box, score
    by the button and by a double tap, and hold against the coach's advice."""
    page = phone.page
    phone.tap(home_link(page))
    phone.tap(page.get_by_role("link", name="Play with digital dice"))
    expect(page.get_by_role("radio", name="Roll here")).to_be_checked()
    phone.fill(page.get_by_label("Player 1", exact=True), "Dee")
    phone.tap(page.get_by_role("button", name="Start the game").last)
    expect(turn_title(phone)).to_contain_text("Dee’s turn · round 1 of 13")
    can_roll = page.locator("#roll-button")
    choices = page.locator(".box-choice:not(.disabled)")
    while (turn := turn_number(phone)) <= turns:
        if page.locator(".hold").count() == 0:
            roll_and_wait(phone)
        if turn == 2:  # then the turn the coach left is played out as any other
            hold_against_the_coach(phone)
        if can_roll.is_visible():
            phone.tap(page.locator(".hold").nth(turn % 5))
        while can_roll.is_visible():
            roll_and_wait(phone)
        if turn == 1:  # a look at every box before choosing
            for choice in choices.all():
                phone.tap(choice)
        score_a_box(phone, double_tap=turn % 2 == 0)


def hold_against_the_coach(phone: Phone) -> None:
    """With the coach on, dice held against its advice are asked about before the roll:
    answered once by rolling as chosen, once by the coach's own keep. The first and third
    dice held, or none, give up enough with most rolls; a roll that was not asked about
    tries again. (All five held is a roll that changes nothing, refused before any question.)"""
    page = phone.page
    set_advice(phone, "Coach: a loss of 0.5+ points")
    question = page.locator("#turn p.coach")
    answers = [r"^Roll as I chose$", r"instead$"]
    for _ in range(8):
        if not answers:
            break
        if not page.locator("#roll-button").is_visible():  # this turn's rolls are used up
            score_a_box(phone, double_tap=False)
            roll_and_wait(phone)
        holds = page.locator(".hold input")
        hold_two = not holds.nth(0).is_checked()  # in turns: the first and third, then none
        for position in range(holds.count()):
            if holds.nth(position).is_checked() != (hold_two and position in (0, 2)):
                phone.tap(page.locator(".hold").nth(position))
        roll_and_wait(phone)
        if question.is_visible():
            answer = page.locator("#turn").locator("button, a")
            record(phone, answer.filter(has_text=re.compile(answers.pop(0))))
            expect(question).to_be_hidden()
    assert not answers, "the coach never asked about the dice held"
    set_advice(phone, "Off")


def main_menu(phone: Phone, name: str) -> None:
    nav = phone.page.get_by_role("navigation", name="Main")
    phone.tap(nav.get_by_role("link", name=name, exact=True))


def browse_the_history(phone: Phone, player: str, games: int, theirs: int) -> None:
    """The games list filtered by player and by mode, the players, a player, their games,
    the high scores and the rules."""
    page = phone.page
    main_menu(phone, "Games")
    cards = page.locator(".game-card")
    everyone = games
    expect(cards).to_have_count(everyone)
    phone.pick(page.get_by_label("Player", exact=True), label=player)
    expect(cards).to_have_count(theirs)
    phone.pick(page.get_by_label("Player", exact=True), label="Everyone")
    expect(cards).to_have_count(everyone)
    phone.pick(page.get_by_label("Mode", exact=True), label="Triple Yahtzee")
    expect(cards).to_have_count(0)
    phone.pick(page.get_by_label("Mode", exact=True), label="Standard")
    phone.tap(page.get_by_role("button", name="Filter"))
    expect(cards).to_have_count(everyone)
    phone.tap(page.get_by_role("link", name="Players", exact=True))
    phone.tap(page.locator("main").get_by_role("link", name=player, exact=True))
    expect(page.get_by_role("heading", name=player)).to_be_visible()
    phone.tap(page.get_by_text(f"Rename {player}"))
    phone.fill(page.get_by_label("New name"), player.upper())  # its letters' case put right
    phone.tap(page.get_by_role("button", name="Rename", exact=True))
    expect(page.get_by_role("status")).to_have_text(f"Now called {player.upper()}.")
    phone.tap(page.get_by_text(f"Rename {player.upper()}"))
    phone.fill(page.get_by_label("New name"), player)  # and back, for the steps after
    phone.tap(page.get_by_role("button", name="Rename", exact=True))
    expect(page.get_by_role("status")).to_have_text(f"Now called {player}.")
    phone.tap(page.get_by_role("link", name=f"{player}’s games"))
    expect(cards).to_have_count(theirs)
    phone.tap(page.get_by_role("link", name="High scores"))
    expect(page.get_by_role("heading", name="High scores")).to_be_visible()
    main_menu(phone, "Rules")
    expect(page.get_by_role("heading", name="What a good score is")).to_be_visible()
    phone.look()


def print_a_blank_sheet(phone: Phone) -> None:
    page = phone.page
    main_menu(phone, "Sheet")
    for game in ("Maxi Yatzy", "Yatzy", "Yahtzee"):  # each family's sheet, Yahtzee's last
        phone.tap(page.get_by_role("radio", name=game, exact=True))
        phone.tap(page.get_by_role("button", name="Update the sheet"))
        expect(page.get_by_role("heading", name=f"{game} score sheet", exact=True)).to_be_visible()
    phone.pick(page.get_by_label("Columns"), label="3")
    phone.tap(page.get_by_label(re.compile("Triple Yahtzee")))
    phone.tap(page.get_by_role("button", name="Update the sheet"))
    expect(page.locator("table.sheet.triple")).to_be_visible()
    phone.look()


def export_and_import(phone: Phone, export: Path) -> None:
    """Every game exported; the games already here, imported again, are skipped and counted."""
    page = phone.page
    main_menu(phone, "Games")
    phone.download(page.get_by_role("link", name="Export all (JSON)"))
    phone.download(page.get_by_role("link", name="Export all (CSV)"))
    phone.tap(page.get_by_role("link", name="Import", exact=True))
    phone.choose_file(page.get_by_label("Export file (JSON)"), export)
    phone.tap(page.get_by_role("button", name="Import"))
    said = page.locator("main .notice")
    expect(said).to_contain_text("Nothing new was imported.")
    expect(said).to_contain_text(
        "1 game in the file was here already: the copy here is kept as it is"
    )


def open_the_household(phone: Phone) -> None:
    phone.tap(home_link(phone.page))
    phone.tap(phone.page.get_by_role("link", name="Your household"))
    expect(phone.page.get_by_role("heading", name="Household", exact=True)).to_be_visible()


def make_a_join_link(phone: Phone) -> str:
    """On the household page; the join link's path."""
    join = phone.page.locator(".share-url")
    phone.tap(phone.page.get_by_role("button", name="Make a join link"))
    expect(join).to_be_visible()
    return urlparse(join.inner_text()).path


def run_the_household(phone: Phone, old_browser: str) -> None:
    """The join link made, replaced and revoked; a browser the family gave away removed."""
    page = phone.page
    open_the_household(phone)
    make_a_join_link(phone)
    renew_and_revoke_the_join_link(phone)
    rename_this_browser(phone, "Kitchen phone")
    # It asks first: once kept, then removed.
    phone.tap(page.get_by_role("link", name=re.compile(f"^Remove {old_browser}")))
    phone.tap(page.get_by_role("link", name="No, keep it"))
    expect(page.locator(".browsers")).to_contain_text(old_browser)
    phone.tap(page.get_by_role("link", name=re.compile(f"^Remove {old_browser}")))
    expect(page.get_by_role("alert")).to_contain_text(f"Remove {old_browser} from the household?")
    phone.tap(page.get_by_role("button", name=f"Yes, remove {old_browser}"))
    expect(page.locator(".browsers")).not_to_contain_text(old_browser)


def rename_this_browser(phone: Phone, name: str) -> None:
    this = phone.page.locator(".browsers li", has_text="This browser")
    phone.fill(this.get_by_label("Name", exact=True), name)
    phone.tap(this.get_by_role("button", name="Rename"))
    expect(phone.page.locator(".browsers li", has_text="This browser")).to_contain_text(name)


def renew_and_revoke_the_join_link(phone: Phone) -> None:
    join = phone.page.locator(".share-url")
    old = join.inner_text()
    phone.tap(phone.page.get_by_role("button", name="New join link"))
    expect(join).not_to_have_text(old)
    phone.tap(phone.page.get_by_role("button", name="Revoke"))
    expect(join).to_be_hidden()


def an_old_browser_of(game_id: str, name: str) -> None:
    """Another browser of the household that started `game_id`, joined long ago."""
    game = Game.objects.select_related("owner").get(public_id=game_id)
    Browser.objects.create(household=game.owner, name=name)


def game_id_of(phone: Phone) -> str:
    return urlparse(phone.page.url).path.split("/")[2]


# The tests: one for each way into the games.


def test_the_owner_uses_every_control_on_every_page(phones, advice_ready, seeded_dice):
    owner = phones("owner")
    page = owner.page
    owner.open("/")
    owner.tap(page.get_by_role("link", name="Start a game"))
    start_a_game_with_every_option(owner)
    use_the_pad_every_way(owner)
    record(owner, box_button(owner, "Large straight"))
    enter_dice(owner, "55555")
    record(owner, box_button(owner, "Yahtzee"))
    type_the_points(owner, "Fives", "25", wrong="20", extra=True)
    a_zero_asked_about_and_undone(owner, "Sixes", after_undo="Sixes")
    advice_for_each_roll(owner, "Fours")
    the_coach_answered_both_ways(owner, "Twos")
    correct_a_box(owner, "Large straight", "12345")
    finish_the_table_game(owner)
    expect(page.locator(".winner")).to_contain_text("Ann finishes with")  # alone at the table
    an_old_browser_of(game_id_of(owner), "Grandma’s tablet")
    owner.tap(page.get_by_role("button", name="Play again"))  # alone at the table
    expect(turn_title(owner)).to_contain_text("Ann’s turn · round 1 of 13")
    tap_the_boxes_not_tapped_yet(owner)
    share_every_way(owner)
    export = review_the_finished_game(owner)
    play_digital_turns(owner, turns=4)
    browse_the_history(owner, "Ann", games=3, theirs=2)
    print_a_blank_sheet(owner)
    export_and_import(owner, export)
    run_the_household(owner, "Grandma’s tablet")
    assert_all_used(owner)


def total_of(phone: Phone, name: str) -> Locator:
    return phone.page.locator("#standings tbody tr", has_text=name).locator("td.total")


def link_gone(phone: Phone) -> None:
    expect(phone.page.get_by_text("This link no longer works")).to_be_visible()
    expect(phone.page.get_by_role("heading", name="Not Found")).to_have_count(0)


def no_card(phone: Phone) -> None:
    expect(phone.page.locator("#standings, #turn, #boxes, form")).to_have_count(0)


def test_a_score_link_and_a_watch_link_at_the_table(phones, advice_ready):
    """The owner makes both links on the share page; a scorer on a small phone in the dark
    plays the game out with every control, while a watcher follows the game and another
    its printable sheet, live, until the owner revokes the links: then every page says
    so, and a tap on a revoked link changes nothing."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    play(game, [turn for turn in SOLO_GAME[:8] for _ in range(2)])  # five boxes left each
    owner = phones("owner")
    join_household(owner.page, household)
    owner.open("/")
    in_progress = owner.page.get_by_role("region", name="Games in progress")
    owner.tap(in_progress.get_by_role("link"))
    links = make_links(owner, "watch", "score")
    watcher = phones("watcher")
    watcher.open(links["watch"])
    watcher.page.evaluate("window.stillTheSamePage = true")
    sheet_watcher = phones("sheet-watcher", SMALL_PHONE)  # follows the printable sheet
    sheet_watcher.open(links["watch"])
    sheet_watcher.tap(sheet_watcher.page.get_by_role("link", name="Printable sheet"))
    expect(sheet_watcher.page.get_by_role("heading", name="Score sheet")).to_be_visible()
    sheet_watcher.look()
    scorer = phones("scorer", SMALL_PHONE, "dark")
    scorer.open(links["score"])
    expect(turn_title(scorer)).to_contain_text("Ann’s turn · round 9 of 13")

    use_the_pad_every_way(scorer)
    record(scorer, box_button(scorer, "Large straight"))
    expect(turn_title(watcher)).to_contain_text("Bob’s turn", timeout=5_000)  # live
    enter_dice(scorer, "55555")
    record(scorer, box_button(scorer, "Yahtzee"))
    a_zero_asked_about_and_undone(scorer, "Full house", after_undo="Full house")
    type_the_points(scorer, "Full house", "25", wrong="24", extra=True)
    advice_for_each_roll(scorer, "Chance")
    correct_a_box(scorer, "Large straight", "12345")
    finish_the_table_game(scorer)
    expect(turn_title(watcher)).to_have_text("Game over", timeout=5_000)
    expect(total_of(watcher, "Bob")).to_have_text(total_of(scorer, "Bob").inner_text())
    assert watcher.page.evaluate("window.stillTheSamePage") is True  # no reload
    scorer.tap(scorer.page.get_by_role("link", name="Printable sheet"))
    expect(scorer.page.get_by_role("heading", name="Score sheet")).to_be_visible()
    scorer.look()
    scorer.page.go_back()  # the sheet has no link back to the game
    expect(turn_title(scorer)).to_have_text("Game over")

    following = (watcher, sheet_watcher, scorer)
    with ExitStack() as revoked:
        for phone in following:  # each page asks for news and hears that its link is gone
            revoked.enter_context(phone.allowing(404))
        for role in ("watch", "score"):
            section = owner.page.locator(f"section.share:has(#share-{role})")
            owner.tap(section.get_by_role("button", name="Revoke"))
            expect(section.locator(".share-url")).to_be_hidden()
        for phone in following:  # its next poll draws the page again, without the card
            phone.check("a revoked link says so", lambda phone=phone: link_gone(phone))
            phone.check("no controls stay", lambda phone=phone: no_card(phone))
        watcher.page.reload()  # and opened again, it still says why
        watcher.check("a revoked link reloaded says so", lambda: link_gone(watcher))
    assert_all_used(scorer, watcher, sheet_watcher, faults_only=(owner,))


def test_a_browser_joined_to_the_household(phones, advice_ready):
    """The owner makes a join link; another phone (small, dark) opens it, joins, and uses
    every control of the household's pages: a game finished and rematched, sharing, the
    history, the household with a browser given away removed."""
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann"])
    play(game, SOLO_GAME[:9])  # four boxes left
    finished = GameFactory(owner=household, names=["Ann", "Bob"])
    play(finished, [turn for turn in SOLO_GAME for _ in range(2)])
    owner = phones("owner")
    join_household(owner.page, household)
    owner.open("/")
    open_the_household(owner)
    join_path = make_a_join_link(owner)
    Browser.objects.create(household=household, name="Old phone")  # given away since

    joined = phones("joined", SMALL_PHONE, "dark")
    joined.open(join_path)
    joined.tap(joined.page.get_by_role("button", name="Join the household"))
    in_progress = joined.page.get_by_role("region", name="Games in progress")
    joined.tap(in_progress.get_by_role("link").first)
    expect(turn_title(joined)).to_contain_text("Ann’s turn · round 10 of 13")
    use_the_pad_every_way(joined)
    record(joined, box_button(joined, "Large straight"))
    a_zero_asked_about_and_undone(joined, "Yahtzee", after_undo="Chance")
    enter_dice(joined, "12346")
    record(joined, box_button(joined, "Small straight"))
    set_advice(joined, "Off")
    type_the_points(joined, "Yahtzee", "50", wrong="45", extra=False)
    expect(turn_title(joined)).to_have_text("Game over")
    joined.tap(joined.page.get_by_role("button", name="Play again"))
    expect(turn_title(joined)).to_contain_text("Ann’s turn · round 1 of 13")
    share_every_way(joined)
    review_the_finished_game(joined)
    browse_the_history(joined, "Bob", games=3, theirs=1)
    open_the_household(joined)
    renew_and_revoke_the_join_link(joined)
    rename_this_browser(joined, "Bob’s phone")
    remove = joined.page.get_by_role("link", name=re.compile("^Remove Old phone"))
    joined.tap(remove)
    joined.tap(joined.page.get_by_role("link", name="No, keep it"))
    joined.tap(remove)
    joined.tap(joined.page.get_by_role("button", name="Yes, remove Old phone"))
    expect(joined.page.locator(".browsers")).not_to_contain_text("Old phone")
    # Ann's second game, started by Play again, has no box filled: the home page discards it.
    joined.open("/")
    joined.tap(joined.page.get_by_role("button", name="Discard"))
    expect(joined.page.get_by_role("status")).to_have_text("The game of Ann is discarded.")
    # The owner only made the join link here; the owner's own test uses the rest.
    assert_all_used(joined, faults_only=(owner,))
