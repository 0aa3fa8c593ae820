"""The hidden key that makes a form's post a single tap (see `web.idempotency`): drawn fresh
into each form, so a page without scripts that sends the same form twice sends one key."""

import uuid

from django import template
from django.utils.html import format_html

from scorecard.web.idempotency import FIELD

register = template.Library()


@register.simple_tag
def tap_key() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4())
