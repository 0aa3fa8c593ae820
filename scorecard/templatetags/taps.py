"""What a post needs to be accepted once: the hidden key that makes a form's post a single
tap (see `web.idempotency`), drawn fresh into each form, so a page without scripts that
sends the same form twice sends one key; and Django's CSRF cookie, which our scripts read
the token of htmx's posts from."""

import uuid

from django import template
from django.middleware.csrf import get_token
from django.utils.html import format_html

from scorecard.web.idempotency import FIELD

register = template.Library()


@register.simple_tag
def tap_key() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4())


@register.simple_tag(takes_context=True)
def sets_csrf_cookie(context: template.Context) -> str:
    """Prints nothing: asking for the token makes Django set (or renew) its cookie on this
    answer, as `{{ csrf_token }}` in the page did when the page carried it."""
    get_token(context["request"])
    return ""
