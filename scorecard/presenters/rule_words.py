"""The rules' refusals and reasons said in the page's language.

The engine may not import Django, so it words its messages in English. A message it means a
player to read is a `Said`: English text that also keeps its template and the values that
fill it (boxes, numbers, other messages), so it can be said again here through the catalogs,
with each box named as its family's pads name it. Every template is listed in
`ENGINE_MESSAGES` for makemessages; a test checks the list against the engine's source, so a
new message cannot be left out.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scorecard.engine import families
from scorecard.presenters.box_names import box_name, family_name
from scorecard.presenters.rule_names import SWITCH_LABELS

ENGINE_MESSAGES = [
    gettext_noop("%(box)s is open, so this Yahtzee must go there."),
    gettext_noop("An extra Yahtzee must go in %(boxes)s while it is open."),
    gettext_noop("An extra Yahtzee must go in %(boxes)s while one of them is open."),
    gettext_noop("The boxes are filled in order: %(box)s is next."),
    gettext_noop("%(box)s is already filled."),
    gettext_noop("%(box)s cannot score %(points)s; it scores %(values)s."),
    gettext_noop("%(box)s cannot hold %(points)s points."),
    gettext_noop("Enter the dice or the points for %(box)s."),
    gettext_noop("An extra Yahtzee earns 100 only with 50 in the Yahtzee box."),
    gettext_noop("This card is full: every box is filled."),
    gettext_noop("No extra Yahtzee scores %(points)s in %(box)s: %(reason)s"),
    gettext_noop("No five alike may score %(points)s in %(box)s under this rule."),
    gettext_noop("Five alike never score %(points)s in %(box)s, so it was no extra Yahtzee."),
    gettext_noop(
        "only five alike make %(points)s there, which earns the %(bonus)s extra-Yahtzee "
        "bonus, but the card says %(written)s."
    ),
    gettext_noop("Enter the dice as five digits from 1 to 6, such as %(example)s."),
    gettext_noop("Enter the dice as six digits from 1 to 6, such as %(example)s."),
    gettext_noop("A roll is five dice; got %(count)s."),
    gettext_noop("A roll is six dice; got %(count)s."),
    gettext_noop("A die shows 1 to 6; got %(value)s."),
    gettext_noop("This turn may use 1 to %(allowed)s rolls; got %(used)s."),
    gettext_noop("%(box)s: %(error)s"),
    gettext_noop("%(first)s or %(rest)s"),
    gettext_noop("%(low)s to %(high)s"),
    gettext_noop("%(values)s, ... %(last)s"),
    # Said to a person importing a file, which may name anything and hold any points.
    gettext_noop("There is no house rule called %(key)s."),
    gettext_noop("%(game)s has no upper bonus of the table’s own."),
    gettext_noop(
        "The upper boxes hold at most %(most)s: a bonus at %(threshold)s could never be won."
    ),
    gettext_noop("A bonus at %(threshold)s would go to every card: its threshold is at least 1."),
    gettext_noop("A bonus is worth 0 to %(most)s points."),
    gettext_noop("‘%(field)s’"),
    gettext_noop(
        "The dice %(dice)s make %(made)s in %(box)s, not %(points)s: enter the dice or the points."
    ),
    gettext_noop("There is no joker rule called %(key)s."),
    gettext_noop("There is no game called %(key)s."),
    gettext_noop("There is no box called %(key)s on a %(game)s card."),
    gettext_noop("%(game)s has no house rule “%(rule)s”."),
    gettext_noop("those dice are worth %(worth)s, but the card says %(written)s."),
    gettext_noop("%(points)s and the %(bonus)s extra-Yahtzee bonus"),
    gettext_noop("%(worth)s, with no extra-Yahtzee bonus"),
]


def said(message: Any) -> str:
    """An engine's message (a `Said`, a `RuleViolation` carrying one, or plain English) in
    the active language; English the catalogs do not know stays as it is."""
    if isinstance(message, families.RuleViolation):
        message = message.args[0] if message.args else str(message)
    if not isinstance(message, families.Said):
        return _(str(message)) if message else ""
    return _(message.template) % {name: _value(value) for name, value in message.values.items()}


def _value(value: Any) -> Any:
    if isinstance(value, families.Said):
        return said(value)
    if isinstance(value, list):  # a listing: "0, 7 to 9, 11"
        return ", ".join(str(_value(item)) for item in value)
    if isinstance(value, tuple) and value and all(map(families.is_box, value)):
        names = [box_name(box) for box in value]
        if len(names) == 1:
            return names[0]
        return _("%(boxes)s or %(last)s") % {"boxes": ", ".join(names[:-1]), "last": names[-1]}
    if families.is_box(value):
        return box_name(value)
    if isinstance(value, families.Family):
        return family_name(value)
    if isinstance(value, families.Switch):
        return SWITCH_LABELS[value.key]
    return value
