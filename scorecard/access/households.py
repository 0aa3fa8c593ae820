"""Which household a browser belongs to: its signed cookie holds the key of a `Browser` row.

A household is made the first time a browser saves something, not on every visit, so
crawlers and one-off readers of the rules page leave no rows behind. Other browsers join by
the household's join link (`sharing`); removing a browser's row shuts it out.
"""

import itertools
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.models.fetch_modes import FETCH_ONE, FetchMode
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from scorecard.game.compiled import CompiledQuery
from scorecard.models import Browser, Game, Household, Player, Seat
from scorecard.web.htmx import HtmxHttpRequest


def browser_key(request: HtmxHttpRequest) -> str | None:
    """The key in the browser's signed cookie (its signature checked once a request)."""
    if not hasattr(request, "_browser_key"):
        request._browser_key = request.get_signed_cookie(settings.HOUSEHOLD_COOKIE, default=None)
    return request._browser_key


# How exact a browser's `last_seen` is: knowing the hour tells a family's browsers apart,
# and writing it on every request would cost a write on every tap.
SEEN_EVERY = timedelta(hours=1)


def note_seen(request: HtmxHttpRequest) -> None:
    """Keeps the browser's `last_seen` to the hour at one write an hour and no query in
    between: the cookie's signature carries the time it was signed, so a cookie signed
    within the hour means this browser was noted within the hour. An older one is noted now
    and signed afresh (which also keeps a browser in use from ever reaching its expiry)."""
    cookie = settings.HOUSEHOLD_COOKIE
    fresh = request.get_signed_cookie(cookie, default=None, max_age=SEEN_EVERY)
    if fresh is not None:
        request._browser_key = fresh
        return
    key = browser_key(request)
    if key and Browser.objects.filter(key=key).update(last_seen=timezone.now()):
        request._new_browser_key = key  # the middleware signs it again


def current_household(request: HtmxHttpRequest) -> Household | None:
    """The browser's household, or None before it has saved anything (one query, cached;
    its SQL built once a process, as a game's is: every household page asks it)."""
    if not hasattr(request, "_household"):
        key = browser_key(request)
        rows = HOUSEHOLD_OF_BROWSER.rows(browser=key) if key else []
        found = Household.from_db(DEFAULT_DB_ALIAS, HOUSEHOLD_FIELDS, rows[0]) if rows else None
        request._household = found
    return request._household


def was_removed(request: HtmxHttpRequest) -> bool:
    """Whether this browser's cookie, signed by us, names a browser that no household has
    any more: it was removed (or its household's last browser went). Its pages say so,
    rather than greet it as a browser with no games yet."""
    return browser_key(request) is not None and current_household(request) is None


def current_browser(request: HtmxHttpRequest) -> Browser | None:
    key = browser_key(request)
    found = Browser.objects.select_related("household").filter(key=key).first() if key else None
    if found:
        request._household = found.household
    return found


def household_object(request: HtmxHttpRequest, model, public_id: str):
    """A game or player of this browser's household; any other id is simply not found."""
    household = current_household(request)
    if household is None:
        raise Http404("Not found.")
    return get_object_or_404(model, public_id=public_id, owner=household)


class SeatedGame(NamedTuple):
    """A game with its seats in seating order, each with its player: what a view about to
    load the game's state reads at once, and hands to `load_progress(game, seats=seats)`."""

    game: Game
    seats: list[Seat]


def household_game(request: HtmxHttpRequest, public_id: str) -> Game:
    """A game of this browser's household, with the household, in one query."""
    key = browser_key(request)
    if key is None:
        raise Http404("Not found.")
    lookup = {"public_id": public_id, "owner__browsers__key": key}
    game = get_object_or_404(Game.objects.select_related("owner"), **lookup)
    request._household = game.owner
    return game


def household_seated_game(request: HtmxHttpRequest, public_id: str) -> SeatedGame:
    """A game of this browser's household with the household, its seats and players, all in
    one query: for a view about to load the game's state."""
    key = browser_key(request)
    if key is None:
        raise Http404("Not found.")
    found = game_with_seats(GAME_SEATS.rows(game=public_id, browser=key))
    request._household = found.game.owner
    return found


def _fields(model) -> list[str]:
    return [field.attname for field in model._meta.concrete_fields]


GAME_FIELDS, HOUSEHOLD_FIELDS = _fields(Game), _fields(Household)
# A seat and its player as a game's page and taps use them: a seat's results are settled and
# read once the game is over, by pages that read them on their own, and a player's own page
# is another page's (their models build in about half the time, 8 of each for 8 players).
SEAT_FIELDS = ["id", "game_id", "player_id", "position"]
PLAYER_FIELDS = ["id", "owner_id", "name"]
# A field left out above is read when asked for (Django's default); tests refuse it instead.
UNREAD_FIELDS: FetchMode = FETCH_ONE
SEAT_ROW = (
    *SEAT_FIELDS,
    *(f"player__{name}" for name in PLAYER_FIELDS),
    *(f"game__{name}" for name in GAME_FIELDS),
    *(f"game__owner__{name}" for name in HOUSEHOLD_FIELDS),
)
HOUSEHOLD_OF_BROWSER = CompiledQuery(
    lambda browser: Household.objects.filter(browsers__key=browser).values_list(*HOUSEHOLD_FIELDS)[
        :1
    ],
    browser=str,
)
GAME_SEATS = CompiledQuery(
    lambda game, browser: (
        Seat.objects.filter(game__public_id=game, game__owner__browsers__key=browser)
        .order_by("position")
        .values_list(*SEAT_ROW)
    ),
    game=str,
    browser=str,
)


