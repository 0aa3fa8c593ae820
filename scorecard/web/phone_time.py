"""Times in the phone's own time zone. A page that shows times (past games, a review, a
sheet, the household's browsers) carries a small script (`static/js/phone-time.js`) that
writes the phone's zone, as its browser names it, into a cookie and, where the page's times
were drawn for another offset from UTC than the phone's, draws it again once; every answer
after that shows times in that zone (a Finnish family saw its games two hours early, a
tester). Without the cookie (scripts off, or before it is written), times are
in the server's `TIME_ZONE`.

A zone the server does not know, or a name that is not a zone's, is ignored: the server's
zone stands.
"""

import re
import zoneinfo
from collections.abc import Callable
from functools import lru_cache

from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone

COOKIE = "tz"
# An IANA zone's shape ("Europe/Helsinki", "America/Argentina/Buenos_Aires", "Etc/GMT+2"):
# no dots, so nothing outside the zone database is ever looked up.
_ZONE_NAME = re.compile(r"[A-Za-z]+(?:/[A-Za-z0-9_+-]+){0,2}")


@lru_cache(maxsize=64)
def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The zone of that name, or None."""
    if len(name) > 64 or not _ZONE_NAME.fullmatch(name):
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def minutes_east_of_utc() -> int:
    """How far ahead of UTC the zone a page's times are drawn in is now, in minutes: the
    script draws the page again only where its phone's own zone differs (a phone whose
    zone the server shares is told it without a second drawing)."""
    offset = timezone.localtime().utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


class PhoneTimeZone:
    """Each answer in the zone its phone's cookie names (the page drawn inside it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        zone = zone_named(request.COOKIES.get(COOKIE, ""))
        if zone is None:
            return self.get_response(request)
        timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
