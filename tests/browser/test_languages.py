"""A phone reads the card in its own language: Swedish box names from Accept-Language, a
switch in the footer that changes the page at once and is remembered, long German and
Finnish labels that still print on one page, and axe content with `lang` set."""

import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import save_screenshot
from tests.browser.test_print import print_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SWEDISH_YATZY = [
    "Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor", "Ett par", "Två par", "Tretal",
    "Fyrtal", "Liten stege", "Stor stege", "Kåk", "Chans", "Yatzy",
]  # fmt: skip


def speaking(phone, language: str):
    """The phone's browser asks for pages in `language`, as its settings would."""
    phone.context.set_extra_http_headers({"Accept-Language": f"{language},en;q=0.5"})
    return phone


def box_rows(phone) -> list[str]:
    return phone.locator("table.sheet tbody tr.box th").all_inner_texts()


def test_a_swedish_phone_reads_swedish_box_names_on_a_blank_yatzy_sheet_and_the_rules(phone):
    speaking(phone, "sv").goto(f"{phone.base}/sheet/")
    assert phone.locator("html").get_attribute("lang") == "sv"
    phone.get_by_role("radio", name="Yatzy", exact=True).check()
    phone.get_by_role("button", name="Uppdatera protokollet").click()
    phone.wait_for_url("**/sheet/?game=yatzy*")
    assert box_rows(phone) == SWEDISH_YATZY
    save_screenshot(phone, "language-sv-yatzy-sheet")
    phone.get_by_role("link", name="Reglerna, omstridda kast och strategi").click()
    phone.wait_for_url("**/rules/")
    yatzy_boxes = phone.locator("#yatzy tr.family-example th").all_inner_texts()
    assert {"Ett par", "Två par", "Tretal", "Kåk", "Liten stege"} <= set(yatzy_boxes)
    assert phone.errors == []


def test_the_footer_switch_changes_the_page_at_once_and_the_choice_stays_after_a_reload(phone):
    speaking(phone, "sv").goto(f"{phone.base}/sheet/?game=yatzy")
    assert box_rows(phone)[0] == "Ettor"
    phone.locator("footer summary").tap()  # closed, it says the page's language
    phone.get_by_label("Language").select_option(label="English")
    phone.get_by_role("button", name="Byt").click()
    phone.wait_for_function("document.documentElement.lang === 'en'")
    assert phone.url.endswith("/sheet/?game=yatzy")
    assert box_rows(phone)[:2] == ["Ones", "Twos"] and "Kåk" not in box_rows(phone)
    phone.reload()
    assert phone.locator("html").get_attribute("lang") == "en"
    assert box_rows(phone)[0] == "Ones"
    assert phone.locator("footer summary").inner_text() == "Language: English"
    phone.locator("footer summary").tap()
    assert phone.get_by_label("Language").input_value() == "en"
    assert phone.errors == []


def test_the_language_switch_opened_by_keys_keeps_the_focus_in_it(phone):
    """Enter on the footer's switch fetched its form over the summary the keyboard was on,
    and the focus fell out of the page (found by a new user with keys alone): it lands on
    the list of languages, and the next Tab on the button that switches."""
    phone.goto(f"{phone.base}/rules/")
    summary = phone.locator("footer summary")
    summary.focus()
    phone.keyboard.press("Enter")
    expect(phone.get_by_label("Language")).to_be_focused()
    phone.keyboard.press("Tab")
    expect(phone.get_by_role("button", name="Switch")).to_be_focused()
    assert phone.errors == []


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("language", ["fi", "de"])
@pytest.mark.parametrize(
    "query", ["?columns=8", "?triple=1&columns=8", "?game=yatzy&columns=8", "?game=maxi&columns=8"]
)
def test_finnish_and_german_blank_sheets_print_on_one_page(phone, language, query, paper):
    speaking(phone, language)
    assert print_pages(phone, f"{phone.base}/sheet/{query}&lang={language}", paper) == 1
    assert phone.locator("html").get_attribute("lang") == language


@pytest.mark.parametrize("language", ["sv", "de"])
def test_axe_finds_nothing_in_another_language(phone, language):
    speaking(phone, language)
    axe = Axe()
    found = {}
    for path in ["/", "/sheet/?game=yatzy", "/sheet/?game=maxi&columns=8", "/rules/"]:
        phone.goto(f"{phone.base}{path}")
        assert phone.locator("html").get_attribute("lang") == language
        violations = axe.run(phone).response["violations"]
        if violations:
            found[path] = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
    assert found == {}


