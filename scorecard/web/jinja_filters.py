"""Filters of our Jinja2 templates: Django's that our pages use (`floatformat`, `date`,
`capfirst`…) and our own words and numbers in the page's language."""

from __future__ import annotations

from numbers import Real
from typing import Any

from django.template.defaultfilters import capfirst, floatformat
from django.utils import formats
from django.utils.translation import gettext as _

from scorecard.presenters import rule_names
from scorecard.presenters.advice import points_given_up
from scorecard.presenters.box_names import box_name, box_on_card, family_name
from scorecard.presenters.percentages import percent_said
from scorecard.web.jinja_values import local_time


def date(value: Any, format_string: str = "DATE_FORMAT") -> str:
    """`{{ when|date }}` (or `|date("DATETIME_FORMAT")`, `|time`): in the time zone active,
    written as the page's language writes a date (a format's name: DATE_FORMAT,
    DATETIME_FORMAT, MONTH_DAY_FORMAT, TIME_FORMAT), as Django's `date` filter does."""
    return formats.date_format(local_time(value), format_string) if value else ""


def time(value: Any, format_string: str = "TIME_FORMAT") -> str:
    """`{{ when|time }}`: the hour and minute as the page's language writes them."""
    return formats.time_format(local_time(value), format_string) if value else ""


def stringformat(value: Any, spec: str) -> str:
    """`{{ n|stringformat("+d") }}`: Django's filter, Python's %-formatting."""
    return ("%" + spec) % value


def unlocalize(value: Any) -> str:
    """A number as Python writes it, for an attribute a script reads."""
    return str(value)


def percent(chance: Real, decimals: int = 0) -> str:
    """`{{ 0.046|percent(2) }}`: "4.60%" in English, "4,60 %" in Swedish or German (where a
    language puts a space before the sign, its catalog says so)."""
    return percent_said(float(chance), decimals)


def grouped(number: int) -> str:
    """`{{ 1575|grouped }}`: a large whole number with its digits grouped as the page's
    language groups them ("1,575"; "1 575" in Swedish), as a reader of the rules page
    reads it (a new user stumbled on "1575" and "In 10000 games")."""
    return formats.number_format(number, force_grouping=True)


def join_names(seats: list[Any]) -> str:
    """`{{ winners|join_names }}`: the players' names as a sentence lists them ("Ann, Bob
    and Cy"), in the page's language."""
    return names_said([seat.player.name for seat in seats])


def names_said(names: list[str]) -> str:
    """Names as a sentence lists them ("Ann, Bob and Cy"), in the page's language."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


FILTERS = {
    "grouped": grouped,
    "date": date,
    "time": time,
    "floatformat": floatformat,
    "capfirst": capfirst,
    "stringformat": stringformat,
    "unlocalize": unlocalize,
    "percent": percent,
    "loss": points_given_up,  # `{{ rating.loss|loss }}`
    "box_name": box_name,
    "box_on_card": box_on_card,  # `{{ box|box_on_card(times) }}`
    "family_name": family_name,
    "join_names": join_names,
    "joker_label": rule_names.joker_label,
    "joker_summary": rule_names.joker_summary,
    "switch_label": rule_names.switch_label,
    "switch_note": rule_names.switch_note,
}
