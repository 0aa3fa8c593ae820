"""Our answer for an address that opens nothing. A shared link that stopped working says so,
in the words a live page shows when its poll hears the same (`web.failures`), and what to do
(a household's join link too); any other address is simply not found."""

from django.http import HttpResponse
from django.shortcuts import render

from scorecard.web import failures
from scorecard.web.htmx import HtmxHttpRequest


def not_found(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "404.html", {"link_gone": failures.gone_words(request)}, status=404)