def start_game_in(phone, names: list[str], game: str, *, player: str, start: str, group: str):
    """The new game form filled and started by taps, its words in the phone's language."""
    phone.goto(f"{phone.base}/games/new/")
    for seat, name in enumerate(names, start=1):
        phone.get_by_label(f"{player} {seat}", exact=True).fill(name)
    phone.get_by_role("group", name=group).get_by_role("radio", name=game, exact=True).check()
    phone.get_by_role("button", name=start).click()


def tap_dice(phone, dice: str, pad: str) -> None:
    for face in dice:
        phone.get_by_role("group", name=pad).get_by_role("button", name=face, exact=True).click()
    phone.locator(".box-options").wait_for()


def test_a_swedish_phone_plays_yatzy_by_tapping_swedish_box_names(phone):
    speaking(phone, "sv")
    start_game_in(phone, ["Sol"], "Yatzy", player="Spelare", start="Börja spelet", group="Spel")
    phone.get_by_role("heading", name="Nu spelar Sol").wait_for()
    assert phone.locator("html").get_attribute("lang") == "sv"
    tap_dice(phone, "66555", pad="Lägg till en tärning")
    buttons = phone.locator(".box-options button span").all_inner_texts()
    assert buttons == SWEDISH_YATZY
    save_screenshot(phone, "language-sv-yatzy-boxes")
    phone.get_by_role("button", name="Kåk, 27 poäng", exact=True).click()
    phone.get_by_role("status").filter(has_text="Sol: Kåk 27").wait_for()
    assert phone.locator("#standings td.total").inner_text() == "27"
    assert phone.locator("#standings-title").inner_text() == "Ställning"
    legend = phone.locator(".standings-legend")
    legend.get_by_text("Vad kolumnerna betyder").click()  # fetched when opened
    expect(legend.locator("dl")).to_contain_text("Ettor till Sexor")
    assert "Ett par till Yatzy" in legend.inner_text()
    rows = phone.locator("#boxes table.sheet tbody tr.box th").all_inner_texts()
    assert rows == SWEDISH_YATZY
    assert "27" in phone.locator("#boxes tr.box", has_text="Kåk").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    save_screenshot(phone, "language-sv-yatzy-after-a-turn")
    assert phone.errors == []


def test_the_footer_switch_turns_a_game_page_english_at_once_and_after_a_reload(phone):
    speaking(phone, "sv")
    start_game_in(phone, ["Sol"], "Yatzy", player="Spelare", start="Börja spelet", group="Spel")
    phone.get_by_role("heading", name="Nu spelar Sol").wait_for()
    game_page = phone.url
    expect(phone.locator("footer summary")).to_have_text("Språk: Svenska · Language")
    phone.locator("footer summary").tap()
    phone.get_by_label("Language").select_option(label="English")
    phone.get_by_role("button", name="Byt").click()
    phone.wait_for_function("document.documentElement.lang === 'en'")
    assert phone.url == game_page
    phone.get_by_role("heading", name="Sol’s turn").wait_for()
    tap_dice(phone, "66555", pad="Add a die")
    assert phone.get_by_role("button", name="Full house, 27 points", exact=True).is_visible()
    phone.reload()
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.locator("#standings-title").inner_text() == "Standings"
    assert "Kåk" not in phone.locator("main").inner_text()
    assert phone.errors == []


def test_a_german_yahtzee_game_reads_kniffel_s_terms_on_its_buttons(phone):
    speaking(phone, "de")
    start_game_in(
        phone, ["Udo", "Eva"], "Kniffel", player="Spieler", start="Spiel starten", group="Spiel"
    )
    phone.get_by_role("heading", name="Udo ist dran").wait_for()
    tap_dice(phone, "33312", pad="Einen Würfel hinzufügen")
    buttons = phone.locator(".box-options button span").all_inner_texts()
    for term in ["Dreierpasch", "Viererpasch", "Full House", "Kleine Straße", "Große Straße"]:
        assert term in buttons
    assert {"Kniffel", "Chance", "Einser", "Sechser"} <= set(buttons)
    save_screenshot(phone, "language-de-kniffel-boxes")
    phone.get_by_role("button", name="Dreierpasch, 12 Punkte", exact=True).click()
    phone.get_by_role("heading", name="Eva ist dran").wait_for()
    row = phone.locator("#boxes tr.box", has_text="Dreierpasch")
    assert "12" in row.inner_text()
    assert "Extra-Kniffel" in phone.locator("h1").inner_text()
    assert phone.errors == []


