"""`{% drawn_once value, ... %}…{% enddrawn_once %}`: markup drawn once for the values named
and kept in this process, for markup that is the same wherever the same values meet it.

A score sheet's row is drawn from the row alone (its label, hint and cells), and an entry
changes one row: the other rows of the next version are the ones already drawn (so with the
standings' rows, their headings and legend). Keeping them saves most of the grid's cost for
the first phone that asks for each version, where the per-version cache (`per_version`) has
nothing yet: Jinja2 draws a 4-player game page's first version in about 4 ms of CPU without
it, about 15% more of a request than with it (README, Performance).

This is a memo of a pure function, not shared state: each worker keeps its own, none needs
another's, and a worker that has not drawn a row draws it. Everything the markup reads must
be among the values named (lists count by their items; a presenter's row made of tuples is
one value, hashed and compared in C), and the language and time zone the response is drawn
in. Each tag
in a compiled template keeps its own drawings, so a reloaded template starts empty, and
only the most recently used (`KEPT`).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup

from scorecard.presenters.per_language import CATALOG_SETTINGS

# Rows of the games a worker is serving: 19-23 rows of up to 8 players a game, a few kept
# versions each; a row's markup is 0.2-2 KB, so at most a few MB a worker.
KEPT = 4096


class Drawings(OrderedDict[Hashable, Markup]):
    """One tag's drawings, the most recently used last."""


_EXTENSIONS: weakref.WeakSet[DrawnOnceExtension] = weakref.WeakSet()


def forget() -> None:
    """Drop every kept drawing (tests start without another test's)."""
    for extension in _EXTENSIONS:
        for drawings in extension.drawings:
            drawings.clear()


# Settings that change an address a drawing holds (`url()`, `static()`).
ADDRESS_SETTINGS = {"ROOT_URLCONF", "FORCE_SCRIPT_NAME", "STATIC_URL", "STORAGES"}


@receiver(setting_changed)
def _catalogs_changed(*, setting: str, **kwargs: object) -> None:
    """Drawings hold translated words and addresses: new catalogs (a test's LOCALE_PATHS) or
    new addresses draw afresh."""
    if setting in CATALOG_SETTINGS or setting in ADDRESS_SETTINGS:
        forget()


def hashable(value: object) -> Hashable:
    """A list as a tuple of its items; anything else (a tuple of hashable items, a frozen
    row of a presenter) as it is."""
    if isinstance(value, list):
        return tuple(map(hashable, value))
    return value  # type: ignore[return-value]


# The language of the page being drawn and its time zone (a past game's card holds its
# time: a phone's own zone, `web/phone_time`, drew it anew), read once when its drawing
# starts (`drawing_in`): Django's get_language() is a context-local lookup, and a page asks
# at every tag (about 20 times in a record's answer, more in a whole page).
_DRAWING_IN: ContextVar[tuple[str, str] | None] = ContextVar("drawing_in", default=None)


@contextmanager
def drawing_in(language: str, zone: str) -> Iterator[None]:
    """Every drawing kept while a page in `language` and time `zone` is drawn is kept for
    them."""
    token = _DRAWING_IN.set((language, zone))
    try:
        yield
    finally:
        _DRAWING_IN.reset(token)


def drawn(drawings: Drawings, values: list[object], draw: Callable[[], str]) -> Markup:
    """The markup kept for `values` in the page's language and time zone, else `draw()`
    kept for them."""
    key = (
        _DRAWING_IN.get() or (get_language(), get_current_timezone_name()),
        *map(hashable, values),
    )
    drawing = drawings.get(key)
    if drawing is None:
        drawing = Markup(draw())
        drawings[key] = drawing
        if len(drawings) > KEPT:
            drawings.popitem(last=False)
    else:
        drawings.move_to_end(key)
    return drawing


class DrawnOnceExtension(Extension):
    tags = {"drawn_once"}

    def __init__(self, environment) -> None:
        super().__init__(environment)
        self.drawings: list[Drawings] = []  # each tag's, in the order they were compiled
        _EXTENSIONS.add(self)

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        values = [parser.parse_expression()]
        while parser.stream.skip_if("comma"):
            values.append(parser.parse_expression())
        body = parser.parse_statements(("name:enddrawn_once",), drop_needle=True)
        self.drawings.append(Drawings())
        tag = nodes.Const(len(self.drawings) - 1)
        call = self.call_method("_drawn", [tag, nodes.List(values)], lineno=lineno)
        return nodes.CallBlock(call, [], [], body, lineno=lineno)

    def _drawn(self, tag: int, values: list[object], caller: Callable[[], str]) -> Markup:
        return drawn(self.drawings[tag], values, caller)
