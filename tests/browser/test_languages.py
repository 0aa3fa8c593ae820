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
