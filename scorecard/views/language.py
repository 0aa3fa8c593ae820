"""The language switch: its form, and the choice kept by Django's own view."""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language

from scorecard.web.htmx import HtmxHttpRequest


@require_http_methods(["GET", "POST"])
def language_switch(request: HtmxHttpRequest) -> HttpResponse:
    """A post chooses the language (Django's set_language: its cookie, then back). A GET shows
    the switch's form: for htmx, what the footer's switch holds once opened; else a page
    holding it, which sends the phone back to the page it came from."""
    if request.method == "POST":
        return set_language(request)
    if request.htmx:
        return render(request, "_language_switch.html#language-form")
    return render(request, "language.html", {"back": _page_it_came_from(request)})


def _page_it_came_from(request: HtmxHttpRequest) -> str:
    """The Referer, where it is one of our own pages other than this one; else nothing
    (set_language then sends the phone home)."""
    back = request.headers.get("Referer", "")
    ours = url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure())
    if not ours or request.build_absolute_uri(request.path) == back.split("?")[0]:
        return ""
    return back
