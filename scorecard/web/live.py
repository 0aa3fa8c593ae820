"""Live pages: a shared game stays current on every phone at the table.

A page that shows a game carries its version (`data-version`) and the address to ask
(`data-live`); `static/js/live.js` asks every two seconds while the page is visible, with
`If-None-Match` set to the version on show. An unchanged game answers 304 with no body after
one small query (`links.version_for`), so a hundred watchers cost the server next to
nothing; a changed one answers with every region of the page, out of band.
"""

from django.http import HttpResponse
from django.utils.cache import get_conditional_response

from scorecard.access import links
from scorecard.web.htmx import HtmxHttpRequest


def etag(version: int) -> str:
    return f'"{version}"'


def is_poll(request: HtmxHttpRequest) -> bool:
    return bool(request.htmx) and "live" in request.GET


def unchanged(request: HtmxHttpRequest, key: str, role: links.Role) -> HttpResponse | None:
    """For a poll whose page already shows the game's version, a 304; else None."""
    if not is_poll(request):
        return None
    return get_conditional_response(request, etag=etag(links.version_for(request, key, role)))


def tagged(response: HttpResponse, version: int) -> HttpResponse:
    response.headers["ETag"] = etag(version)
    return response
