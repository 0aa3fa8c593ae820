"""Each phone reads the card in its own language: the footer's switch (Django's language
cookie) first, else the browser's Accept-Language, else English.

Phones of one household may differ, so every answer says that it depends on both (`Vary:
Accept-Language, Cookie`): no cache may hand one phone a page or a fragment made for another.
It also depends on whether htmx asked (`HX-Request`): a fragment and its page share an
address (the games list's filter writes its choice into the address bar), and Back to that
address showed the bare list the browser kept from htmx's request (a tester). A live poll
answered 304 early (`live.AnswerUnchangedPolls`) has no body in any language, and says the
same.
"""

from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils.cache import patch_vary_headers

# What an answer depends on of the phone that asked: its language, and whether htmx asked.
VARIES_BY_PHONE = ("Accept-Language", "Cookie", "HX-Request")


def vary_by_phone[R: HttpResponseBase](response: R) -> R:
    patch_vary_headers(response, VARIES_BY_PHONE)
    return response


class PhoneLanguage(LocaleMiddleware):
    """Django's LocaleMiddleware (no language in the address), varying by the cookie too."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        return vary_by_phone(super().process_response(request, response))
