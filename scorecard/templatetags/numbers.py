"""Numbers as the page's language writes them, beyond what Django's localisation does alone."""

from numbers import Real

from django import template
from django.template.defaultfilters import floatformat
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def percent(chance: Real, decimals: int = 0) -> str:
    """`{{ 0.046|percent:2 }}`: "4.60%" in English, "4,60 %" in Swedish or German (where a
    language puts a space before the sign, its catalog says so)."""
    # floatformat rounds (number_format alone would cut 2.045 to 2.04) and localises.
    number = floatformat(float(chance) * 100, decimals)
    return pgettext("percent", "%(number)s%%") % {"number": number}
