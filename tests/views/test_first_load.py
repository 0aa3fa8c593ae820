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

import pytest
from django.conf import settings
from django.urls import reverse

from scorecard.access import sharing
from scorecard.models import LinkRole
from scorecard.views import shell
from scorecard.web.static_files import BUNDLES
from tests.factories import GameFactory
from tests.helpers import CHROMIUM_ENCODINGS, browser_of, first_load

# The goals: issue 21's 21,500 bytes (English) and issues 20 and 23's 22,000 in every
# language. Both are still missed. htmx alone is 14,673 bytes (README: "First load"), which
# leaves 6.8 KB for the page, our style sheet and bundle, the manifest and the icon: they
# are 8.4 KB in English, after this round's cuts (the typed points' form and the standings'
# legend fetched when opened, the failed-request words sent with the failed answer, the
# score sheet's print layout moved to the sheet page: about 950 bytes). The notice a
# browser removed from its household now sees on the owner's page added about 90 (German,
# the heaviest, 23,339; English 23,111). Each ceiling is its figure rounded up to the
# next 100, so a change that adds bytes to the first load has to say so here; `make bench`
# prints the same figures beside the goals.
FIRST_LOAD_GOAL = {"en": 21_500, "other": 22_000}
FIRST_LOAD_CEILING = {"en": 23_200, "other": 23_400}


def first_load_ceiling(language: str) -> int:
    return FIRST_LOAD_CEILING.get(language, FIRST_LOAD_CEILING["other"])


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_first_load_of_a_four_player_game_page_stays_under_its_ceiling(db, language):
    """In every language the card speaks: none may be heavier than the ceiling."""
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    phone = browser_of(game.owner)
    phone.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    sizes = first_load(phone, reverse("game", args=[game.public_id]))
    assert f'<html lang="{language}">' in phone.get(reverse("game", args=[game.public_id])).text
    parts = ", ".join(f"{url} {size:,}" for url, size in sizes.items())
    assert sum(sizes.values()) <= first_load_ceiling(language), parts
    assert shell.static("bundles/game-at-table.js") in sizes  # the owner's page can record
    assert "js/outbox.js" in BUNDLES["bundles/game-at-table.js"]
    assert reverse("service-worker") not in sizes


def test_a_watcher_s_page_loads_no_script_for_controls_it_does_not_have(client, db):
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    link = sharing.link_renew(game=game, role=LinkRole.WATCH)
    loaded = first_load(client, reverse("watch", args=[link.token]))
    scripts = [url for url in loaded if url.endswith(".js")]
    assert scripts == [shell.static("bundles/htmx-2.js"), shell.static("bundles/game-watched.js")]
    watched = BUNDLES["bundles/game-watched.js"]
    for script in ("outbox.js", "dice-pad.js", "dice-game.js", "submit-on-change.js"):
        assert f"js/{script}" not in watched
    assert "js/live.js" in watched and "js/shell.js" in watched


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
