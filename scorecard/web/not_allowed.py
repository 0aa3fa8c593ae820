"""An address a button posts to, opened as a page (from the history, a bookmark, an address
passed on): Django's `require_POST` answers 405 with an empty body, which a browser shows as
its own bare error with no way back. Here it is a page of ours that says nothing was changed
and links to the page the button is on (the address one step up, when that is a page)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import Resolver404, resolve


class ExplainNotAllowed:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and request.method in {"GET", "HEAD"}
            and "HX-Request" not in request.headers  # htmx's failures are said in words
            and isinstance(response, HttpResponse)
            and not response.content
        ):
            page = render(request, "405.html", {"back": _page_above(request.path)}, status=405)
            page["Allow"] = response["Allow"]
            return page
        return response


def _page_above(path: str) -> str:
    """The address one step up when it is one of ours (each such address is a page), else
    the start."""
    above = path.rstrip("/").rsplit("/", 1)[0] + "/"
    try:
        resolve(above)
    except Resolver404:
        return "/"
    return above
