"""Each phone reads the card in its own language: the switch's cookie, else Accept-Language,
and no answer (a page, a live fragment, a 304) that a cache could hand to another phone."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorecard.engine.rules import Box
from tests.factories import GameFactory, play
from tests.helpers import HTMX, browser_of, game_url, text


def _varies_by_language(response) -> bool:
    vary = {part.strip().lower() for part in response.get("Vary", "").split(",")}
    return {"accept-language", "cookie"} <= vary


def test_the_page_speaks_the_browser_s_language_and_says_so_on_html():
    page = Client(headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"}).get(reverse("sheet"))
    assert '<html lang="sv">' in text(page)
    assert "Protokoll för Yahtzee" in text(page)
    assert _varies_by_language(page)


def test_a_page_and_its_fragment_at_one_address_say_they_differ_by_htmx(client_of):
    """The games list's filter brings the list in place and writes its address: Back to it
    showed the fragment the browser kept, without the page (a tester)."""
    for headers in ({}, HTMX):
        answer = client_of.get(reverse("games"), {"player": "", "mode": "yatzy"}, headers=headers)
        assert "hx-request" in {part.strip().lower() for part in answer["Vary"].split(",")}


def test_a_language_the_card_does_not_speak_falls_back_to_english():
    page = Client(headers={"Accept-Language": "ja"}).get(reverse("sheet"))
    assert '<html lang="en">' in text(page) and "Yahtzee score sheet" in text(page)


def test_the_switch_keeps_the_choice_in_a_cookie_over_the_browser_s_language():
    phone = Client(headers={"Accept-Language": "sv"})
    answer = phone.post(reverse("set_language"), {"language": "de", "next": "/sheet/?game=yatzy"})
    assert answer.status_code == 302 and answer["Location"] == "/sheet/?game=yatzy"
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    page = text(phone.get("/sheet/?game=yatzy"))
    assert '<html lang="de">' in page and "Drilling" in page and "Tretal" not in page


def test_the_switch_refuses_a_language_it_does_not_offer_and_changes_nothing():
    phone = Client(headers={"Accept-Language": "sv"})
    phone.post(reverse("set_language"), {"language": "xx", "next": "/sheet/"})
    assert settings.LANGUAGE_COOKIE_NAME not in phone.cookies
    assert '<html lang="sv">' in text(phone.get("/sheet/"))


def test_two_phones_of_one_household_each_get_the_live_sheet_in_their_own_language(game):
    before = game.version
    play(game, [(Box.THREE_OF_A_KIND, (3, 3, 3, 1, 2))])
    swedish, german = browser_of(game.owner), browser_of(game.owner)
    poll = HTMX | {"If-None-Match": f'"{before}"'}
    url = game_url(game, "game-sheet")
    in_swedish = swedish.get(url, {"live": "1"}, headers=poll | {"Accept-Language": "sv"})
    in_german = german.get(url, {"live": "1"}, headers=poll | {"Accept-Language": "de"})
    assert "Tretal" in text(in_swedish) and "Dreierpasch" not in text(in_swedish)
    assert "Dreierpasch" in text(in_german) and "Tretal" not in text(in_german)
    assert _varies_by_language(in_swedish) and _varies_by_language(in_german)


def test_an_unchanged_poll_answered_at_the_door_varies_by_language_too(game):
    play(game, [(Box.FOURS, (4, 4, 4, 1, 2))])
    game.refresh_from_db()
    poll = HTMX | {"If-None-Match": f'"{game.version}"', "Accept-Language": "fi"}
    answer = browser_of(game.owner).get(game_url(game, "game-sheet"), {"live": "1"}, headers=poll)
    assert answer.status_code == 304
    assert _varies_by_language(answer)


def test_a_swedish_and_an_english_phone_polling_one_game_each_get_their_own_language(game):
    """The standings and everyone's boxes are drawn once per version and kept in the cache:
    the Swedish drawing must never reach the English phone, nor the other way round."""
    before = game.version
    # Two entries behind: every region comes, as kept for the version (one behind would
    # bring only the entry's rows).
    play(game, [(Box.THREE_OF_A_KIND, (3, 3, 3, 1, 2)), (Box.CHANCE, (6, 6, 5, 5, 4))])
    poll = HTMX | {"If-None-Match": f'"{before}"'}
    url = game_url(game)
    for first, second in [("sv", "en"), ("en", "sv")]:
        answers = {
            language: text(browser_of(game.owner).get(url, {"live": "1"}, headers=poll | {
                "Accept-Language": language
            }))
            for language in (first, second)
        }  # fmt: skip
        swedish, english = answers["sv"], answers["en"]
        assert "Nu spelar Ann" in swedish and "Ställning" in swedish and "Tretal" in swedish
        assert "Ann’s turn" in english and "Standings" in english and "3 of a kind" in english
        assert "Tretal" not in english and "Ställning" not in english
        assert "3 of a kind" not in swedish and "Standings" not in swedish


def test_numbers_a_program_reads_are_never_written_the_german_way(game):
    """The version and turn the page sends back, and the version live.js polls with, stay
    plain digits even where the language groups thousands ("1.234" in German)."""
    from django.test import override_settings

    from scorecard.models import Game

    play(game, [(Box.THREE_OF_A_KIND, (3, 3, 3, 1, 2))])
    Game.objects.filter(pk=game.pk).update(version=12345)
    phone = browser_of(game.owner)
    with override_settings(USE_THOUSAND_SEPARATOR=True):
        page = text(phone.get(game_url(game), headers={"Accept-Language": "de"}))
        fix = text(
            phone.get(game_url(game, "game-correct", turn=1), headers={"Accept-Language": "de"})
        )
    assert 'data-version="12345"' in page and 'name="version" value="12345"' in page
    assert 'name="version" value="12345"' in fix and "12.345" not in page + fix


def test_the_footer_says_the_language_and_brings_its_form_only_when_opened():
    """On every page the footer's switch is closed: it says the page's language (and
    "Language" in English too) and holds a link to the switch's page; htmx fetches the form
    into it when it is opened. The form is on no page's first load."""
    phone = Client(headers={"Accept-Language": "sv"})
    page = phone.get("/sheet/?game=yatzy").content.decode()
    footer = page[page.index("<footer") :]
    assert "<summary>Språk: Svenska · Language</summary>" in footer
    assert 'hx-get="/language/" hx-trigger="toggle once" hx-target="this"' in footer
    assert '<a href="/language/">' in footer
    assert "<form" not in footer and "<select" not in footer
    opened = phone.get(reverse("set_language"), headers=HTMX).content.decode()
    assert opened.startswith("<summary>Språk: Svenska · Language</summary><form")
    assert 'name="csrfmiddlewaretoken"' in opened and 'name="next"' not in opened
    assert '<select name="language" autofocus>' in opened and "<button>Byt</button>" in opened
    assert "<html" not in opened and "<footer" not in opened


