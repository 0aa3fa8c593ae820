"""An address a button posts to, opened as a page (web/not_allowed.py): a page of ours saying
nothing was changed, with a link to the page the button is on, never the browser's bare 405."""

from django.urls import reverse

from scorecard.models import Entry, Game
from tests.helpers import HTMX, text


def test_a_button_s_address_opened_as_a_page_says_so_and_leads_back(client_of, game):
    for name in ("game-roll", "game-rematch", "game-undo", "game-record"):
        address = reverse(name, args=[game.public_id])
        page = client_of.get(address)
        assert page.status_code == 405 and page["Allow"] == "POST"
        assert "<html" in text(page) and "Nothing to open here" in text(page)
        assert f'href="/games/{game.public_id}/"' in text(page), name
    assert Entry.objects.count() == 0 and Game.objects.count() == 1


def test_one_with_no_page_above_it_leads_to_the_start(client_of):
    page = client_of.get(reverse("advice"))
    assert page.status_code == 405 and 'href="/"' in text(page)
    assert "Nothing to open here" in text(page)


def test_it_is_said_in_the_phone_s_language(client_of, game):
    english = text(client_of.get(reverse("game-roll", args=[game.public_id])))
    german = client_of.get(
        reverse("game-roll", args=[game.public_id]), headers={"Accept-Language": "de"}
    )
    assert german.status_code == 405 and '<html lang="de"' in text(german)
    assert "Nothing to open here" not in text(german) and "Nothing to open here" in english


def test_htmx_and_other_methods_are_left_as_they_were(client_of, game):
    address = reverse("game-roll", args=[game.public_id])
    assert client_of.get(address, headers=HTMX).content == b""
    assert client_of.put(address).content == b""


def test_a_request_django_cannot_read_gets_a_page_of_ours_and_changes_nothing(client_of, game):
    """Found by a fuzzer: a post of 1,500 fields, or an upload with no boundary, got
    Django's bare "Bad Request (400)" (with debug on, the exception's own words)."""
    record = reverse("game-record", args=[game.public_id])
    many = "&".join(["hold=1"] * 1500) + "&box=chance"
    answers = [
        client_of.post(record, many, content_type="application/x-www-form-urlencoded"),
        client_of.post(reverse("games-import"), b"x", content_type="multipart/form-data"),
    ]
    for page in answers:
        assert page.status_code == 400 and "<html" in text(page)
        assert "This request could not be read, so nothing was changed." in text(page)
    assert Entry.objects.count() == 0
