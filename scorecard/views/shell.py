"""The service worker (`/sw.js`): served from the root so its scope is every page, and
never kept by a cache (`no-cache`), so a phone learns of a new release on its next visit.

Its cache is named after the release: a hash of the worker and of the static files it keeps,
so each deploy that changes any of them starts a new cache and the old one is removed.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# What a game page needs to open without a connection: its scripts, styles and icon.
SHELL = [
    "bundles/every-page.js",
    "bundles/dice-game.js",
    "css/app.css",
    "css/scoreboard.css",
    "css/dice.css",
    "css/advice.css",
    "css/maxi.css",
    "css/triple.css",
    "favicon.svg",
]
WORKER = "sw.js"


@cache
def release() -> str:
    """Twelve hex digits that change whenever the worker or a file it keeps changes."""
    digest = hashlib.sha256()
    paths = [settings.BASE_DIR / "templates" / WORKER, *map(finders.find, SHELL)]
    for path in paths:
        with open(str(path), "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:12]


def _offline_words() -> str:
    """The page the worker shows for a page that needs the server, offline, in the phone's
    language (the worker is fetched as a page is, so a new language is a new worker). JSON
    with every text escaped for HTML, as the worker writes them into its page."""
    words = {
        "title": _("No connection"),
        "text": _("This page needs a connection to the score card, and this phone has none."),
        "sent": _(
            "No answer came from the score card, so what you sent may not have reached it. "
            "Go back and send it again once this phone has a connection."
        ),
        "unseen": _(
            "This phone has not shown this game before, so it needs a connection to open it."
        ),
        "kept": _("These games open without one, as this phone last saw them:"),
    }
    escaped = {name: str(escape(text)) for name, text in words.items()}
    return json.dumps(escaped | {"lang": get_language(), "css": static("css/app.css")})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = json.dumps([static(name) for name in SHELL])
    # The prefix itself, not `static("")`: the hashed names' storage has no file called "".
    context = {"release": release(), "shell": shell, "static_url": settings.STATIC_URL}
    context["offline"] = _offline_words()
    response = render(request, WORKER, context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
