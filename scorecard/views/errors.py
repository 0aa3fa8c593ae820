"""Our answer for an address that opens nothing. A shared link that stopped working says so,
and what to do (a household's join link too); any other address is simply not found
(`web.failures.not_found_page`, which also answers a gone link with debug on)."""

from django.http import HttpResponse

from scorecard.web import failures
from scorecard.web.htmx import HtmxHttpRequest


def not_found(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    return failures.not_found_page(request)
