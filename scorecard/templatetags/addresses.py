"""A form's or a link's address written once for both ways it is sent: the plain request a
page without scripts makes, and htmx's request that swaps the answer in place."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def posts_to(url) -> str:
    """`action` and `hx-post` of a post form."""
    return format_html('action="{}" hx-post="{}"', url, url)


@register.simple_tag
def gets_from(url) -> str:
    """`action` and `hx-get` of a get form."""
    return format_html('action="{}" hx-get="{}"', url, url)


@register.simple_tag
def links_to(*parts) -> str:
    """`href` and `hx-get` of a link; `parts` are joined, so a query needs no second copy."""
    url = "".join(map(str, parts))
    return format_html('href="{}" hx-get="{}"', url, url)
