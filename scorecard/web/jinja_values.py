"""How a value printed in a Jinja2 template is written: as Django's templates wrote it,
localised (a float, a Decimal, a date or a time in the page's language and time zone),
unless the template said `{% localize off %}` around it (a chart's coordinates)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from contextvars import ContextVar
from decimal import Decimal

from django.utils import timezone
from django.utils.formats import localize

LOCALISED = (float, Decimal, datetime.date, datetime.time)

_unlocalised: ContextVar[bool] = ContextVar("unlocalised", default=False)


def local_time[T](value: T) -> T:
    """A date and time in the time zone active (the phone's, `web/phone_time`, else the
    server's), as Django's templates print it."""
    return timezone.template_localtime(value)  # type: ignore[attr-defined]


def shown(value: object) -> object:
    """The environment's `finalize`: what `{{ value }}` prints."""
    if isinstance(value, LOCALISED) and not _unlocalised.get():
        return localize(local_time(value))
    return value


def unlocalised(caller: Callable[[], str]) -> str:
    """`{% call unlocalised() %}…{% endcall %}`: numbers in the block as Python writes them."""
    token = _unlocalised.set(True)
    try:
        return caller()
    finally:
        _unlocalised.reset(token)
