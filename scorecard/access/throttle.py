"""How fast one client address may create games (new, rematches) and households.

A fixed window counted in the database, the one store every worker on every machine shares:
each creation adds one to its address's row in one UPDATE, which the database applies one at
a time, so the limit holds exactly however many workers count at once. Enough for a table
that starts a game every few minutes; a script that creates hundreds is told to wait.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils.translation import ngettext

from scorecard.models import CreationCount


def client_address(request: HttpRequest) -> str:
    """The address creations are counted by.

    Behind trusted proxies (TRUST_FORWARDED_FOR), each proxy appends the address it saw to
    X-Forwarded-For, after whatever the client wrote there itself: so the client is the
    address FORWARDED_HOPS places from the right, never the first one, which anybody can
    set. A list shorter than that did not pass through every proxy: the nearest one counts.
    """
    if settings.TRUST_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        addresses = [address.strip() for address in forwarded if address.strip()]
        if len(addresses) >= settings.FORWARDED_HOPS:
            return addresses[-settings.FORWARDED_HOPS]
    return request.META.get("REMOTE_ADDR", "")


def creation_allowed(request: HttpRequest) -> bool:
    """Counts one creation for this address; False once the window's limit is reached."""
    window = int(time.time() // settings.CREATION_WINDOW)
    return _count_one(client_address(request), window) <= settings.CREATION_LIMIT


@transaction.atomic
def _count_one(address: str, window: int) -> int:
    """Adds one to the address's count in this window and returns the new count. The UPDATE
    holds the row until the transaction ends, so two workers never read the same count."""
    rows = CreationCount.objects.filter(address=address, window=window)
    if not rows.update(count=F("count") + 1):
        try:
            with transaction.atomic():  # a savepoint: another worker may insert it first
                CreationCount.objects.create(address=address, window=window, count=1)
            # The first creation of a window is the moment to forget the windows before it.
            CreationCount.objects.filter(window__lt=window).delete()
            return 1
        except IntegrityError:
            rows.update(count=F("count") + 1)
    return rows.values_list("count", flat=True).get()


def refusal_message() -> str:
    minutes = max(1, settings.CREATION_WINDOW // 60)
    return ngettext(
        "Too many new games from this address: at most %(count)s every %(minutes)s minute. "
        "Please wait a little and try again.",
        "Too many new games from this address: at most %(count)s every %(minutes)s minutes. "
        "Please wait a little and try again.",
        minutes,
    ) % {"count": settings.CREATION_LIMIT, "minutes": minutes}
