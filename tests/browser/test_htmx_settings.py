"""htmx's settings travel in the one file every page loads, right after htmx
(static/js/htmx-settings.js): a page that has htmx has them, before htmx starts."""

import pytest

from tests.browser.conftest import join_household
from tests.factories import GameFactory, HouseholdFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_game_page_runs_htmx_with_our_settings_and_no_style_of_its_own(phone):
    household = HouseholdFactory()
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    join_household(phone, household)
    phone.goto(f"{phone.base}/games/{game.public_id}/")
    pad = phone.get_by_role("group", name="Add a die")
    for face in "44425":
        pad.get_by_role("button", name=face, exact=True).tap()
    phone.locator('.box-options button[aria-label^="Fours,"]').wait_for()
    config = phone.evaluate("() => htmx.config")
    assert config["allowEval"] is False and config["allowScriptTags"] is False
    assert config["includeIndicatorStyles"] is False and config["timeout"] == 15_000
    assert config["attributesToSettle"] == ["class", "width", "height"]
    assert config["defaultSettleDelay"] == 0  # a new form is htmx's as it lands
    assert config["responseHandling"][-1] == {"code": "...", "swap": False, "error": True}
    assert phone.locator("style").count() == 0  # htmx inserted none (the CSP refuses them)
    assert phone.locator('meta[name="htmx-config"]').count() == 0
    assert phone.errors == []
