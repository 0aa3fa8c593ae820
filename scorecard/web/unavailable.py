"""A database that is gone for a moment is a 503 that says to try again, not a 500.

While PostgreSQL restarts, or after it dropped a worker's connection, every request that
reaches it fails for a second or so with `OperationalError` or `InterfaceError`. Those are
answered 503 with `Retry-After`, a short plain message (its words alone for htmx, which
the page shows where the player is looking; the site's page otherwise) and a line in the
log. The next request opens a new connection (`conn_health_checks`), so nothing else is
needed to recover. A write that failed was rolled back with its transaction; a box sent
again is checked against the game's version, so a double tap is still recorded once.

Past one machine the same holds for Redis (`REDIS_URL`): a cache that does not answer within
its one-second timeout is a 503 of the same kind, naming the cache.
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.utils.translation import gettext_lazy, gettext_noop
from redis.exceptions import ConnectionError as CacheConnectionError
from redis.exceptions import TimeoutError as CacheTimeoutError

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2
MESSAGE = gettext_lazy("The score card could not reach its database just now.")
CACHE_MESSAGE = gettext_lazy("The score card could not reach its cache just now.")
DATABASE_GONE = (OperationalError, InterfaceError)
CACHE_GONE = (CacheConnectionError, CacheTimeoutError)
AGAIN = gettext_lazy("Try again in a few seconds.")
GO_BACK = gettext_lazy("Go back and send it again in a few seconds.")

# The page is this one paragraph in the site's layout. It lives beside the code that sends
# it, in one place, and it reads nothing from the database. Its words are listed here for
# makemessages, which does not read a template kept in a Python string.
PAGE_WORDS = [gettext_noop("Back in a moment"), gettext_noop("Try again")]
PAGE = """{% extends "base.html" %}
{% block title %}{% translate "Back in a moment" %} · {% translate "Yahtzee score card" %}
{% endblock %}
{% block content %}
<h1>{% translate "Back in a moment" %}</h1>
<p class="error" role="alert">{{ message }} {{ again }}</p>
{% if retry %}
<p>
<a class="button" href="{{ retry }}">{% translate "Try again" %}</a>
</p>
{% endif %}
{% endblock %}
"""
PLAIN_TEXT = "text/plain; charset=utf-8"


def unavailable_response(request: HttpRequest, message: str = "") -> HttpResponse:
    """503 with Retry-After: for htmx the words alone, as plain text (requests.js says them
    in place), else the site's page with them; in the phone's language (the language
    middleware ran before the view failed)."""
    by_link, htmx = request.method in {"GET", "HEAD"}, getattr(request, "htmx", False)
    message = message or str(MESSAGE)
    again = str(AGAIN if by_link or htmx else GO_BACK)
    body, kind = f"{message} {again}\n", PLAIN_TEXT
    if not htmx:
        context = {"message": message, "again": again}
        context["retry"] = request.get_full_path() if by_link else ""
        try:
            body = engines["jinja2"].from_string(PAGE).render(context, request)
            kind = "text/html; charset=utf-8"
        except Exception:  # the page failed (a deploy without collectstatic): say it plainly
            logger.exception("The page saying the database is unavailable failed; sent it as text")
    response = HttpResponse(body, status=503, content_type=kind)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class StorageUnavailable:
    """Last in MIDDLEWARE, so it is the first to see an exception a view raised."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_GONE):
            store, message = "database", str(MESSAGE)
        elif isinstance(exception, CACHE_GONE):
            store, message = "cache", str(CACHE_MESSAGE)
        else:
            return None  # a bug: Django's 500 and its report
        logger.error(
            "The %s is unavailable; answered 503 to %s %s",
            store,
            request.method,
            request.path,
            exc_info=exception,
        )
        return unavailable_response(request, message)
