"""What a phone downloads to open a 4-player game page the first time (issues 20 and 21),
measured by `tests.helpers.first_load` (also `make bench`'s figure).

The page and the manifest are asked for as Chromium asks (`br` among the encodings), so
their bytes are the compressed answers the middleware really sends; each static file the
page names (htmx and our bundle come minified by uglify-js, our style sheets are minified
here) is compressed by whitenoise's own compressor, as `collectstatic` leaves it for
whitenoise to serve. The service worker is registered after
the page's `load` and the home-screen icon is fetched only when the card is installed:
neither is counted.
"""

import re
from datetime import UTC, datetime

import brotli
import pytest
from django.conf import settings
from django.urls import reverse

from scorecard.access import sharing
from scorecard.game import services
from scorecard.models import Game, LinkRole
from scorecard.views import shell
from scorecard.web import compression, jinja
from scorecard.web.static_files import BUNDLES, EVERY_PAGE
from tests.factories import GameFactory
from tests.helpers import CHROMIUM_ENCODINGS, browser_of, first_load

# The goals: issues 20 and 23's 22,000 bytes in every language, and issue 21's 21,500 for
# English. English is 21,467-21,486 (the page's random ids vary its brotli by up to 20
# bytes; htmx alone 14,673): a phone's first page is compressed at brotli's quality 11
# (web/compression.py), 44 bytes fewer than at 10, which paid for most of the 96 of the
# script that keeps the dice a phone is entering when another phone's change redraws its
# turn (live.js, session 16); before that script, 21,434 at quality 10 and 21,620 at 5.
# Since session 17 a first page goes without its blank lines (about 18 bytes). Session 19's
# double-tap guard (dice-pad.js, about 30 bytes) was paid for by the manifest's SVG icon (17)
# and the outbox's keys drawn one way only (30): 21,450-21,483. A sheet's name heads capped
# at 6em, so a 40-letter name leaves the others' columns on a 360 px phone, cost about 16
# bytes of app.css: 21,470-21,492 (8 pages). Session 20 moved Triple Yahtzee's card tabs to
# triple.css, which only a Triple game loads: 21,429-21,442 (12 pages). Session 31 took out
# the notice a live page showed when its link was revoked (the poll's answer now reloads the
# page, which says why): 21,493 to 21,441 with the typical id. Session 37's guard on the boxes
# while typed dice are shown, then their showing as the field is left, and a refusal going
# with the dice it refused (dice-pad.js, about 45 bytes) were paid for by the font list cut
# to system-ui (20), the saved copy's reload moved into shell.js's poll listener (12) and
# live.js's intervals written where they are used (18): 21,486. Session 38: the advice
# switch sent by its Set button (submit-on-change.js gone, 33 bytes fewer) and the pad's
# script sending its form's fields paid for the pad's turn field (13), a refused field's
# aria-invalid cleared and the boxes waiting dimmed (20), and the advice switch asking with
# the pad's dice (11), and the pad's address written from its turn field (-13): 21,463.
# Earlier cuts (CSRF token from its cookie, uglify-js's `unsafe`, no default values written out, no
# unread classes, no blank lines in the templates) are in the README's "First load".
FIRST_LOAD_GOAL = {"en": 21_500, "other": 22_000}
EVERY_LANGUAGE = FIRST_LOAD_GOAL["other"]
TYPICAL_ID = "q7Fh2LmX9sVb4TnR8cWd0A"  # 22 characters, as `new_public_id` makes them


# The outbox's stamp, the time the page was drawn, compresses a few bytes better or worse
# too (21,486-21,501 in session 41): one typical time, so a run measures the page.
TYPICAL_TIME = datetime(2026, 12, 7, 12, 0, 7, tzinfo=UTC)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_first_load_of_a_four_player_game_page_stays_under_22_000_bytes(
    db, language, monkeypatch
):
    """In every language the card speaks: none may be heavier than 22,000 bytes."""
    monkeypatch.setattr(jinja, "current_time", lambda: TYPICAL_TIME)
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    # A game's id is random, and the page's five copies of it compress a few bytes better or
    # worse (21,478-21,508 bytes over 40 games): one typical id keeps this about the page.
    Game.objects.filter(pk=game.pk).update(public_id=TYPICAL_ID)
    game.refresh_from_db()
    phone = browser_of(game.owner)
    phone.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    sizes = first_load(phone, reverse("game", args=[game.public_id]))
    assert f'<html lang="{language}">' in phone.get(reverse("game", args=[game.public_id])).text
    parts = ", ".join(f"{url} {size:,}" for url, size in sizes.items())
    assert sum(sizes.values()) <= FIRST_LOAD_GOAL.get(language, EVERY_LANGUAGE), parts
    assert shell.static(EVERY_PAGE) in sizes  # the owner's page can record
    assert "js/outbox.js" in BUNDLES[EVERY_PAGE]
    assert reverse("service-worker") not in sizes