def test_a_swedish_phone_imports_a_bad_file_and_reads_why_in_swedish(phone, household, tmp_path):
    """A file whose first box holds points its dice do not make: refused in place, in
    Swedish (the engine's words, the box by its pad name, no genitive made of the name), and
    nothing imported."""
    from scorecard.models import Game
    from tests.helpers import good_document

    document = good_document(household)
    document["games"][0]["entries"][0]["points"] = 4
    bad_file = tmp_path / "spel.json"
    bad_file.write_text(json.dumps(document))
    speaking(phone, "sv").goto(f"{phone.base}/games/")
    phone.get_by_role("link", name="Importera", exact=True).click()
    phone.get_by_label("Exportfil (JSON)").set_input_files(bad_file)
    phone.get_by_role("button", name="Importera", exact=True).click()
    expect(phone.get_by_role("alert")).to_have_text(
        "Ingenting importerades. Spel 1, protokollet för Ann: Ettor: tärningarna är värda 3, men "
        "protokollet säger 4."
    )
    assert phone.locator("html").get_attribute("lang") == "sv"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    save_screenshot(phone, "language-sv-import-refused")
    assert not Game.objects.exists()
    refused = "the server responded with a status of 400"  # the console's note of the answer
    assert [error for error in phone.errors if refused not in error] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_the_swedish_game_page(phone, scheme):
    speaking(phone, "sv").emulate_media(color_scheme=scheme)
    start_game_in(
        phone, ["Sol", "Liv"], "Yatzy", player="Spelare", start="Börja spelet", group="Spel"
    )
    phone.get_by_role("heading", name="Nu spelar Sol").wait_for()
    tap_dice(phone, "66555", pad="Lägg till en tärning")
    found = Axe().run(phone).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found] == []
    phone.get_by_role("button", name="Kåk, 27 poäng", exact=True).click()
    phone.get_by_role("heading", name="Nu spelar Liv").wait_for()
    found = Axe().run(phone).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_the_swedish_rules_and_review_pages(
    phone, scheme, household, policy_tables
):
    """The two long translated pages, with a finished game rated (both charts, the
    decisions) and one still going, light and dark."""
    from tests.browser.conftest import join_household
    from tests.helpers import finished_game

    finished = finished_game(household, names=("Ann", "Bob"))
    going = finished_game(household, names=("Cy",))
    going.finished = None
    going.save(update_fields=["finished"])
    join_household(phone, household)
    speaking(phone, "sv").emulate_media(color_scheme=scheme)
    axe = Axe()
    found = {}
    for path in [
        "/rules/",
        f"/games/{finished.public_id}/review/",
        f"/games/{finished.public_id}/review/?advice=1",
        f"/games/{going.public_id}/review/",
    ]:
        phone.goto(f"{phone.base}{path}")
        assert phone.locator("html").get_attribute("lang") == "sv"
        violations = axe.run(phone).response["violations"]
        if violations:
            found[path] = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
        if path.endswith("?advice=1"):
            assert phone.locator("svg.chart").count() == 2  # running totals, chance to win
            save_screenshot(phone, f"language-sv-review-{scheme}")
    assert found == {}


# --- The pseudo-locale in a real browser: every translation wrapped "[!! … !!]" -----------------

# The pages the click-every-control test visits, as far as they are translated: each is an
# address made from what `_table_in_pseudo_locale` set up.
PSEUDO_PAGES = [
    ("home", lambda at: "/"),
    ("game", lambda at: f"/games/{at['playing'].public_id}/"),
    ("blank sheet", lambda at: "/sheet/"),
    ("blank Yatzy sheet", lambda at: "/sheet/?game=yatzy"),
    ("blank Maxi sheet", lambda at: "/sheet/?game=maxi&columns=3"),
    ("blank Triple sheet", lambda at: "/sheet/?triple=1&columns=2"),
    ("game sheet", lambda at: f"/games/{at['playing'].public_id}/sheet/"),
    ("watch link's sheet", lambda at: f"/watch/{at['watch']}/sheet/"),
    ("games", lambda at: "/games/"),
    ("import", lambda at: "/games/import/"),
    ("share", lambda at: f"/games/{at['finished'].public_id}/share/"),
    ("household", lambda at: "/household/"),
    ("join", lambda at: f"/join/{at['join']}/"),
    ("players", lambda at: "/players/"),
    ("player", lambda at: f"/players/{at['player'].public_id}/"),
    ("high scores", lambda at: "/high-scores/"),
    ("rules", lambda at: "/rules/"),
    ("review", lambda at: f"/games/{at['finished'].public_id}/review/"),
    ("review rated", lambda at: f"/games/{at['finished'].public_id}/review/?advice=1"),
    ("review of a game going on", lambda at: f"/games/{at['playing'].public_id}/review/"),
    ("a link that is gone", lambda at: "/watch/no-such-link/"),
]


