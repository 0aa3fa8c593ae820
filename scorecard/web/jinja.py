"""The Jinja2 environment our pages are drawn in (settings.TEMPLATES): Django's addresses,
static files, translations and localisation, and our own tags and filters.

Undefined names print nothing and chain (`{{ missing.name }}` is empty), as Django's
templates did; a template's final newline is kept, as Django keeps it.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.timezone import now as current_time
from jinja2 import ChainableUndefined, Environment
from markupsafe import Markup, escape

from scorecard.web import jinja_tags, jinja_values, phone_time
from scorecard.web.fragments import per_version
from scorecard.web.idempotency import FIELD
from scorecard.web.jinja_filters import FILTERS


def url(name: str, *args: Any, **kwargs: Any) -> str:
    """A page's address by its name, as Django's `{% url %}` works it out."""
    return reverse(name, args=args or None, kwargs=kwargs or None)


# These attributes are written into every turn panel, so with markupsafe's `escape` (in C)
# rather than `format_html`, which costs several times as much for the same markup.


def posts_to(url: str) -> Markup:
    """`action` and `hx-post` of a post form: its address written once for a page without
    scripts and for htmx's request that swaps the answer in place."""
    address = escape(url)
    return Markup(f'action="{address}" hx-post="{address}"')


def gets_from(url: str) -> Markup:
    """`action` and `hx-get` of a get form."""
    address = escape(url)
    return Markup(f'action="{address}" hx-get="{address}"')


def links_to(*parts: object) -> Markup:
    """`href` and `hx-get` of a link; `parts` are joined, so a query needs no second copy."""
    address = escape("".join(map(str, parts)))
    return Markup(f'href="{address}" hx-get="{address}"')


def tap_key() -> Markup:
    """The hidden key that makes a form's post a single tap (see `web.idempotency`), drawn
    fresh into each form, so a page without scripts that sends a form twice sends one key."""
    return Markup(f'<input type="hidden" name="{FIELD}" value="{uuid.uuid4()}">')


def no_tap_key() -> str:
    return ""


def tap_key_fields(request: HttpRequest) -> dict[str, object]:
    """A context processor: `hx_post_tap_key()`, the key of a form htmx posts, drawn in a
    whole page (a browser without scripts posts the form itself) and not in an answer to
    htmx: its forms are on a page that runs htmx, whose outbox sends each tap's key in the
    `Idempotency-Key` header (so a form's key field never reached the server from there)."""
    return {"hx_post_tap_key": no_tap_key if getattr(request, "htmx", False) else tap_key}


def seconds_now() -> int:
    """The time now in whole seconds since 1970 (Django's `{% now "U" %}`, without its
    formatter: a game page's outbox is stamped with it, 1.6% of the page's cost)."""
    return int(current_time().timestamp())


def languages_info() -> list[dict[str, Any]]:
    """Each of the site's languages as Django's `{% get_language_info_list %}` gives it."""
    return [translation.get_language_info(code) for code, _ in settings.LANGUAGES]


GLOBALS = {
    "url": url,
    "static": static,
    "seconds_now": seconds_now,
    "get_language": translation.get_language,
    "language_info": translation.get_language_info,
    "languages_info": languages_info,
    "posts_to": posts_to,
    "gets_from": gets_from,
    "links_to": links_to,
    "tap_key": tap_key,
    "per_version": per_version,
    "unlocalised": jinja_values.unlocalised,
    "minutes_east_of_utc": phone_time.minutes_east_of_utc,
}


def environment(**options: Any) -> Environment:
    options |= {
        "undefined": ChainableUndefined,
        "finalize": jinja_values.shown,
        "keep_trailing_newline": True,
        "extensions": [
            "scorecard.web.jinja_i18n.TranslateExtension",
            "scorecard.web.jinja_tags.PartialExtension",
            "scorecard.web.jinja_tags.SpacelessExtension",
            "scorecard.web.drawn_once.DrawnOnceExtension",
        ],
    }
    env = Environment(**options)
    env.context_class = jinja_tags.PartialContext
    env.globals.update(GLOBALS)
    env.filters.update(FILTERS)
    return env
