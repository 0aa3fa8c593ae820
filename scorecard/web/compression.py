"""Pages and fragments compressed as the browser asks: brotli where it says `br` (every
browser a phone has), gzip otherwise. dj-compression-middleware does the work; this says
which encoding is preferred and how hard to try.

Its own order puts zstd first, which Chromium also accepts; brotli comes first here because
its built-in dictionary of web words makes a small HTML answer smaller (a 4-player game
page: about 3.3 KB against gzip's 4.1 KB). Quality 5 costs what gzip does (under 1 ms for a
page) and is within 1% of quality 8; quality 11 is static files' (whitenoise), 50 times
slower.

A phone's first page is the exception: it has no CSRF cookie yet (every page sets one), so
it has never been here, and it downloads htmx and our scripts with this page. It is
compressed at quality 11, 12% smaller (a 4-player game page: 1,708 bytes against 1,936;
quality 10 gives 1,752) for about 11 ms more, once a phone (`make bench` times it), and its
blank lines are left out (about 18 bytes fewer); every later page, fragment and poll stays
at 5, as drawn. Quality 11 rather than 10 since session 16: its 44
bytes paid for most of the script that keeps a phone's half-entered dice when another
phone's change redraws the turn (live.js, 96 bytes), within issue 21's first-load goal.
Only a page up to 16 KB: quality 11 costs about 1.4 ms a KB, and a client that never keeps
cookies (a crawler) must not make every page cost many times more.

BREACH finds nothing to guess: Django masks the CSRF token afresh in every response,
and gzip answers still carry the package's random padding.
"""

from collections.abc import Callable
from typing import Any

from dj_compression_middleware.middleware import CompressionMiddleware
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

PREFERRED = ("br", "gzip", "zstd", "deflate")


class _Compress(CompressionMiddleware):
    # The package leaves an answer under 500 bytes plain; the web manifest (about 470 bytes,
    # on every first load) compresses to half. An answer whose compression saves under 100
    # bytes is still sent plain (MIN_IMPROVEMENT).
    MIN_LEN = 200
    COMPRESSORS: tuple[tuple[str, Any, Any], ...]  # (name, compress, compress a stream)

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        super().__init__(get_response)
        by_name = {compressor[0]: compressor for compressor in self.COMPRESSORS}
        self.COMPRESSORS = tuple(by_name[name] for name in PREFERRED)

    def extract_encoding_name(self, specifier: str) -> str | None:
        """An encoding we compress with, or None. `identity` (what Python's http.client and
        many tools send), `*` and names we do not know are declined quietly: the package
        logs a warning for each, one log line per request from such a client."""
        if specifier.split(";", 1)[0].strip() not in PREFERRED:
            return None
        return super().extract_encoding_name(specifier)


class _FirstPage(_Compress):
    BROTLI_QUALITY = 11


class CompressAsAsked(_Compress):
    BROTLI_QUALITY = 5

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        super().__init__(get_response)
        self.first_page = _FirstPage(get_response)

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        if _is_a_first_page(request, response):
            response.content = _without_blank_lines(response.content)  # type: ignore[attr-defined]
            if response.has_header("Content-Length"):  # CommonMiddleware's, for the page as drawn
                response.headers["Content-Length"] = str(len(response.content))  # type: ignore[attr-defined]
            return self.first_page.process_response(request, response)  # type: ignore[arg-type]
        return super().process_response(request, response)  # type: ignore[arg-type]


def _without_blank_lines(page: bytes) -> bytes:
    """The page without the blank lines left where a region or a field printed nothing (a
    game page has about twenty): some 18 bytes after brotli. A browser shows the page alike
    (no page of ours has a `<pre>` or `<textarea>`, whose lines would show). It costs about
    20 µs, so only a first page, already worth 11 ms of brotli, pays it."""
    if b"<pre" in page or b"<textarea" in page:
        return page
    lines = b"\n".join(filter(None, page.split(b"\n")))
    return lines + b"\n" if page.endswith(b"\n") else lines


def _is_a_first_page(request: HttpRequest, response: HttpResponseBase) -> bool:
    """A whole page (not a fragment, up to 16 KB) for a browser with no cookie of ours yet."""
    return (
        settings.CSRF_COOKIE_NAME not in request.COOKIES
        and "HX-Request" not in request.headers
        and response.get("Content-Type", "").startswith("text/html")
        and not response.streaming
        and len(response.content) <= FIRST_PAGE_MOST  # type: ignore[attr-defined]
    )


FIRST_PAGE_MOST = 16_384
