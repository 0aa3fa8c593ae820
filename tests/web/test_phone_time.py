"""Times in the phone's own time zone, once a page has told the server the zone (a cookie
its script writes); any other cookie leaves the server's zone."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from scorecard.models import Game
from scorecard.web import phone_time
from tests.factories import GameFactory
from tests.helpers import text


@pytest.fixture
def began_at_half_past_ten(household):
    game = GameFactory(owner=household, names=["Ann", "Bob"])
    Game.objects.filter(pk=game.pk).update(created=datetime(2026, 12, 1, 10, 30, tzinfo=UTC))
    return game


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Europe/Helsinki", "1 Dec 2026, 12:30"),
        ("America/Argentina/Buenos_Aires", "1 Dec 2026, 07:30"),
        ("Etc/GMT+2", "1 Dec 2026, 08:30"),
        ("", "1 Dec 2026, 10:30"),  # no cookie's: the server's zone (UTC here)
        ("Mars/Olympus_Mons", "1 Dec 2026, 10:30"),
        ("../../../etc/passwd", "1 Dec 2026, 10:30"),
        ("/usr/share/zoneinfo/Europe/Helsinki", "1 Dec 2026, 10:30"),
        ("Europe/" + "x" * 100, "1 Dec 2026, 10:30"),
    ],
)
def test_the_games_list_shows_times_in_the_zone_the_cookie_names(
    client_of, began_at_half_past_ten, zone, shown
):
    client_of.cookies[phone_time.COOKIE] = zone
    page = text(client_of.get(reverse("games")))
    assert f"<strong>{shown}</strong>" in page


def test_a_card_drawn_in_one_zone_is_not_shown_in_another(client_of, began_at_half_past_ten):
    """The games list's cards are drawn once and kept (`drawn_once`): kept per zone too."""
    assert "<strong>1 Dec 2026, 10:30</strong>" in text(client_of.get(reverse("games")))
    client_of.cookies[phone_time.COOKIE] = "Europe/Helsinki"
    assert "<strong>1 Dec 2026, 12:30</strong>" in text(client_of.get(reverse("games")))
    del client_of.cookies[phone_time.COOKIE]
    assert "<strong>1 Dec 2026, 10:30</strong>" in text(client_of.get(reverse("games")))


def test_the_pages_that_show_times_tell_the_server_the_phones_zone(client_of, game):
    script = 'src="/static/bundles/phone-time.js'
    for page in ("games", "home", "high-scores", "household"):
        assert script in text(client_of.get(reverse(page))), page
    assert script in text(client_of.get(reverse("game-review", args=[game.public_id])))
    assert script not in text(client_of.get(reverse("game", args=[game.public_id])))  # no times


def test_the_script_is_told_the_offset_the_times_were_drawn_for(client_of, game):
    assert 'data-offset="0"' in text(client_of.get(reverse("games")))
    client_of.cookies[phone_time.COOKIE] = "Asia/Kolkata"
    assert 'data-offset="330"' in text(client_of.get(reverse("games")))
