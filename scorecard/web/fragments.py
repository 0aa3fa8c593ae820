"""Drawn regions of a game's page kept for the version they show, in Django's cache.

The score sheet's grid and the standings are the costliest markup of a game page (about
15 µs a cell: 2.5 ms for four players) and hold nothing of the browser that asks: no CSRF
token, no tap key, no cookie. So each is drawn once per game version and served from the
cache to every phone that shows that version: the page, a refused tap's answer and a live
poll. Past one machine the cache is Redis (`REDIS_URL`), so every worker shares one drawing.

One entry per game and region (not per version): a new version overwrites the last, so the
cache holds what the tables are looking at, not every version ever played. The version is
stored beside the markup and a stored drawing of any other version is never served.

What a drawing depends on is in its key: the game, the region, the address it was reached
by (a link's token is in its correction links, and a watcher gets none of them), whatever
else the caller names (out of band or not, the Win column), and the language.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scorecard.web.unavailable import CACHE_GONE

logger = logging.getLogger(__name__)

# Long enough for every phone at a table to ask for a version (a newer one overwrites it);
# short enough that a table that stopped playing leaves nothing behind for long.
FRAGMENT_SECONDS = 10 * 60


def key(region: str, game: str, *varies: object) -> str:
    """The cache key of `region` of `game` (its public id) drawn for `varies`; hashed, so
    no link's token is written in the cache's list of keys."""
    parts = "|".join(map(str, (region, game, get_language(), *varies)))
    return "fragment:" + hashlib.sha256(parts.encode()).hexdigest()[:40]


def kept(cache_key: str, version: int, draw: Callable[[], str]) -> SafeString:
    """The markup stored under `cache_key` when it was drawn for `version`, else `draw()`
    drawn now and stored for the next phone that asks for this version."""
    found = stored(cache_key, version)
    if found is None:
        found = mark_safe(draw())
        store(cache_key, version, found)
    return found


def stored(cache_key: str, version: int) -> SafeString | None:
    """The markup under `cache_key` if it was drawn for `version`: never another's. A cache
    that does not answer (Redis restarting) is a miss: a drawing is only ever a saving, so
    the page is drawn afresh rather than refused."""
    try:
        entry = cache.get(cache_key)
    except CACHE_GONE:
        logger.warning("The cache did not answer; drawing the page afresh", exc_info=True)
        return None
    if entry is None or entry[0] != version:
        return None
    return mark_safe(entry[1])


def store(cache_key: str, version: int, markup: str) -> None:
    """Keep `markup`, drawn for `version` (the version it shows, not the one asked for);
    with a cache that does not answer, the next phone draws it again."""
    try:
        cache.set(cache_key, (version, str(markup)), FRAGMENT_SECONDS)
    except CACHE_GONE:
        logger.warning("The cache did not answer; the drawing is not kept", exc_info=True)


def per_version(region: str, game, *varies: object, caller: Callable[[], str]) -> SafeString:
    """`{% call per_version("region", game, ...) %}…{% endcall %}`: the markup between the
    tags drawn once per version of `game` and kept in the cache.

    Everything the markup depends on besides the game's version goes in the call: the
    region's name, the game, and any other values (the address it was reached by, out of
    band, the Win column). Only markup that holds nothing of the asking browser (no CSRF
    token, no tap key) may go between the tags."""
    return kept(key(region, game.public_id, *varies), game.version, caller)
