"""A phone reads the card in its own language: Swedish box names from Accept-Language, a
switch in the footer that changes the page at once and is remembered, long German and
Finnish labels that still print on one page, and axe content with `lang` set."""

import pytest
from axe_playwright_python.sync_playwright import Axe

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
    phone.get_by_label("Language").select_option(label="English")
    phone.get_by_role("button", name="Byt").click()
    phone.wait_for_function("document.documentElement.lang === 'en'")
    assert phone.url.endswith("/sheet/?game=yatzy")
    assert box_rows(phone)[:2] == ["Ones", "Twos"] and "Kåk" not in box_rows(phone)
    phone.reload()
    assert phone.locator("html").get_attribute("lang") == "en"
    assert box_rows(phone)[0] == "Ones"
    assert phone.get_by_label("Language").input_value() == "en"
    assert phone.errors == []


@pytest.mark.parametrize("language", ["fi", "de"])
@pytest.mark.parametrize(
    "query", ["?columns=8", "?triple=1&columns=8", "?game=yatzy&columns=8", "?game=maxi&columns=8"]
)
def test_finnish_and_german_blank_sheets_print_on_one_a4_page(phone, language, query):
    speaking(phone, language)
    assert print_pages(phone, f"{phone.base}/sheet/{query}&lang={language}", "A4") == 1
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
    phone.get_by_role("heading", name="Sols tur").wait_for()
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
    legend.get_by_text("Vad kolumnerna betyder").click()
    assert "Ettor till Sexor" in legend.inner_text() and "Ett par till Yatzy" in legend.inner_text()
    rows = phone.locator("#boxes table.sheet tbody tr.box th").all_inner_texts()
    assert rows == SWEDISH_YATZY
    assert "27" in phone.locator("#boxes tr.box", has_text="Kåk").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    save_screenshot(phone, "language-sv-yatzy-after-a-turn")
    assert phone.errors == []


def test_the_footer_switch_turns_a_game_page_english_at_once_and_after_a_reload(phone):
    speaking(phone, "sv")
    start_game_in(phone, ["Sol"], "Yatzy", player="Spelare", start="Börja spelet", group="Spel")
    phone.get_by_role("heading", name="Sols tur").wait_for()
    game_page = phone.url
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_the_swedish_game_page(phone, scheme):
    speaking(phone, "sv").emulate_media(color_scheme=scheme)
    start_game_in(
        phone, ["Sol", "Liv"], "Yatzy", player="Spelare", start="Börja spelet", group="Spel"
    )
    phone.get_by_role("heading", name="Sols tur").wait_for()
    tap_dice(phone, "66555", pad="Lägg till en tärning")
    found = Axe().run(phone).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found] == []
    phone.get_by_role("button", name="Kåk, 27 poäng", exact=True).click()
    phone.get_by_role("heading", name="Livs tur").wait_for()
    found = Axe().run(phone).response["violations"]
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in found] == []
