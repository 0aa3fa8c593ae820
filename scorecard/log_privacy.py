"""Link tokens stay out of logs and error reports.

A share or join link's token is the whole permission, so an access log line or an error
report that printed it would hand the game to whoever reads the log. Every path that can
hold one is printed with the token replaced: by Django's log handlers (`RedactLinkTokens`),
by its error reports (`RedactingExceptionReporter`) and by gunicorn's access log
(`gunicorn.conf.py`).
"""

import logging
import re

from django.views.debug import ExceptionReporter

LINK_PATH = re.compile(r"(/(?:score|watch|join)/)[A-Za-z0-9_-]+")
HIDDEN = r"\1[token]"


def redact(text: str) -> str:
    return LINK_PATH.sub(HIDDEN, text)


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
            text = text.replace(token, "[token]")
        return text

    def get_traceback_html(self) -> str:
        return self._clean(super().get_traceback_html())

    def get_traceback_text(self) -> str:
        return self._clean(super().get_traceback_text())
