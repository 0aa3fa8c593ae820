"""`{% drawn_once value ... %}…{% enddrawn_once %}`: markup drawn once for the values named
and kept in this process, for markup that is the same wherever the same values meet it.

A score sheet's row is drawn from its label, hint and cells alone, and an entry changes one
row: the other rows of the next version are the ones already drawn (so with the standings'
rows, their headings and legend). Keeping them saves most
of the grid's cost (about 19 µs a cell drawn by the template) for the first phone that asks
for each version, where the per-version cache (`per_version`) has nothing yet.

This is a memo of a pure function, not shared state: each worker keeps its own, none needs
another's, and a worker that has not drawn a row draws it. Everything the markup reads must
be among the values named (lists count by their items). The memo belongs to the compiled
template, so a reloaded template starts empty, and it keeps the most recently used drawings
only (`KEPT`).
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


@receiver(setting_changed)
def _catalogs_changed(*, setting: str, **kwargs: object) -> None:
    """Drawings hold translated words: new catalogs (a test's LOCALE_PATHS) draw afresh."""
    if setting in CATALOG_SETTINGS:
        forget()


def hashable(value: object) -> Hashable:
    if isinstance(value, list | tuple):
        return tuple(hashable(item) for item in value)
    return value  # type: ignore[return-value]


class DrawnOnceNode(template.Node):
    def __init__(self, nodelist, values) -> None:
        self.nodelist, self.values = nodelist, values
        self.drawings: OrderedDict[Hashable, SafeString] = OrderedDict()
        _NODES.add(self)

    def render(self, context) -> str:
        key = (get_language(), *(hashable(value.resolve(context)) for value in self.values))
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
