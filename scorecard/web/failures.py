"""A failed htmx request is said in words, in the phone's language (static/js/requests.js
shows them in place; the page keeps what it shows).

The words for each status come with the answer, as its plain text, not with every page:
carried as attributes of every page they were about 250 bytes (brotli) of each first load,
for answers most phones never get. An answer that already says its reason as text (a
refusal at the door, a repeated tap key, a database gone for a moment) or is drawn for the
page to swap in (`X-In-Place`) keeps its own. The page itself keeps only the words for
no answer at all (offline) and for an answer that never came from here (a proxy's 502).

A live page's poll answered "not found" reloads the page (htmx's `HX-Refresh`): the owner's
browser was removed from the household, or a shared link was revoked, and the page it
reloads says which, in place of a card whose controls no longer work.
"""

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from scorecard.access.households import current_household, was_removed
from scorecard.web.htmx import HtmxHttpRequest

SAID_BY_STATUS = {
    400: _(
        "That was not accepted, and nothing was changed. Reload the page if it looks out of date."
    ),
    403: _("This page is out of date, so nothing was changed. Reload it and try again."),
    404: _("Not found: this game or link no longer exists. Nothing was changed."),
    409: _("The card changed on another phone, so nothing was changed. Reload to see it."),
    429: _("Too many requests from here: wait a minute, then try again."),
    500: _("Something went wrong on the server. Reload the page to see what was saved."),
    503: _("The server is busy for a moment; nothing was changed. Try again in a few seconds."),
}
GONE_FOR_THE_OWNER = _(
    "This browser can no longer open this game: it was removed from the household, or the game "
    "was deleted. To join again, ask someone in the household for a new join link."
)
# The owner's case has a heading of its own: "Link no longer works" over it, to a browser
# that never opened a link, read as a fault (a tester).
GONE_HEADING = _("Link no longer works")
GONE_FOR_THE_OWNER_HEADING = _("This game no longer opens here")
# A renewed link is replaced, the word its phone's household used (a tester read "revoked").
GONE_FOR_A_LINK = _(
    "This link no longer works: it was replaced or revoked, or the game was deleted. Ask "
    "someone at the table for a new one."
)
GONE_FOR_A_JOIN_LINK = _(
    "This join link no longer works: it was replaced or revoked. Ask someone in the household "
    "for a new one."
)
# The addresses of a shared link (its page and what its buttons post to), and of a game's
# own household (likewise; not the games list or the new-game page, which never 404).
LINK_PAGES = ("score", "watch")
HOUSEHOLD_GAME_PAGES = ("game", "game-")
NOT_WRITTEN = _("What was just sent was not recorded: nothing was changed.")
PLAIN_TEXT = "text/plain; charset=utf-8"


def _says_its_own_reason(response: HttpResponseBase) -> bool:
    return response.get("Content-Type", "").startswith("text/plain") or "X-In-Place" in response


def opened_by_link(request: HttpRequest) -> bool:
    """Whether the address is a shared link's page (a 404 there: the link was revoked)."""
    match = request.resolver_match
    return match is not None and (match.url_name or "").startswith(LINK_PAGES)


def _household_game_address(request: HttpRequest) -> bool:
    match = request.resolver_match
    name = match.url_name if match is not None else ""
    return name == HOUSEHOLD_GAME_PAGES[0] or (name or "").startswith(HOUSEHOLD_GAME_PAGES[1])


def gone_words(request: HtmxHttpRequest) -> str:
    """What a "not found" page says: why a shared game link, a household's join link or,
    for a browser removed from its household, its game opens nothing; nothing for any other
    address."""
    match = request.resolver_match
    if match is not None and match.url_name == "household-join":
        return str(GONE_FOR_A_JOIN_LINK)
    if opened_by_link(request):
        return str(GONE_FOR_A_LINK)
    if _household_game_address(request) and was_removed(request):
        return str(GONE_FOR_THE_OWNER)
    return ""


def not_found_page(request: HtmxHttpRequest) -> HttpResponse:
    """Our page for an address that opens nothing: a link that stopped working says why,
    and a game's own address how another phone follows a game (a new user sent the scorer's
    address to a relative, who was told only "not found"). Said alike whether or not the
    game is there: the page tells a stranger nothing about it."""
    household_address = _household_game_address(request)
    # A browser of a household asks for a game its household has not got (any more): one with
    # no box filled discarded from another of its browsers, said so (a phone left on such a
    # game was sent to other households' advice).
    ours = household_address and current_household(request) is not None
    gone = gone_words(request)
    owners = gone == str(GONE_FOR_THE_OWNER)
    context = {
        "link_gone": gone,
        "gone_heading": GONE_FOR_THE_OWNER_HEADING if owners else GONE_HEADING,
        "household_address": household_address and not ours,
        "household_has_none": ours,
        # A button pressed on a page that no longer opens (a plain post: htmx's is said in
        # words) is said not to have been recorded, beside why.
        "not_written": NOT_WRITTEN if request.method == "POST" else "",
    }
    return render(request, "404.html", context, status=404)


def _in_words(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The same answer (status, headers) with the words for its status as its body; a live
    poll's "not found" reloads the page, which says why the game is gone for this phone."""
    words = str(SAID_BY_STATUS[response.status_code]).encode()
    response.content = words
    response["Content-Type"] = PLAIN_TEXT
    if response.status_code == 404 and "live" in request.GET:
        response["HX-Refresh"] = "true"
    if "Content-Length" in response:
        response["Content-Length"] = str(len(words))
    return response


class SayFailuresInWords:
    """Inside the language middleware, so the words are in the phone's language; outside
    CSRF's, so its refusal (a page left open past its token) is said too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            request.headers.get("HX-Request") == "true"
            and response.status_code in SAID_BY_STATUS
            and isinstance(response, HttpResponse)  # not a stream
            and not _says_its_own_reason(response)
        ):
            return _in_words(request, response)
        return response

    def process_exception(
        self, request: HtmxHttpRequest, exception: Exception
    ) -> HttpResponse | None:
        """A game or link that opens nothing for this phone is said on our page even with
        debug on (`make run`), where Django would show its list of addresses: a person at the
        table sees it. (An address no view answers still gets Django's page there.)"""
        if isinstance(exception, Http404):
            return not_found_page(request)
        return None
