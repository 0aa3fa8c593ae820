"""Box names as each language's score pads print them, per rule family.

The engine keeps its labels as plain English data (it may not import Django); they are
translated here, with a message context per family, so a Swedish Yatzy card reads "Kåk" and
"Tretal" while a German Yahtzee card reads Kniffel's "Full House" and "Dreierpasch". The
table lists every box of every family for `makemessages`; a test checks it against the engine,
so a new box cannot be left out.
"""

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from scorecard.engine import families
from scorecard.presenters.per_language import per_language

# The message context of a family's box names (a translator sees which card a name is on).
CONTEXTS = {"yahtzee": "yahtzee box", "yatzy": "yatzy box", "maxi": "maxi box"}

BOX_NAMES: dict[tuple[str, str], Promise] = {
    ("yahtzee", "ones"): pgettext_lazy("yahtzee box", "Ones"),
    ("yahtzee", "twos"): pgettext_lazy("yahtzee box", "Twos"),
    ("yahtzee", "threes"): pgettext_lazy("yahtzee box", "Threes"),
    ("yahtzee", "fours"): pgettext_lazy("yahtzee box", "Fours"),
    ("yahtzee", "fives"): pgettext_lazy("yahtzee box", "Fives"),
    ("yahtzee", "sixes"): pgettext_lazy("yahtzee box", "Sixes"),
    ("yahtzee", "three_of_a_kind"): pgettext_lazy("yahtzee box", "3 of a kind"),
    ("yahtzee", "four_of_a_kind"): pgettext_lazy("yahtzee box", "4 of a kind"),
    ("yahtzee", "full_house"): pgettext_lazy("yahtzee box", "Full house"),
    ("yahtzee", "small_straight"): pgettext_lazy("yahtzee box", "Small straight"),
    ("yahtzee", "large_straight"): pgettext_lazy("yahtzee box", "Large straight"),
    ("yahtzee", "yahtzee"): pgettext_lazy("yahtzee box", "Yahtzee"),
    ("yahtzee", "chance"): pgettext_lazy("yahtzee box", "Chance"),
    ("yatzy", "ones"): pgettext_lazy("yatzy box", "Ones"),
    ("yatzy", "twos"): pgettext_lazy("yatzy box", "Twos"),
    ("yatzy", "threes"): pgettext_lazy("yatzy box", "Threes"),
    ("yatzy", "fours"): pgettext_lazy("yatzy box", "Fours"),
    ("yatzy", "fives"): pgettext_lazy("yatzy box", "Fives"),
    ("yatzy", "sixes"): pgettext_lazy("yatzy box", "Sixes"),
    ("yatzy", "one_pair"): pgettext_lazy("yatzy box", "One pair"),
    ("yatzy", "two_pairs"): pgettext_lazy("yatzy box", "Two pairs"),
    ("yatzy", "three_of_a_kind"): pgettext_lazy("yatzy box", "Three of a kind"),
    ("yatzy", "four_of_a_kind"): pgettext_lazy("yatzy box", "Four of a kind"),
    ("yatzy", "small_straight"): pgettext_lazy("yatzy box", "Small straight"),
    ("yatzy", "large_straight"): pgettext_lazy("yatzy box", "Large straight"),
    ("yatzy", "full_house"): pgettext_lazy("yatzy box", "Full house"),
    ("yatzy", "chance"): pgettext_lazy("yatzy box", "Chance"),
    ("yatzy", "yatzy"): pgettext_lazy("yatzy box", "Yatzy"),
    ("maxi", "ones"): pgettext_lazy("maxi box", "Ones"),
    ("maxi", "twos"): pgettext_lazy("maxi box", "Twos"),
    ("maxi", "threes"): pgettext_lazy("maxi box", "Threes"),
    ("maxi", "fours"): pgettext_lazy("maxi box", "Fours"),
    ("maxi", "fives"): pgettext_lazy("maxi box", "Fives"),
    ("maxi", "sixes"): pgettext_lazy("maxi box", "Sixes"),
    ("maxi", "one_pair"): pgettext_lazy("maxi box", "One pair"),
    ("maxi", "two_pairs"): pgettext_lazy("maxi box", "Two pairs"),
    ("maxi", "three_pairs"): pgettext_lazy("maxi box", "Three pairs"),
    ("maxi", "three_of_a_kind"): pgettext_lazy("maxi box", "Three of a kind"),
    ("maxi", "four_of_a_kind"): pgettext_lazy("maxi box", "Four of a kind"),
    ("maxi", "five_of_a_kind"): pgettext_lazy("maxi box", "Five of a kind"),
    ("maxi", "small_straight"): pgettext_lazy("maxi box", "Small straight"),
    ("maxi", "large_straight"): pgettext_lazy("maxi box", "Large straight"),
    ("maxi", "full_straight"): pgettext_lazy("maxi box", "Full straight"),
    ("maxi", "full_house"): pgettext_lazy("maxi box", "Full house"),
    ("maxi", "villa"): pgettext_lazy("maxi box", "Villa"),
    ("maxi", "tower"): pgettext_lazy("maxi box", "Tower"),
    ("maxi", "chance"): pgettext_lazy("maxi box", "Chance"),
    ("maxi", "maxi_yatzy"): pgettext_lazy("maxi box", "Maxi Yatzy"),
}

# Which family a box object belongs to: each family's boxes are objects of their own.
_FAMILY_OF: dict[Any, str] = {
    box: family.key for family in families.FAMILIES.values() for box in family.boxes
}


@per_language
def box_name(box: families.CardBox) -> str:
    """The box's name in the active language, as its family's pads print it."""
    return str(BOX_NAMES[_FAMILY_OF[box], box.key])


def box_on_card(box: families.CardBox, times: int | None) -> str:
    """The box by name, with Triple Yahtzee's card when `times` says which ("Yahtzee on card
    ×3": two Yahtzees at 50 on two cards were one "Yahtzee", a tester)."""
    if not times:
        return box_name(box)
    return _("%(box)s on card ×%(times)s") % {"box": box_name(box), "times": times}


# A family's name as its players know it: a German Yahtzee pad says Kniffel.
FAMILY_NAMES: dict[str, Promise] = {
    "yahtzee": pgettext_lazy("game", "Yahtzee"),
    "yatzy": pgettext_lazy("game", "Yatzy"),
    "maxi": pgettext_lazy("game", "Maxi Yatzy"),
}


@per_language
def family_name(family: families.Family[Any]) -> str:
    return str(FAMILY_NAMES[family.key])
