"""What a phone downloads to open a 4-player game page the first time (issues 20 and 21).

The page and the manifest are asked for as Chromium asks (`br` among the encodings), so
their bytes are the compressed answers the middleware really sends; each static file the
page names is compressed by whitenoise's own compressor, as `collectstatic` leaves it for
whitenoise to serve. The service worker is registered after the page's `load` and the
home-screen icon is fetched only when the card is installed: neither is counted.
"""

import re
from pathlib import Path

from django.contrib.staticfiles import finders
from django.urls import reverse
from whitenoise.compress import Compressor

from scorecard.access import sharing
from scorecard.models import LinkRole
from scorecard.views import shell
from tests.factories import GameFactory
from tests.helpers import browser_of

CHROMIUM_ENCODINGS = "gzip, deflate, br, zstd"
# What the page loads: its scripts, its style sheet, its icon and its manifest.
LOADED = re.compile(r'<(?:script src|link rel="(?:stylesheet|icon|manifest)" href)="([^"]+)"')
# Issue 21's goal is 21,500 bytes, not reached: htmx alone is 14,996 (README: "First
# load"). The ceiling is the figure reached, so a change that adds bytes to the first load
# has to say so here; `make bench` prints the figure beside the goal.
FIRST_LOAD_GOAL = 21_500
FIRST_LOAD_CEILING = 29_500


def static_file_on_the_wire(url: str) -> int:
    """The bytes whitenoise sends for a static file: its brotli copy when that is smaller by
    enough to be kept, else the file itself."""
    data = Path(finders.find(url.removeprefix("/static/"))).read_bytes()
    compressor = Compressor(quiet=True)
    brotli = compressor.compress_brotli(data)
    kept = compressor.is_compressed_effectively("br", "", len(data), brotli)
    return len(brotli) if kept else len(data)


def answer_on_the_wire(client, url: str) -> int:
    response = client.get(url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS})
    assert response.status_code == 200
    return len(response.content)


def first_load(client, page_url: str) -> dict[str, int]:
    """Each thing the page loads and its bytes on the wire, the page itself first."""
    response = client.get(page_url, headers={"Accept-Encoding": CHROMIUM_ENCODINGS})
    sizes = {page_url: len(response.content)}
    html = client.get(page_url).content.decode()
    for url in LOADED.findall(html):
        is_static = url.startswith("/static/")
        sizes[url] = static_file_on_the_wire(url) if is_static else answer_on_the_wire(client, url)
    return sizes


def test_the_first_load_of_a_four_player_game_page_stays_under_its_ceiling(db):
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    sizes = first_load(browser_of(game.owner), reverse("game", args=[game.public_id]))
    parts = ", ".join(f"{url} {size:,}" for url, size in sizes.items())
    assert sum(sizes.values()) <= FIRST_LOAD_CEILING, parts
    assert shell.static("js/outbox.js") in sizes  # the owner's page can record
    assert reverse("service-worker") not in sizes


def test_a_watcher_s_page_loads_no_script_for_controls_it_does_not_have(client, db):
    game = GameFactory(names=["Ann", "Bob", "Cy", "Di"])
    link = sharing.link_renew(game=game, role=LinkRole.WATCH)
    loaded = first_load(client, reverse("watch", args=[link.token]))
    for script in ("outbox.js", "dice-pad.js", "dice-game.js", "submit-on-change.js"):
        assert shell.static(f"js/{script}") not in loaded
    assert shell.static("js/live.js") in loaded and shell.static("js/shell.js") in loaded


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
