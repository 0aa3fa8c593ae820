"""The CSRF field our templates print: masked once per answer, and left out of the forms htmx
posts when the answer goes to htmx.

Django's Jinja2 backend gives templates a `csrf_input` that masks the token afresh each time
it is printed: 32 draws from the system's random source, about 47 µs here (more under load,
where each draw is a system call), so a game page masked it once for its cookie and once for
each form. The mask need only differ from one answer to the next (it keeps the secret out of
a compressed answer's bytes), and Django's own template engine prints one per answer too.

An htmx request carries the token in its X-CSRFToken header, read from the cookie as it is
sent (htmx-settings.js, and the outbox's replays), and a form that came in an htmx answer is
on a page that runs htmx. So a form htmx posts (`hx-post`, written by `posts_to`) prints
`hx_post_csrf_input`: the field in a whole page, which a browser without scripts posts
itself, and nothing in an answer to htmx. A form the browser posts itself (no `hx-post`: the
rematch, the advice and language switches) prints `csrf_input` wherever it is drawn.
"""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.html import format_html
from markupsafe import Markup


class AnswerCsrf:
    """The hidden CSRF field of one answer, masked when it is first printed."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request

    @cached_property
    def token(self) -> str:
        return get_token(self.request)

    def __html__(self) -> Markup:
        return Markup(
            format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', self.token)
        )

    __str__ = __html__

    def sets_cookie(self) -> str:
        """Prints nothing: asking for the token makes Django set (or renew) the CSRF cookie
        on this answer, which htmx-settings.js reads htmx's token from."""
        self.token  # noqa: B018  (the property's side effect is the point)
        return ""


def csrf_fields(request: HttpRequest) -> dict[str, object]:
    """A context processor of the Jinja2 backend, after Django's own `csrf_input`."""
    field = AnswerCsrf(request)
    htmx = bool(getattr(request, "htmx", False))
    return {"csrf_input": field, "hx_post_csrf_input": "" if htmx else field}
