"""Refuse requests carrying NUL characters at the door.

PostgreSQL text cannot hold NUL, so one in a URL or a form field would otherwise end as a
database error deep in a view. Nothing legitimate sends one.
"""

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    for values in (request.GET, request.POST if request.method == "POST" else {}):
        if any("\x00" in value for key in values for value in [key, *values.getlist(key)]):
            return True
    return False


class RejectNulMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            return HttpResponseBadRequest(
                "This request contains a NUL character, which no form here sends.",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