def test_the_switch_s_page_shows_the_form_and_sends_the_phone_back_where_it_was():
    """Without scripts the footer's link opens the switch's page: the same form, and a
    `next` naming the page the phone came from, so it returns there in its new language."""
    phone = Client(headers={"Accept-Language": "sv"})
    came_from = "http://testserver/sheet/?game=yatzy"
    page = text(phone.get(reverse("set_language"), headers={"Referer": came_from}))
    assert '<select name="language" autofocus>' in page and "<button>Byt</button>" in page
    assert f'<input type="hidden" name="next" value="{came_from.replace("&", "&amp;")}">' in page
    back = phone.post(reverse("set_language"), {"language": "de", "next": came_from})
    assert back.status_code == 302 and back["Location"] == came_from
    assert '<html lang="de">' in text(phone.get(came_from))
    for elsewhere in ["https://evil.test/", "http://testserver/language/", ""]:
        page = text(phone.get(reverse("set_language"), headers={"Referer": elsewhere}))
        assert 'name="next"' not in page, elsewhere


def test_the_switch_posts_only_the_language_and_returns_to_the_page_it_came_from():
    """The form opened in the footer has no `next` field: the Referer a browser sends with a
    same-origin post brings the phone back; without one, home."""
    phone = Client(headers={"Accept-Language": "sv"})
    back = phone.post(
        reverse("set_language"),
        {"language": "de"},
        headers={"Referer": "http://testserver/sheet/?game=yatzy"},
    )
    assert back.status_code == 302 and back["Location"] == "http://testserver/sheet/?game=yatzy"
    assert '<html lang="de">' in text(phone.get(back["Location"]))
    elsewhere = phone.post(
        reverse("set_language"), {"language": "fi"}, headers={"Referer": "https://evil.test/"}
    )
    assert elsewhere["Location"] == "/"
    assert phone.post(reverse("set_language"), {"language": "fi"})["Location"] == "/"


@pytest.mark.parametrize(
    ("language", "heading"),
    [("sv", "Nu spelar Lars"), ("da", "Nu spiller Lars"), ("nb", "Nå spiller Lars")],
)
def test_a_name_ending_in_s_reads_right_on_the_nordic_turn_heading(household, language, heading):
    """No genitive is made of a name: "Larss tur" was wrong, and "Lars tur" or "Lars' tur"
    depends on the name; the heading says the name as it is written."""
    game = GameFactory(owner=household, names=["Lars", "Max"])
    phone = browser_of(household)
    page = text(phone.get(game_url(game), headers={"Accept-Language": language}))
    title = re.search(r'<h2 id="turn-title"[^>]*>(.*?)<small>', page)
    assert title and title.group(1).strip() == heading
    assert "Larss" not in page
    play(game, [(Box.THREE_OF_A_KIND, (3, 3, 3, 1, 2))])
    page = text(phone.get(game_url(game), headers={"Accept-Language": language}))
    assert heading.replace("Lars", "Max") in page and "Maxs" not in page


def test_the_switchs_own_page_shows_its_form_in_no_box_that_closes(client):
    """Found by a tester: its one form was in a box whose line, tapped, closed it and left
    the page empty."""
    page = text(client.get(reverse("set_language")))
    main = page[page.index("<main") : page.index("</main>")]
    assert "<details" not in main and "<summary" not in main
    assert '<form method="post" action="/language/"' in main and "<select" in main