def test_a_phones_first_page_is_compressed_harder_than_the_pages_after_it(db):
    """Without a cookie of ours a phone has never been here: its first page comes with
    htmx and our scripts, so it is worth brotli's quality 11 (about 11 ms, once a phone)
    and leaving its blank lines out. Once the page has set the CSRF cookie, pages and
    fragments come at quality 5, as drawn."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    phone = browser_of(game.owner)
    url = reverse("game", args=[game.public_id])
    assert settings.CSRF_COOKIE_NAME not in phone.cookies
    first = phone.get(url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS})
    assert settings.CSRF_COOKIE_NAME in phone.cookies
    later = phone.get(url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS})
    plain = brotli.decompress(later.content)
    drawn_at = re.compile(rb' data-rendered="\d+"')  # the second it was drawn
    first_page = brotli.decompress(first.content)
    assert b"\n\n" in plain and b"\n\n" not in first_page
    assert drawn_at.sub(b"", first_page) == drawn_at.sub(b"", re.sub(rb"\n+", b"\n", plain))
    assert first["Content-Encoding"] == later["Content-Encoding"] == "br"
    assert len(first.content) < len(later.content) * 0.94
    assert len(later.content) == len(brotli.compress(plain, quality=5))
    fragment = browser_of(game.owner).get(url + "?legend=1", headers={
        "Accept-Encoding": CHROMIUM_ENCODINGS, "HX-Request": "true"})  # fmt: skip
    body = brotli.decompress(fragment.content)
    assert len(fragment.content) == len(brotli.compress(body, quality=5))


def test_a_first_page_sent_uncompressed_says_its_own_length(db):
    """A client that takes no compression (Python's http.client, many tools) gets the first
    page without its blank lines as it is: its Content-Length is that page's, not the
    length of the page as drawn (the client would wait for bytes that never come)."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    page = browser_of(game.owner).get(reverse("game", args=[game.public_id]))
    assert "Content-Encoding" not in page and b"\n\n" not in page.content
    assert page["Content-Length"] == str(len(page.content))


def test_a_first_page_over_16_kb_is_compressed_as_every_later_page(db, monkeypatch):
    """Quality 11 costs about 1.4 ms a KB: a client that never keeps cookies must not make
    long pages cost several times more."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    url = reverse("game", args=[game.public_id])
    phone = browser_of(game.owner)
    phone.get(url)  # a page after the first: as drawn, blank lines and all
    size = len(phone.get(url).content)
    for most, quality in [(size, 11), (size - 1, 5)]:
        monkeypatch.setattr(compression, "FIRST_PAGE_MOST", most)
        answer = browser_of(game.owner).get(url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS})
        body = brotli.decompress(answer.content)
        assert len(answer.content) == len(brotli.compress(body, quality=quality))


def test_every_kind_of_page_loads_the_one_file_of_htmx_and_our_scripts(client, db):
    """A phone downloads htmx and our scripts once, with whichever page it opens first; a
    digital game, the new-game form, a sheet and the share page add one small file of their
    own, and a page that shows times one that tells the server the phone's time zone."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    digital = services.game_create(owner=game.owner, names=["Ann"], digital=True)
    link = sharing.link_renew(game=game, role=LinkRole.WATCH)
    owner = browser_of(game.owner)
    every_page = shell.static(EVERY_PAGE)
    pages = {
        reverse("watch", args=[link.token]): [every_page],
        reverse("game", args=[game.public_id]): [every_page],
        reverse("games"): [every_page, shell.static("bundles/phone-time.js")],
        reverse("rules"): [every_page],
        reverse("game", args=[digital.public_id]): [
            every_page,
            shell.static("bundles/dice-game.js"),
        ],
        reverse("game-new"): [every_page, shell.static("bundles/family-choice.js")],
        reverse("sheet"): [every_page, shell.static("bundles/print.js")],
        reverse("game-share", args=[game.public_id]): [
            every_page,
            shell.static("bundles/share.js"),
        ],
    }
    for url, expected in pages.items():
        scripts = [loaded for loaded in first_load(owner, url) if loaded.endswith(".js")]
        assert scripts == expected, url
    assert BUNDLES[EVERY_PAGE][:2] == ["django_htmx/htmx-2.js", "js/htmx-settings.js"]


def test_pages_are_sent_with_brotli_where_the_browser_takes_it_else_gzip(db):
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    client = browser_of(game.owner)
    url = reverse("game", args=[game.public_id])
    plain = client.get(url)
    assert "Content-Encoding" not in plain
    for accepted, sent in [(CHROMIUM_ENCODINGS, "br"), ("gzip, deflate", "gzip")]:
        response = client.get(url, headers={"Accept-Encoding": accepted})
        assert response["Content-Encoding"] == sent
        assert "Accept-Encoding" in response["Vary"]
        assert len(response.content) < len(plain.content) / 3


def test_a_client_asking_for_identity_gets_the_page_plain_and_leaves_no_warning(db, caplog):
    """Python's http.client, curl and health checkers send `identity`: declining it is no
    fault. The compression package logged a warning for each such request, which filled the
    unread log pipe of the scale-out test's servers and stopped their workers."""
    game = GameFactory(names=["Ann"])
    client = browser_of(game.owner)
    url = reverse("game", args=[game.public_id])
    with caplog.at_level("WARNING"):
        for accepted in ("identity", "identity, br;q=0", "x-unknown"):
            response = client.get(url, headers={"Accept-Encoding": accepted})
            assert response.status_code == 200
            assert "Content-Encoding" not in response
        assert client.get(url, headers={"Accept-Encoding": "*"}).status_code == 200
    assert [record.getMessage() for record in caplog.records] == []
    assert client.get(url, headers={"Accept-Encoding": "identity, br"})["Content-Encoding"] == "br"


def test_the_web_manifest_is_compressed_like_a_page(db):
    """About 470 bytes, on every first load: the compression package leaves answers under
    500 bytes plain, ours compresses from 200 (and still sends plain what saves under 100)."""
    answer = browser_of(GameFactory(names=["Ann"]).owner).get(
        reverse("web-manifest"), headers={"Accept-Encoding": CHROMIUM_ENCODINGS}
    )
    assert answer["Content-Encoding"] == "br" and len(answer.content) < 300
    assert "Accept-Encoding" in answer["Vary"]


def test_a_game_page_writes_out_no_value_a_browser_or_our_script_takes_by_default(db):
    """A form's method is GET unless it says otherwise, the pad's script counts five dice
    unless the form says six, and the browser reads the icon's type from its answer: about
    20 bytes of each first load. A Maxi Yatzy page still says its six dice."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    page = browser_of(game.owner).get(reverse("game", args=[game.public_id])).text
    assert 'class="dice-entry"' in page
    assert 'method="get"' not in page and "data-dice-count" not in page
    assert '<link rel="icon" href="' in page and "image/svg+xml" not in page


def test_a_page_carries_no_csrf_token_and_sets_the_cookie_our_scripts_read_it_from(db):
    """htmx's posts and the outbox's send Django's CSRF token from its cookie
    (htmx-settings.js reads it by this name): 81 bytes of each first load were the token in
    the page's <body hx-headers>. A page still sets (or renews) the cookie."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    response = browser_of(game.owner).get(reverse("game", args=[game.public_id]))
    assert "X-CSRFToken" not in response.text and "hx-headers" not in response.text
    assert settings.CSRF_COOKIE_NAME == "csrftoken" and not settings.CSRF_COOKIE_HTTPONLY
    assert response.cookies["csrftoken"].value


def test_the_standings_cells_carry_no_class_that_nothing_reads(db):
    """The upper total's and the pace's cells had classes no style or script read (a test
    found the cells by them): 13 bytes of each first load. The total's makes it bold."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    page = browser_of(game.owner).get(reverse("game", args=[game.public_id])).text
    assert page.count('<td class="total">') == 4
    assert 'class="upper"' not in page and 'class="pace"' not in page
