"""A chance in percent as the page's language writes it: "12.3%" in English, "12,3 %" in
Swedish, German or French (where a language puts a space before the sign, its catalog says
so, a space that never breaks)."""

from django.template.defaultfilters import floatformat
from django.utils.translation import pgettext


def percent_said(chance: float, digits: int = 0) -> str:
    """`chance` (0.046) in percent with `digits` decimals: "4.6%" with one."""
    # floatformat rounds half up (number_format alone would cut 2.045 to 2.04) and localises.
    return pgettext("percent", "%(number)s%%") % {"number": floatformat(chance * 100, digits)}
