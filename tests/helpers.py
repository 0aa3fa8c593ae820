"""What tests share besides fixtures: a browser of a household, addresses, posts as the
pages send them, and a response as text."""

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from whitenoise.compress import Compressor

from scorecard.history import exchange
from scorecard.models import Browser, Game, Player
from scorecard.web.static_files import OURS, minified
from tests.factories import SOLO_GAME, GameFactory, play

HTMX = {"HX-Request": "true"}


def household_cookie(household) -> str:
    """The signed cookie value of a browser of `household` (its first), as the site sets it."""
    browser = household.browsers.first() or Browser.objects.create(household=household, name="Test")
    signed = HttpResponse()
    signed.set_signed_cookie(settings.HOUSEHOLD_COOKIE, browser.key)
    return signed.cookies[settings.HOUSEHOLD_COOKIE].value


def browser_of(household) -> Client:
    """A test client whose signed cookie says it belongs to `household`."""
    client = Client()
    client.cookies[settings.HOUSEHOLD_COOKIE] = household_cookie(household)
    return client


def game_url(game, name="game", **kwargs):
    """An owner's address of the game; `kwargs` are the route's further parts, in order."""
    return reverse(name, args=[game.public_id, *kwargs.values()])


def post_box(client, game, box, dice=None, points=None, htmx=False, **extra):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box.key}
    data |= {"card": 1, **extra}
    if dice is not None:
        data["dice"] = "".join(map(str, dice))
    if points is not None:
        data["points"] = points
    return client.post(game_url(game, "game-record"), data, headers=HTMX if htmx else {})


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def post_roll(client, game, hold=(), headers=None, **overrides):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "hold": list(hold)}
    url = reverse("game-roll", args=[game.public_id])
    return client.post(url, data | overrides, headers=headers or {})


def post_score(client, game, box, **overrides):
    game.refresh_from_db()
    data = {"version": game.version, "turn": game.entries.count() + 1, "box": box.key}
    data |= {"confirm": "zero"}
    return client.post(reverse("game-record", args=[game.public_id]), data | overrides)


def finished_game(owner, names=("Ann", "Bob"), **kwargs):
    game = GameFactory(owner=owner, names=list(names), **kwargs)
    return play(game, [turn for turn in SOLO_GAME for _ in names])


def good_document(household):
    finished_game(household)
    document = exchange.export_games(Game.objects.all())
    Game.objects.all().delete()
    Player.objects.all().delete()  # and their figures, as if the games had never been here
    return document


def settled_family_game(household, family: str, totals: dict[str, int], with_figures=False):
    """A finished digital game of another family, its seats and its players' figures as
    settling left them (only their kept results are read by history pages)."""
    from collections import Counter, defaultdict

    from django.utils import timezone

    from scorecard.game import results
    from scorecard.models import Seat

    game = GameFactory(owner=household, names=list(totals))
    alone = None if len(totals) == 1 else False  # neither won nor lost alone; no winner here
    Game.objects.filter(pk=game.pk).update(family=family, digital=True, finished=timezone.now())
    for seat in game.seats.select_related("player"):
        Seat.objects.filter(pk=seat.pk).update(
            final_total=totals[seat.player.name], scored=True, won=alone, cards=1
        )
    game.refresh_from_db()
    if with_figures:
        figures: defaultdict = defaultdict(Counter)
        for seat in game.seats.all():
            total = totals[seat.player.name]
            figures[(seat.player_id, family)].update(
                {"games": 1, "contests": int(alone is not None), "scored_games": 1, "cards": 1,
                 "scored_points": total, f"band:{total // results.BAND * results.BAND}": 1}
            )  # fmt: skip
        results._add_figures(figures)
    return game


# What a game page loads the first time, as `collectstatic`, whitenoise and the compressing
# middleware send it (tests/views/test_first_load.py, bench/requests_bench.py).
CHROMIUM_ENCODINGS = "gzip, deflate, br, zstd"
# What the page loads: its scripts, its style sheet, its icon and its manifest.
LOADED = re.compile(r'<(?:script src|link rel="(?:stylesheet|icon|manifest)" href)="([^"]+)"')


def static_file_on_the_wire(url: str) -> int:
    """The bytes whitenoise sends for a static file after collectstatic (our style sheets
    minified first; a bundle is found minified): its brotli copy when that is smaller by
    enough to be kept, else the file itself."""
    name = url.removeprefix("/static/")
    path = Path(finders.find(name))
    data = path.read_bytes()
    if path.is_relative_to(OURS):
        data = minified(name, data.decode()).encode()
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


def gunicorn_access_line(path: str, headers: dict[str, str] | None = None, log_format="") -> str:
    """The line gunicorn.conf.py's logger writes to the access log for a GET of `path` with
    these request headers, answered 200: in the production format, or in `log_format`."""
    import logging
    import runpy
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    conf = runpy.run_path(str(Path(settings.BASE_DIR) / "gunicorn.conf.py"))
    config = Config()
    config.set("accesslog", "-")
    config.set("access_log_format", log_format or conf["access_log_format"])
    logger = conf["logger_class"](config)
    lines: list[str] = []

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handlers, logger.access_log.handlers = logger.access_log.handlers, [Kept()]
    headers = headers or {}
    address, _, query = path.partition("?")
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": path, "PATH_INFO": address,
               "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1"}  # fmt: skip
    environ |= {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()}
    request = SimpleNamespace(headers=[(name.upper(), value) for name, value in headers.items()])
    answer = SimpleNamespace(status="200 OK", sent=10, headers=[("Content-Type", "text/html")])
    try:
        logger.access(answer, request, environ, timedelta(microseconds=1500))
    finally:
        logger.access_log.handlers = handlers
    (line,) = lines
    return line
