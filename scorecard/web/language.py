"""Each phone reads the card in its own language: the footer's switch (Django's language
cookie) first, else the browser's Accept-Language, else English.

Phones of one household may differ, so every answer says that it depends on both (`Vary:
Accept-Language, Cookie`): no cache may hand one phone a page or a fragment made for another.
A live poll answered 304 early (`live.AnswerUnchangedPolls`) has no body in any language, and
says the same.
"""

from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils.cache import patch_vary_headers

# What a page's language depends on.
LANGUAGE_VARIES_BY = ("Accept-Language", "Cookie")


def vary_by_language[R: HttpResponseBase](response: R) -> R:
    patch_vary_headers(response, LANGUAGE_VARIES_BY)
    return response


class PhoneLanguage(LocaleMiddleware):
    """Django's LocaleMiddleware (no language in the address), varying by the cookie too."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        return vary_by_language(super().process_response(request, response))
