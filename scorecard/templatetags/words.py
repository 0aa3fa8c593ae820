"""Words the engine keeps in English, said in the page's language."""

from typing import Any

from django import template
from django.utils.translation import gettext as _

from scorecard.engine import families
from scorecard.presenters.box_names import box_name as _box_name
from scorecard.presenters.box_names import family_name as _family_name

register = template.Library()


@register.filter
def box_name(box: families.CardBox) -> str:
    """`{{ box|box_name }}`: the box's name as its family's pads print it."""
    return _box_name(box)


@register.filter
def family_name(family: families.Family[Any]) -> str:
    """`{{ family|family_name }}`: the game's name as its players know it."""
    return _family_name(family)


@register.filter
def join_names(seats: list[Any]) -> str:
    """`{{ winners|join_names }}`: the players' names as a sentence lists them ("Ann, Bob
    and Cy"), in the page's language."""
    names = [seat.player.name for seat in seats]
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}