def game_with_seats(rows: list[tuple], db: str = DEFAULT_DB_ALIAS) -> SeatedGame:
    """The game, its household, seats and players from one `SEAT_ROW` a seat, each built as
    the ORM builds a row it read (`Model.from_db`), without its query building (see
    `compiled`); no rows is a 404."""
    if not rows:
        raise Http404("Not found.")
    ends = list(itertools.accumulate(map(len, (SEAT_FIELDS, PLAYER_FIELDS, GAME_FIELDS))))
    first = rows[0]
    game = Game.from_db(db, GAME_FIELDS, first[ends[1] : ends[2]])
    game.owner = Household.from_db(db, HOUSEHOLD_FIELDS, first[ends[2] :])
    seats = []
    for row in rows:
        seat = Seat.from_db(db, SEAT_FIELDS, row[: ends[0]], fetch_mode=UNREAD_FIELDS)
        player_row = row[ends[0] : ends[1]]
        seat.player = Player.from_db(db, PLAYER_FIELDS, player_row, fetch_mode=UNREAD_FIELDS)
        seat.game = game
        seats.append(seat)
    return SeatedGame(game, seats)


def household_for_writing(request: HtmxHttpRequest) -> Household:
    """The browser's household, made now if it has none; the middleware sets the cookie."""
    household = current_household(request)
    if household is None:
        household = Household.objects.create()
        browser = Browser.objects.create(household=household, name=browser_name(request))
        remember_browser(request, browser)
        request._made_browser = browser
    return household


def browser_made(request: HtmxHttpRequest) -> Browser | None:
    """The browser `household_for_writing` made in this request, if it made one."""
    return getattr(request, "_made_browser", None)


def forget_made_browser(request: HtmxHttpRequest) -> None:
    """The browser made in this request was undone with its transaction: no cookie names it."""
    if browser_made(request) is not None:
        del request._made_browser, request._new_browser_key
        request._household = None


def remember_browser(request: HtmxHttpRequest, browser: Browser) -> None:
    """This browser belongs to `browser.household` from now on; the middleware sets the cookie
    (and a cookie signed now says the browser was seen now)."""
    request._household = browser.household
    request._new_browser_key = browser.key


def browser_name(request: HtmxHttpRequest) -> str:
    """A name a family recognises in its list of browsers, e.g. "Firefox on Android", in the
    language of the phone that joins (the name is kept as it is first said)."""
    agent = request.headers.get("User-Agent", "")
    program = next((name for mark, name in PROGRAMS if mark in agent), "")
    system = next((name for mark, name in SYSTEMS if mark in agent), "")
    if not program:
        return _("A browser on %(system)s") % {"system": system} if system else _("A browser")
    if not system:
        return program
    return _("%(program)s on %(system)s") % {"program": program, "system": system}


# The first mark found names it: Edge and Chrome both say "Safari", so order matters.
PROGRAMS = [("Firefox/", "Firefox"), ("Edg/", "Edge"), ("OPR/", "Opera"),
            ("SamsungBrowser/", "Samsung Internet"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari")]  # fmt: skip
SYSTEMS = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
           ("Mac OS X", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]  # fmt: skip


def cookie_flags(request: HtmxHttpRequest) -> dict:
    """How our own cookies are set: never readable by scripts, Secure in production."""
    secure = settings.COOKIES_SECURE or request.is_secure()
    return {"httponly": True, "samesite": "Lax", "secure": secure}


class HouseholdMiddleware:
    """Notes when a browser was last seen, sets the cookie of a household made during the
    request, and keeps every page out of shared caches: what a page shows depends on the
    household that asks."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HtmxHttpRequest) -> HttpResponse:
        # The one write a request may make without a change of state, at most once an hour:
        # a family tells its browsers apart by when each was last used.
        note_seen(request)
        response = self.get_response(request)
        if key := getattr(request, "_new_browser_key", None):
            response.set_signed_cookie(
                settings.HOUSEHOLD_COOKIE,
                key,
                max_age=settings.HOUSEHOLD_COOKIE_MAX_AGE,
                **cookie_flags(request),
            )
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True)
        if _is_a_page(request, response) and was_removed(request):
            # A removed browser's every page says so; the browser also lets go of what it
            # kept here (the service worker and its saved game pages, a tap waiting to be
            # sent): a removed phone still opened its saved games offline (a helper).
            response["Clear-Site-Data"] = '"cache", "storage"'
        return response


def _is_a_page(request: HtmxHttpRequest, response: HttpResponse) -> bool:
    """A whole page shown as asked for by its address (not a fragment, a post, a file or a
    refusal: a 503 for a database out of reach must not ask the database again)."""
    html = response.get("Content-Type", "").startswith("text/html")
    return request.method == "GET" and not request.htmx and response.status_code == 200 and html
