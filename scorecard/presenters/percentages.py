"""A percentage as the page's language writes it: "12.3%" in English, "12,3 %" in Swedish,
German or French (where a language puts a space before the sign, its catalog says so)."""

from django.utils.translation import pgettext


def percent_said(number: object) -> str:
    """`number` (already written in the page's language, or a whole number) with its sign."""
    return pgettext("percent", "%(number)s%%") % {"number": number}
