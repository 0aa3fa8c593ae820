"""Requests refused at the door, before any view (or the body parser) sees them.

PostgreSQL text cannot hold NUL, so one in a URL or a form field would otherwise end as a
database error deep in a view; nothing legitimate sends one. A body larger than the largest
import is refused from its Content-Length, before a byte of it is read.

Both refusals are said in the phone's language, although this runs before `PhoneLanguage`
has chosen it: the language is read from the request (cookie, else Accept-Language) only
when refusing, so the checks every request passes cost what they did.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, get_language_from_request, override
from django.utils.translation import gettext as _

from scorecard.history import exchange
from scorecard.web.language import vary_by_phone


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    for values in (request.GET, request.POST if request.method == "POST" else QueryDict()):
        if any("\x00" in value for key in values for value in [key, *values.getlist(key)]):
            return True
    return False


def _too_large(request: HttpRequest) -> bool:
    length = request.META.get("CONTENT_LENGTH") or "0"
    return not length.isdecimal() or int(length) > settings.MAX_REQUEST_BYTES


def _refusal(request: HttpRequest, message: Callable[[], str], status: int) -> HttpResponse:
    """The refusal in the phone's language, as plain text (`requests.js` shows it as it is)."""
    with override(get_language_from_request(request)):
        response = HttpResponse(message(), status=status, content_type="text/plain; charset=utf-8")
        response.headers["Content-Language"] = get_language()
    return vary_by_phone(response)


def _too_large_message() -> str:
    limit = settings.MAX_REQUEST_BYTES // (1024 * 1024)
    return _("This request is larger than %(size)s MB, the most sent here.") % {"size": limit}


def _import_page_post(request: HttpRequest) -> bool:
    """The import page's own form, posted without scripts: its answer is a page."""
    return request.path == reverse("games-import") and "HX-Request" not in request.headers


def _import_page_refusal(request: HttpRequest) -> HttpResponse:
    """The import page again with why the file was refused (it was a bare line of text on a
    page a phone drew 980 px wide: a new user), its body left unread as any other's here."""
    with override(get_language_from_request(request)):
        error = _("Nothing was imported. %(reason)s") % {"reason": exchange.too_large_reason()}
        response = render(request, "import.html", {"error": error}, status=413)
        response.headers["Content-Language"] = get_language()
    return vary_by_phone(response)


def _nul_message() -> str:
    return _("This request contains a NUL character, which no form here sends.")


class RefuseAtTheDoor:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _too_large(request):
            if _import_page_post(request):
                return _import_page_refusal(request)
            return _refusal(request, _too_large_message, 413)
        if _has_nul(request):
            return _refusal(request, _nul_message, 400)
        return self.get_response(request)


# Pages reached by (or showing) a link token: the share and join links' own pages and the
# household page that lists them. Their address is the permission, so it must not leave in
# a Referer, be kept by a cache or be indexed.
LINK_PAGES = ("score", "watch", "household", "game-share")

# "same-origin", not "no-referrer": under either, another site gets no Referer from these
# pages, but a browser derives a form post's Origin header from the same policy, and under
# "no-referrer" it sends `Origin: null`, which Django's CSRF check refuses (every button on
# these pages answered 403). Under "same-origin" our own forms send our origin, and our own
# server, which logs `[token]` in its place, is the only one that ever sees the path.
LINK_PAGE_REFERRER_POLICY = "same-origin"


def keep_link_page_private(response: HttpResponse, url_name: str | None) -> None:
    if url_name and url_name.startswith(LINK_PAGES):
        response.headers["Referrer-Policy"] = LINK_PAGE_REFERRER_POLICY
        response.headers["Cache-Control"] = "private, no-store"
        response.headers["X-Robots-Tag"] = "noindex, nofollow"


class LinkPagePrivacy:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = request.resolver_match
        keep_link_page_private(response, match.url_name if match else None)
        return response
