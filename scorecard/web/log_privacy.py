"""Link tokens stay out of logs and error reports.

A share or join link's token is the whole permission, and a browser's key is its household,
so an access log line or an error report that printed one would hand it to whoever reads
the log. Every path that can hold one is printed with the token replaced, on whatever
address it was sent: by Django's log handlers (`RedactLinkTokens`), by its error reports
(`RedactingExceptionReporter`) and by gunicorn's access log (`gunicorn.conf.py`).
"""

import logging
import re

from django.utils.safestring import SafeString, mark_safe
from django.views.debug import ExceptionReporter

HIDDEN = "[token]"

# The addresses of links: whatever stands there is a token, even one cut short.
LINK_PATH = re.compile(r"(/(?:score|watch|join)/)[A-Za-z0-9_-]+")

# Anywhere else, a path segment (or a query value) is token-shaped when it holds a run of
# 23 or more of the characters `secrets.token_urlsafe` uses. Tokens and browser keys are
# `token_urlsafe(24)`: 32 of them. Public ids of games, players and households are
# `token_urlsafe(16)`: 22, and they are no secret (a game is found only by its id *and* a
# browser of its household), so they stay readable in the log. A whole segment goes, so
# a token with anything stuck to it (`.csv`, a zero-width space copied with it) goes too.
# What 22 characters of a token could leave in a log keeps 60 unknown bits: no one guesses
# those. Segments start after `/`, `?`, `&` or `=`, so the words and names of a traceback
# (after a space, a dot or a bracket) are left alone.
SEGMENT = re.compile(r"(?<=[/?&=])[^/?&=#\s\"'<>]+")
TOKEN_RUN = re.compile(r"[A-Za-z0-9_-]{23,}")


def _hide_token_shaped(segment: re.Match) -> str:
    return HIDDEN if TOKEN_RUN.search(segment.group()) else segment.group()


def redact(text: str) -> str:
    return SEGMENT.sub(_hide_token_shaped, LINK_PATH.sub(rf"\1{HIDDEN}", text))


class RedactLinkTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


class RedactingExceptionReporter(ExceptionReporter):
    """Django's report (the e-mail to the admins, the debug page), with every token taken
    out: of the address, the request's headers and the views' local variables."""

    def _tokens(self) -> list[str]:
        match = getattr(self.request, "resolver_match", None)
        kwargs = match.kwargs if match else {}
        return [str(kwargs[name]) for name in ("key", "token") if kwargs.get(name)]

    def _clean(self, text: str) -> str:
        text = redact(text)
        for token in self._tokens():
            text = text.replace(token, HIDDEN)
        return text

    # Replacing a token in escaped text with a plain word keeps it as safe as it was.
    def get_traceback_html(self) -> SafeString:
        return mark_safe(self._clean(super().get_traceback_html()))

    def get_traceback_text(self) -> SafeString:
        return mark_safe(self._clean(super().get_traceback_text()))