def _table_in_pseudo_locale(household) -> dict:
    """What a household has after an evening: a game going on with a watch link, a finished
    one, a digital Yatzy game in the players' figures, a browser joined, a join link."""
    from scorecard.access import sharing
    from scorecard.models import Browser, LinkRole, Player
    from tests.factories import SOLO_GAME, GameFactory, play
    from tests.helpers import finished_game, settled_family_game

    playing = GameFactory(owner=household, names=["Dee", "Eve"])
    play(playing, [turn for turn in SOLO_GAME[:3] for _ in range(2)])
    watch = sharing.link_renew(game=playing, role=LinkRole.WATCH).token
    finished = finished_game(household, names=("Dee", "Eve"))
    settled_family_game(household, "yatzy", {"Dee": 250, "Eve": 231}, with_figures=True)
    Browser.objects.create(household=household, name="Tablet")
    join = sharing.join_link_renew(household=household)
    player = Player.objects.get(name="Dee")
    return {"playing": playing, "finished": finished, "watch": watch, "join": join} | {
        "player": player
    }


def test_a_pseudo_locale_leaves_no_text_unwrapped_on_the_translated_pages(
    phone, tmp_path, household, policy_tables
):
    """With every translation replaced by its English wrapped in [!! … !!] (a catalog built
    here, never shipped), each page as the browser shows it, scripts run, has no word
    outside a wrapping but the players' own names and dates."""
    from django.test import override_settings

    from tests.browser.conftest import join_household
    from tests.test_locale import _pseudo_catalog, date_words, left_untranslated

    at = _table_in_pseudo_locale(household)
    _pseudo_catalog(tmp_path)
    join_household(phone, household)
    speaking(phone, "sv")
    data = {"Dee", "Eve", "Tablet", *date_words()}
    found = {}
    with override_settings(LOCALE_PATHS=[tmp_path]):
        for name, address in PSEUDO_PAGES:
            answer = phone.goto(phone.base + address(at))
            if name == "a link that is gone":  # Chromium logs the page's own 404
                assert answer.status == 404 and "status of 404" in phone.errors.pop()
            else:
                assert answer.status == 200, name
            assert phone.locator("html").get_attribute("lang") == "sv"
            shown = phone.content()
            if left := left_untranslated(shown, data=data):
                found[name] = left
            assert "[!!" in shown, name  # the pseudo-locale is the one speaking
    save_screenshot(phone, "pseudo-locale-review")
    assert found == {}
    assert phone.errors == []


def test_a_german_phone_s_blank_sheet_never_scrolls_sideways(phones):
    """German's longer words make the sheet wider than a small phone: the table scrolls in
    its own box, and its hidden column labels stay inside that box, not past the page."""
    phone = speaking(phones(viewport={"width": 360, "height": 740}), "de")
    phone.goto(phone.base)
    phone.get_by_role("navigation").get_by_role("link", name="Block", exact=True).click()
    for family in ["Kniffel", "Yatzy", "Maxi Yatzy"]:
        for columns in ["6", "8"]:
            phone.get_by_label(family, exact=True).check()
            phone.get_by_label("Spalten").select_option(columns)
            phone.get_by_role("button", name="Block aktualisieren").click()
            phone.wait_for_url(f"**columns={columns}**")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 360, (family, columns)
    save_screenshot(phone, "language-de-blank-sheet-8-columns")
    assert phone.errors == []


GAP_BEFORE_SCORE = """brand => {
    const word = document.createRange(), score = document.createRange();
    word.selectNodeContents(brand.firstChild);
    const rest = brand.querySelector("span").firstChild;
    score.setStart(rest, 1);
    score.setEnd(rest, 2);
    return score.getBoundingClientRect().left - word.getBoundingClientRect().right;
}"""


