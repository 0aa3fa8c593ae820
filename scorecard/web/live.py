"""Live pages: a shared game stays current on every phone at the table.

A page that shows a game carries its version (`data-version`) and the address to ask
(`data-live`); `static/js/live.js` asks every two seconds while the page is visible, with
`If-None-Match` set to the version on show. An unchanged game answers 304 with no body after
one small query (`links.version_for`), before the session, CSRF and message middleware run
(`AnswerUnchangedPolls`), so a hundred watchers cost the server next to nothing; a changed
one reaches the view and answers out of band: a page one entry behind gets that entry's
changes (`one_entry_behind`), any other every region of the page, each drawn once per
version for every phone that watches (`web.fragments`).
"""

from typing import cast

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control

from scorecard.access import links
from scorecard.models import Game
from scorecard.web.htmx import HtmxHttpRequest
from scorecard.web.language import vary_by_phone
from scorecard.web.middleware import keep_link_page_private
from scorecard.web.unavailable import CACHE_GONE, DATABASE_GONE

# The pages a live poll asks (each with a `key`, and a `role` for a link's pages).
POLLED_PAGES = frozenset({"game", "score", "watch", "game-sheet", "score-sheet", "watch-sheet"})


def etag(version: int) -> str:
    return f'"{version}"'


def is_poll(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and "live" in request.GET


def shown_version(request: HttpRequest) -> int | None:
    """The version a poll says its page shows (`If-None-Match`), if it names one."""
    named = request.headers.get("If-None-Match", "")
    digits = named.strip().removeprefix("W/").strip('"')
    return int(digits) if digits.isdecimal() and len(digits) < 10 else None


def one_entry_behind(request: HttpRequest, game: Game) -> bool:
    """Whether the poll's page shows the version just before the game's, and the change
    between them was an entry recorded: then the entry's changes bring the page up to date."""
    behind = shown_version(request) == game.version - 1
    return behind and game.recorded_version == game.version


def _asks_if_changed(request: HttpRequest) -> bool:
    """A live poll that names the version it shows (htmx sets the header; the middleware that
    reads it for `request.htmx` has not run yet)."""
    return (
        request.method == "GET"
        and "live" in request.GET
        and request.headers.get("HX-Request") == "true"
        and "If-None-Match" in request.headers
    )


class AnswerUnchangedPolls:
    """Answers a poll of an unchanged game with 304 from one small query, before the session,
    CSRF, message and household middleware: every phone at every table asks every 2 s, and
    almost every answer is "unchanged". Anything else (a changed game, a game this browser
    may not see, a database that does not answer) goes on to the view, which answers it as
    it answers any request."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _asks_if_changed(request):
            try:
                match = resolve(request.path_info)
                if match.url_name in POLLED_PAGES:
                    role = match.kwargs.get("role", links.Role.OWNER)
                    # The access check reads only the household cookie, never `htmx`,
                    # which the htmx middleware has not set yet.
                    asker = cast(HtmxHttpRequest, request)
                    version = links.version_for(asker, match.kwargs["key"], role)
                    if answer := get_conditional_response(request, etag=etag(version)):
                        tagged(answer, version)
                        patch_cache_control(answer, private=True)
                        vary_by_phone(answer)
                        keep_link_page_private(answer, match.url_name)
                        return answer
                    asker._polled_version = version  # the view need not ask again
            except (Resolver404, Http404, *DATABASE_GONE, *CACHE_GONE):
                pass  # the view answers it: a 404 page, a 503 that says to try again
        return self.get_response(request)


def current_version(request: HtmxHttpRequest, key: str, role: links.Role) -> int:
    """The version of the game a poll asks about: as read at the door for this request,
    else read now."""
    if hasattr(request, "_polled_version"):
        return request._polled_version
    return links.version_for(request, key, role)


def tagged(response: HttpResponse, version: int) -> HttpResponse:
    response.headers["ETag"] = etag(version)
    return response
