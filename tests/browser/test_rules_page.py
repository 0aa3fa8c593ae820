"""The rules page on a 360 px phone, reached from the menu: its contents links are thumb-sized
targets (a new user found them 24 px tall) and each takes the phone to its section."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_narrow_tables import NARROW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEIGHTS = """(nav) => [...nav.querySelectorAll("a")].map(
  (link) => link.getBoundingClientRect().height)"""


SIZES = """() => Object.fromEntries(["h2", "h3"].map((level) => [level,
  [...document.querySelectorAll(`.rules ${level}`)]
    .map((heading) => parseFloat(getComputedStyle(heading).fontSize))]))"""


def test_the_rules_contents_links_are_thumb_sized_and_lead_to_their_sections(phones):
    phone = phones(viewport=NARROW)
    phone.goto(phone.base)
    phone.locator(".site-header nav").get_by_role("link", name="Rules").tap()
    contents = phone.get_by_role("navigation", name="The games on this page")
    expect(contents).to_be_visible()
    phone.wait_for_load_state()  # pages.css too, as a person sees the page
    heights = contents.evaluate(HEIGHTS)
    assert len(heights) == 4 and min(heights) >= 44, heights
    contents.get_by_role("link", name="Yatzy", exact=True).tap()
    expect(phone.locator("#yatzy")).to_be_in_viewport()
    assert phone.url.endswith("#yatzy")
    # A game's name heads its section in larger type than the topics under it (a helper
    # found the h3s the larger).
    sizes = phone.evaluate(SIZES)
    assert min(sizes["h2"]) > max(sizes["h3"]), sizes
    assert phone.errors == []
