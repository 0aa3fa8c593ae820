"""`{% drawn_once value ... %}…{% enddrawn_once %}`: markup drawn once for the values named
and kept in this process, for markup that is the same wherever the same values meet it.

A score sheet's row is drawn from the row alone (its label, hint and cells), and an entry
changes one row: the other rows of the next version are the ones already drawn (so with the
standings' rows, their headings and legend). Keeping them saves most of the grid's cost
(about 19 µs a cell drawn by the template) for the first phone that asks for each version,
where the per-version cache (`per_version`) has nothing yet.

This is a memo of a pure function, not shared state: each worker keeps its own, none needs
another's, and a worker that has not drawn a row draws it. Everything the markup reads must
be among the values named (lists count by their items; a presenter's row made of tuples is
one value, hashed and compared in C), and the language the response is drawn in, asked once
a render (so no `{% language %}` block may switch it around a drawing). The memo belongs to
the compiled template, so a reloaded template starts empty, and it keeps the most recently
used drawings only (`KEPT`).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Hashable

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scorecard.presenters.per_language import CATALOG_SETTINGS

register = template.Library()

# Rows of the games a worker is serving: 19-23 rows of up to 8 players a game, a few kept
# versions each; a row's markup is 0.2-2 KB, so at most a few MB a worker.
KEPT = 4096


_NODES: weakref.WeakSet[DrawnOnceNode] = weakref.WeakSet()


def forget() -> None:
    """Drop every kept drawing (tests start without another test's)."""
    for node in _NODES:
        node.drawings.clear()


# Settings that change an address a drawing holds ({% url %}, {% static %}).
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


# Where a render keeps the language it is drawn in: asked of Django once a response (through
# a context-local lookup, about 1 µs), not once a row. The first dict of a render context
# lasts the whole render (Django's include tag keeps its templates there too).
_LANGUAGE = object()


def drawing_language(context) -> str | None:
    kept = context.render_context.dicts[0]
    if _LANGUAGE not in kept:
        kept[_LANGUAGE] = get_language()
    return kept[_LANGUAGE]


class DrawnOnceNode(template.Node):
    def __init__(self, nodelist, values) -> None:
        self.nodelist, self.values = nodelist, values
        self.drawings: OrderedDict[Hashable, SafeString] = OrderedDict()
        _NODES.add(self)

    def render(self, context) -> str:
        language = drawing_language(context)
        key = (language, *[hashable(value.resolve(context)) for value in self.values])
        drawing = self.drawings.get(key)
        if drawing is None:
            drawing = mark_safe(self.nodelist.render(context))
            self.drawings[key] = drawing
            if len(self.drawings) > KEPT:
                self.drawings.popitem(last=False)
        else:
            self.drawings.move_to_end(key)
        return drawing


@register.tag
def drawn_once(parser, token) -> DrawnOnceNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("drawn_once takes the values its markup reads")
    nodelist = parser.parse(("enddrawn_once",))
    parser.delete_first_token()
    return DrawnOnceNode(nodelist, [parser.compile_filter(bit) for bit in bits[1:]])
