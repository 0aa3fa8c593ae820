"""How fast one client address may create games (new, rematches) and households.

A fixed window counted in Django's cache: the default cache lives in each server process,
so with several workers each counts on its own (the README's Deploy section says how to
share one). Enough for a table that starts a game every few minutes; a script that creates
hundreds is told to wait.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


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
    key = f"creations:{client_address(request)}:{window}"
    cache.add(key, 0, timeout=settings.CREATION_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=settings.CREATION_WINDOW)
        count = 1
    return count <= settings.CREATION_LIMIT


def refusal_message() -> str:
    minutes = max(1, settings.CREATION_WINDOW // 60)
    return (
        f"Too many new games from this address: at most {settings.CREATION_LIMIT} "
        f"every {minutes} minutes. Please wait a little and try again."
    )