@pytest.mark.parametrize(
    ("language", "brand"),
    [("en", "Yahtzee score card"), ("es", "Hoja de puntos de Yahtzee"), ("de", "Kniffel-Block")],
)
def test_the_brand_on_a_wide_screen_keeps_its_spaces(phones, language, brand):
    """Found by a new user: on a tablet the brand read "Yahtzeescore card". The header's
    links are flex boxes, which dropped the space at the edge of the brand's wide-only part."""
    page = speaking(phones(viewport={"width": 800, "height": 600}), language)
    page.goto(page.base + "/rules/")
    assert page.locator("a.brand").inner_text() == brand
    if language == "en":  # the space drawn: "score" starts a space's width after "Yahtzee"
        assert page.locator("a.brand").evaluate(GAP_BEFORE_SCORE) > 2
    assert page.errors == []


def test_a_french_legend_puts_its_space_before_each_colon(phone):
    """Found by a new user: "Haut (Cases du haut):" where French writes " :"."""
    from tests.browser.conftest import join_household
    from tests.factories import GameFactory, HouseholdFactory

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    speaking(phone, "fr").goto(f"{phone.base}/games/{game.public_id}/")
    phone.locator(".standings-legend summary").click()
    terms = phone.locator(".standings-legend dt")
    expect(terms.first).to_have_text(re.compile(r"\) :$"))
    assert all(term.endswith(" :") for term in terms.all_inner_texts())
    assert phone.errors == []


def test_a_swedish_triple_game_s_card_tabs_stay_inside_the_turn_at_360_px(phone):
    """Found by a new user: "Protokoll ×3" ran past its row. The cards are "kort" in every
    Swedish text now, and the tabs wrap should a language's words be longer still."""
    from scorecard.models import Game
    from tests.browser.conftest import join_household
    from tests.factories import GameFactory, HouseholdFactory

    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Gus", "Hal"], mode=Game.Mode.TRIPLE)
    join_household(phone, household)
    phone.set_viewport_size({"width": 360, "height": 780})
    speaking(phone, "sv").goto(f"{phone.base}/games/{game.public_id}/")
    tabs = phone.get_by_role("navigation", name="Kort").get_by_role("link")
    expect(tabs).to_have_text(["Kort ×1", "Kort ×2", "Kort ×3"])
    turn = phone.locator("#turn").bounding_box()
    for index in range(3):
        tab = tabs.nth(index).bounding_box()
        assert tab["x"] + tab["width"] <= turn["x"] + turn["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert phone.errors == []


HEADER_LINKS = """header => [...header.querySelectorAll("a")].map(link => {
    const box = link.getBoundingClientRect();
    return [link.textContent.trim(), box.width, box.height];
})"""
ONE_LINE_HEADERS = {"en", "da", "de", "fi", "nb", "sv"}  # es and fr wrap their long brands


@pytest.mark.parametrize("language", ["en", "da", "de", "es", "fi", "fr", "nb", "sv"])
def test_every_header_link_is_a_thumb_wide_and_its_edge_opens_it(phones, language):
    """The header's links were 48 px high but "Spil", "Pelit" and "Spel" 28-33 px wide (a
    tester): each is now at least 44 px both ways, its edge is part of it, and the headers
    that fit one line on a 360 px phone still do."""
    phone = speaking(phones(viewport={"width": 360, "height": 740}), language)
    phone.goto(f"{phone.base}/rules/")
    header = phone.locator(".site-header")
    sizes = header.evaluate(HEADER_LINKS)
    assert min(min(width, height) for _, width, height in sizes) >= 44, sizes
    if language in ONE_LINE_HEADERS:
        assert header.bounding_box()["height"] < 60, sizes
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    games = header.locator('nav a[href="/games/"]')
    games.tap(position={"x": 2, "y": 24})  # the link's edge, beside its word
    phone.wait_for_url("**/games/")
    assert phone.errors == []


def test_the_household_pages_this_browser_badge_stays_one_piece_in_swedish(phones):
    """Found by a helper: "Den här webbläsaren" beside "Chrome på Android" broke over two
    lines at 360 px, its outline drawn as two open halves."""
    from scorecard.models import Browser
    from tests.browser.conftest import join_household
    from tests.factories import HouseholdFactory

    phone = speaking(phones(viewport={"width": 360, "height": 740}), "sv")
    household = HouseholdFactory()
    join_household(phone, household)
    Browser.objects.filter(household=household).update(name="Chrome på Android")
    phone.goto(f"{phone.base}/household/")
    badge = phone.locator(".this-browser")
    expect(badge).to_have_text("Den här webbläsaren")
    lines = badge.evaluate("(badge) => badge.getClientRects().length")
    assert lines == 1
    assert phone.errors == []
